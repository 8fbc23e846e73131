# Here, before the device call (issue 18; 2026-12-05c): .line24/tree.tgz, the code measured, as a `git archive` of
# REV's inference/ with REV in COMMIT (so other engineers' uncommitted edits in the shared checkout do not travel).
# The recordings, the OCR pair and the wheels of .line24/ and .whl24/ are 2026-12-05's (benchmarks/line-h200-2026-12-05/
# run2.sh says what they are), unchanged.
#   bash benchmarks/line-h200-2026-12-05c/pack.sh [REV]      (default HEAD)
set -eo pipefail
REV=$(git rev-parse ${1:-HEAD})
T=/tmp/line05c_tree
rm -rf $T && mkdir -p $T
git archive $REV inference | tar x -C $T
echo $REV > $T/COMMIT
tar czf .line24/tree.tgz -C $T .
echo "tree.tgz: inference/ of $REV, $(stat -c %s .line24/tree.tgz) bytes"
# what a call carries: the tracked files and untracked ones git does not ignore, plus .line24 and .whl24 (64 MiB in all)
total=$(( $(git ls-files -z -co --exclude-standard | du -cb --files0-from=- | tail -1 | cut -f1) + $(du -sb .line24 .whl24 | awk '{s+=$1} END {print s}') ))
echo "a call would carry $total bytes of 67108864"
[ $total -lt 67108864 ] || { echo "over 64 MiB: the call would be refused"; exit 1; }
