#!/usr/bin/env bash
# Fine-tune the small-print recognizer on one leased GPU (issue 14), v2: from the shipped small-print recognizer
# (FP16 weights restored to the stock FP32 graph), level-1 and level-2 text from the first step, a KL term to the
# station's stock recognizer on clean lines it reads right, bolder/thinner/condensed faces, two students side by
# side (confidence penalty 0 and PENALTY), resumed across calls from $WORK/state.pt (the machine keeps /tmp while
# warm: call again within 30 s). Prepared here (ignored folder .cand/ocr, carry .cand/ocr/carry):
#
#   python -m training.ocr_finetune.fonts --out .cand/ocr/fonts          # training fonts cut to GB 2312
#   python -m training.ocr_finetune.real_lines                           # real line crops for the ORT check
#   python -c "import sys; sys.path.insert(0, 'packaging'); from pathlib import Path; from ocr_models import store_fp16; \
#     store_fp16(Path.home() / '.local/share/HangtagStation/cache/ocr/PP-OCRv6_rec_small.gb2312.onnx', Path('.cand/ocr/stock16.onnx'))"
#   (cd .cand/ocr && tar -cf - fonts stock16.onnx | xz -T2 -6 > carry/pack.tar.xz)   # 16.5 MB: fits beside the tree
#
# then, on the GPU machine (carry .cand/ocr/carry):  MINUTES=7.5 TOTAL=16 bash training/gpu_ocr.sh, and again.
# Snapshots (rec_<student>_cN.fp16.onnx, stored as shipped), train.json and the log land in $OUT.
#
# v3 (2026-12-04): 17 training faces (fonts.py) make the pack 37 MB, too big to travel beside the 46.7 MB tree in one
# call (64 MiB). real_lines.npz goes inside it, and it travels in PARTS parts, one a call, back to back:
#
#   python -m training.ocr_finetune.fonts --out .cand/ocr3/fonts; cp .cand/ocr/{stock16.onnx,carry/real_lines.npz} .cand/ocr3/
#   (cd .cand/ocr3 && tar -cf - fonts stock16.onnx real_lines.npz | xz -T2 -6 > pack.tar.xz && split -n 2 -d pack.tar.xz carry/part)
#
# call 1 (carry .cand/ocr3/carry/part00): PARTS=2 CARRY=.cand/ocr3/carry bash training/gpu_ocr.sh   (copies, stops)
# call 2 (carry .cand/ocr3/carry/part01): PARTS=2 CARRY=.cand/ocr3/carry STUDENTS=v3:0.1 SEED=13 MINUTES=8.3 TOTAL=16.6 \
#   bash training/gpu_ocr.sh   (unpacks, trains); call 3: the same again, nothing carried (resumes from $WORK/state.pt).
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PY:-python3}
OUT=${OUT:-runs/ocr}
CARRY=${CARRY:-.cand/ocr/carry}
WORK=${WORK:-/tmp/ocr}
MINUTES=${MINUTES:-6}
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
mkdir -p "$OUT" "$WORK"
REAL=$CARRY/real_lines.npz
if [ -n "${PARTS:-}" ]; then  # the pack in parts: each call copies what it carries; the last one unpacks
  REAL=$WORK/real_lines.npz
  mkdir -p "$WORK/parts"
  for part in "$CARRY"/part*; do if [ -f "$part" ]; then cp "$part" "$WORK/parts/"; fi; done
  if [ ! -f "$WORK/stock16.onnx" ]; then
    have=$(ls "$WORK/parts" | wc -l)
    if [ "$have" -lt "$PARTS" ]; then echo "$have of $PARTS parts in $WORK/parts: call again with the next"; exit 0; fi
    cat "$WORK"/parts/part* > "$WORK/pack.tar.xz"
    echo "pack sha256 $(sha256sum "$WORK/pack.tar.xz" | cut -c1-64)"
    xz -dc "$WORK/pack.tar.xz" | tar -C "$WORK" -xf - && rm -f "$WORK/pack.tar.xz"
  fi
else
  [ -f "$WORK/stock16.onnx" ] || xz -dc "$CARRY/pack.tar.xz" | tar -C "$WORK" -xf -
fi
{
  date -u +%FT%TZ
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || echo "no nvidia-smi"
  nproc
  $PY -c "import sys, torch, cv2, PIL, numpy, onnx, onnxruntime; print(sys.version.split()[0], 'torch', torch.__version__, 'cuda', torch.version.cuda, 'cv2', cv2.__version__, 'PIL', PIL.__version__, 'numpy', numpy.__version__, 'onnx', onnx.__version__, 'ort', onnxruntime.__version__)"
  sha256sum "$WORK/stock16.onnx" resources/models/ocr_rec_small_print.onnx
} | tee "$OUT/env.txt"

$PY -m training.ocr_finetune.train --model resources/models/ocr_rec_small_print.onnx --teacher "$WORK/stock16.onnx" \
  --fonts "$WORK/fonts" --real-lines "$REAL" --out "$OUT" --minutes "$MINUTES" --total-minutes "${TOTAL:-$MINUTES}" \
  --state "$WORK/state.pt" --students "${STUDENTS:-a:0,b:${PENALTY:-0.1}}" --kd "${KD:-1.0}" --kd-min-px 14 --variety --fp16-out \
  --lr "${LR:-5e-5}" --seed "${SEED:-11}" ${EXTRA:-} 2>&1 | tee "$OUT/train.log"
