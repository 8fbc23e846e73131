# Device call (issue 20; 2026-12-05c): the A/B of 2026-12-04d (serial worker threads against --worker-processes) on
# the H200, inside one 600 s call, with every run's JSON saved the moment it ends. The same search as run2.sh of
# 2026-12-04d (gpu_serve.py unchanged: 5 s at 3 000/s offered, 3 s steps down x0.85 until P99 <= 25 ms with < 1 %
# refused, 5 s at 80 % of the rate found; 8 front ends on cores 0-11, 4 aiohttp load processes on 12-15, queue 32,
# GPU JPEG decode, CUDA graphs, 2 workers), but one gpu_serve.py run per (arm, max batch), so that:
#   - each run's JSON is appended to $OUT/ab_runs.jsonl (one line: arm, batch, round, gpu_serve.py's row) as soon
#     as it ends, and its printed line goes to $OUT/ab.log.txt at once: a call cut short keeps what finished;
#   - a run starts only if the estimated time it needs still fits under BUDGET seconds from the call's start, and
#     each run's timeout ends at BUDGET: the call ends on its own before the device's 600 s limit.
# Order (most needed first): serial b8, procs b8, procs b1, serial b1, procs b8 (2), serial b8 (2), then the overload
# test (2x the best procs b8 rate found, 10 s) if time is left.
#   bash benchmarks/serve-h200-2026-12-05c/ab.sh      (carry .serve04d/run after the 12 part calls; BUDGET= seconds,
#   default 540; PLAN="arm:batch:round ..." to run another list; DRY=1 on the CPU VM, as 2026-12-04d's dry_env.sh)
D4=benchmarks/serve-h200-2026-12-04d
START=$SECONDS; BUDGET=${BUDGET:-540}
if [ -n "${DRY:-}" ]; then source $D4/dry_env.sh; SAT_S=2; STEP_S=1; MEASURE_S=1; NEED_B8=40; NEED_B1=40; OVER_S=2
else source $D4/env.sh
  GPU_ARGS="--jpeg-decode gpu --cuda-graph --frontends 8"; SERVER_CPUS=0-11; CLIENT_CPUS=12-15
  CLIENTS=4; OFFER=3000; SAT_S=5; STEP_S=3; MEASURE_S=5; NEED_B8=75; NEED_B1=75; OVER_S=10; fi
O=${OUT:-/tmp/out}; mkdir -p $O; L=$O/ab.log.txt; J=$O/ab_runs.jsonl; RR=/tmp/ab05c; rm -rf $RR; mkdir -p $RR
show() { grep -v "plugin EP" | grep -v "GPU memory pressure" | tee -a $L | cut -c1-600; }
left() { echo $(( BUDGET - (SECONDS - START) )); }
date -u | show; uname -r | show; nproc | show
if [ -z "${DRY:-}" ]; then
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv,noheader | show
  nvidia-smi dmon -s uc -d 1 > $O/ab_dmon.txt 2>&1 & DMON=$!
fi
in_tree new python3 -c "import sys, onnxruntime, aiohttp, starlette, uvicorn; print('python', sys.version.split()[0], 'ort', onnxruntime.__version__, onnxruntime.get_available_providers()[:2], 'aiohttp', aiohttp.__version__, 'starlette', starlette.__version__, 'uvicorn', uvicorn.__version__)" 2>&1 | show
echo "setup done after $(( SECONDS - START )) s" | show
S="--data /nonexistent --jpegs /tmp/jpegs1080 --saturate-s $SAT_S --measure-s $MEASURE_S --step-s $STEP_S --queue 32 --client aiohttp --offer $OFFER --clients $CLIENTS --client-cpus $CLIENT_CPUS --server-cpus $SERVER_CPUS"
declare -A EXTRA=([serial]="--workers 2" [procs]="--workers 2 --worker-processes" [one]="--workers 1")
save() {  # save ARM BATCH ROUND FILE: gpu_serve.py's JSON as one line of $J
  python3 - "$@" "$J" <<'PY'
import json, sys
arm, batch, rnd, path, out = sys.argv[1:]
try:
    result = json.load(open(path))
except (OSError, ValueError) as e:
    result = {"error": f"no JSON from gpu_serve.py ({e.__class__.__name__}): the run was cut or failed; see ab.log.txt"}
with open(out, "a") as f:
    f.write(json.dumps({"arm": arm, "batch": int(batch), "round": int(rnd), **result}) + "\n")
PY
}
for item in ${PLAN:-serial:8:1 procs:8:1 procs:1:1 serial:1:1 procs:8:2 serial:8:2}; do
  IFS=: read arm batch rnd <<< "$item"
  need=$NEED_B8; [ "$batch" = 1 ] && need=$NEED_B1
  if [ $(left) -lt $need ]; then echo "skip $item: $(left) s left, ~$need s needed" | show; continue; fi
  d=$RR/${arm}_b${batch}_$rnd; mkdir -p $d
  in_tree new timeout $(left) python3 benchmarks/gpu_serve.py $S --batches $batch --overload-s 0 --logs $d \
    --out $d/steps.json --serve-args "$GPU_ARGS ${EXTRA[$arm]}" 2>&1 | sed "s/^/$arm b$batch $rnd: /" | show
  save $arm $batch $rnd $d/steps.json
  echo "$item done at $(( SECONDS - START )) s" | show
done
# the overload test: 2x the highest procs b8 rate found within the bound (the serial one if procs found none)
RATE=${OVER_RATE:-}  # "ARM RATE" given: that test alone (with PLAN=" ")
[ -n "$RATE" ] || RATE=$(python3 - "$J" <<'PY'
import json, sys
try:
    runs = [json.loads(line) for line in open(sys.argv[1])]
except OSError:
    runs = []
for arm in ("procs", "serial"):
    found = [row["sustainable"] for r in runs if r["arm"] == arm and r["batch"] == 8 for row in r.get("rows", [])
             if row.get("bound_met")]
    if found:
        print(arm, max(found)); break
PY
)
if [ -n "$RATE" ] && [ $(left) -ge $(( OVER_S + 40 )) ]; then
  set -- $RATE; d=$RR/over_$1; mkdir -p $d
  in_tree new timeout $(left) python3 benchmarks/gpu_serve.py $S --batches --overload-at $2 --overload-batch 8 \
    --overload-s $OVER_S --logs $d --out $d/steps.json --serve-args "$GPU_ARGS ${EXTRA[$1]}" 2>&1 | sed "s/^/over $1: /" | show
  save over_$1 8 1 $d/steps.json
else echo "overload test skipped: rate '$RATE', $(left) s left" | show; fi
[ -n "${DMON:-}" ] && kill $DMON
# the service logs (503 lines dropped), if they fit what a call brings back
for d in $RR/*; do for f in $d/serve_*.log; do [ -f $f ] && { grep -v '"code":503' $f | gzip > $f.gz; rm $f; }; done; done
tar czf /tmp/ab_logs.tgz -C $RR . && [ $(stat -c %s /tmp/ab_logs.tgz) -lt 15000000 ] && cp /tmp/ab_logs.tgz $O/ab_logs.tgz
echo "ended after $(( SECONDS - START )) s" | show; date -u | show
