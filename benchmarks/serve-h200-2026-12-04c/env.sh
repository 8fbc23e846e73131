# Device setup for the twentieth session's H200 A/B (issue 20; 2026-12-04c), sourced from the repository root after
# the 16 part calls (each: cp .serveab/parts/pNN /tmp/parts/) in a call that carries .serveab/run (pack.sh says what
# it holds). Installs onnxruntime-gpu 1.31.1 into /tmp/site, the service's wheels into /tmp/site_srv, aiohttp into
# /tmp/site_aio, nvImageCodec and nvJPEG into /tmp/site_nv, the JPEGs into /tmp/jpegs1080, and unpacks the two trees
# measured into /tmp/trees/old and /tmp/trees/new (each with the repository's resources/ linked in). Then
# `in_tree old|new CMD...` runs CMD from that tree with only that tree's code on the path.
ORT_WHEEL_SHA256=05d548956197b9d01f59b625de740e0d6be3593f874e241a12dc0362650ecdf7
mkdir -p /tmp/site /tmp/site_srv /tmp/site_aio /tmp/site_nv /tmp/trees
if [ ! -f /tmp/site/.ort ]; then
  cat $(ls /tmp/parts/p* | sort) > /tmp/ort.whl
  echo "ort wheel $(sha256sum /tmp/ort.whl | cut -c1-64) expected $ORT_WHEEL_SHA256"
  python3 -m zipfile -e /tmp/ort.whl /tmp/site && rm -f /tmp/ort.whl && touch /tmp/site/.ort
fi
if [ -d .serveab/run ] && [ ! -f /tmp/site_srv/.done ]; then
  R=.serveab/run/whl
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site_srv \
    $R/starlette-*.whl $R/uvicorn-*.whl $R/httptools-*.whl
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site_aio \
    $R/aiohttp-*.whl $R/yarl-*.whl $R/multidict-*.whl $R/propcache-*.whl $R/frozenlist-*.whl \
    $R/aiosignal-*.whl $R/aiohappyeyeballs-*.whl $R/attrs-*.whl
  python3 -m zipfile -e $R/nvimgcodec-slim.zip /tmp/site_nv
  python3 -m zipfile -e $R/nvidia_nvjpeg-*.whl /tmp/site_nv
  rm -rf /tmp/jpegs1080 && cp -r .serveab/run/jpegs /tmp/jpegs1080
  for v in old new mid; do
    [ -f .serveab/run/$v.tgz ] || continue
    rm -rf /tmp/trees/$v && mkdir -p /tmp/trees/$v && tar xzf .serveab/run/$v.tgz -C /tmp/trees/$v
    ln -sfn $PWD/resources /tmp/trees/$v/resources
  done
  touch /tmp/site_srv/.done
fi
SITES=/tmp/site_aio:/tmp/site:/tmp/site_nv:/tmp/site_srv
export PYTHONUNBUFFERED=1
export LD_LIBRARY_PATH=/tmp/site_nv/nvidia/cu13/lib:$(ls -d /opt/torch/.venv/lib/python3.12/site-packages/nvidia/*/lib 2>/dev/null | tr '\n' ':')${LD_LIBRARY_PATH:-}
in_tree() {  # in_tree old|new CMD...: CMD in /tmp/trees/$1 (`python -m` puts the working directory first on the path)
  local v=$1; shift
  (cd /tmp/trees/$v && PYTHONPATH=$SITES:/tmp/trees/$v "$@")
}
echo "trees old $(cat /tmp/trees/old/COMMIT 2>/dev/null) new $(cat /tmp/trees/new/COMMIT 2>/dev/null) mid $(cat /tmp/trees/mid/COMMIT 2>/dev/null)"
