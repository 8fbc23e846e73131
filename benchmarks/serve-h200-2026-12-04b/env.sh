# Device setup for the nineteenth session's H200 A/B (issue 20; 2026-12-04b): the seventeenth session's setup
# (benchmarks/serve-h200-2026-12-04/env.sh: ORT-GPU 1.31.1 and tagset-v1 from the blob of
# benchmarks/gpu-2026-12-03c/env.sh, here re-cut into 15 parts of 16 MB so a part and the 47 MB tree fit one call;
# starlette, uvicorn, httptools, nvImageCodec, nvJPEG, aiohttp and its needs, py-spy as wheels), with the wheels
# carried in .serveab/whl (without the 4.4 MB FP16 model the service does not use) and the code measured taken
# from .serveab/head.tgz, a `git archive` of the commit named in it, so other engineers' uncommitted edits in the
# shared checkout do not travel into the service.
[ -e .whl ] || ln -s .serveab/whl .whl
source benchmarks/serve-h200-2026-12-04/env.sh
rm -rf /tmp/trees/ab && mkdir -p /tmp/trees/ab && tar xzf .serveab/head.tgz -C /tmp/trees/ab
ln -sfn $PWD/resources /tmp/trees/ab/resources
export PYTHONPATH=/tmp/site_aio:/tmp/site:/tmp/site_nv:/tmp/site_srv:/tmp/trees/ab PYTHONUNBUFFERED=1
echo "tree $(cat /tmp/trees/ab/COMMIT 2>/dev/null)"
