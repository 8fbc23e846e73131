"""Hold one `serve` at a constant open-loop rate for longer than one device call, reading its RSS (issue 20).

    setsid nohup python benchmarks/serve-h200-2026-12-04/rss_hold.py --state /tmp/rss --seconds 600 --rate 1000 \
        --batch 8 --serve-args '--jpeg-decode gpu --cuda-graph --frontends 8 --workers 2' > /tmp/rss/run.log 2>&1 &

A device call lasts at most 10 minutes and ends the processes it started, except those in a new session: started
with setsid, this runs on while the machine stays warm, and the next call reads what it wrote. After each chunk of
`--chunk-s` seconds it appends one JSON line to STATE/chunks.jsonl: the RSS of the owner and of every front end (all
processes under the service, read from /proc), the chunk's served rate, P50/P99 and codes; STATE/done.json when
the service has stopped (its exit code). Between chunks the client processes are started again (~1 s without load).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks import gpu_serve  # noqa: E402


def tree_rss_mib(pid: int) -> dict:
    """RSS of `pid` and of every process under it, MiB (psutil: the image has it)."""
    import psutil

    root = psutil.Process(pid)
    each = {"owner": root.memory_info().rss / 2**20}
    for child in root.children(recursive=True):
        try:
            each[f"{child.pid}"] = child.memory_info().rss / 2**20
        except psutil.Error:
            pass
    return {"total": round(sum(each.values()), 1), "owner": round(each["owner"], 1),
            "others": sorted(round(v, 1) for k, v in each.items() if k != "owner")}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--state", type=Path, required=True)
    parser.add_argument("--data", type=Path, default=Path(".gpubench/tagset"))
    parser.add_argument("--jpegs", type=Path, default=Path("/tmp/jpegs1080"))
    parser.add_argument("--seconds", type=float, default=600.0)
    parser.add_argument("--rate", type=float, required=True)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--queue", type=int, default=32)
    parser.add_argument("--chunk-s", type=float, default=20.0)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--client-cpus", default="12-15")
    parser.add_argument("--server-cpus", default="0-11")
    parser.add_argument("--serve-args", default="--jpeg-decode gpu --cuda-graph --frontends 8 --workers 2")
    parser.add_argument("--port", type=int, default=18900)
    parser.add_argument("--backend", default="onnxruntime-cuda")
    args = parser.parse_args()
    gpu_serve.CLIENT_CPUS.update(gpu_serve.cpu_set(args.client_cpus))
    gpu_serve.SERVER_CPUS.update(gpu_serve.cpu_set(args.server_cpus))
    args.state.mkdir(parents=True, exist_ok=True)
    if not any(args.jpegs.glob("*.jpg")):
        gpu_serve.write_jpegs(args.data, args.jpegs, 32, 90)
    server = gpu_serve.Servers(args.port, 1, args.batch, args.queue, args.state / "serve_rss.log",
                               args.serve_args.split(), args.backend)
    pid = server.pids[0]
    (args.state / "started.json").write_text(json.dumps({"pid": pid, "rate": args.rate, "batch": args.batch,
                                                         "serve_args": args.serve_args, "ts": time.time(),
                                                         "rss_ready_mib": tree_rss_mib(pid)}) + "\n")
    gpu_serve.load(server.urls, 200, 2.0, args.jpegs, args.clients)
    began = time.perf_counter()
    with open(args.state / "chunks.jsonl", "a", encoding="utf-8") as out:
        while time.perf_counter() - began < args.seconds:
            part = gpu_serve.load(server.urls, args.rate, args.chunk_s, args.jpegs, args.clients)
            ok = part["ok_latency_ms"]
            row = {"t_s": round(time.perf_counter() - began, 1), "rss_mib": tree_rss_mib(pid),
                   "ok_rate": part["ok_rate"], "p50_ms": ok.get("p50"), "p99_ms": ok.get("p99"),
                   "codes": part["codes"], "late_sends": part["late_sends"]}
            out.write(json.dumps(row) + "\n")
            out.flush()
    code = server.stop()
    (args.state / "done.json").write_text(json.dumps({"exit_code": code, "seconds": round(time.perf_counter() - began, 1),
                                                      "ts": time.time()}) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
