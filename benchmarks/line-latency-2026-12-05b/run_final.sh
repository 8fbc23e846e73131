#!/bin/bash
# Before (git archive d5793ff, /tmp/s28/line2/before) against after (git archive 0fb4998, /tmp/s28/line2/final):
# live replays alternating, one run at a time, niced; then frame by frame (--stride 1) on the after tree.
# Usage: run_final.sh OUTDIR
set -u
OUT=$1; mkdir -p "$OUT"
PY=/work/main/.venv/bin/python
REC=/tmp/s27/line
bench() {  # name tree [line-bench args]
  local name=$1 tree=$2; shift 2
  echo "== $name $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/runs.log"
  (cd "$tree" && nice -n 10 $PY -m inference.cli line-bench "$@" --json "$OUT/$name.json" > "$OUT/$name.log.txt" 2>&1)
  local rc=$?
  echo "   done $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg) rc $rc" >> "$OUT/runs.log"
}
B=/tmp/s28/line2/before A=/tmp/s28/line2/final
for k in 1 2; do
  bench before_learned_s1.25_$k $B --source camera:$REC/s1.25/line.avi
  bench after_learned_s1.25_$k $A --source camera:$REC/s1.25/line.avi
  bench before_given_s1.25_$k $B --source camera:$REC/s1.25/line.avi --belt-px-per-s 914.3
  bench after_given_s1.25_$k $A --source camera:$REC/s1.25/line.avi --belt-px-per-s 914.3
done
bench before_learned_s0.6 $B --source camera:$REC/s0.6/line.avi
bench after_learned_s0.6 $A --source camera:$REC/s0.6/line.avi
bench after_stride1 $A --source $REC/s1.25/line.avi --source $REC/s0.6/line.avi --source $REC/s0.45/line.avi --stride 1
