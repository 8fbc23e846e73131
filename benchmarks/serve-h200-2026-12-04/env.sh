# Device setup for the seventeenth session's H200 runs (issue 20; 2026-12-04): the service as on 2026-12-03
# (benchmarks/serve-h200-2026-12-03/env.sh: after the 12 part calls of benchmarks/gpu-2026-12-03c/env.sh, with .whl
# carried) and the load generator's new default client, aiohttp 3.14.5 with its needs (yarl 1.25.1, multidict 7.2.1,
# propcache 0.5.4, frozenlist 1.8.0, aiosignal 1.4.0, aiohappyeyeballs 2.7.1, attrs 26.1.0), carried as wheels in
# .whl so the versions measured are the ones named here, not the image's; uvloop is the image's.
source benchmarks/serve-h200-2026-12-03/env.sh
if [ ! -d /tmp/site_aio/aiohttp ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site_aio \
    .whl/aiohttp-*.whl .whl/yarl-*.whl .whl/multidict-*.whl .whl/propcache-*.whl .whl/frozenlist-*.whl \
    .whl/aiosignal-*.whl .whl/aiohappyeyeballs-*.whl .whl/attrs-*.whl
fi
[ -x /tmp/site_spy/bin/py-spy ] || python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site_spy .whl/py_spy-*.whl
export PYTHONPATH=/tmp/site_aio:$PYTHONPATH
python3 -c "import aiohttp, uvloop, onnxruntime, sys; print('python', sys.version.split()[0], 'aiohttp', aiohttp.__version__, 'uvloop', uvloop.__version__, 'ort', onnxruntime.__version__)"
