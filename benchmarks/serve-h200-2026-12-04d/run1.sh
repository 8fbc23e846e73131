# Device call (issue 20; 2026-12-04d): is GIL waiting what limits `serve` with two workers? For each arm, one
# saturated run (offered 3 000/s for 18 s, batch 8, 8 front ends on cores 0-11, 4 aiohttp load processes on 12-15),
# and 5 s after "ready": gil_sample.py on the owner (and the worker processes) for 4 s at 1 kHz (per thread: running,
# waiting for the GIL, other waits, CPU, run-queue wait), then py-spy record --gil --nonblocking on the owner for 4 s
# (who holds the GIL); nvidia-smi dmon throughout.
# Then same_results.py (2026-12-04c) with worker threads and with worker processes: the same detections?
#   bash benchmarks/serve-h200-2026-12-04d/run1.sh   (ARMS="serial ahead procs" by default; NOSAME=1; DRY=1 on the CPU VM)
D=benchmarks/serve-h200-2026-12-04d
if [ -n "${DRY:-}" ]; then source $D/dry_env.sh; else source $D/env.sh
  GPU_ARGS="--jpeg-decode gpu --cuda-graph --frontends 8"; SERVER_CPUS=0-11; CLIENT_CPUS=12-15; SPY_CPU=15
  CLIENTS=4; OFFER=3000; SAT_S=18; STEP_S=3; fi
[ -n "${DRY:-}" ] && SAT_S=14  # long enough to sample inside the saturated step here too
O=${OUT:-/tmp/out}; mkdir -p $O; L=$O/${TAG:-run1}.log.txt; RR=/tmp/ab_${TAG:-run1}; rm -rf $RR; mkdir -p $RR  # a stale log would be read as this run's
show() { grep -v "plugin EP" | grep -v "GPU memory pressure" | tee -a $L | cut -c1-600; }
date -u | show; uname -r | show; nproc | show
[ -z "${DRY:-}" ] && nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | show
[ -z "${DRY:-}" ] && { nvidia-smi dmon -s uc -d 1 > $O/${TAG:-run1}_dmon.txt 2>&1 & DMON=$!; }
in_tree new python3 -c "import sys, onnxruntime, aiohttp, starlette, uvicorn; print('python', sys.version.split()[0], 'ort', onnxruntime.__version__, onnxruntime.get_available_providers()[:2], 'aiohttp', aiohttp.__version__, 'starlette', starlette.__version__, 'uvicorn', uvicorn.__version__)" 2>&1 | show
S="--data /nonexistent --jpegs /tmp/jpegs1080 --saturate-s $SAT_S --measure-s 2 --step-s 0 --queue 32 --client aiohttp --offer $OFFER --clients $CLIENTS --client-cpus $CLIENT_CPUS --server-cpus $SERVER_CPUS --overload-s 0 --batches 8"
declare -A EXTRA=([serial]="--workers 2" [ahead]="--workers 2 --decode-ahead" [procs]="--workers 2 --worker-processes"
                  [sw05]="--workers 2 --gil-switch-ms 0.5" [one]="--workers 1")
for arm in ${ARMS:-serial ahead procs}; do
  d=$RR/spy_$arm; mkdir -p $d
  ( for k in $(seq 1 400); do [ -f $d/.done ] && exit; grep -q '"event":"ready"' $d/serve_b8.log 2>/dev/null && break
      sleep 0.5; done
    sleep 5
    READY=$(grep '"event":"ready"' $d/serve_b8.log | head -1)
    [ -n "$READY" ] || exit
    PIDS=$(echo "$READY" | python3 -c "import json,sys; e=json.loads(sys.stdin.read()); print(' '.join('--pid %d' % p for p in [e['pid'], *e.get('worker_pids', [])]))")
    OWNER=$(echo "$READY" | python3 -c "import json,sys; print(json.loads(sys.stdin.read())['pid'])")
    taskset -c $SPY_CPU python3 $TREE/$D/gil_sample.py $PIDS --seconds 4 --hz 1000 --spy $SPY --out $d/gil_sample.json \
      > $d/gil_sample.txt 2>&1
    taskset -c $SPY_CPU $SPY record -p $OWNER -d 4 -r 200 --gil --threads --nonblocking --format raw -o $d/gil_owner.txt > /dev/null 2>&1
  ) & SAMPLER=$!
  in_tree new timeout 170 python3 benchmarks/gpu_serve.py $S --logs $d --out $d/steps.json \
    --serve-args "$GPU_ARGS ${EXTRA[$arm]}" 2>&1 | sed "s/^/spy $arm: /" | show
  touch $d/.done
  wait $SAMPLER  # not a bare wait: nvidia-smi dmon runs in the background until the end
  cat $d/gil_sample.txt | sed "s/^/spy $arm: /" | show
  [ -f $d/gil_owner.txt ] && in_tree new python3 $D/spy_summary.py $d/gil_owner.txt 2>&1 | sed "s/^/spy $arm gil: /" | show
done
[ -n "${DMON:-}" ] && kill $DMON
if [ -z "${NOSAME:-}" ]; then  # the same detections from worker processes as from worker threads (NOSAME=1 skips)
  if [ -n "${DRY:-}" ]; then B="--backend onnxruntime-cpu"; G="--jpeg-decode cpu"; else B=""; G="--jpeg-decode gpu --cuda-graph"; fi
  for arm in serial procs; do
    x=""; [ $arm = procs ] && x=" --worker-processes"
    in_tree new timeout 200 python3 benchmarks/serve-h200-2026-12-04c/same_results.py --jpegs /tmp/jpegs1080 \
      --out $O/answers_$arm.json $B --decode "$G$x" 2>&1 | show
  done
  in_tree new python3 benchmarks/serve-h200-2026-12-04c/same_results.py --compare $O/answers_serial.json \
    $O/answers_procs.json 2>&1 | show
fi
for d in $RR/*; do for f in $d/serve_b*.log; do [ -f $f ] && { grep -v '"code":503' $f | gzip > $f.gz; rm $f; }; done
  [ -f $d/gil_owner.txt ] && gzip -f $d/gil_owner.txt; done
tar czf $O/${TAG:-run1}.tgz -C $RR .
date -u | show
