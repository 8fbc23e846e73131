#!/bin/bash
# usage: abc.sh TAG ROUNDS SPACINGS "name|tree|args" ...  (alternating configs within each round)
# Trees: /tmp/l18/base and /tmp/l18/new, each `git archive REV | tar -x -C DIR`; recordings in /work/main/datasets/line/sS (python -m training.conveyor).
tag=$1; rounds=$2; spacings=$3; shift 3
mkdir -p /tmp/l18/out; cd /tmp
for r in $(seq 1 $rounds); do
  for cfg in "$@"; do
    IFS='|' read name tree args <<< "$cfg"
    for sp in $spacings; do
      out=/tmp/l18/out/$tag-$name-s$sp-r$r
      timeout 200 nice -n 5 env PYTHONPATH=/tmp/l18/$tree /work/main/.venv/bin/python -m inference.cli line-bench \
        --belt-px-per-s 914.3 --threads 1 --read-threads 1 --preload $args \
        --source camera:/work/main/datasets/line/s$sp/line.avi --json $out.json > $out.txt 2>&1
      /work/main/.venv/bin/python - "$out.json" "$name s$sp r$r" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]; l = r["latency_s"]; c = r.get("cpu_s", {})
print(f"{sys.argv[2]:28s} missed {r['missed']} dup {r['duplicates']} correct {r['correct']}/{r['tags']} lat p50 {l['p50']} p95 {l['p95']} max {l['max']} | det {r['frames_inspected']} ({r['detect_fps']} fps) reads {r['reads']} dropped {r['shots_dropped']} busy {r['read_busy_share']} cores {r['cpu_cores_used']} load {r['load_average']} cpu {c}")
PY
    done
  done
done
