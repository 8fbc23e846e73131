# Device call (issue 20; 2026-12-04c): the service before (old) and after (new) the decode/infer overlap, in one
# machine start, rounds interleaved and the order swapped each round. The nineteenth session's search: batch 8,
# 8 front ends x 2 workers on cores 0-11, 4 aiohttp load processes on 12-15, queue 32, 3 ms wait, GPU JPEG decode,
# CUDA graphs; 5 s offered 3 000/s, 3 s steps down by x0.85 until P99 <= 25 ms with < 1 % refused, 5 s at 80 %.
#   bash benchmarks/serve-h200-2026-12-04c/run1.sh LAST_ROUND   (FIRST=, TAG=, BATCHES= in the environment)
source benchmarks/serve-h200-2026-12-04c/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O; L=$O/${TAG:-run1}.log.txt; R=/tmp/ab_${TAG:-run1}; mkdir -p $R
show() { grep -v "plugin EP" | grep -v "GPU memory pressure" | tee -a $L | cut -c1-600; }
date -u | show; uname -r | show; nproc | show
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | show
in_tree new python3 -c "import sys, onnxruntime, aiohttp, uvloop, starlette, uvicorn, cupy; from nvidia import nvimgcodec; print('python', sys.version.split()[0], 'ort', onnxruntime.__version__, onnxruntime.get_available_providers()[:2], 'aiohttp', aiohttp.__version__, 'uvloop', uvloop.__version__, 'starlette', starlette.__version__, 'uvicorn', uvicorn.__version__, 'cupy', cupy.__version__)" 2>&1 | show
S="--data /nonexistent --jpegs /tmp/jpegs1080 --saturate-s 5 --measure-s 5 --step-s 3 --queue 32 --client aiohttp --offer 3000 --clients 4 --client-cpus 12-15 --server-cpus 0-11 --overload-s 0 --batches ${BATCHES:-8}"
A="--jpeg-decode gpu --cuda-graph --frontends 8 --workers 2"
for i in $(seq ${FIRST:-1} ${1:-3}); do
  if [ $((i % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for v in $order; do
    mkdir -p $R/${v}_$i
    in_tree $v timeout 170 python3 benchmarks/gpu_serve.py $S --logs $R/${v}_$i --out $R/${v}_$i/steps.json \
      --serve-args "$A" 2>&1 | sed "s/^/$v $i: /" | show
  done
done
in_tree new python3 benchmarks/serve-h200-2026-12-04c/summarize.py $R 2>&1 | show
for d in $R/*; do for f in $d/serve_b*.log; do [ -f $f ] && { grep -v '"code":503' $f | gzip > $f.gz; rm $f; }; done; done
tar czf $O/${TAG:-run1}.tgz -C $R .
date -u | show
