# Device setup for the fifteenth session's H200 runs (issue 20; 2026-12-03): `serve --frontends N`.
# After the 12 part calls of benchmarks/gpu-2026-12-03c/env.sh (onnxruntime-gpu 1.31.1, zxing-cpp, google-re2, the OCR
# models, tagset-v1), source this from the repository root with .whl carried: starlette 1.10.0, uvicorn 0.54.0,
# httptools 0.9.0, nvidia-nvjpeg 13.3.2.43 and nvImageCodec 0.9.0.20 cut to its cp312 module and its
# JPEG/BMP/PNM/CPU extensions (nvimgcodec-slim.zip, 5 MB), the pieces the twelfth session carried as .gpubench/x.
source benchmarks/gpu-2026-12-03c/env.sh
if [ ! -d /tmp/site_nv/nvidia/nvimgcodec ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site_srv \
    .whl/starlette-*.whl .whl/uvicorn-*.whl .whl/httptools-*.whl
  python3 -m zipfile -e .whl/nvimgcodec-slim.zip /tmp/site_nv
  python3 -m zipfile -e .whl/nvidia_nvjpeg-*.whl /tmp/site_nv
fi
export PYTHONPATH=/tmp/site:/tmp/site_nv:/tmp/site_srv:$PWD
export LD_LIBRARY_PATH=/tmp/site_nv/nvidia/cu13/lib:${LD_LIBRARY_PATH:-}
