# Device call (issue 18; 2026-12-05c): which commit made the line miss NG tag #22 of s0.6 (read at 8371f3e on the H100,
# missed at e5d99cb in both calls here)? A bisection inside one call over the 43 commits to inference/ between them
# (.line24/trees.tar.xz: each commit's `git archive REV inference`, 44 trees in 0.6 MB, ORDER lists them oldest first),
# one live s0.6 run per step (run2.sh's arguments, that recording only); a step is "good" when #22 gets a verdict.
# It stops when BUDGET seconds would be passed; each step's JSON row of #22 and the run's counts go to $OUT/bisect.jsonl.
#   bash benchmarks/line-h200-2026-12-05c/bisect.sh      (carry .whl24 .line24; BUDGET=, TAG_ID=22, REC=s0.6)
START=$SECONDS; BUDGET=${BUDGET:-230}; ID=${TAG_ID:-22}; REC=${REC:-s0.6}
O=${OUT:-/tmp/out}; mkdir -p $O; L=$O/bisect.log.txt; J=$O/bisect.jsonl
python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site24 .whl24/*.whl 2>/dev/null || exit 1
R=$PWD
rm -rf resources/ocr && mkdir -p resources/ocr && cp resources/models/ocr_rec_small_print.onnx resources/ocr/ || exit 1
python3 -c "
import lzma, pathlib, shutil
for f in pathlib.Path('.line24/ocr').iterdir():
    with (lzma.open(f) if f.suffix == '.xz' else open(f, 'rb')) as i, open('resources/ocr/' + f.name.removesuffix('.xz'), 'wb') as o:
        shutil.copyfileobj(i, o)
" || exit 1
B=/tmp/bis; rm -rf $B && mkdir -p $B && tar xJf .line24/trees.tar.xz -C $B || exit 1
read -a REVS < $B/ORDER
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a $L; date -u | tee -a $L
run_at() {  # run_at INDEX -> prints "good" or "bad"
  local rev=${REVS[$1]} T=$B/$rev
  ln -sfn $R/resources $T/resources
  (cd $T && PYTHONPATH=/tmp/site24:$T PYTHONUNBUFFERED=1 timeout 120 python3 -m inference.cli line-bench --belt-px-per-s 914.3 \
    --preload --reader-backend torch-cuda --backend onnxruntime-cpu --source camera:$R/.line24/rec/$REC/line.mp4 \
    --json $B/$rev.json 2>&1 | grep -v "plugin EP" | cut -c1-400 >> $L)
  python3 - $rev $B/$rev.json $ID $J <<'PY'
import json, sys
rev, path, tag, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
try:
    run = json.load(open(path))["runs"][0]
except (OSError, ValueError, KeyError, IndexError) as e:
    print("error"); open(out, "a").write(json.dumps({"rev": rev, "error": repr(e)}) + "\n"); sys.exit()
row = next(r for r in run["rows"] if r["id"] == tag)
keep = {k: run[k] for k in ("tags", "tags_seen", "tags_with_verdict", "correct", "duplicates", "missed", "latency_s")}
open(out, "a").write(json.dumps({"rev": rev, "tag": row, **keep, "others": [(r["id"], r["verdict"], r["verdicts"])
                                 for r in run["rows"] if r["verdict"] != r["expected"] or r["verdicts"] != 1]}) + "\n")
print("bad" if row["verdict"] == "MISSED" else "good")
PY
}
good=0; bad=$(( ${#REVS[@]} - 1 ))  # 8371f3e read #22 in 2 of 2 calls, e5d99cb missed it in 2 of 2
while [ $(( bad - good )) -gt 1 ] && [ $(( BUDGET - (SECONDS - START) )) -gt 45 ]; do
  mid=$(( (good + bad) / 2 )); v=$(run_at $mid)
  echo "step: ${REVS[$mid]:0:7} (index $mid of $good..$bad): $v at $(( SECONDS - START )) s" | tee -a $L
  case $v in good) good=$mid;; bad) bad=$mid;; *) break;; esac
done
echo "last good ${REVS[$good]:0:7} (index $good), first bad ${REVS[$bad]:0:7} (index $bad), $(( bad - good - 1 )) commits between untested" | tee -a $L
date -u | tee -a $L
