"""`hangtag-inspect serve` on a GPU under open-loop load (issue 20's H200 table and overload test).

    python benchmarks/gpu_serve.py --data DIR --out result.json [--batches 1 2 4 8] [--clients 4] [--processes 2]

Writes 1080p JPEGs from a tag set (benchmarks/gpu_read.py's one-tag frames), then for each max batch starts
the real service (`python -m inference.cli serve --backend onnxruntime-cuda --no-read`), finds the rate it
serves when offered more than it can take, and measures it at 80 % of that; then the overload test at 2× the
best sustainable rate. The load is `inference.service.loadgen.run_load` (open loop, latency from each
request's scheduled send time) in several client processes whose outcomes are merged.

`--processes N` starts N independent service processes on consecutive ports and sends client k's load to
process k mod N (what a load balancer in front of N processes does): one process has one event loop, and
the loop's CPU per request (benchmarks/serve_loop_cost.py) caps what one process can answer.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import multiprocessing as mp
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def write_jpegs(data: Path, folder: Path, count: int, quality: int) -> dict:
    """`count` 1080p JPEGs of one tag each in `folder`; those already there are kept (JPEGs written beforehand and
    carried to a machine without the tag set: every run then sends the same bytes)."""
    ready = sorted(folder.glob("*.jpg"))[:count] if folder.is_dir() else []
    if len(ready) == count:
        sizes = [p.stat().st_size for p in ready]
        return {"count": count, "mean_kb": round(sum(sizes) / count / 1024, 1), "size": "1920x1080",
                "quality": quality, "kept": True}
    from benchmarks.gpu_read import one_tag_frames

    folder.mkdir(parents=True, exist_ok=True)
    sizes = []
    for i, (frame, _row) in enumerate(one_tag_frames(data, count)):
        ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, quality])
        (folder / f"{i:03d}.jpg").write_bytes(buf.tobytes())
        sizes.append(len(buf))
    return {"count": len(sizes), "mean_kb": round(sum(sizes) / len(sizes) / 1024, 1), "size": "1920x1080", "quality": quality}


def _client(args) -> list[tuple]:
    url, rate, duration, folder, offset, cpus, client = args
    if cpus:  # the load generator on its own cores, so its own saturation does not pass for the server's
        os.sched_setaffinity(0, cpus)
    from inference.service.loadgen import load_bodies, run_load

    bodies = load_bodies(Path(folder))
    bodies = bodies[offset % len(bodies):] + bodies[: offset % len(bodies)]
    with asyncio.Runner(loop_factory=_loop_factory()) as runner:
        # a few requests first, unmeasured: a fresh process's first request pays the client's lazy imports and
        # the connection (~100 ms on the H200's cores), which set P99 at low rates on short steps
        runner.run(run_load(url, 4.0, 0.5, bodies[:2], timeout_s=30.0, client=client))
        report = runner.run(run_load(url, rate, duration, bodies, timeout_s=30.0, client=client))
    return [dataclasses.astuple(o) for o in report.outcomes]


def _loop_factory():
    """uvloop where installed (the H200 image has it): ~20 % less of the generator's CPU per request than
    asyncio's own loop with aiohttp (benchmarks/serve-h200-2026-12-04/loadgen_cost.py)."""
    try:
        import uvloop
        return uvloop.new_event_loop
    except ImportError:
        return None


CLIENT = ["aiohttp"]  # the load generator's HTTP client (--client), handed to each spawned client process
CLIENT_CPUS: set[int] = set()
SERVER_CPUS: set[int] = set()


def cpu_set(text: str) -> set[int]:
    """'12-15' or '0,2,4' → {12, 13, 14, 15}; '' → empty (no pinning)."""
    out: set[int] = set()
    for part in filter(None, text.split(",")):
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out


def load(url: str | list[str], rate: float, duration: float, folder: Path, clients: int) -> dict:
    """Open-loop load from `clients` processes; with several URLs (one per service process) client k sends
    to URL k mod len(urls)."""
    from inference.service.loadgen import LoadReport, Outcome

    urls = [url] if isinstance(url, str) else list(url)
    with mp.get_context("spawn").Pool(clients) as pool:
        parts = pool.map(_client, [(urls[k % len(urls)], rate / clients, duration, str(folder), k * 7, CLIENT_CPUS,
                                    CLIENT[0]) for k in range(clients)])
    outcomes = tuple(Outcome(*o) for part in parts for o in part)
    # served/s over first scheduled send → last answer, not over the schedule (see loadgen's docstring)
    return LoadReport(rate, duration, outcomes).summary()


