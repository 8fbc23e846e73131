# Device run 3 for issue 19 (2026-12-03): where a one-tag frame's time goes, function by function, with the overlap
# off and with only the text detector run ahead (and both with the GIL switch interval at 0.5 ms); then gpu_read once more over 0 / 8:ahead / 8.
# After the 10 part copies: bash benchmarks/gpu-2026-12-03/run3.sh
source benchmarks/gpu-2026-12-03/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O
date -u; nproc
echo "== where"; timeout 150 python3 benchmarks/gpu-2026-12-03/where.py --data .gpubench/tagset --out $O/where.json \
  --settings 0 8:ahead 0 8:ahead 0@0.0005 8:ahead@0.0005 2>&1 | grep -v "plugin EP\|^\s*$\|memory pressure" | cut -c1-200
R="--data .gpubench/tagset --frames 40 --four 10 --passes 2 --warm-frames 8 --reader torch-cuda --skip-shape-costs --four-tag-threads 1 4"
echo "== gpu_read 5"; date -u
timeout 200 python3 benchmarks/gpu_read.py $R --out $O/read5.json --overlap-threads 0 8:ahead 8 0 8:ahead 8 2>&1 | grep -v "^\s*$" | grep -v "plugin EP" | grep -v "^overlap {" | tail -14 | cut -c1-400
date -u
