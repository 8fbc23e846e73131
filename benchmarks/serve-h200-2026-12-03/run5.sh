# Device call 5 (issue 20; 2026-12-03): call 3's best shape again (FP32, frontends 6, workers 2,
# batch 8 then 1) on call 4's machine (still warm: not a fresh start), where the load generator ran late on most sends
source benchmarks/serve-h200-2026-12-03/env.sh
O=${OUT:-/tmp/out}; mkdir -p $O; L=$O/run5.log.txt
show() { grep -v "plugin EP" | grep -v "GPU memory pressure" | tee -a $L | cut -c1-900; }
{ date -u; uname -r; grep -m1 "model name" /proc/cpuinfo; } | show
S="--data .gpubench/tagset --offer 2500 --saturate-s 5 --measure-s 5 --step-s 3 --clients 8 --client-cpus 8-15 --server-cpus 0-7 --queue 32"
timeout 200 python3 benchmarks/gpu_serve.py $S --out $O/fe6_w2_fp32_again.json --batches 8 1 --overload-s 0 \
  --serve-args "--jpeg-decode gpu --cuda-graph --frontends 6 --workers 2" 2>&1 | show
date -u | show
