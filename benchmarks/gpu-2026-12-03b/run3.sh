# Device call 3 (issue 20; 2026-12-03b): on the same machine, what the CUDA graph changed: one process on IOBinding with
# GPU decode (max batch 1, 8), the best so far (4 processes, batch 1, GPU decode: 318/s on 2026-12-02), and one process
# with two workers on CUDA graphs (the case that captured beside another worker's decodes before prepare_thread).
# bash benchmarks/gpu-2026-12-03b/run3.sh
source benchmarks/gpu-2026-12-03b/env.sh
O=/tmp/o3; mkdir -p $O
S="--data .gpubench/tagset --offer 2500 --saturate-s 3 --measure-s 5 --step-s 3 --clients 8 --client-cpus 8-15 --server-cpus 0-7"
echo "== serve, 1 process, IOBinding, GPU decode"; date -u
timeout 190 python3 benchmarks/gpu_serve.py $S --out $O/serve_1p_iobinding.json --batches 1 8 --overload-s 0 \
  --serve-args '--jpeg-decode gpu' 2>&1 | grep -v "plugin EP" | tail -3 | cut -c1-600
echo "== serve, 4 processes, IOBinding, GPU decode, batch 1"; date -u
timeout 110 python3 benchmarks/gpu_serve.py $S --out $O/serve_4p_iobinding.json --batches 1 --overload-s 0 --processes 4 \
  --serve-args '--jpeg-decode gpu' 2>&1 | grep -v "plugin EP" | tail -2 | cut -c1-600
echo "== serve, 1 process x 2 workers, CUDA graph, GPU decode, batch 8"; date -u
timeout 110 python3 benchmarks/gpu_serve.py $S --out $O/serve_1p2w_graph.json --batches 8 --overload-s 0 \
  --serve-args '--jpeg-decode gpu --cuda-graph --workers 2' 2>&1 | grep -v "plugin EP" | tail -2 | cut -c1-600
echo "b8 codes: $(grep -c '"code":200' /tmp/serve_b8.log) x200 $(grep -c '"code":503' /tmp/serve_b8.log) x503 $(grep -c '"code":500' /tmp/serve_b8.log) x500"
date -u
tar czf ${OUT:-/tmp}/run3.tgz -C $O .
