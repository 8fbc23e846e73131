# Device call 1: set up, then line-bench on the 0.9 s recording with the PyTorch GPU reader (a check that it all
# runs there, and the first run at 0.9 s). bash benchmarks/line-h200-2026-12-02/call1.sh
source benchmarks/line-h200-2026-12-02/setup.sh || exit 3
O=${OUT:-/tmp/out}; mkdir -p $O
timeout 300 python3 -m inference.cli line-bench --backend onnxruntime-cpu --reader-backend torch-cuda \
  --belt-px-per-s 914.3 --preload --source camera:.line18/rec/s0.9/line.mp4 --json $O/call1_s0.9.json 2>&1 | tee $O/call1.log
date -u