def merged_log(logs: Path | list[Path]) -> Path:
    """One request log of several service processes (their lines together; order does not matter)."""
    if isinstance(logs, Path):
        return logs
    if len(logs) == 1:
        return logs[0]
    merged = logs[0].with_name(logs[0].stem.rsplit("_p", 1)[0] + "_all.log")
    merged.write_text("".join(log.read_text(encoding="utf-8", errors="replace") for log in logs), encoding="utf-8")
    return merged


def service_view(log: Path | list[Path], began: float) -> dict:
    from benchmarks.serve_steps import service_view as view

    time.sleep(0.2)  # the log line of the last answer is written just after the answer
    return view(merged_log(log), began, time.time())


def wait_ready(port: int, timeout_s: float = 180.0) -> float:
    start = time.perf_counter()
    while time.perf_counter() - start < timeout_s:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/ready", timeout=2) as r:
                if r.status == 200:
                    return time.perf_counter() - start
        except Exception:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"service on port {port} not ready after {timeout_s} s")


def batch_sizes(log: Path | list[Path]) -> dict:
    counts: Counter = Counter()
    for line in merged_log(log).read_text(encoding="utf-8", errors="replace").splitlines():
        if '"event":"request"' in line:
            try:
                counts[json.loads(line).get("batch")] += 1
            except ValueError:
                pass
    return {str(k): v for k, v in sorted(counts.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))}


class Server:
    def __init__(self, port: int, batch: int, queue: int, log: Path, extra: list[str], backend: str = "onnxruntime-cuda") -> None:
        self.port, self.log = port, log
        cmd = [sys.executable, "-m", "inference.cli", "serve", "--backend", backend, "--no-read",
               "--port", str(port), "--max-batch", str(batch), "--queue", str(queue), *extra]
        pin = (lambda: os.sched_setaffinity(0, SERVER_CPUS)) if SERVER_CPUS else None
        self.proc = subprocess.Popen(cmd, stdout=open(log, "w"), stderr=subprocess.STDOUT, preexec_fn=pin)
        self.ready_s = wait_ready(port)

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return -9


