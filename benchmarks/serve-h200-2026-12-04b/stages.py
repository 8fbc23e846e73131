"""Where a request's time goes in the A/B's service logs, and the owner's late wakes (issue 20; 2026-12-04b).

    python stages.py LOG.gz ...           # per log: saturated step (5-10.5 s after ready) and the steps after it
    python stages.py --timeline LOG.gz    # per second after ready: queue wait, stages, batch, the loop's late wakes

A batch's JPEG decode is the per-frame share times the batch; "rest" = total - queue - stages (front end, pipes,
answer). Run on the logs in run2.tgz / run3.tgz (not kept: 5.5 MB); the printed output is stages.txt.
"""

from __future__ import annotations

import gzip
import json
import sys

import numpy as np


def events(path: str) -> tuple[list[dict], float]:
    ev = [json.loads(line) for line in gzip.open(path, "rt") if line.startswith("{")]
    return ev, next(e["ts"] for e in ev if e["event"] == "ready")


def stage_table(path: str) -> None:
    ev, ready = events(path)
    req = [e for e in ev if e["event"] == "request" and e.get("code") == 200 and "queue_ms" in e]
    t = np.array([r["ts"] - ready for r in req])
    print(path)
    for name, m in (("sat", (t >= 5) & (t < 10.5)), ("after", t >= 11.5)):
        rows = [r for r, k in zip(req, m) if k]
        q = np.array([r["queue_ms"] for r in rows])
        tot = np.array([r["total_ms"] for r in rows])
        b = np.array([r["batch"] for r in rows])
        g = lambda k: np.array([r.get("stages", {}).get(k, np.nan) for r in rows])  # noqa: E731
        dec, inf, post, pre = g("decode"), g("infer"), g("postprocess"), g("preprocess")
        rest = tot - q - np.nan_to_num(dec * b) - inf - np.nan_to_num(post) - np.nan_to_num(pre)
        print(f"  {name}: n {m.sum()} batch {b.mean():.1f} | queue p50 {np.median(q):.1f} p99 {np.percentile(q, 99):.1f}"
              f" | batch decode p50 {np.nanmedian(dec * b):.1f} infer {np.nanmedian(inf):.1f} pre {np.nanmedian(pre):.2f}"
              f" post {np.nanmedian(post):.1f} | rest p50 {np.median(rest):.1f} p99 {np.percentile(rest, 99):.1f}"
              f" | total p50 {np.median(tot):.1f} p99 {np.percentile(tot, 99):.1f}")


def timeline(path: str) -> None:
    ev, ready = events(path)
    lag = [(e["ts"] - ready, e["late_ms"]) for e in ev if e["event"] == "loop_lag"]
    req = [e for e in ev if e["event"] == "request" and e.get("code") == 200 and "queue_ms" in e]
    if lag:
        v = np.array([x[1] for x in lag])
        print(f"{path}: {len(lag)} late wakes >= 2 ms, p50 {np.median(v):.1f} max {v.max():.1f}, >= 5 ms {(v >= 5).sum()}, "
              f">= 10 ms {(v >= 10).sum()}")
    t = np.array([r["ts"] - ready for r in req])
    q = np.array([r["queue_ms"] for r in req])
    tot = np.array([r["total_ms"] for r in req])
    inf = np.array([r.get("stages", {}).get("infer", np.nan) for r in req])
    b = np.array([r.get("batch", 0) for r in req])
    for sec in range(int(t.max()) + 1):
        m = (t >= sec) & (t < sec + 1)
        if m.sum() < 50:
            continue
        late = [ms for x, ms in lag if sec <= x < sec + 1]
        print(f"  {sec:3d} s n {m.sum():5d} queue p50 {np.median(q[m]):5.1f} p99 {np.percentile(q[m], 99):5.1f} "
              f"| total p99 {np.percentile(tot[m], 99):5.1f} | infer p50 {np.nanmedian(inf[m]):4.1f} | batch {b[m].mean():.1f} "
              f"| late wakes >= 5 ms {sum(ms >= 5 for ms in late)}, max {max(late or [0]):.1f}")


if __name__ == "__main__":
    if sys.argv[1] == "--timeline":
        for p in sys.argv[2:]:
            timeline(p)
    else:
        for p in sys.argv[1:]:
            stage_table(p)
