# Device call 1 (issues 19, 20; 2026-12-02c): the PyTorch GPU reader with CUDA graphs, and serve with GPU JPEG decode.
# Run from the repository root on the device: bash benchmarks/gpu-2026-12-02c/run1.sh
source benchmarks/gpu-2026-12-02c/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O
date -u; nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total --format=csv,noheader
python3 -c "import torch, onnxruntime as o; print('torch', torch.__version__, 'cudnn', torch.backends.cudnn.version(), 'ort', o.__version__, o.get_available_providers())"
echo "== tests on the GPU"; timeout 90 python3 -m pytest -q -p no:cacheprovider tests/test_ocr_torch.py -k "graph or number or outputs" 2>&1 | tail -4
echo "== gpu_read"; date -u
timeout 230 python3 benchmarks/gpu_read.py --data .gpubench/tagset --out $O/read.json --frames 40 --four 10 --passes 2 \
  --warm-frames 8 --reader torch-cuda --skip-shape-costs --four-tag-threads 1 4 2>&1 | grep -v "^\s*$" | tail -25
echo "== gpu_serve, GPU JPEG decode, 4 processes"; date -u
timeout 250 python3 benchmarks/gpu_serve.py --data .gpubench/tagset --out $O/serve4.json --batches 1 8 --offer 2500 \
  --saturate-s 3 --measure-s 5 --step-s 3 --overload-s 6 --clients 8 --client-cpus 8-15 --server-cpus 0-7 \
  --processes 4 --serve-args '--jpeg-decode gpu' 2>&1 | tail -12
grep -h -m3 -i "ready\|jpeg" /tmp/serve_b8_p0.log /tmp/serve_b8.log 2>/dev/null | cut -c1-400 > $O/serve_ready.txt
tail -n 40 /tmp/serve_b8_p0.log > $O/serve_b8_log_tail.jsonl 2>/dev/null
date -u
