# Device run 2 for issue 19 (2026-12-03): which overlap part changes a four-tag frame's fields (run 1: 9 of 10
# four-tag frames equal to the CPU reader with the overlap on, 10 of 10 off), and the parts timed one against
# another in one process: 0 (off), 8 (all parts), 8:ahead (only the first warp and the text detector in it).
# After the 10 part copies: bash benchmarks/gpu-2026-12-03/run2.sh
source benchmarks/gpu-2026-12-03/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O
date -u; nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total --format=csv,noheader; nproc
echo "== which part"; timeout 150 python3 benchmarks/gpu-2026-12-03/diff_overlap.py --data .gpubench/tagset --out $O/diff.json \
  --repeats 2 --settings 0 8 8:ahead 8:decode 8:flipped 0 8 2>&1 | grep -v "plugin EP\|^\s*$" | tail -22 | cut -c1-900
R="--data .gpubench/tagset --frames 40 --four 10 --passes 2 --warm-frames 8 --reader torch-cuda --skip-shape-costs --four-tag-threads 1 4"
for k in 3 4; do
  echo "== gpu_read $k"; date -u
  timeout 200 python3 benchmarks/gpu_read.py $R --out $O/read$k.json --overlap-threads 0 8 8:ahead 0 8 8:ahead 2>&1 | grep -v "^\s*$" | grep -v "plugin EP" | grep -v "^overlap {" | tail -14 | cut -c1-700
done
date -u
