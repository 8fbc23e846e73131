"""Saturate `hangtag-inspect serve`, then offer shares of the rate it served (issue 20's step-down check).

    python benchmarks/serve_steps.py --images DIR --out steps.json [--saturate 150] [--shares 0.5 0.3]

Starts the real service (`python -m inference.cli serve --no-read`), warms it, offers `--saturate`/s for
`--saturate-s`, then `--shares` × the served rate for `--step-s` each, with the open-loop generator
(`inference.service.loadgen.run_load`) in this process. Each step is reported twice: as the client saw it
(codes, latencies from the schedule, when requests really left) and as the service's JSON request log saw
it (when the requests reached a handler, the window its 200s were answered in, how long its 503s took).
The two views disagree when requests wait in front of the service (in the generator or the HTTP layer):
that is what this script is for.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def service_view(log: Path, began: float, ended: float) -> dict:
    """The request-log lines of one step (answered between `began` and `ended`, wall clock)."""
    records = []
    for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
        if '"event":"request"' not in line:
            continue
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if began <= record.get("ts", 0.0) <= ended:
            records.append(record)
    if not records:
        return {"requests": 0}
    arrived = np.array([r["ts"] - r["total_ms"] / 1000.0 - began for r in records])
    ok = [r for r in records if r["code"] == 200]
    refused = [r for r in records if r["code"] == 503]
    out = {"requests": len(records), "ok": len(ok), "refused": len(refused),
           "first_arrival_s": round(float(arrived.min()), 3), "last_arrival_s": round(float(arrived.max()), 3)}
    if ok:
        last_ok = max(r["ts"] for r in ok) - began
        out["last_ok_s"] = round(last_ok, 3)
        # served over the time requests were there to serve: first arrival at a handler → last 200
        out["served_per_s"] = round(len(ok) / max(1e-3, last_ok - float(arrived.min())), 3)
        out["ok_queue_ms_max"] = round(max(r.get("queue_ms", 0.0) for r in ok), 1)
    kinds: dict[str, list[float]] = {}
    for r in refused:
        kinds.setdefault(r.get("error", "?"), []).append(r["total_ms"])
    out["refused_in_service_ms"] = {k: {"count": len(v), "p50": round(float(np.percentile(v, 50)), 3),
                                        "max": round(float(max(v)), 3)} for k, v in kinds.items()}
    return out


def step(name: str, url: str, rate: float, seconds: float, bodies, log: Path) -> dict:
    from inference.service.loadgen import run_load

    began = time.time()
    report = asyncio.run(run_load(url, rate, seconds, bodies, timeout_s=120.0))
    time.sleep(0.3)  # the log line of the last answer is written after the answer
    summary = report.summary()
    client = {k: summary[k] for k in ("target_rate", "sent", "send_window_s", "duration_s", "achieved_rate",
                                      "ok_rate", "codes", "ok_latency_ms", "rejected_latency_ms", "send_lag_ms",
                                      "upload_ms", "connect_ms", "late_sends")}
    # what dividing the 200s by the sending window (the generator's old served rate) would have said
    client["ok_per_send_window"] = round(summary["codes"].get("200", 0) / summary["send_window_s"], 2)
    row = {"step": name, "client": client, "service": service_view(log, began, time.time())}
    c, s = client, row["service"]
    print(f"{name:>9}: offered {rate:.2f}/s × {seconds:g} s | client: {c['codes']}, served {c['ok_rate']}/s over "
          f"{c['duration_s']} s (÷ send window: {c['ok_per_send_window']}/s), late sends {c['late_sends']}, "
          f"send lag p99 {c['send_lag_ms'].get('p99')} ms, connect p99 {c['connect_ms'].get('p99')} ms ({c['connect_ms']['count']} new) | service: arrivals {s.get('first_arrival_s')}–"
          f"{s.get('last_arrival_s')} s, {s.get('served_per_s')}/s served, 503 {s.get('refused_in_service_ms')}",
          flush=True)
    return row


def main() -> int:
    from benchmarks.gpu_serve import Server
    from inference.service.loadgen import load_bodies

    parser = argparse.ArgumentParser()
    parser.add_argument("--images", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--port", type=int, default=18431)
    parser.add_argument("--backend", default="onnxruntime-cpu")
    parser.add_argument("--max-batch", type=int, default=4)
    parser.add_argument("--queue", type=int, default=16)
    parser.add_argument("--saturate", type=float, default=150.0, help="offered rate of the saturation step")
    parser.add_argument("--saturate-s", type=float, default=6.0)
    parser.add_argument("--shares", type=float, nargs="*", default=[0.5, 0.3],
                        help="later steps offer these shares of the saturation step's served rate")
    parser.add_argument("--step-s", type=float, default=20.0)
    parser.add_argument("--log", type=Path, default=Path("/tmp/serve_steps.log"))
    parser.add_argument("--serve-args", default="", help="more `serve` options, e.g. '--decode-threads 2'")
    args = parser.parse_args()

    bodies = load_bodies(args.images)
    server = Server(args.port, args.max_batch, args.queue, args.log, args.serve_args.split(), args.backend)
    url = f"http://127.0.0.1:{args.port}/detect"
    result = {"date": time.strftime("%Y-%m-%d %H:%M:%S"), "max_batch": args.max_batch, "queue": args.queue,
              "images": str(args.images), "mean_kb": round(sum(len(b.data) for b in bodies) / len(bodies) / 1024, 1),
              "steps": []}
    try:
        result["steps"].append(step("warm", url, 2.0, 3.0, bodies, args.log))
        saturated = step("saturate", url, args.saturate, args.saturate_s, bodies, args.log)
        result["steps"].append(saturated)
        served = saturated["client"]["ok_rate"]
        for share in args.shares:
            result["steps"].append(step(f"{share:.0%}", url, share * served, args.step_s, bodies, args.log))
    finally:
        result["exit_code"] = server.stop()
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
