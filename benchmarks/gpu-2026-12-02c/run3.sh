# Device call 3 (issues 20, 19; 2026-12-02c): serve with an engine per batch size (ae3698e) against one engine, GPU
# JPEG decode, 4 processes; 6 processes; the GPU reader once more. bash benchmarks/gpu-2026-12-02c/run3.sh
source benchmarks/gpu-2026-12-02c/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O
S="--data .gpubench/tagset --offer 2500 --saturate-s 3 --measure-s 5 --step-s 3 --clients 8 --client-cpus 8-15 --server-cpus 0-7"
echo "== gpu_serve, engines per batch size, 4 processes"; date -u
timeout 200 python3 benchmarks/gpu_serve.py $S --out $O/serve4_ladder.json --batches 1 8 --overload-s 6 --processes 4 \
  --serve-args '--jpeg-decode gpu' 2>&1 | tail -4
tail -n 25 /tmp/serve_b8_p0.log > $O/serve4_ladder_b8_log_tail.jsonl 2>/dev/null
echo "== gpu_serve, one engine, 4 processes"; date -u
timeout 80 python3 benchmarks/gpu_serve.py $S --out $O/serve4_one.json --batches 8 --overload-s 0 --processes 4 \
  --serve-args '--jpeg-decode gpu --one-engine' 2>&1 | tail -2
echo "== gpu_serve, engines per batch size, 6 processes"; date -u
timeout 80 python3 benchmarks/gpu_serve.py $S --out $O/serve6_ladder.json --batches 8 --overload-s 0 --processes 6 \
  --serve-args '--jpeg-decode gpu' 2>&1 | tail -2
echo "== gpu_read"; date -u
timeout 110 python3 benchmarks/gpu_read.py --data .gpubench/tagset --out $O/read3.json --frames 40 --four 10 --passes 2 \
  --warm-frames 8 --reader torch-cuda --skip-shape-costs --four-tag-threads 1 4 2>&1 | grep -v "^\s*$" | grep -v "plugin EP" | tail -8
date -u
