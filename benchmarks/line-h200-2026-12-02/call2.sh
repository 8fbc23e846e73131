# Device call 2 (right after call 1, same machine): the five spacings twice in one process (the reader's CUDA
# graphs are captured once, at open), then the five once more with the detector at full rate (--whole-looks 0).
# bash benchmarks/line-h200-2026-12-02/call2.sh
source benchmarks/line-h200-2026-12-02/setup.sh || exit 3
O=${OUT:-/tmp/out}; mkdir -p $O
R=.line18/rec
S=""; for s in 1.25 0.9 0.6 0.45 0.3; do S="$S --source camera:$R/s$s/line.mp4"; done
timeout 380 python3 -m inference.cli line-bench --backend onnxruntime-cpu --reader-backend torch-cuda \
  --belt-px-per-s 914.3 --preload $S $S --json $O/sweep_default.json 2>&1 | tee $O/sweep_default.log
date -u
timeout 170 python3 -m inference.cli line-bench --backend onnxruntime-cpu --reader-backend torch-cuda \
  --belt-px-per-s 914.3 --preload --whole-looks 0 $S \
  --json $O/sweep_full_rate.json 2>&1 | tee $O/sweep_full_rate.log
date -u
