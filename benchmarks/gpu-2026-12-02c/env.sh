# Device setup for issues 19/20 (2026-12-02c): onnxruntime-gpu 1.31.1 from 10 parts of 28 MB (.parts2/p00..p09,
# carried one a call into /tmp/parts: the tree (31 MiB) plus one 37 MB part of h200_env.sh is over the 64 MiB a call
# may carry), the small wheels and nvImageCodec (.whl), the OCR models (.gpubench/ocr, copied to /tmp/ocr by the
# call that carried them). Source it from the repository root on the device.
mkdir -p /tmp/site
if [ ! -d /tmp/site/onnxruntime ]; then
  cat $(ls /tmp/parts/p* | sort) > /tmp/ort.whl
  echo "onnxruntime-gpu wheel $(sha256sum /tmp/ort.whl | cut -c1-64) expected $(cat .whl/ort.sha256)"
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
  python3 -m zipfile -e /tmp/ort.whl /tmp/site
  python3 -m zipfile -e .whl/nvimgcodec-slim.zip /tmp/site
fi
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
export LD_LIBRARY_PATH=$(ls -d /opt/torch/.venv/lib/python3.12/site-packages/nvidia/*/lib 2>/dev/null | tr '\n' ':')/tmp/site/nvidia/nvjpeg/lib:${LD_LIBRARY_PATH:-}
if [ -d .gpubench/ocr ]; then OCR=.gpubench/ocr; else OCR=/tmp/ocr; fi
rm -rf resources/ocr && cp -r $OCR resources/ocr
