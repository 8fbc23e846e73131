# Device call 1 (issue 20; 2026-12-03): `serve --frontends N` (one GPU owner, N HTTP front ends) on the H200.
# After the 12 part calls, with .whl carried: bash benchmarks/serve-h200-2026-12-03/run1.sh
source benchmarks/serve-h200-2026-12-03/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O; L=$O/run1.log.txt
show() { grep -v "plugin EP" | tee -a $L | cut -c1-700; }
{ date -u; nproc; uname -r; git log -1 --format=%H 2>/dev/null || cat COMMIT; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader; } 2>&1 | show
python3 -c "import sys, onnxruntime as o, cv2, numpy, starlette, uvicorn, httptools, uvloop, httpx; from nvidia import nvimgcodec; print('python', sys.version.split()[0], 'ort', o.__version__, o.get_available_providers(), 'cv2', cv2.__version__, 'numpy', numpy.__version__, 'starlette', starlette.__version__, 'uvicorn', uvicorn.__version__, 'httptools', httptools.__version__, 'uvloop', uvloop.__version__, 'httpx', httpx.__version__, 'nvimgcodec', nvimgcodec.__version__)" 2>&1 | show
S="--data .gpubench/tagset --offer 2500 --saturate-s 3 --measure-s 5 --step-s 3 --clients 8 --client-cpus 8-15 --server-cpus 0-7 --queue 32"
for cfg in "4 2 1 8 16" ; do
  set -- $cfg; fe=$1; w=$2; shift 2
  echo "== serve --frontends $fe --workers $w, batches $*" | show; date -u | show
  timeout 330 python3 benchmarks/gpu_serve.py $S --out $O/fe${fe}_w${w}.json --batches $* --overload-s 0 \
    --serve-args "--jpeg-decode gpu --cuda-graph --frontends $fe --workers $w" 2>&1 | show
  for b in $*; do f=/tmp/serve_b$b.log; [ -f $f ] && { grep -v '"event":"request"' $f | head -20; echo "b$b codes: $(grep -c '"code":200' $f) x200 $(grep -c '"code":503' $f) x503 $(grep -c '"code":500' $f) x500"; tail -3 $f; } 2>&1 | cut -c1-900 | show; done
done
date -u | show