class Servers:
    """`count` service processes on ports port … port+count-1, each with its own log (and engine)."""

    def __init__(self, port: int, count: int, batch: int, queue: int, log: Path, extra: list[str], backend: str) -> None:
        self.logs = [log] if count == 1 else [log.with_name(f"{log.stem}_p{i}{log.suffix}") for i in range(count)]
        self.members = [Server(port + i, batch, queue, self.logs[i], extra, backend) for i in range(count)]
        self.urls = [f"http://127.0.0.1:{port + i}/detect" for i in range(count)]
        self.ready_s = max(m.ready_s for m in self.members)
        self.pids = [m.proc.pid for m in self.members]

    def stop(self) -> int:
        codes = [m.stop() for m in self.members]
        return next((c for c in codes if c != 0), 0)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--jpegs", type=Path, default=Path("/tmp/jpegs1080"))
    parser.add_argument("--batches", type=int, nargs="*", default=[1, 2, 4, 8])
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--offer", type=float, default=3000.0, help="offered rate to find the served maximum")
    parser.add_argument("--saturate-s", type=float, default=5.0)
    parser.add_argument("--measure-s", type=float, default=10.0)
    parser.add_argument("--overload-s", type=float, default=20.0)
    parser.add_argument("--queue", type=int, default=16)
    parser.add_argument("--quality", type=int, default=90)
    parser.add_argument("--logs", type=Path, default=Path("/tmp"))
    parser.add_argument("--backend", default="onnxruntime-cuda")
    parser.add_argument("--processes", type=int, default=1,
                        help="service processes, each on its own port; client k sends to process k mod N")
    parser.add_argument("--serve-args", default="", help="more `serve` options for every server, e.g. '--workers 2'")
    parser.add_argument("--client", choices=("aiohttp", "httpx"), default="aiohttp",
                        help="the load generator's HTTP client (httpx fell behind at ~2 800/s on the H200, 2026-12-03)")
    parser.add_argument("--client-cpus", default="", help="cores for the load generator, e.g. 12-15 (default: any)")
    parser.add_argument("--server-cpus", default="", help="cores for the service, e.g. 0-11 (default: any)")
    parser.add_argument("--p99-bound-ms", type=float, default=25.0,
                        help="find the highest rate (stepping down from the saturated one) with P99 under this and < 1 %% refused")
    parser.add_argument("--step-s", type=float, default=0.0, help="seconds per step of that search (0: no search)")
    parser.add_argument("--step-floor", type=float, default=0.2,
                        help="the search stops below this share of the saturated rate (the bound is then not met)")
    parser.add_argument("--overload-at", type=float, default=0.0,
                        help="the overload test at 2x this rate (with --overload-batch) instead of the best row's; "
                             "with --batches given none, only the overload test runs")
    parser.add_argument("--overload-batch", type=int, default=8, help="max batch of --overload-at's overload test")
    parser.add_argument("--rss-s", type=float, default=0.0,
                        help="then hold --rss-rate on one service for this long, reading its RSS between chunks (0: skip)")
    parser.add_argument("--rss-rate", type=float, default=0.0, help="rate of the RSS run (default: 80 %% of the best sustainable)")
    parser.add_argument("--rss-chunk-s", type=float, default=20.0)
    parser.add_argument("--rss-batch", type=int, default=0, help="max batch of the RSS run (default: the best row's)")
    args = parser.parse_args()
    CLIENT_CPUS.update(cpu_set(args.client_cpus))
    CLIENT[0] = args.client
    SERVER_CPUS.update(cpu_set(args.server_cpus))

    result: dict = {"date": time.strftime("%Y-%m-%d %H:%M:%S"), "cpus": os.cpu_count(), "client": args.client,
                    "client_loop": "uvloop" if _loop_factory() else "asyncio",
                    "jpegs": write_jpegs(args.data, args.jpegs, 32, args.quality), "rows": []}
    print("jpegs", result["jpegs"], flush=True)
    port = 18300
    best = (0.0, 8)
    for batch in args.batches:
        port += args.processes
        log = args.logs / f"serve_b{batch}.log"
        server = Servers(port, args.processes, batch, args.queue, log, args.serve_args.split(), args.backend)
        log, url = server.logs, server.urls
        load(url, 200, 2.0, args.jpegs, args.clients)  # warm the connections and the decode pool
        began = time.time()
        sat = load(url, args.offer, args.saturate_s, args.jpegs, args.clients)
        # the service's own view of the step (when requests reached a handler, what it served): a step whose
        # requests reached the service long after they were scheduled measured the generator or the HTTP layer
        sat["service"] = service_view(log, began)
        sustainable = sat["ok_rate"]
        steps = []
        bound_met = None
        if args.step_s > 0:  # step down until P99 holds the bound with (almost) nothing refused
            rate, floor = sustainable, max(1.0, args.step_floor * sustainable)
            while rate >= floor:
                began = time.time()
                step = load(url, rate, args.step_s, args.jpegs, args.clients)
                step_service = service_view(log, began)
                refused = step["codes"].get("503", 0) / max(1, step["sent"])
                p99 = step["ok_latency_ms"].get("p99", float("inf"))
                steps.append({"rate": round(rate, 1), "p50_ms": step["ok_latency_ms"].get("p50"), "p99_ms": p99,
                              "refused_share": round(refused, 4), "served_per_s": step["ok_rate"],
                              "late_sends": step["late_sends"], "service": step_service})
                if p99 <= args.p99_bound_ms and refused < 0.01:
                    sustainable, bound_met = rate, True
                    break
                rate *= 0.85
            else:  # the bound is not met above the floor: the highest rate with under 1 % refused stands in
                bound_met = False
                sustainable = max((s["rate"] for s in steps if s["refused_share"] < 0.01), default=floor)
        at80 = load(url, 0.8 * sustainable, args.measure_s, args.jpegs, args.clients) if sustainable else {}
        code = server.stop()
        row = {"max_batch": batch, "processes": args.processes, "serve_args": args.serve_args, "ready_s": round(server.ready_s, 1), "saturated": sat, "search": steps,
               "p99_bound_ms": args.p99_bound_ms, "bound_met": bound_met, "sustainable": round(sustainable, 1), "at_80pct": at80,
               "batch_sizes": batch_sizes(log), "exit_code": code}
        result["rows"].append(row)
        ok = at80.get("ok_latency_ms", {})
        print(f"batch {batch}: served {sat['ok_rate']}/s at {args.offer}/s offered ({sat['late_sends']} of "
              f"{sat['sent']} sent late, answers over {sat['duration_s']} s); sustainable {sustainable:.0f}/s; "
              f"at 80 %: {at80.get('ok_rate')}/s p50 {ok.get('p50')} p95 {ok.get('p95')} p99 {ok.get('p99')} "
              f"codes {at80.get('codes')} exit {code}", flush=True)
        if sustainable > best[0]:
            best = (sustainable, batch)
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    if args.overload_at > 0:
        best = (args.overload_at, args.overload_batch)
    if args.overload_s > 0:
        sustainable, batch = best
        port += args.processes
        log = args.logs / "serve_overload.log"
        server = Servers(port, args.processes, batch, args.queue, log, args.serve_args.split(), args.backend)
        url = server.urls
        load(url, 200, 2.0, args.jpegs, args.clients)
        began = time.time()
        over = load(url, 2 * sustainable, args.overload_s, args.jpegs, args.clients)
        code = server.stop()
        log = merged_log(server.logs)
        rejected = []
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
            if '"event":"request"' in line and '"code":503' in line:
                try:
                    record = json.loads(line)
                    if record.get("ts", 0) >= began:
                        rejected.append(record.get("total_ms"))
                except ValueError:
                    pass
        import numpy as np

        r = np.asarray([v for v in rejected if v is not None], np.float64)
        result["overload"] = {"max_batch": batch, "offered": 2 * sustainable, "client": over, "exit_code": code,
                              "rejected_in_service_ms": {"count": int(r.size), **({"p50": round(float(np.percentile(r, 50)), 3),
                                                         "p99": round(float(np.percentile(r, 99)), 3), "max": round(float(r.max()), 3)} if r.size else {})}}
        ok = over["ok_latency_ms"]
        print(f"overload at {2 * sustainable:.0f}/s (batch {batch}): codes {over['codes']} ok p50 {ok.get('p50')} p99 {ok.get('p99')}; "
              f"503 in service {result['overload']['rejected_in_service_ms']}; at client {over['rejected_latency_ms']}", flush=True)
    if args.rss_s > 0:
        result["rss"] = rss_run(args, best, port + args.processes)
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return -1


