# Device setup for the fourteenth session's H200 run (issue 19; 2026-12-03c): the GPU reader with the small-print
# last read. One tar (sha256 below) of onnxruntime-gpu 1.31.1 (the wheel unpacked and xz-compressed, 204 MB
# against the wheel's 256), the zxing-cpp 3.1.1 and google-re2 1.1.20251105 wheels, the OCR models (PP-OCRv6
# small det FP32, rec FP32 cut to GB 2312, manifest.json whose "reread" entry names the small-print recognizer) and
# tagset-v1 (seed 1401, 60 images), split into 12 parts of 20 MB (.parts/p00..p11, git-ignored): the tree (44 MB)
# plus one part stays under the 64 MiB a call may carry. One call per part, back to back, each copying its part to
# /tmp/parts (the machine keeps /tmp while warm); the last call sources this from the repository root. The
# small-print recognizer itself travels in the tree (resources/models/ocr_rec_small_print.onnx) and is copied
# beside the other two, so the GPU and the CPU reader open the same three files (shipped_models).
BLOB_SHA256=9a0d03cfbc8a522683f8f3490eed7b13483994d10eae43a4989218a655c9a4b8
mkdir -p /tmp/parts /tmp/site /tmp/gb
if [ ! -f /tmp/gb/.unpacked ]; then
  cat $(ls /tmp/parts/p* | sort) > /tmp/blob.tar
  echo "blob $(sha256sum /tmp/blob.tar | cut -c1-64) expected $BLOB_SHA256"
  tar xf /tmp/blob.tar -C /tmp/gb && rm -f /tmp/blob.tar
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site /tmp/gb/whl/*.whl
  python3 -c "import tarfile; tarfile.open('/tmp/gb/ort.tar.xz', 'r:xz').extractall('/tmp/site')" && rm -f /tmp/gb/ort.tar.xz
  touch /tmp/gb/.unpacked
fi
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1
export LD_LIBRARY_PATH=$(ls -d /opt/torch/.venv/lib/python3.12/site-packages/nvidia/*/lib 2>/dev/null | tr '\n' ':')${LD_LIBRARY_PATH:-}
rm -rf resources/ocr && cp -r /tmp/gb/ocr resources/ocr && cp resources/models/ocr_rec_small_print.onnx resources/ocr/
mkdir -p .gpubench && rm -rf .gpubench/tagset && ln -s /tmp/gb/tagset .gpubench/tagset
# The tree measured: `git archive` of a commit (inference/, tests/, benchmarks/gpu_read.py, this folder) carried as
# .gpubench/head.tgz with the last part, so uncommitted edits in the shared checkout do not travel into the reader.
if [ -f .gpubench/head.tgz ]; then
  rm -rf /tmp/trees/head && mkdir -p /tmp/trees/head && tar xzf .gpubench/head.tgz -C /tmp/trees/head
  ln -sfn $PWD/resources /tmp/trees/head/resources
  export PYTHONPATH=/tmp/site:/tmp/trees/head
fi
