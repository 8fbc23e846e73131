#!/usr/bin/env bash
# Generate scenes and train HTDet on one GPU, generation and training overlapped: the trainer
# starts on the first images and takes in the rest as the generator writes them.
# This is the script that made the shipped model on the leased H200 (see MODEL_CARD.md):
#
#   OUT=runs/h200 MINUTES=8 bash training/gpu_train.sh                  # first run
#   OUT=runs/h200b MINUTES=4.5 INIT=/tmp/hts/run/last.pt LR=6e-4 bash training/gpu_train.sh  # continue
#
# The shipped model is the SiLU model of those two calls fine-tuned with ReLU (train.py's default
# --activation) in a third call, on a fresh machine (the images are generated again):
#
#   OUT=/tmp/ft MINUTES=6.5 INIT=runs/h200/call2/last.pt LR=1.5e-3 WARMUP=100 \
#     EXTRA="--min-images 4000" bash training/gpu_train.sh
#
# Everything but OUT lives under DATA (default /tmp/hts), so a second call on a machine that
# is still warm reuses the images and the checkpoint.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PY:-python3}
OUT=${OUT:-runs/h200}
DATA=${DATA:-/tmp/hts}
MINUTES=${MINUTES:-8}
COUNT=${TRAIN_COUNT:-48000}
GEN_WORKERS=${GEN_WORKERS:-13}
IMGSZ=${IMGSZ:-640}
BATCH=${BATCH:-128}
LR=${LR:-2e-3}
WARMUP=${WARMUP:-300}
VAL_COUNT=${VAL_COUNT:-500}
export PYTHONUNBUFFERED=1
mkdir -p "$OUT" "$DATA"

{
  date -u +%FT%TZ
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || echo "no nvidia-smi"
  nproc
  $PY -c "import sys, torch, cv2, PIL, numpy; print(sys.version.split()[0], 'torch', torch.__version__, 'cuda', torch.version.cuda, 'cv2', cv2.__version__, 'PIL', PIL.__version__, 'numpy', numpy.__version__)"
} | tee "$OUT/env.txt"

# Held-out scenes for the training log: a seed range far from the training one.
if [ ! -f "$DATA/val/annotations.json" ]; then
  $PY -m training.synth --out "$DATA/val" --count "$VAL_COUNT" --seed 50000000 --workers 16 --chunk 10 --imgsz "$IMGSZ" > "$OUT/gen_val.log"
fi
if [ ! -f "$DATA/train/annotations.json" ]; then
  nice -n 5 $PY -m training.synth --out "$DATA/train" --count "$COUNT" --seed 0 --workers "$GEN_WORKERS" \
    --chunk 25 --imgsz "$IMGSZ" --skip-existing > "$OUT/gen_train.log" 2>&1 &
fi

INIT_ARGS=()
if [ -n "${INIT:-}" ]; then INIT_ARGS=(--init "$INIT"); fi
$PY -m training.train --data "$DATA/train" --val "$DATA/val" --minutes "$MINUTES" --imgsz "$IMGSZ" \
  --batch "$BATCH" --lr "$LR" --warmup "$WARMUP" --capacity "$COUNT" --out "$DATA/run" --export "$OUT" \
  "${INIT_ARGS[@]}" ${EXTRA:-} 2>&1 | tee "$OUT/train.log"
ls "$DATA/train/images" | wc -l | sed 's/^/training images on disk: /' | tee -a "$OUT/train.log"
