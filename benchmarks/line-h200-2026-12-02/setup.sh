# Sourced on the leased H200 from the repository root (issue 18, seventh pass). The first call carries the OCR
# models (.line18/ocr: the FP32 det and the GB 2312 FP32 rec this station's CPU reader runs, with a manifest) and
# the small wheels (.whl: zxing-cpp, google-re2) and keeps them in /tmp for the next call on the same machine (the
# tree, the models and all five recordings together are over the 64 MiB a call may carry).
mkdir -p /tmp/site /tmp/ocr
if [ -d .line18/ocr ]; then cp .line18/ocr/* /tmp/ocr/; fi
if [ -d .whl ] && [ ! -d /tmp/site/zxingcpp ] && ! ls /tmp/site | grep -q zxing; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
fi
if [ ! -f /tmp/ocr/manifest.json ]; then echo "no OCR models in /tmp/ocr: a fresh machine; carry .line18/ocr again"; exit 3; fi
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
rm -rf resources/ocr && cp -r /tmp/ocr resources/ocr
date -u; nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total --format=csv,noheader; nproc; uname -r
python3 -c "import torch, onnxruntime as o, cv2, numpy; print('torch', torch.__version__, 'cuda', torch.cuda.is_available(), 'ort', o.__version__, 'cv2', cv2.__version__, 'numpy', numpy.__version__)"
