#!/bin/bash
# Before/after live replays of issue 18's recordings, one run at a time, niced, each from its own tree copy:
#   BEFORE=/tmp/s28/line2/before (git archive d5793ff)  AFTER=/tmp/s28/line2/after (git archive 33f78d8)
# Usage: run_live.sh OUTDIR
set -u
OUT=$1; mkdir -p "$OUT"
PY=/work/main/.venv/bin/python
REC=/tmp/s27/line
bench() {  # name tree spacing [extra args]
  local name=$1 tree=$2 spacing=$3; shift 3
  echo "== $name $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/runs.log"
  (cd "$tree" && nice -n 10 $PY -m inference.cli line-bench --source camera:$REC/$spacing/line.avi "$@" \
     --json "$OUT/$name.json" > "$OUT/$name.log.txt" 2>&1)
  echo "   done $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg) rc $?" >> "$OUT/runs.log"
}
B=/tmp/s28/line2/before A=/tmp/s28/line2/after
for k in 1 2; do
  bench before_learned_s1.25_$k $B s1.25
  bench after_learned_s1.25_$k $A s1.25
  bench before_given_s1.25_$k $B s1.25 --belt-px-per-s 914.3
  bench after_given_s1.25_$k $A s1.25 --belt-px-per-s 914.3
done
bench before_learned_s0.6 $B s0.6
bench after_learned_s0.6 $A s0.6
