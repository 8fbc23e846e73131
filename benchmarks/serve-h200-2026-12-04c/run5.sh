# Device call (issue 20; 2026-12-04c), a third machine start: the old service (old), the overlap alone (mid, a7781a3)
# and the overlap with the pipeline's letterbox and output decode at the engine's stream priority (new), batch 8,
# 2 workers each, rounds interleaved, nvidia-smi dmon throughout.
#   bash benchmarks/serve-h200-2026-12-04c/run5.sh LAST_ROUND   (FIRST= in the environment)
source benchmarks/serve-h200-2026-12-04c/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O; L=$O/run5.log.txt; R=/tmp/ab_run5; mkdir -p $R
show() { grep -v "plugin EP" | grep -v "GPU memory pressure" | tee -a $L | cut -c1-600; }
date -u | show; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | show
nvidia-smi dmon -s uc -d 1 > $O/run5_dmon.txt 2>&1 &
DMON=$!
S="--data /nonexistent --jpegs /tmp/jpegs1080 --saturate-s 5 --measure-s 5 --step-s 3 --queue 32 --client aiohttp --offer 3000 --clients 4 --client-cpus 12-15 --server-cpus 0-11 --overload-s 0 --batches 8"
for i in $(seq ${FIRST:-1} ${1:-2}); do
  if [ $((i % 2)) = 1 ]; then order="old:2 new:2 mid:2"; else order="mid:2 new:2 old:2"; fi
  for run in $order; do
    v=${run%:*}; w=${run#*:}; d=$R/${v}w${w}_$i; mkdir -p $d
    in_tree $v timeout 170 python3 benchmarks/gpu_serve.py $S --logs $d --out $d/steps.json \
      --serve-args "--jpeg-decode gpu --cuda-graph --frontends 8 --workers $w" 2>&1 | sed "s/^/$v w$w $i: /" | show
  done
done
kill $DMON
in_tree new python3 benchmarks/serve-h200-2026-12-04c/summarize.py $R 2>&1 | grep -v '^{' | show
for d in $R/*; do for f in $d/serve_b*.log; do [ -f $f ] && { grep -v '"code":503' $f | gzip > $f.gz; rm $f; }; done; done
tar czf $O/run5.tgz -C $R .
date -u | show
