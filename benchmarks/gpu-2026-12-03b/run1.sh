# Device call 1 (issues 19, 20; 2026-12-03b): why the CUDA-graph engine and GPU JPEG decode failed together
# (graph_decode.py), then the GPU reader at HEAD against 46da926 (before the paper outline and the CPU-stage speedups),
# alternating trees in one machine start, and where a one-tag frame's time goes in each.
# After the ten part calls, with .gpubench/x carried: bash benchmarks/gpu-2026-12-03b/run1.sh
source benchmarks/gpu-2026-12-03b/env.sh
O=/tmp/o1; mkdir -p $O
date -u; nproc; nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total --format=csv,noheader
python3 -c "import torch, onnxruntime, cv2, numpy; from nvidia import nvimgcodec; import starlette, uvicorn, httptools, zxingcpp; print('torch', torch.__version__, 'ort', onnxruntime.__version__, onnxruntime.get_available_providers(), 'cv2', cv2.__version__, 'numpy', numpy.__version__, 'nvimgcodec', nvimgcodec.__version__, 'starlette', starlette.__version__, 'uvicorn', uvicorn.__version__, 'httptools', httptools.__version__)" 2>&1 | tail -2
for t in head old; do python3 -c "import sys; sys.path.insert(0, '/tmp/trees/$t'); import inference, os; print('$t', inference.__file__, 'outline' , os.path.exists('/tmp/trees/$t/inference/reading/outline.py'))"; done
echo "== graph and decode"; date -u
timeout 170 python3 benchmarks/gpu-2026-12-03b/graph_decode.py --data /tmp/gb/tagset --out $O/graph_decode.json 2>&1 | cut -c1-700
R="--data /tmp/gb/tagset --frames 40 --four 10 --passes 2 --warm-frames 8 --reader torch-cuda --skip-shape-costs --four-tag-threads 1 4"
k=0
for t in head old head old; do
  k=$((k+1)); echo "== gpu_read $t ($k)"; date -u
  (cd /tmp/trees/$t && timeout 115 python3 benchmarks/gpu_read.py $R --out $O/read_${k}_$t.json 2>&1 | grep -v "^\s*$" | grep -v "plugin EP" | grep -v "^overlap {" | grep -v "memory pressure" | cut -c1-500)
done
for t in head old; do
  echo "== where $t"; date -u
  (cd /tmp/trees/$t && timeout 80 python3 benchmarks/gpu-2026-12-03b/where.py --data /tmp/gb/tagset --out $O/where_$t.json --settings 0 0 2>&1 | grep -v "^\s*$" | grep -v "plugin EP" | grep -v "memory pressure" | head -34 | cut -c1-200)
done
date -u
tar czf ${OUT:-/tmp}/run1.tgz -C $O .
