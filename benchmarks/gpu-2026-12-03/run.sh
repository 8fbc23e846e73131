# Device run for issue 19 (2026-12-03): the GPU reader with its CPU stages overlapped (TagReader.overlap_threads,
# inference/reading/overlap.py) against the same reader with them one after another, in one process (settings
# 0 4 0 4, each 40 one-tag frames x 2 passes and 10 four-tag frames x 2), twice (two processes).
# From the repository root on the device, after the 10 part copies: bash benchmarks/gpu-2026-12-03/run.sh
source benchmarks/gpu-2026-12-03/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O
date -u; nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total --format=csv,noheader; nproc; uname -r
python3 -c "import torch, onnxruntime as o, cv2, numpy, zxingcpp; print('torch', torch.__version__, 'ort', o.__version__, o.get_available_providers(), 'cv2', cv2.__version__, cv2.getNumThreads(), 'numpy', numpy.__version__)"
echo "== tests on the GPU"; timeout 90 python3 -m pytest -q -p no:cacheprovider tests/test_ocr_torch.py -k "graph or number or outputs" 2>&1 | tail -3
R="--data .gpubench/tagset --frames 40 --four 10 --passes 2 --warm-frames 8 --reader torch-cuda --skip-shape-costs --four-tag-threads 1 4"
for k in 1 2; do
  echo "== gpu_read $k"; date -u
  timeout 240 python3 benchmarks/gpu_read.py $R --out $O/read$k.json --overlap-threads 0 4 0 4 2>&1 | grep -v "^\s*$" | grep -v "plugin EP" | tail -14 | cut -c1-1500
done
date -u
