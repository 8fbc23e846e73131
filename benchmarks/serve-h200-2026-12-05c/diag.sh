# Device call (issue 20; 2026-12-05c): where the P99 of ab.sh comes from. ab.sh's service logs show the slow answers
# bunched in 100-200 ms episodes (2-4 in a 5 s step, at any rate from 360 to 1 170/s) in which every front end's
# requests wait longer in the queue and outside it. Here one fixed rate held 15 s per configuration (long enough
# for several episodes), with cpu_sampler.py (per-core busy share, PSI stall counters, every 50 ms) on core 15:
#   serial8: 2 worker threads, 8 front ends (ab.sh's serial arm)     serial4: the same with 4 front ends
#   procs8:  worker processes, 8 front ends (ab.sh's procs arm)       serial8nog: serial8 with --cuda-graph off
# Everything else as ab.sh (batch 8, queue 32, GPU JPEG decode, server on cores 0-11, 4 aiohttp clients on 12-15).
#   bash benchmarks/serve-h200-2026-12-05c/diag.sh      (after the 12 part calls, carry .serve04d/run; RATE=700,
#   CONFIGS= a subset, BUDGET= seconds; DRY=1 on the CPU VM)
D4=benchmarks/serve-h200-2026-12-04d; D=benchmarks/serve-h200-2026-12-05c
START=$SECONDS; BUDGET=${BUDGET:-300}; RATE=${RATE:-700}
if [ -n "${DRY:-}" ]; then source $D4/dry_env.sh; HOLD_S=3; NEED=30; RATE=${DRY_RATE:-20}; SAMPLER_CPU=1
  BASE="--backend onnxruntime-cpu --model /tmp/dry04d/blob.onnx --threads 1 --decode-threads 1"; GPU=""; GRAPH=""
else source $D4/env.sh
  SERVER_CPUS=0-11; CLIENT_CPUS=12-15; CLIENTS=4; HOLD_S=15; NEED=50; BASE=""; GPU="--jpeg-decode gpu"; GRAPH="--cuda-graph"; fi
O=${OUT:-/tmp/out}; mkdir -p $O; L=$O/diag.log.txt; J=$O/diag_runs.jsonl; RR=/tmp/diag05c; rm -rf $RR; mkdir -p $RR
show() { grep -v "plugin EP" | grep -v "GPU memory pressure" | tee -a $L | cut -c1-600; }
left() { echo $(( BUDGET - (SECONDS - START) )); }
date -u | show; nproc | show; [ -z "${DRY:-}" ] && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | show
grep -m1 "model name" /proc/cpuinfo | show; ls /proc/pressure 2>&1 | tr '\n' ' ' | show
taskset -c ${SAMPLER_CPU:-15} python3 $D/cpu_sampler.py --out $O/diag_cpu.jsonl --seconds $(left) --every-ms 50 &
SAMPLER=$!
S="--data /nonexistent --jpegs /tmp/jpegs1080 --offer $RATE --saturate-s $HOLD_S --measure-s 1 --step-s 0 --overload-s 0 --queue 32 --client aiohttp --clients ${CLIENTS:-1} --client-cpus ${CLIENT_CPUS:-0-1} --server-cpus ${SERVER_CPUS:-0-1} --batches 8"
declare -A ARGS=([serial8]="$GPU $GRAPH --frontends 8 --workers 2" [serial4]="$GPU $GRAPH --frontends 4 --workers 2"
                 [procs8]="$GPU $GRAPH --frontends 8 --workers 2 --worker-processes" [serial8nog]="$GPU --frontends 8 --workers 2")
for c in ${CONFIGS:-serial8 serial4 procs8 serial8nog}; do
  if [ $(left) -lt $NEED ]; then echo "skip $c: $(left) s left" | show; continue; fi
  d=$RR/$c; mkdir -p $d
  in_tree new timeout $(left) python3 benchmarks/gpu_serve.py $S --logs $d --out $d/steps.json \
    --serve-args "$BASE ${ARGS[$c]}" 2>&1 | sed "s/^/$c: /" | show
  python3 - $c $d/steps.json $J <<'PY'
import json, sys
name, path, out = sys.argv[1:]
try:
    result = json.load(open(path))
except (OSError, ValueError) as e:
    result = {"error": f"no JSON ({e.__class__.__name__})"}
open(out, "a").write(json.dumps({"config": name, **result}) + "\n")
PY
  for f in $d/serve_*.log; do [ -f $f ] && grep '^{' $f | grep -v '"code":503' | gzip > $O/diag_$c.log.gz; done
  echo "$c done at $(( SECONDS - START )) s" | show
done
kill $SAMPLER 2>/dev/null; gzip -f $O/diag_cpu.jsonl
echo "ended after $(( SECONDS - START )) s" | show; date -u | show
