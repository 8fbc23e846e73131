#!/bin/bash
# usage: ui.sh TAG ROUNDS ; window bench alternating base/new
# Trees: /tmp/l18/base and /tmp/l18/new (git archive REV | tar -x -C DIR); the s1.25 recording from python -m training.conveyor.
tag=$1; rounds=$2; cd /tmp
for r in $(seq 1 $rounds); do for tree in base new; do
  out=/tmp/l18/out/$tag-$tree-r$r
  QT_QPA_PLATFORM=offscreen timeout 200 nice -n 5 env PYTHONPATH=/tmp/l18/$tree /work/main/.venv/bin/python -m app.line_ui_bench \
    --source camera:/work/main/datasets/line/s1.25/line.avi --recipe /work/main/datasets/line/s1.25/recipe.toml \
    --seconds 32 --belt-px-per-frame 30.48 --json $out.json > $out.txt 2>&1
  echo "$tree r$r rc=$? $(/work/main/.venv/bin/python -c "
import json; r=json.load(open('$out.json')); print(r['event_loop_lateness_ms'], 'inspected', r['frames_inspected'], 'painted', r['frames_painted'], 'tags', r['tags_finished'], r['tag_counts'], 'load', r['load_average'])" 2>&1 | tail -1)"
done; done
