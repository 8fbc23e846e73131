# Device call 4 (second machine start; issues 19, 20; 2026-12-03b): graph_decode.py again with fresh threads (does a
# thread's second engine run capture, and does it fail beside decodes), then the GPU reader once more in the other
# order, 46da926 / HEAD / 46da926 / HEAD, so that the ratio rests on eight processes in two machine starts.
# After the ten part calls, with .gpubench/x carried: bash benchmarks/gpu-2026-12-03b/run4.sh
source benchmarks/gpu-2026-12-03b/env.sh
O=/tmp/o4; mkdir -p $O
date -u; nproc; nvidia-smi --query-gpu=name,driver_version,memory.used,memory.total --format=csv,noheader
echo "== graph and decode"; date -u
timeout 230 python3 benchmarks/gpu-2026-12-03b/graph_decode.py --data /tmp/gb/tagset --out $O/graph_decode2.json 2>&1 | cut -c1-900
R="--data /tmp/gb/tagset --frames 40 --four 10 --passes 2 --warm-frames 8 --reader torch-cuda --skip-shape-costs --four-tag-threads 1 4"
k=4
for t in old head old head; do
  k=$((k+1)); echo "== gpu_read $t ($k)"; date -u
  (cd /tmp/trees/$t && timeout 115 python3 benchmarks/gpu_read.py $R --out $O/read_${k}_$t.json 2>&1 | grep -v "^\s*$" | grep -v "plugin EP" | grep -v "^overlap {" | grep -v "memory pressure" | cut -c1-500)
done
date -u
tar czf ${OUT:-/tmp}/run4.tgz -C $O .
