# Device call (issue 18; 2026-12-05): the line on the H200 with the GPU reader. One call, carrying .whl24 (zxing-cpp
# 3.1.1 and google-re2 1.1.20251105 for Python 3.12): the conveyor recordings are made there (seed 18, as the CPU
# runs' s1.25 / s0.6 / s0.45, and 0.3 s), then line-bench replays them as live cameras with the reader on PyTorch on the GPU
# (CUDA graphs per shape, warmed at open) and the detector on ONNX Runtime's CPU backend (the image's onnxruntime
# has no CUDA provider), frames preloaded as an industrial camera hands them over.
#   bash benchmarks/line-h200-2026-12-05/run.sh          (OUT= where the JSON and log go; DRY=1: this CPU, short)
# .whl24 (git-ignored) is made here first: python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12
#   --implementation cp --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 -d .whl24 zxing-cpp==3.1.1
#   google-re2==1.1.20251105   (1.7 MB). Dry-run here on 2026-12-05 (DRY=1, 4/3/3/3 s recordings): every step ran.
# Not yet run on the device (loans paused, 2026-12-05).
set -o pipefail
O=${OUT:-/tmp/out}; mkdir -p $O; L=$O/line_gpu.log.txt
PY=${PY:-python3}
if [ -z "${DRY:-}" ]; then
  $PY -m pip install -q --no-index --no-deps --no-compile --target /tmp/site24 .whl24/*.whl || exit 1
  export PYTHONPATH=/tmp/site24:$PWD; READER="--reader-backend torch-cuda"; SECS=(30 20 20 20)
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee -a $L
else
  export PYTHONPATH=$PWD; READER="--reader-backend onnxruntime-cpu --read-threads 1 --threads 1"; SECS=(4 3 3 3)
fi
export PYTHONUNBUFFERED=1
date -u | tee -a $L; nproc | tee -a $L
$PY -c "import sys, torch, onnxruntime, cv2, numpy; print('python', sys.version.split()[0], 'torch', torch.__version__, 'ort', onnxruntime.__version__, 'cv2', cv2.__version__, 'numpy', numpy.__version__)" 2>&1 | tee -a $L
SP=(1.25 0.6 0.45 0.3); t0=$(date +%s)
for i in 0 1 2 3; do
  $PY -m training.conveyor --out /tmp/line24/s${SP[$i]} --seconds ${SECS[$i]} --spacing ${SP[$i]} --seed 18 > /tmp/line24_gen_$i.txt 2>&1 &
done
wait; echo "recordings made in $(( $(date +%s) - t0 )) s" | tee -a $L; tail -n 2 /tmp/line24_gen_*.txt | tee -a $L
S=""; for s in ${SP[@]}; do S="$S --source camera:/tmp/line24/s$s/line.avi"; done
timeout ${LIMIT:-420} $PY -m inference.cli line-bench --belt-px-per-s 914.3 --preload $READER --backend onnxruntime-cpu \
  $S --json $O/line_gpu.json 2>&1 | grep -v "plugin EP" | tee -a $L | cut -c1-400
date -u | tee -a $L
