"""The A/B of the decode/infer overlap (issue 20; 2026-12-04c), printed in the device calls and re-run here.

    python summarize.py DIR     # DIR holds VARIANT_ROUND/ folders (old_1, new_1, ...), each steps.json and serve_b*.log[.gz]

Per run: the search's result (gpu_serve.py's JSON: saturated rate, the highest step with P99 <= 25 ms, 80 % of it
with P50/P95/P99), the exit and 500s, and from the service's own request log the per-batch stages in the saturated
step (5-10.5 s after "ready", as stages.py of 2026-12-04b) and in the last 5 s (the 80 % step): queue wait, the
batch's JPEG decode (per-frame share x batch), preprocess, infer, postprocess, and "rest" (total - queue - stages:
front end, pipes, answer; with the overlap a batch's decode also runs beside the previous batch's inference, so
queue + stages no longer add up to the time a worker is busy).
"""

from __future__ import annotations

import collections
import gzip
import json
import sys
from pathlib import Path

import numpy as np


def log_events(folder: Path) -> list[dict]:
    for path in sorted(folder.glob("serve_b*.log*")):
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8", errors="replace") as f:
            out = []
            for line in f:
                if line.startswith("{"):
                    try:
                        out.append(json.loads(line))
                    except ValueError:
                        pass
            return out
    return []


def stages(rows: list[dict]) -> dict:
    if not rows:
        return {}
    q = np.array([r["queue_ms"] for r in rows])
    tot = np.array([r["total_ms"] for r in rows])
    b = np.array([r["batch"] for r in rows])
    g = lambda k: np.array([r.get("stages", {}).get(k, np.nan) for r in rows])  # noqa: E731
    dec, inf, post, pre = g("decode") * b, g("infer"), g("postprocess"), g("preprocess")
    rest = tot - q - np.nan_to_num(dec) - inf - np.nan_to_num(post) - np.nan_to_num(pre)
    r1 = lambda v: round(float(v), 2)  # noqa: E731
    return {"n": len(rows), "batch": r1(b.mean()), "queue_p50": r1(np.median(q)), "queue_p99": r1(np.percentile(q, 99)),
            "decode_batch_p50": r1(np.nanmedian(dec)), "preprocess_p50": r1(np.nanmedian(pre)),
            "infer_p50": r1(np.nanmedian(inf)), "postprocess_p50": r1(np.nanmedian(post)),
            "rest_p50": r1(np.median(rest)), "rest_p99": r1(np.percentile(rest, 99)),
            "total_p50": r1(np.median(tot)), "total_p99": r1(np.percentile(tot, 99))}


def run_summary(folder: Path) -> dict:
    out: dict = {"run": folder.name}
    steps = folder / "steps.json"
    if steps.exists():
        rows = json.loads(steps.read_text())["rows"]
        out["rows"] = []
        for row in rows:
            at80 = row.get("at_80pct", {}).get("ok_latency_ms", {})
            out["rows"].append(dict(
                max_batch=row["max_batch"], saturated=row["saturated"]["ok_rate"], late=row["saturated"]["late_sends"],
                service_saturated=row["saturated"].get("service", {}).get("served_per_s"),
                sustainable=row["sustainable"], bound_met=row["bound_met"],
                steps=[(s["rate"], s["p99_ms"], s["refused_share"]) for s in row["search"]],
                at80=(row.get("at_80pct", {}).get("ok_rate"), at80.get("p50"), at80.get("p95"), at80.get("p99")),
                batch_sizes=row.get("batch_sizes"), exit=row["exit_code"]))
    ev = log_events(folder)
    ready = next((e["ts"] for e in ev if e.get("event") == "ready"), None)
    if ready is not None:
        req = [e for e in ev if e.get("event") == "request" and e.get("code") == 200 and "queue_ms" in e]
        last = max((e["ts"] for e in req), default=ready)
        out["saturated_stages"] = stages([e for e in req if 5 <= e["ts"] - ready < 10.5])
        out["last5s_stages"] = stages([e for e in req if e["ts"] >= last - 5])
        out["codes"] = dict(collections.Counter(e.get("code") for e in ev if e.get("event") == "request"))
        out["shutdown"] = [e["event"] for e in ev if e.get("event") in ("draining", "frontends_stopped", "stopped")]
    return out


def main(root: Path) -> None:
    runs = [run_summary(d) for d in sorted(root.iterdir()) if d.is_dir()]
    for r in runs:
        print(json.dumps(r, separators=(",", ":")))
    by = collections.defaultdict(list)
    for r in runs:
        for row in r.get("rows", []):
            by[(r["run"].split("_")[0], row["max_batch"])].append(row)
    for (variant, batch), rows in sorted(by.items()):
        print(f"{variant} b{batch}: sustainable {[x['sustainable'] for x in rows]} saturated "
              f"{[x['saturated'] for x in rows]} at80 {[x['at80'] for x in rows]}")
    (root / "summary.json").write_text(json.dumps(runs, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
