# Device setup (issue 20; 2026-12-04d), sourced from the repository root: in the first call after the part calls
# (each: mkdir -p /tmp/parts; cp .serve04d/parts/pNN /tmp/parts/), carrying .serve04d/run; later calls on the same
# warm machine need carry nothing (what it needs is copied to /tmp/run04d). Installs onnxruntime-gpu 1.31.1 into
# /tmp/site (its CUDA provider from xz, checked against the wheel's sha256), the service's wheels into /tmp/site_srv,
# aiohttp into /tmp/site_aio, nvImageCodec and nvJPEG into /tmp/site_nv, py-spy into /tmp/site_spy, the JPEGs into
# /tmp/jpegs1080, the tree measured into /tmp/trees/new (resources/ linked in). Then `in_tree new CMD...`.
mkdir -p /tmp/site /tmp/site_srv /tmp/site_aio /tmp/site_nv /tmp/site_spy /tmp/trees
if [ -d .serve04d/run ] && [ ! -f /tmp/run04d/.copied ]; then
  rm -rf /tmp/run04d && cp -r .serve04d/run /tmp/run04d && touch /tmp/run04d/.copied
fi
R=/tmp/run04d
if [ ! -f /tmp/site/.ort ]; then
  cat $(ls /tmp/parts/p* | sort) > /tmp/ort.tar
  echo "ort.tar $(sha256sum /tmp/ort.tar | cut -c1-64) expected $(cat $R/ORT_TAR.SHA256)"
  mkdir -p /tmp/ortx && tar xf /tmp/ort.tar -C /tmp/ortx && rm -f /tmp/ort.tar
  python3 -m zipfile -e /tmp/ortx/rest.zip /tmp/site
  python3 -c "import lzma, shutil; shutil.copyfileobj(lzma.open('/tmp/ortx/cuda.so.xz'), open('/tmp/site/onnxruntime/capi/libonnxruntime_providers_cuda.so', 'wb'), 1 << 24)"
  (cd /tmp/site && sha256sum -c /tmp/ortx/SHA256) && rm -rf /tmp/ortx && touch /tmp/site/.ort
fi
if [ ! -f /tmp/site_srv/.done ]; then
  W=$R/whl
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site_srv \
    $W/starlette-*.whl $W/uvicorn-*.whl $W/httptools-*.whl
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site_aio \
    $W/aiohttp-*.whl $W/yarl-*.whl $W/multidict-*.whl $W/propcache-*.whl $W/frozenlist-*.whl \
    $W/aiosignal-*.whl $W/aiohappyeyeballs-*.whl $W/attrs-*.whl
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site_spy $W/py_spy-*.whl
  python3 -m zipfile -e $W/nvimgcodec-slim.zip /tmp/site_nv
  python3 -m zipfile -e $W/nvidia_nvjpeg-*.whl /tmp/site_nv
  rm -rf /tmp/jpegs1080 && cp -r $R/jpegs /tmp/jpegs1080
  rm -rf /tmp/trees/new && mkdir -p /tmp/trees/new && tar xzf $R/tree.tgz -C /tmp/trees/new
  ln -sfn $PWD/resources /tmp/trees/new/resources
  touch /tmp/site_srv/.done
fi
SITES=/tmp/site_aio:/tmp/site:/tmp/site_nv:/tmp/site_srv
SPY=/tmp/site_spy/bin/py-spy
TREE=/tmp/trees/new
export PYTHONUNBUFFERED=1
export LD_LIBRARY_PATH=/tmp/site_nv/nvidia/cu13/lib:$(ls -d /opt/torch/.venv/lib/python3.12/site-packages/nvidia/*/lib 2>/dev/null | tr '\n' ':')${LD_LIBRARY_PATH:-}
in_tree() {  # in_tree new CMD...: CMD in /tmp/trees/$1 with only that tree's code on the path
  local v=$1; shift
  (cd /tmp/trees/$v && PYTHONPATH=$SITES:/tmp/trees/$v "$@")
}
echo "tree $(cat /tmp/trees/new/COMMIT 2>/dev/null)"
