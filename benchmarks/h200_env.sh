# Sourced on the leased H200 (issues 19/20, 2026-12-01): onnxruntime-gpu from carried parts, small wheels, OCR models.
# Prepared here first (all git-ignored, carried one path per call; the tree that travels must stay under 64 MiB):
#   pip download onnxruntime-gpu==1.31.1 --no-deps --python-version 3.12 --implementation cp --only-binary=:all: \
#       --platform manylinux_2_28_x86_64 -d /tmp/w && split -b 37000000 -d -a 1 /tmp/w/onnxruntime_gpu-*.whl .parts/part
#   sha256sum /tmp/w/onnxruntime_gpu-*.whl | cut -c1-64 > .whl/ort.sha256
#   pip download --no-deps ... zxing-cpp==3.1.1 google-re2==1.1.20251105 starlette==1.10.0 uvicorn==0.54.0 \
#       onnxconverter-common==1.16.0 -d .whl     # the last: the FP16 copy the memory-pressure guard steps down to
#   .gpubench/ocr: the PP-OCR det/rec ONNX files and a manifest.json (inference/reading/ocr/models.py shipped_models)
#   .gpubench/tagset: truth.jsonl + images/ of a training.tagsets folder (one-tag images)
# Calls: one per part (carry .parts/partN; `mkdir -p /tmp/parts && cp .parts/partN /tmp/parts/`), back to back
# (the machine goes back after 30 s idle and /tmp with it), then carry .gpubench and .whl and
#   cp benchmarks/h200_env.sh .gpubench/env.sh; source .gpubench/env.sh; python3 benchmarks/gpu_read.py ...
# sourced on the device: onnxruntime-gpu from the carried parts, the small wheels, the OCR models
set -e
mkdir -p /tmp/parts /tmp/site
for p in .parts/part*; do [ -f "$p" ] && cp "$p" /tmp/parts/; done
if [ ! -d /tmp/site/onnxruntime ]; then
  cat /tmp/parts/part0 /tmp/parts/part1 /tmp/parts/part2 /tmp/parts/part3 /tmp/parts/part4 /tmp/parts/part5 /tmp/parts/part6 > /tmp/ort.whl
  echo "wheel $(sha256sum /tmp/ort.whl | cut -c1-64) expected $(cat .whl/ort.sha256)"
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
  python3 -m zipfile -e /tmp/ort.whl /tmp/site
fi
export PYTHONPATH=/tmp/site:$PWD
export LD_LIBRARY_PATH=$(ls -d /opt/torch/.venv/lib/python3.12/site-packages/nvidia/*/lib 2>/dev/null | tr '\n' ':')${LD_LIBRARY_PATH:-}
rm -rf resources/ocr && cp -r .gpubench/ocr resources/ocr
set +e
