#!/usr/bin/env bash
# Fine-tunes against false tags that keep the shipped model's behaviour on tags (issue 17, 2026-12-02
# afternoon), on one leased GPU, in one call. Like gpu_negatives.sh (classic replay, wide scenes, tag-free
# scenes mixed in fixed shares per batch, from the shipped ONNX), plus:
#   --distill      the shipped model's own outputs are soft targets wherever the truth bears them out
#                  (training/model/distill.py): tags it finds stay found, with the same boxes; what it
#                  draws on coins, lamps, receipts or a tag's own panel is taught away
#   panel cards    half of the wide fronts of four layouts print price and codes on a panel of their own
#                  (training/synth/wide_tag.py PANEL_SHARE): the panel is part of the tag, never a tag
#   HEAVY=share    wide fronts printing the price in faux bold and the size in a ruled box (HEAVY_SHARE):
#                  heavy numerals are print, never a barcode (issue 17, 2026-12-02 evening; default 0)
#   EDGE=share     classic and wide scenes cropped so the frame's edge cuts a tag by 5-40 %, its box clipped
#                  (training/synth/edge_cut.py): a tag riding the frame's edge stays a tag (default 0)
#   HOLE=share     of those edge scenes, the share cut at the tag's punched-hole end (top of an upright card), where
#                  the line's hardest edge tags are cut (issue 18; edge_cut.py HOLE_END_SHARE; default 0)
#   HOLES="a b"    one HOLE per run instead, in RUNS order: each value gets its own classic and wide folders
#                  (generator workers split between them), so two settings train side by side in one call
# Two trainers share the GPU and the generators' folders, one candidate each (RUNS below).
#
#   OUT=$OUT MINUTES=6 bash training/gpu_distill.sh      # carry .cache/synth-fonts
#
# Seeds as in gpu_negatives.sh: classic 0+, wide 100 000 000+, tag-free 113 000 000+, log validation 111 000 000+.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PY:-python3}
OUT=${OUT:-runs/distill}
DATA=${DATA:-/tmp/htd}
MINUTES=${MINUTES:-6}
PANEL=${PANEL:-0.5}
HEAVY=${HEAVY:-0}
EDGE=${EDGE:-0}
HOLE=${HOLE:-0}
HOLES=${HOLES:-}
CAPACITY=${CAPACITY:-24000}
INIT_ONNX=${INIT_ONNX:-resources/models/hangtag_det.onnx}
# runs separated by ';', each name:lr:shares (classic wide tag-free):extra train.py flags
RUNS=${RUNS:-"a:4e-4:0.4 0.3 0.3:--distill;b:8e-4:0.35 0.3 0.35:--distill"}
export PYTHONUNBUFFERED=1 HTS_SYNTH_FONTS=${HTS_SYNTH_FONTS:-$PWD/.cache/synth-fonts}
LOGS="$DATA/logs"
mkdir -p "$OUT" "$DATA" "$LOGS"
{
  date -u +%FT%TZ
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || echo "no nvidia-smi"
  nproc
  $PY -c "import sys, torch, cv2, PIL, numpy, onnxruntime; print(sys.version.split()[0], 'torch', torch.__version__, 'cv2', cv2.__version__, 'PIL', PIL.__version__, 'numpy', numpy.__version__, 'ort', onnxruntime.__version__)"
  echo "MINUTES=$MINUTES PANEL=$PANEL HEAVY=$HEAVY EDGE=$EDGE HOLE=$HOLE HOLES=$HOLES CAPACITY=$CAPACITY INIT_ONNX=$INIT_ONNX RUNS=$RUNS"
} | tee "$OUT/env.txt"

t0=$(date +%s)
$PY -m training.synth --out "$DATA/val" --count 300 --seed 111000000 --domain wide --held-out --workers 16 --chunk 10 \
  > "$LOGS/gen_val.log" 2>&1
