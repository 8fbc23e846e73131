# Device call (issue 20; 2026-12-04c), after run1.sh in the same machine start: the same detections before and after
# (same_results.py, from each tree), then batch 1 in each tree with run1.sh's search (BATCHES=1), for the batching
# ratio at the same P99 bound.
source benchmarks/serve-h200-2026-12-04c/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O; L=$O/run2.log.txt
show() { grep -v "plugin EP" | grep -v "GPU memory pressure" | tee -a $L | cut -c1-600; }
for v in old new; do
  in_tree $v timeout 150 python3 benchmarks/serve-h200-2026-12-04c/same_results.py --jpegs /tmp/jpegs1080 --out $O/answers_$v.json 2>&1 | show
done
in_tree new python3 benchmarks/serve-h200-2026-12-04c/same_results.py --compare $O/answers_old.json $O/answers_new.json 2>&1 | show
[ -z "${SKIP_B1:-}" ] && OUT=$O TAG=run2b1 BATCHES=1 bash benchmarks/serve-h200-2026-12-04c/run1.sh ${B1_ROUNDS:-1}
