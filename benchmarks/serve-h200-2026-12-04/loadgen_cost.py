"""What one request costs the load generator, by HTTP client and event loop (issue 20).

    python benchmarks/serve-h200-2026-12-04/loadgen_cost.py --rate 600 --seconds 4 --repeats 2 --out cost.json

A trivial HTTP/1.1 server (its own process: reads the whole body, answers a fixed 60-byte JSON, keep-alive) stands
in for the service, so what is measured is the client. Each (client, loop) runs in its own process in turn,
`--repeats` rounds alternating, and sends `--rate`/s of `--body-kb` bodies open-loop for `--seconds` through
`inference.service.loadgen.run_load`; the process's CPU time (user + system) over the run divided by the
requests it sent is the generator's cost per request, so 1 / cost is what one core can send. Then each is
offered `--max-rate` to see the rate it really sends and how many requests leave late. On a shared machine the
absolute numbers move with the neighbours: compare the rows of one run as ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import resource
import socket
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

ANSWER = b'{"code":0,"time":0.1,"detections":[],"model":"trivial","precision":"fp32"}'
RESPONSE = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(ANSWER)) + ANSWER


class _Trivial(asyncio.Protocol):
    """HTTP/1.1 just enough for a POST with Content-Length: waits for the whole body, then answers."""

    def connection_made(self, transport) -> None:
        self.transport, self.buffer, self.need = transport, bytearray(), -1

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while True:
            if self.need < 0:
                end = self.buffer.find(b"\r\n\r\n")
                if end < 0:
                    return
                length = 0
                for line in bytes(self.buffer[:end]).split(b"\r\n")[1:]:
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value)
                self.need = end + 4 + length
            if len(self.buffer) < self.need:
                return
            del self.buffer[: self.need]
            self.need = -1
            self.transport.write(RESPONSE)


def serve(sock: socket.socket, cpus: set[int]) -> None:
    if cpus:
        os.sched_setaffinity(0, cpus)
    try:
        import uvloop
        factory = uvloop.new_event_loop
    except ImportError:
        factory = asyncio.new_event_loop
    loop = factory()
    server = loop.run_until_complete(loop.create_server(_Trivial, sock=sock))
    loop.run_until_complete(server.serve_forever())


def one_run(args) -> dict:
    url, client, loop_name, rate, seconds, body_kb, cpus = args
    if cpus:
        os.sched_setaffinity(0, cpus)
    from inference.service.loadgen import Body, run_load

    factory = asyncio.new_event_loop
    if loop_name == "uvloop":
        import uvloop
        factory = uvloop.new_event_loop
    bodies = [Body(os.urandom(body_kb * 1024), "image/jpeg")]

    def go(r: float, s: float):
        loop = factory()
        try:
            return loop.run_until_complete(run_load(url, r, s, bodies, client=client))
        finally:
            loop.close()

    go(20.0, 0.5)  # imports, the first connections
    before = resource.getrusage(resource.RUSAGE_SELF)
    wall = time.perf_counter()
    report = go(rate, seconds)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    summary = report.summary()
    sent = summary["sent"]
    return {"client": client, "loop": loop_name, "rate": rate, "sent": sent, "cpu_s": round(cpu, 3),
            "wall_s": round(wall, 3), "cpu_us_per_request": round(cpu / sent * 1e6, 1),
            "requests_per_cpu_s": round(sent / cpu, 1), "achieved_rate": summary["achieved_rate"],
            "ok_rate": summary["ok_rate"], "codes": summary["codes"], "late_sends": summary["late_sends"],
            "send_lag_p99_ms": summary["send_lag_ms"].get("p99"), "latency_ms": summary["ok_latency_ms"]}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rate", type=float, default=600.0, help="rate of the cost runs (one that every client keeps)")
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--max-rate", type=float, default=4000.0, help="then each is offered this rate (0: skip)")
    parser.add_argument("--max-seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--body-kb", type=int, default=142, help="body size: the 1080p JPEGs are 142 KB on average")
    parser.add_argument("--clients", nargs="*", default=["httpx", "aiohttp"])
    parser.add_argument("--loops", nargs="*", default=["asyncio", "uvloop"])
    parser.add_argument("--server-cpus", default="", help="e.g. 0")
    parser.add_argument("--client-cpus", default="", help="e.g. 1 (one core: the cost is per core)")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    cpus = lambda text: {int(c) for c in text.split(",") if c}  # noqa: E731

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(1024)
    url = f"http://127.0.0.1:{sock.getsockname()[1]}/detect"
    ctx = mp.get_context("spawn")
    server = ctx.Process(target=serve, args=(sock, cpus(args.server_cpus)), daemon=True)
    server.start()
    loops = [name for name in args.loops if name != "uvloop" or _has_uvloop()]
    combos = [(c, lp) for c in args.clients for lp in loops]
    rows, maxima = [], []
    try:
        with ctx.Pool(1, maxtasksperchild=1) as pool:
            for _ in range(args.repeats):
                for client, loop_name in combos:
                    row = pool.apply(one_run, ((url, client, loop_name, args.rate, args.seconds, args.body_kb,
                                                cpus(args.client_cpus)),))
                    rows.append(row)
                    print(json.dumps(row), flush=True)
            if args.max_rate > 0:
                for client, loop_name in combos:
                    row = pool.apply(one_run, ((url, client, loop_name, args.max_rate, args.max_seconds, args.body_kb,
                                                cpus(args.client_cpus)),))
                    maxima.append(row)
                    print(json.dumps(row), flush=True)
    finally:
        server.terminate()
    result = {"date": time.strftime("%Y-%m-%d %H:%M:%S"), "cpus": os.cpu_count(), "body_kb": args.body_kb,
              "rate": args.rate, "seconds": args.seconds, "rows": rows, "max_rate": args.max_rate, "maxima": maxima}
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


def _has_uvloop() -> bool:
    try:
        import uvloop  # noqa: F401
        return True
    except ImportError:
        return False


if __name__ == "__main__":
    raise SystemExit(main())
