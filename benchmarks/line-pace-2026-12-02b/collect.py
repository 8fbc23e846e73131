"""Gather the line-bench JSONs of abc.sh (/tmp/l18b/out) into runs.json: per run the tree, spacing, round, when,
and the numbers the sixth pass reports; prints a summary per (tree, spacing)."""
from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

out = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/l18b/out")
# trees: base = 0bc247e^ (the fifth pass's paced line); new = + 0bc247e (follow only while the busy reader got < 0.75
# of a core); new2 = + a29eed7 (follow while the reader got < 0.75, busy or idle); first = + 289608b (the rule off,
# full rate until the run's first read finished); on = first with --starved-below 0.75 (the rule on: new2's
# behaviour); full = base with --whole-looks 0 (never following)
OVERLAPPED = {"E-base-s0.6-r2": "the first run of a later block started ~25 s before it ended (two benches at once)"}
runs = []
for path in sorted(out.glob("*.json"), key=lambda p: p.stat().st_mtime):
    block, name, spacing, rnd = path.stem.split("-")
    data = json.loads(path.read_text())
    r = data["runs"][0]
    runs.append({"block": block, "tree": name, "spacing_s": float(spacing[1:]), "round": int(rnd[1:]),
                 "date": data["machine"]["date"], "missed": r["missed"], "duplicates": r["duplicates"],
                 "correct": r["correct"], "tags": r["tags"], "latency_s": r["latency_s"],
                 "detections": r["frames_inspected"], "frames_followed": r["frames_followed"],
                 "reads": r["reads"], "shots_dropped": r["shots_dropped"], "read_busy_share": r["read_busy_share"],
                 "reader_cpu_share": r.get("reader_cpu_share"), "cpu_cores_used": r["cpu_cores_used"],
                 "cpu_s": r["cpu_s"], "load_average": r["load_average"], "confusion": r["confusion"],
                 "first_tags_split": any(row["id"] == 1 and row["verdicts"] == 0 for row in r["rows"])
                 and any(row["id"] == 0 and row["verdicts"] == 2 for row in r["rows"]),
                 "note": OVERLAPPED.get(path.stem),
                 "tail": sorted(((row["latency_s"] or 0, row["id"], row["defect"]) for row in r["rows"]), reverse=True)[:2]})
Path(__file__).with_name("runs.json").write_text(json.dumps({"machine": data["machine"], "runs": runs}, indent=1) + "\n")
for spacing in sorted({r["spacing_s"] for r in runs}, reverse=True):
    for tree in ("base", "full", "new", "new2", "first", "on"):
        rs = [r for r in runs if r["tree"] == tree and r["spacing_s"] == spacing and not r["note"]]
        if not rs:
            continue
        p95 = [r["latency_s"]["p95"] for r in rs]
        print(f"s{spacing} {tree:4s} n={len(rs)} missed {[r['missed'] for r in rs]} dup {[r['duplicates'] for r in rs]} "
              f"correct {[r['correct'] for r in rs]}/{rs[0]['tags']} p50 median {statistics.median(r['latency_s']['p50'] for r in rs):.2f} "
              f"p95 {p95} median {statistics.median(p95):.2f} det {[r['detections'] for r in rs]} "
              f"share {[r['reader_cpu_share'] for r in rs]} cores {[r['cpu_cores_used'] for r in rs]} "
              f"first tags split {sum(r['first_tags_split'] for r in rs)} "
              f"load {[r['load_average'] for r in rs]}")
