"""The live runs of this folder as one table (python benchmarks/line-latency-2026-12-05b/summary.py DIR)."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def main(folder: Path) -> None:
    print("| run | tags | seen | verdicts | correct | dup | missed | false | p50 / p95 / max s | reads | detections "
          "| followed | reader share | load |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for path in sorted(folder.glob("*.json"), key=lambda p: p.stat().st_mtime):
        r = json.loads(path.read_text(encoding="utf-8"))["runs"][0]
        lat = r["latency_s"]
        print(f"| {path.stem} | {r['tags']} | {r['tags_seen']} | {r['tags_with_verdict']} | {r['correct']} | "
              f"{r['duplicates']} | {r['missed']} | {r['false_verdicts']} | {lat['p50']:.2f} / {lat['p95']:.2f} / "
              f"{lat['max']:.2f} | {r['reads']} | {r['frames_inspected']} | {r['frames_followed']} | "
              f"{r['reader_cpu_share']} | {r['load_average'][0]:.1f}–{r['load_average'][1]:.1f} |")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