echo "validation scenes in $(( $(date +%s) - t0 )) s" | tee -a "$OUT/env.txt"
IFS=';' read -r -a SPECS <<< "$RUNS"
read -r -a RUN_HOLES <<< "$HOLES"
if [ ${#RUN_HOLES[@]} -gt 0 ] && [ ${#RUN_HOLES[@]} -ne ${#SPECS[@]} ]; then
  echo "HOLES has ${#RUN_HOLES[@]} values for ${#SPECS[@]} runs: give one per run" >&2; exit 2
fi
suffix() { if [ -n "$HOLES" ]; then echo "_h$1"; fi; }  # one HOLE keeps today's folder names
mapfile -t VALUES < <(if [ -n "$HOLES" ]; then printf '%s\n' "${RUN_HOLES[@]}" | sort -u; else echo "$HOLE"; fi)
CW=$(( 4 / ${#VALUES[@]} > 2 ? 4 / ${#VALUES[@]} : 2 )); WW=$(( 6 / ${#VALUES[@]} > 3 ? 6 / ${#VALUES[@]} : 3 ))
GENS=()
for hole in "${VALUES[@]}"; do
  sfx=$(suffix "$hole")
  nice -n 5 $PY -m training.synth --out "$DATA/classic$sfx" --count 24000 --seed 0 --workers $CW --chunk 20 \
    --skip-existing --edge-share "$EDGE" --edge-hole-end "$hole" > "$LOGS/gen_classic$sfx.log" 2>&1 & GENS+=($!)
  nice -n 5 $PY -m training.synth --out "$DATA/wide$sfx" --count 18000 --seed 100000000 --domain wide \
    --panel-share "$PANEL" --heavy-share "$HEAVY" --edge-share "$EDGE" --edge-hole-end "$hole" --workers $WW --chunk 20 \
    --skip-existing > "$LOGS/gen_wide$sfx.log" 2>&1 & GENS+=($!)
done
nice -n 5 $PY -m training.synth --out "$DATA/negatives" --count 18000 --seed 113000000 --domain wide --no-tags \
  --workers 4 --chunk 20 --skip-existing > "$LOGS/gen_negatives.log" 2>&1 & GENS+=($!)

TRAINERS=()
for i in "${!SPECS[@]}"; do
  IFS=: read -r name lr shares extra <<< "${SPECS[$i]}"
  sfx=$(suffix "${RUN_HOLES[$i]:-$HOLE}")
  mkdir -p "$OUT/$name"
  # shellcheck disable=SC2086
  $PY -m training.train --data "$DATA/classic$sfx" "$DATA/wide$sfx" "$DATA/negatives" --share $shares --val "$DATA/val" \
    --minutes "$MINUTES" --lr "$lr" --warmup 50 --capacity "$CAPACITY" --min-images 2500 --init-onnx "$INIT_ONNX" \
    $extra --out "$DATA/run_$name" --export "$DATA/export_$name" > "$OUT/$name/train.log" 2>&1 & TRAINERS+=($!)
  echo "trainer $name: lr $lr shares $shares $extra, data classic$sfx wide$sfx (pid ${TRAINERS[-1]})" | tee -a "$OUT/env.txt"
done
status=0
for pid in "${TRAINERS[@]}"; do wait "$pid" || status=$?; done
kill "${GENS[@]}" 2>/dev/null || true
for d in "$DATA"/classic* "$DATA"/wide* "$DATA/negatives"; do
  echo "$(basename "$d") images on disk: $(ls "$d/images" | wc -l)" | tee -a "$OUT/env.txt"
done
for spec in "${SPECS[@]}"; do
  name=${spec%%:*}
  cp "$DATA/export_$name/hangtag_det.onnx" "$OUT/$name/" 2>/dev/null || echo "no ONNX from $name" | tee -a "$OUT/env.txt"
done
echo "done in $(( $(date +%s) - t0 )) s, status $status" | tee -a "$OUT/env.txt"
exit $status
