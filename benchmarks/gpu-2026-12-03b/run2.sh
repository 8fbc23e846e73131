# Device call 2 (issue 20; 2026-12-03b): `serve` in one process with the CUDA-graph engine and GPU JPEG decode, max
# batch 1, 2, 4, 8 (httptools, one worker); the overload test at 2x its best sustainable rate if that beats 318/s.
# bash benchmarks/gpu-2026-12-03b/run2.sh
source benchmarks/gpu-2026-12-03b/env.sh
O=/tmp/o2; mkdir -p $O
S="--data .gpubench/tagset --offer 2500 --saturate-s 3 --measure-s 5 --step-s 3 --clients 8 --client-cpus 8-15 --server-cpus 0-7"
echo "== serve, 1 process, CUDA graph, GPU decode"; date -u
timeout 420 python3 benchmarks/gpu_serve.py $S --out $O/serve_1p_graph.json --batches 1 2 4 8 --overload-s 0 \
  --serve-args '--jpeg-decode gpu --cuda-graph' 2>&1 | grep -v "plugin EP" | tail -6 | cut -c1-600
grep -h '"event":"ready"' /tmp/serve_b*.log | head -1 | cut -c1-600 > $O/ready_line.txt; cat $O/ready_line.txt
for b in 1 2 4 8; do echo "b$b codes: $(grep -c '"code":200' /tmp/serve_b$b.log) x200 $(grep -c '"code":503' /tmp/serve_b$b.log) x503 $(grep -c '"code":500' /tmp/serve_b$b.log) x500"; grep -h -i "error\|Traceback" /tmp/serve_b$b.log | head -3 | cut -c1-300; done
tail -n 25 /tmp/serve_b8.log > $O/serve_1p_graph_b8_log_tail.jsonl
BEST=$(python3 -c "import json; r=json.load(open('$O/serve_1p_graph.json'))['rows']; b=max(r, key=lambda x: x['sustainable'] if x['bound_met'] else 0); print(b['sustainable'] if b['bound_met'] else 0, b['max_batch'])")
echo "best with P99 <= 25 ms: $BEST"; set -- $BEST
if python3 -c "import sys; sys.exit(0 if float('$1') > 318 else 1)"; then
  echo "== overload at 2 x $1 (batch $2)"; date -u
  timeout 90 python3 benchmarks/gpu_serve.py $S --out $O/serve_1p_graph_overload.json --batches --overload-s 6 \
    --overload-at $1 --overload-batch $2 --serve-args '--jpeg-decode gpu --cuda-graph' 2>&1 | grep -v "plugin EP" | tail -2 | cut -c1-600
fi
date -u
tar czf ${OUT:-/tmp}/run2.tgz -C $O .
