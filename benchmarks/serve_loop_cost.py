"""What one request costs `serve`'s event loop: CPU time of the service's main thread (uvicorn's loop: HTTP
parsing, routing, admission, the JSON log line, metrics, the answer) per request, apart from decode and
inference, which run on other threads (issue 20: can one service process reach 1 500 requests/s?).

    python benchmarks/serve_loop_cost.py --images DIR [--rate 30] [--seconds 20]

The model is a tiny batchable detector (tests' blob detector), so inference costs almost nothing and the
rate stays well under what the service serves; CPU time is read from /proc for the main thread and for
the whole process before and after the load. CPU time, unlike wall time, hardly depends on what else the
machine runs, so the figure holds on a shared machine; 1000 ÷ (loop ms per request) is the rate at which
the loop alone would fill one core.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

TICK = os.sysconf("SC_CLK_TCK")


def cpu_times(pid: int, tid: int | None = None) -> tuple[float, float]:
    """(user, kernel) CPU seconds of a process, or of one of its threads."""
    path = f"/proc/{pid}/task/{tid}/stat" if tid else f"/proc/{pid}/stat"
    fields = Path(path).read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) / TICK, int(fields[12]) / TICK


def cpu_s(pid: int, tid: int | None = None) -> float:
    return sum(cpu_times(pid, tid))


def main() -> int:
    from benchmarks.gpu_serve import wait_ready
    from inference.service.loadgen import load_bodies, run_load
    from tests.test_service_support import batch_blob_detector

    parser = argparse.ArgumentParser()
    parser.add_argument("--images", type=Path, required=True)
    parser.add_argument("--rate", type=float, default=30.0)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--port", type=int, default=18441)
    parser.add_argument("--max-batch", type=int, default=8)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()

    bodies = load_bodies(args.images)
    with tempfile.TemporaryDirectory() as folder:
        model = batch_blob_detector(Path(folder) / "blob.onnx")
        log = Path(folder) / "serve.log"
        cmd = [sys.executable, "-m", "inference.cli", "serve", "--model", str(model), "--backend", "onnxruntime-cpu",
               "--no-read", "--port", str(args.port), "--max-batch", str(args.max_batch), "--queue", "256",
               "--threads", "1"]
        server = subprocess.Popen(cmd, stdout=open(log, "w"), stderr=subprocess.STDOUT)
        try:
            wait_ready(args.port)
            url = f"http://127.0.0.1:{args.port}/detect"
            asyncio.run(run_load(url, 5.0, 1.0, bodies))  # warm: connections, decode threads, the engine
            # the main thread's id is the process id: uvicorn runs its event loop there
            loop0, all0, wall0 = cpu_times(server.pid, server.pid), cpu_s(server.pid), time.perf_counter()
            report = asyncio.run(run_load(url, args.rate, args.seconds, bodies))
            loop1, all1, wall1 = cpu_times(server.pid, server.pid), cpu_s(server.pid), time.perf_counter()
        finally:
            server.terminate()
            server.wait(60)
        summary = report.summary()
        n = summary["sent"]
        result = {"date": time.strftime("%Y-%m-%d %H:%M:%S"), "load_avg": os.getloadavg(), "rate": args.rate,
                  "requests": n, "codes": summary["codes"],
                  "mean_body_kb": round(sum(len(b.data) for b in bodies) / len(bodies) / 1024, 1),
                  "loop_cpu_ms_per_request": round((sum(loop1) - sum(loop0)) * 1000 / n, 3),
                  "loop_user_ms_per_request": round((loop1[0] - loop0[0]) * 1000 / n, 3),
                  "loop_kernel_ms_per_request": round((loop1[1] - loop0[1]) * 1000 / n, 3),
                  "process_cpu_ms_per_request": round((all1 - all0) * 1000 / n, 3),
                  "loop_alone_fills_a_core_at_per_s": (round(n / (sum(loop1) - sum(loop0)), 1)
                                                       if sum(loop1) > sum(loop0) else None),
                  "wall_s": round(wall1 - wall0, 2), "ok_latency_ms": summary["ok_latency_ms"],
                  "http_stack": http_stack()}
    text = json.dumps(result, indent=1)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


def http_stack() -> dict:
    import importlib.util

    import uvicorn

    return {"uvicorn": uvicorn.__version__, "httptools": importlib.util.find_spec("httptools") is not None,
            "uvloop": importlib.util.find_spec("uvloop") is not None}


if __name__ == "__main__":
    raise SystemExit(main())