def rss_run(args, best: tuple[float, int], port: int) -> dict:
    """One service held at a constant open-loop rate for `--rss-s`, its RSS read after every chunk."""
    batch = args.rss_batch or best[1]
    rate = args.rss_rate or 0.8 * best[0]
    server = Servers(port, args.processes, batch, args.queue, args.logs / "serve_rss.log", args.serve_args.split(), args.backend)
    url = server.urls
    load(url, 200, 2.0, args.jpegs, args.clients)
    chunks = []
    began = time.perf_counter()
    start_kib = sum(rss_kib(pid) for pid in server.pids)  # all service processes together
    while time.perf_counter() - began < args.rss_s:
        part = load(url, rate, args.rss_chunk_s, args.jpegs, args.clients)
        chunks.append({"t_s": round(time.perf_counter() - began, 1), "rss_mib": round(sum(rss_kib(pid) for pid in server.pids) / 1024, 1),
                       "rss_each_mib": [round(rss_kib(pid) / 1024, 1) for pid in server.pids],
                       "ok_rate": part["ok_rate"], "p99_ms": part["ok_latency_ms"].get("p99"), "codes": part["codes"]})
        print("rss", chunks[-1], flush=True)
    code = server.stop()
    rss = [c["rss_mib"] for c in chunks]
    return {"max_batch": batch, "processes": args.processes, "rate": round(rate, 1), "seconds": round(time.perf_counter() - began, 1),
            "rss_start_mib": round(start_kib / 1024, 1), "rss_after_first_chunk_mib": rss[0] if rss else None,
            "rss_last_mib": rss[-1] if rss else None, "rss_max_mib": max(rss, default=None), "chunks": chunks,
            "exit_code": code}


if __name__ == "__main__":
    raise SystemExit(main())
