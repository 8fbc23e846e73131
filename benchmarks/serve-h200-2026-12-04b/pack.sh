# Here, before the device calls (issue 20; 2026-12-04b): what .serveab (git-ignored, in .git/info/exclude) carries.
#   bash benchmarks/serve-h200-2026-12-04b/pack.sh
# head.tgz: `git archive` of HEAD's service and load generator (gpu_serve.py needs gpu_read.py and serve_steps.py:
# the first device call went without them and measured nothing), COMMIT naming the commit; whl/: the wheels of .whl
# less the FP16 model; parts/: the blob of benchmarks/gpu-2026-12-03c/env.sh (.parts/p00-p11) re-cut into 16 MB
# parts p00-p14, sent one a call (carry .serveab/parts/pNN; cp to /tmp/parts), since a 20 MB part and today's
# 47 MB tree came within 30 KB of the 64 MiB a call may carry.
set -e
mkdir -p .serveab/whl .serveab/parts && rm -rf /tmp/arch && mkdir -p /tmp/arch
H=$(git rev-parse HEAD)
git archive $H inference benchmarks/gpu_serve.py benchmarks/gpu_read.py benchmarks/serve_steps.py \
  benchmarks/serve-h200-2026-12-04 benchmarks/serve-h200-2026-12-04b | tar x -C /tmp/arch
echo $H > /tmp/arch/COMMIT && tar czf .serveab/head.tgz -C /tmp/arch .
cp .whl/*.whl .whl/nvimgcodec-slim.zip .serveab/whl/
[ -f .serveab/parts/p14 ] || cat .parts/p* | split -b 16000000 -d -a 2 - .serveab/parts/p
