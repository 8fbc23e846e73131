#!/bin/bash
# Sixth pass of issue 18: the paced line (base) against pacing only while the reader is starved (new), alternating.
# usage: abc.sh TAG ROUNDS SPACINGS "name|tree|args" ...  (per spacing the configs take turns, in reverse order on even
# rounds; one process at a time)
# Trees, each `git archive REV | tar -x -C /tmp/l18b/NAME`: base = 0bc247e^, new = 0bc247e; new2 and first are new
# with `git diff 0bc247e a29eed7` and then `git diff a29eed7 289608b` applied to inference/tracking, the line bench
# and its test (other people's commits landed in between and are not in them).
# Blocks run: A 2 "1.25 0.9 0.6" base new; B 4 "1.25" base new; C 2 "0.9 0.6" base new; D 4 "1.25" base new2;
# E 2 "0.9 0.6" base new2; F 3 "1.25" base "full|base|--whole-looks 0"; G 1 "0.6" new2 base; H 3 "0.6" base first;
# I 2 "1.25 0.9" first base; J 2 "0.6" first base; K 2 "1.25" base first "on|first|--starved-below 0.75";
# L 2 "1.25 0.9" on base. collect.py gathers the JSONs into runs.json.
# Recordings: python -m training.conveyor --out /tmp/line/sS --seconds 20 --spacing S --seed 18 (s1.25: --seconds 30).
tag=$1; rounds=$2; spacings=$3; shift 3
mkdir -p /tmp/l18b/out; cd /tmp
for r in $(seq 1 $rounds); do
  cfgs=("$@"); (( r % 2 == 0 )) && cfgs=($(printf '%s\n' "$@" | tac | tr ' ' '\037'))  # ABBA: even rounds reversed
  for sp in $spacings; do
    for cfg in "${cfgs[@]}"; do
      cfg=${cfg//$'\037'/ }
      IFS='|' read name tree args <<< "$cfg"
      out=/tmp/l18b/out/$tag-$name-s$sp-r$r
      timeout 200 nice -n 5 env PYTHONPATH=/tmp/l18b/$tree /work/main/.venv/bin/python -m inference.cli line-bench \
        --belt-px-per-s 914.3 --threads 1 --read-threads 1 --preload --detect-fps 8 $args \
        --source camera:/tmp/line/s$sp/line.avi --json $out.json > $out.txt 2>&1
      /work/main/.venv/bin/python - "$out.json" "$name s$sp r$r" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]; l = r["latency_s"]; c = r.get("cpu_s", {})
print(f"{sys.argv[2]:22s} missed {r['missed']} dup {r['duplicates']} correct {r['correct']}/{r['tags']} lat p50 {l['p50']} p95 {l['p95']} max {l['max']} | det {r['frames_inspected']} foll {r['frames_followed']} reads {r['reads']} dropped {r['shots_dropped']} busy {r['read_busy_share']} share {r.get('reader_cpu_share')} cores {r['cpu_cores_used']} load {r['load_average']} cpu {c}", flush=True)
PY
    done
  done
done
