#!/usr/bin/env bash
# Fine-tune the station's GB 2312 recognizer for small print on one leased GPU (issue 14).
# Prepared here (ignored folder .cand/ocr/carry, carried with the call):
#
#   python -m training.ocr_finetune.fonts --out .cand/ocr/fonts          # training fonts cut to GB 2312
#   python -m training.ocr_finetune.real_lines                           # real line crops for the ORT check
#   mkdir -p /tmp/ocrpack && cp -r .cand/ocr/fonts /tmp/ocrpack/ && \
#     cp ~/.local/share/HangtagStation/cache/ocr/PP-OCRv6_rec_small.gb2312.onnx /tmp/ocrpack/rec.onnx && \
#     tar -C /tmp/ocrpack -cf - . | xz -T2 -6 > .cand/ocr/carry/pack.tar.xz
#
# then, on the GPU machine (carry .cand/ocr/carry):  MINUTES=6 bash training/gpu_ocr.sh
# Snapshots (rec_sNNN.onnx), train.json and the log land in $OUT.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PY:-python3}
OUT=${OUT:-runs/ocr}
CARRY=${CARRY:-.cand/ocr/carry}
WORK=${WORK:-/tmp/ocr}
MINUTES=${MINUTES:-6}
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
mkdir -p "$OUT" "$WORK"
[ -f "$WORK/rec.onnx" ] || xz -dc "$CARRY/pack.tar.xz" | tar -C "$WORK" -xf -
{
  date -u +%FT%TZ
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || echo "no nvidia-smi"
  nproc
  $PY -c "import sys, torch, cv2, PIL, numpy, onnx, onnxruntime; print(sys.version.split()[0], 'torch', torch.__version__, 'cuda', torch.version.cuda, 'cv2', cv2.__version__, 'PIL', PIL.__version__, 'numpy', numpy.__version__, 'onnx', onnx.__version__, 'ort', onnxruntime.__version__)"
  sha256sum "$WORK/rec.onnx"
} | tee "$OUT/env.txt"

$PY -m training.ocr_finetune.train --model "$WORK/rec.onnx" --fonts "$WORK/fonts" --real-lines "$CARRY/real_lines.npz" \
  --out "$OUT" --minutes "$MINUTES" ${EXTRA:-} 2>&1 | tee "$OUT/train.log"
