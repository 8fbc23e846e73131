#!/usr/bin/env bash
# Fine-tune the shipped detector on the wide domain, on one leased GPU, in one call: held-out-design
# validation scenes first, then training scenes generated in the background while the trainer takes
# them in (as gpu_train.sh does), starting from the shipped ONNX's weights (training/model/onnx_init.py).
#
#   OUT=$OUT MINUTES=5.8 bash training/gpu_wide.sh      # the fonts travel in .cache/synth-fonts (carry it)
#
# Seeds: wide training 100 000 000+, wide held-out designs (training log) 111 000 000+.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PY:-python3}
OUT=${OUT:-runs/wide}
DATA=${DATA:-/tmp/htw}
MINUTES=${MINUTES:-6}
COUNT=${TRAIN_COUNT:-60000}
GEN_WORKERS=${GEN_WORKERS:-14}
LR=${LR:-1.2e-3}
WARMUP=${WARMUP:-150}
CLASSIC_SHARE=${CLASSIC_SHARE:-0.4}
INIT_ONNX=${INIT_ONNX:-resources/models/hangtag_det.onnx}
export PYTHONUNBUFFERED=1 HTS_SYNTH_FONTS=${HTS_SYNTH_FONTS:-$PWD/.cache/synth-fonts}
mkdir -p "$OUT" "$DATA"
{
  date -u +%FT%TZ
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || echo "no nvidia-smi"
  nproc
  ls "$HTS_SYNTH_FONTS"
  $PY -c "import sys, torch, cv2, PIL, numpy, onnxruntime; print(sys.version.split()[0], 'torch', torch.__version__, 'cv2', cv2.__version__, 'PIL', PIL.__version__, 'numpy', numpy.__version__, 'ort', onnxruntime.__version__)"
} | tee "$OUT/env.txt"

t0=$(date +%s)
$PY -m training.synth --out "$DATA/val" --count 600 --seed 111000000 --domain wide --held-out --workers 16 --chunk 10 > "$OUT/gen_val.log" 2>&1
echo "validation scenes in $(( $(date +%s) - t0 )) s" | tee -a "$OUT/env.txt"
nice -n 5 $PY -m training.synth --out "$DATA/train" --count "$COUNT" --seed 100000000 --domain wide \
  --classic-share "$CLASSIC_SHARE" --workers "$GEN_WORKERS" --chunk 20 > "$OUT/gen_train.log" 2>&1 &
GEN=$!
$PY -m training.train --data "$DATA/train" --val "$DATA/val" --minutes "$MINUTES" --lr "$LR" --warmup "$WARMUP" \
  --capacity "$COUNT" --min-images 2500 --init-onnx "$INIT_ONNX" --out "$DATA/run" --export "$OUT" 2>&1 | tee "$OUT/train.log"
kill "$GEN" 2>/dev/null || true
ls "$DATA/train/images" | wc -l | sed 's/^/training images on disk: /' | tee -a "$OUT/train.log"
