# Device call (issue 20; 2026-12-04d): the A/B in one machine start. The nineteenth session's search for each arm:
# batch 8, 8 front ends on cores 0-11, 4 aiohttp load processes on 12-15, queue 32, 3 ms wait, GPU JPEG decode, CUDA
# graphs; 5 s offered 3 000/s, 3 s steps down by x0.85 until P99 <= 25 ms with < 1 % refused, 5 s at 80 %. Arms in
# turn, the order rotated each round: serial (the default: 2 worker threads), procs (--worker-processes), sw05
# (--gil-switch-ms 0.5); ARMS= picks others (run1.sh lists them).
#   bash benchmarks/serve-h200-2026-12-04d/run2.sh LAST_ROUND   (FIRST=, TAG=, ARMS= in the environment; DRY=1 here)
D=benchmarks/serve-h200-2026-12-04d
if [ -n "${DRY:-}" ]; then source $D/dry_env.sh; else source $D/env.sh
  GPU_ARGS="--jpeg-decode gpu --cuda-graph --frontends 8"; SERVER_CPUS=0-11; CLIENT_CPUS=12-15
  CLIENTS=4; OFFER=3000; SAT_S=5; STEP_S=3; fi
O=${OUT:-/tmp/out}; mkdir -p $O; L=$O/${TAG:-run2}.log.txt; RR=/tmp/ab_${TAG:-run2}; rm -rf $RR; mkdir -p $RR
show() { grep -v "plugin EP" | grep -v "GPU memory pressure" | tee -a $L | cut -c1-600; }
date -u | show
[ -z "${DRY:-}" ] && { nvidia-smi dmon -s uc -d 1 > $O/${TAG:-run2}_dmon.txt 2>&1 & DMON=$!; }
S="--data /nonexistent --jpegs /tmp/jpegs1080 --saturate-s $SAT_S --measure-s 5 --step-s $STEP_S --queue 32 --client aiohttp --offer $OFFER --clients $CLIENTS --client-cpus $CLIENT_CPUS --server-cpus $SERVER_CPUS --overload-s 0 --batches 8"
declare -A EXTRA=([serial]="--workers 2" [ahead]="--workers 2 --decode-ahead" [procs]="--workers 2 --worker-processes"
                  [sw05]="--workers 2 --gil-switch-ms 0.5" [one]="--workers 1")
arms=(${ARMS:-serial procs sw05})
for i in $(seq ${FIRST:-1} ${1:-3}); do
  k=$(( (i - 1) % ${#arms[@]} )); order=("${arms[@]:k}" "${arms[@]:0:k}")  # rotated each round
  for arm in "${order[@]}"; do
    d=$RR/${arm}_$i; mkdir -p $d
    in_tree new timeout 170 python3 benchmarks/gpu_serve.py $S --logs $d --out $d/steps.json \
      --serve-args "$GPU_ARGS ${EXTRA[$arm]}" 2>&1 | sed "s/^/$arm $i: /" | show
  done
done
[ -n "${DMON:-}" ] && kill $DMON
in_tree new python3 benchmarks/serve-h200-2026-12-04c/summarize.py $RR 2>&1 | grep -v '^{' | show
for d in $RR/*; do for f in $d/serve_b*.log; do [ -f $f ] && { grep -v '"code":503' $f | gzip > $f.gz; rm $f; }; done; done
tar czf $O/${TAG:-run2}.tgz -C $RR .
date -u | show
