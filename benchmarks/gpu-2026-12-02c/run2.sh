# Device call 2 (issues 19, 20; 2026-12-02c): OCR call cost by variant, the GPU reader with convolutions as
# matrix products, serve with GPU JPEG decode and httptools (uvicorn's C parser) in one process × 3 workers and
# 2 processes × 2 workers. Run from the repository root on the device: bash benchmarks/gpu-2026-12-02c/run2.sh
source benchmarks/gpu-2026-12-02c/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site_ht .whl/extra/httptools-*.whl
date -u
echo "== tests on the GPU"; timeout 60 python3 -m pytest -q -p no:cacheprovider tests/test_ocr_torch.py -k "graph or number or outputs" 2>&1 | grep -E "passed|failed|Error|assert" | tail -6
echo "== OCR call cost"; timeout 80 python3 benchmarks/ocr_call_cost.py --out $O/ocr_call_cost.json --repeats 30 2>&1 | tail -4 | cut -c1-900
echo "== gpu_read"; date -u
timeout 150 python3 benchmarks/gpu_read.py --data .gpubench/tagset --out $O/read2.json --frames 40 --four 10 --passes 2 \
  --warm-frames 8 --reader torch-cuda --skip-shape-costs --four-tag-threads 1 4 2>&1 | grep -v "^\s*$" | grep -v "plugin EP" | tail -12
export PYTHONPATH=/tmp/site_ht:$PYTHONPATH
python3 -c "import httptools, uvicorn; print('httptools', httptools.__version__, 'uvicorn', uvicorn.__version__)"
S="--data .gpubench/tagset --offer 2500 --saturate-s 3 --measure-s 5 --step-s 3 --clients 8 --client-cpus 8-15 --server-cpus 0-7"
echo "== gpu_serve, GPU JPEG decode, httptools, 1 process x 3 workers"; date -u
timeout 190 python3 benchmarks/gpu_serve.py $S --out $O/serve_1x3.json --batches 1 8 --overload-s 6 \
  --serve-args '--jpeg-decode gpu --workers 3' 2>&1 | tail -4
tail -n 20 /tmp/serve_b8.log > $O/serve_1x3_b8_log_tail.jsonl 2>/dev/null
echo "== gpu_serve, GPU JPEG decode, httptools, 2 processes x 2 workers"; date -u
timeout 80 python3 benchmarks/gpu_serve.py $S --out $O/serve_2x2.json --batches 8 --overload-s 0 --processes 2 \
  --serve-args '--jpeg-decode gpu --workers 2' 2>&1 | tail -3
date -u
