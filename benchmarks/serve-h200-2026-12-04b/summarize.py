"""The A/B of the owner's collector (issue 20; 2026-12-04b), printed in the device calls and re-run here.

    python summarize.py DIR     # DIR holds MODE_ROUND/ and spy_MODE/ folders, each steps.json and serve_b8.log[.gz]

Per run: the search's result (gpu_serve.py's JSON), the owner's collections (its gc / gc_pause lines), and how many
of the requests that waited long in the owner's queue overlapped a collection of >= 2 ms (their interval in the
service, from the front end's answer time back by total_ms, against each pause's [end - ms, end]). Per spy_ run:
the shares of py-spy --gil samples (only a thread holding the GIL is sampled) by thread and by leaf.
"""

from __future__ import annotations

import bisect
import collections
import gzip
import json
import sys
from pathlib import Path

import numpy as np

SLOW_QUEUE_MS = 15.0


def log_lines(folder: Path):
    for name in ("serve_b8.log", "serve_b8.log.gz"):
        path = folder / name
        if path.exists():
            opener = gzip.open if name.endswith(".gz") else open
            with opener(path, "rt", encoding="utf-8", errors="replace") as f:
                for line in f:
                    if line.startswith("{"):
                        try:
                            yield json.loads(line)
                        except ValueError:
                            pass
            return


def run_summary(folder: Path) -> dict:
    out: dict = {"run": folder.name}
    steps = folder / "steps.json"
    if steps.exists():
        row = json.loads(steps.read_text())["rows"][0]
        at80 = row.get("at_80pct", {}).get("ok_latency_ms", {})
        out.update(saturated=row["saturated"]["ok_rate"], late=row["saturated"]["late_sends"],
                   service_saturated=row["saturated"].get("service", {}).get("served_per_s"),
                   sustainable=row["sustainable"], bound_met=row["bound_met"],
                   steps=[(s["rate"], s["p99_ms"], s["refused_share"], s["service"].get("ok_queue_ms_max"))
                          for s in row["search"]],
                   at80=(row.get("at_80pct", {}).get("ok_rate"), at80.get("p50"), at80.get("p95"), at80.get("p99")),
                   exit=row["exit_code"])
    pauses, summary, settled, requests = [], {}, {}, []
    for e in log_lines(folder):
        kind = e.get("event")
        if kind == "gc_pause":
            pauses.append((e["at"] - e["ms"] / 1e3, e["at"], e["generation"], e["ms"]))
        elif kind == "gc":
            summary = e
        elif kind == "gc_settled":
            settled = e
        elif kind == "request" and e.get("code") == 200 and "queue_ms" in e:
            requests.append((e["ts"] - e["total_ms"] / 1e3, e["ts"], e["queue_ms"]))
    out["gc_mode"] = settled.get("mode")
    out["frozen"] = settled.get("frozen")
    for key in ("collections", "total_ms", "max_ms", "tracked"):
        out[f"gc_{key}"] = summary.get(key)
    out["long_pauses"] = len(pauses)
    out["long_pause_ms"] = [round(p[3], 1) for p in sorted(pauses, key=lambda p: -p[3])[:8]]
    starts = sorted(p[0] for p in pauses)
    pauses.sort()
    slow = [r for r in requests if r[2] >= SLOW_QUEUE_MS]
    hit = 0
    for begin, end, _ in slow:  # a pause overlaps [begin, end] when it starts before end and ends after begin
        i = bisect.bisect_right(starts, end)
        if any(p[1] >= begin for p in pauses[max(0, i - 50):i]):
            hit += 1
    q = np.asarray([r[2] for r in requests]) if requests else np.zeros(1)
    out.update(requests=len(requests), queue_ms_p99=round(float(np.percentile(q, 99)), 2),
               queue_ms_max=round(float(q.max()), 2), slow_requests=len(slow), slow_with_gc=hit)
    return out


def spy_summary(path: Path) -> dict:
    thread, leaf, total = collections.Counter(), collections.Counter(), 0
    per_thread = collections.defaultdict(collections.Counter)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as f:
        for line in f:
            stack, _, count = line.rstrip().rpartition(" ")
            if not count.isdigit():
                continue
            n = int(count)
            total += n
            frames = stack.split(";")
            thread[frames[0][:50]] += n
            leaf[frames[-1][:100]] += n
            per_thread[frames[0][:50]][frames[-1][:90]] += n
    return {"samples": total, "threads": thread.most_common(6), "leaves": leaf.most_common(12),
            "per_thread": {t: c.most_common(6) for t, c in per_thread.items()}}


def main(root: Path) -> None:
    runs = [run_summary(d) for d in sorted(root.iterdir()) if d.is_dir()]
    for r in runs:
        print(json.dumps(r, separators=(",", ":")))
    by_mode = collections.defaultdict(list)
    for r in runs:
        if not r["run"].startswith("spy_") and "sustainable" in r:
            by_mode[r["gc_mode"]].append(r)
    for mode, rows in by_mode.items():
        print(f"{mode}: sustainable {[r['sustainable'] for r in rows]} saturated {[r['saturated'] for r in rows]} "
              f"at80 p99 {[r['at80'][3] for r in rows]} slow {[r['slow_requests'] for r in rows]} "
              f"with gc {[r['slow_with_gc'] for r in rows]} gen2 max ms {[(r['gc_max_ms'] or [0, 0, 0])[2] for r in rows]}")
    for d in sorted(root.glob("spy_*")):
        for name in ("gil.txt", "gil.txt.gz"):
            if (d / name).exists():
                s = spy_summary(d / name)
                print(d.name, "GIL samples", s["samples"], "(4 s at 200 Hz: 800 = the GIL always held)", s["threads"])
                for t, c in s["per_thread"].items():
                    print("  ", t, c)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
