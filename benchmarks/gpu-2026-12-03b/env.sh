# Device setup for the twelfth session's H200 runs (issues 19, 20; 2026-12-03b). Source it from the repository root
# on the device after the ten part calls (.parts/p00..p09 copied one a call into /tmp/parts, see
# benchmarks/gpu-2026-12-03/env.sh: onnxruntime-gpu 1.31.1, zxing-cpp, google-re2, the OCR models, tagset-v1) and with
# .gpubench/x carried: the two reader trees as `git archive` tarballs (head.tgz, old.tgz = 46da926: inference/ and
# benchmarks/gpu_read.py), nvImageCodec 0.9.0.20 cut to its cp312 module and JPEG/BMP/PNM/CPU extensions
# (nvimgcodec-slim.zip), the nvJPEG 13.3.2.43, starlette 1.10.0, uvicorn 0.54.0 and httptools 0.9.0 wheels.
source benchmarks/gpu-2026-12-03/env.sh
X=$PWD/.gpubench/x
if [ ! -d /tmp/site_nv/nvidia/nvimgcodec ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site_srv $X/whl/starlette-*.whl $X/whl/uvicorn-*.whl
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site_ht $X/whl/httptools-*.whl
  python3 -m zipfile -e $X/nvimgcodec-slim.zip /tmp/site_nv
  python3 -m zipfile -e $X/whl/nvidia_nvjpeg-*.whl /tmp/site_nv
  for t in head old; do
    rm -rf /tmp/trees/$t && mkdir -p /tmp/trees/$t/benchmarks/gpu-2026-12-03b && tar xzf $X/$t.tgz -C /tmp/trees/$t
    ln -sfn $PWD/resources /tmp/trees/$t/resources
    cp benchmarks/gpu-2026-12-03b/where.py /tmp/trees/$t/benchmarks/gpu-2026-12-03b/
  done
fi
export PYTHONPATH=/tmp/site:/tmp/site_nv:/tmp/site_srv:/tmp/site_ht:$PWD
export LD_LIBRARY_PATH=/tmp/site_nv/nvidia/cu13/lib:${LD_LIBRARY_PATH:-}
