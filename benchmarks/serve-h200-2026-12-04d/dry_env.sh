# DRY=1: the device scripts on this CPU VM (issue 20; 2026-12-04d), so no device call measures nothing: the same tree
# archive (.serve04d/run/tree.tgz) and JPEGs, this checkout's .venv, py-spy unpacked from the carried wheel, the blob
# detector and ONNX Runtime's CPU backend instead of the GPU arguments, 2 cores instead of 16, short runs.
R=$PWD/.serve04d/run
PY=$PWD/.venv/bin/python
mkdir -p /tmp/dry04d/site_spy /tmp/dry04d/trees
[ -x /tmp/dry04d/site_spy/bin/py-spy ] || python3 -m pip install -q --no-deps --target /tmp/dry04d/site_spy $R/whl/py_spy-*.whl
SPY=/tmp/dry04d/site_spy/bin/py-spy
TREE=/tmp/dry04d/trees/new
rm -rf /tmp/dry04d/trees/new && mkdir -p /tmp/dry04d/trees/new && tar xzf $R/tree.tgz -C /tmp/dry04d/trees/new
ln -sfn $PWD/resources /tmp/dry04d/trees/new/resources
[ -f /tmp/dry04d/blob.onnx ] || $PY -c "from pathlib import Path; from tests.test_service_support import batch_blob_detector; batch_blob_detector(Path('/tmp/dry04d/blob.onnx'))"
rm -rf /tmp/jpegs1080 && cp -r $R/jpegs /tmp/jpegs1080
export PYTHONUNBUFFERED=1
mkdir -p /tmp/dry04d/bin && rm -f /tmp/dry04d/bin/python3 && printf '#!/bin/sh\nexec %s "$@"\n' $PY > /tmp/dry04d/bin/python3
chmod +x /tmp/dry04d/bin/python3
in_tree() {  # python3 there is this checkout's .venv python, wherever it comes in the command
  local v=$1; shift
  (cd /tmp/dry04d/trees/$v && PATH=/tmp/dry04d/bin:$PATH PYTHONPATH=/tmp/dry04d/trees/$v "$@")
}
# what the scripts substitute for the device's arguments
GPU_ARGS="--backend onnxruntime-cpu --model /tmp/dry04d/blob.onnx --threads 1 --decode-threads 1 --frontends 2"
SERVER_CPUS=0-1; CLIENT_CPUS=0-1; SPY_CPU=1; CLIENTS=1; OFFER=400; SAT_S=3; STEP_S=1
echo "dry tree $(cat /tmp/dry04d/trees/new/COMMIT)"
