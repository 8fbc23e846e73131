# Device call 1 (issue 20; 2026-12-04b), after the 15 part calls, with .serveab carried: the owner's collector
# A/B in one machine start. The same search as the seventeenth session's call 3 control (batch 8, 8 front ends x 2
# workers on cores 0-11, 4 aiohttp load processes on 12-15, queue 32, 3 ms wait), HANGTAG_SERVE_GC=default (CPython's
# collector, the old behaviour) against freeze (the new default), alternating, the order swapped each round; then
# py-spy --gil on the owner for 4 s of a saturated step in each mode.
#   bash benchmarks/serve-h200-2026-12-04b/run1.sh LAST_ROUND  (FIRST=, TAG=, NOSPY=1, SPY_MODES= in the environment)
source benchmarks/serve-h200-2026-12-04b/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O; L=$O/${TAG:-run1}.log.txt; R=/tmp/ab_${TAG:-run1}; mkdir -p $R
show() { grep -v "plugin EP" | grep -v "GPU memory pressure" | tee -a $L | cut -c1-600; }
D=/tmp/trees/ab/benchmarks/serve-h200-2026-12-04b; SPY=/tmp/site_spy/bin/py-spy
date -u | show; uname -r | show; nproc | show
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | show
python3 -c "import sys, onnxruntime, aiohttp, uvloop, starlette, uvicorn; print('python', sys.version.split()[0], 'ort', onnxruntime.__version__, 'aiohttp', aiohttp.__version__, 'uvloop', uvloop.__version__, 'starlette', starlette.__version__, 'uvicorn', uvicorn.__version__)" 2>&1 | show
S="--data /tmp/gb/tagset --saturate-s 5 --measure-s 5 --step-s 3 --queue 32 --client aiohttp --offer 3000 --clients 4 --client-cpus 12-15 --server-cpus 0-11 --overload-s 0 --batches 8"
A="--jpeg-decode gpu --cuda-graph --frontends 8 --workers 2"
for i in $(seq ${FIRST:-1} ${1:-3}); do
  if [ $((i % 2)) = 1 ]; then order="default freeze"; else order="freeze default"; fi
  for mode in $order; do
    mkdir -p $R/${mode}_$i
    HANGTAG_SERVE_GC=$mode timeout 120 python3 /tmp/trees/ab/benchmarks/gpu_serve.py $S --logs $R/${mode}_$i \
      --out $R/${mode}_$i/steps.json --serve-args "$A" 2>&1 | sed "s/^/$mode $i: /" | show
  done
done
if [ -z "${NOSPY:-}" ]; then  # NOSPY=1: the A/B rounds only
for mode in ${SPY_MODES:-default freeze}; do
  mkdir -p $R/spy_$mode
  ( for k in $(seq 1 300); do grep -q '"event":"ready"' $R/spy_$mode/serve_b8.log 2>/dev/null && break; sleep 0.5; done
    OWNER=$(pgrep -f "inference.cli serve" | head -1); sleep 5
    $SPY record -p $OWNER -d 4 -r 200 --gil --threads --nonblocking --format raw -o $R/spy_$mode/gil.txt > /dev/null 2>&1 ) &
  HANGTAG_SERVE_GC=$mode timeout 100 python3 /tmp/trees/ab/benchmarks/gpu_serve.py ${S/--step-s 3/--step-s 0} --saturate-s 10 \
    --measure-s 2 --logs $R/spy_$mode --out $R/spy_$mode/steps.json --serve-args "$A" 2>&1 | sed "s/^/spy $mode: /" | show
  wait
done
fi
python3 $D/summarize.py $R 2>&1 | show
for d in $R/*; do [ -f $d/serve_b8.log ] && { grep -v '"code":503' $d/serve_b8.log | gzip > $d/serve_b8.log.gz; rm $d/serve_b8.log; }; [ -f $d/gil.txt ] && gzip -f $d/gil.txt; done  # refusals dropped: the summary reads 200s
tar czf $O/${TAG:-run1}.tgz -C $R .
date -u | show
