"""Summaries of this folder's raw files, printed in the device calls (issue 20; 2026-12-04).

    python summarize.py cpu CPU.jsonl     # per service process: owner %, its busiest thread, front ends (one core = 100)
    python summarize.py rss CHUNKS.jsonl  # the RSS series of rss_hold.py, first / last / max and the slope
"""

from __future__ import annotations

import json
import sys

import numpy as np


def cpu(path: str) -> None:
    by_pid: dict[int, list[dict]] = {}
    for line in open(path, encoding="utf-8"):
        for entry in json.loads(line).get("owners", []):
            if "owner_pct" in entry:
                by_pid.setdefault(entry["pid"], []).append(entry)
    for pid, rows in by_pid.items():
        owner = np.array([r["owner_pct"] for r in rows])
        top = np.array([(r["owner_threads_pct"] or [0])[0] for r in rows])
        fronts = np.array([sum(r.get("children_pct", [])) for r in rows])
        busiest_front = np.array([max(r.get("children_pct", [0]) or [0]) for r in rows])
        loaded = fronts >= np.percentile(fronts, 75)  # the busiest quarter of the seconds: the saturated steps
        print(f"cpu serve pid {pid}: {len(rows)} s; busiest quarter of seconds: owner {np.median(owner[loaded]):.0f} % "
              f"(max {owner.max():.0f}), its busiest thread {np.median(top[loaded]):.0f} % (max {top.max():.0f}), "
              f"front ends together {np.median(fronts[loaded]):.0f} % (max {fronts.max():.0f}), busiest front end "
              f"{np.median(busiest_front[loaded]):.0f} % (max {busiest_front.max():.0f})")


def rss(path: str) -> None:
    rows = [json.loads(line) for line in open(path, encoding="utf-8")]
    t = np.array([r["t_s"] for r in rows])
    total = np.array([r["rss_mib"]["total"] for r in rows])
    owner = np.array([r["rss_mib"]["owner"] for r in rows])
    slope = np.polyfit(t[1:], total[1:], 1)[0] * 60 if len(rows) > 2 else float("nan")
    print(f"rss {len(rows)} chunks over {t[-1]:.0f} s: total first {total[0]:.1f} last {total[-1]:.1f} max {total.max():.1f} MiB, "
          f"owner first {owner[0]:.1f} last {owner[-1]:.1f}; slope after the first chunk {slope:+.2f} MiB/min; "
          f"served {min(r['ok_rate'] for r in rows)}-{max(r['ok_rate'] for r in rows)}/s, "
          f"P99 {min(r['p99_ms'] or 0 for r in rows)}-{max(r['p99_ms'] or 0 for r in rows)} ms, "
          f"late {sum(r['late_sends'] for r in rows)}, codes {sum_codes(rows)}")


def sum_codes(rows: list[dict]) -> dict:
    out: dict[str, int] = {}
    for r in rows:
        for k, v in r["codes"].items():
            out[k] = out.get(k, 0) + v
    return out


if __name__ == "__main__":
    {"cpu": cpu, "rss": rss}[sys.argv[1]](sys.argv[2])
