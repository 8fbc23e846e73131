"""Trigger → result-ready round trips per transport: a `hangtag-inspect line` station process and a
`plc-sim` PLC process on loopback (MQTT through a mosquitto this script starts).

    .venv/bin/python benchmarks/line_latency.py --count 1000                       # trivial inspection
    .venv/bin/python benchmarks/line_latency.py --count 100 --detector resources/samples/<image>
    .venv/bin/python benchmarks/line_latency.py --count 1000 --baseline   # + the station alone, and ratios to it

Prints one JSON object per transport: the PLC's round trip (p50/p95/p99) and, from the station,
trigger accepted → result queued (`station_ms`) and → result put out on the transport (`offered_ms`: the
OPC UA event sent, the MQTT message handed to the client; for Modbus the same as queued, as the next read
returns it), split into the inspection call and the handshake's own share (handover to the inspection
thread, return to the state machine, publish on the transport).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, proc: subprocess.Popen, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"peer on port {port} did not start: {proc.communicate(timeout=5)}")
        time.sleep(0.1)


@contextlib.contextmanager
def mosquitto(port: int):
    binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    with tempfile.TemporaryDirectory() as tmp:
        conf = Path(tmp) / "m.conf"
        conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
                        "set_tcp_nodelay true\n")
        proc = subprocess.Popen([binary, "-c", str(conf)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_port(port, proc)
            yield
        finally:
            proc.terminate()
            proc.wait(5)


def process_cpu_s(pid: int) -> float:
    """User + system CPU seconds of a running process (Linux /proc), all its threads."""
    import os

    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(transport: str, args: argparse.Namespace) -> dict:
    port = free_port()
    cli = [sys.executable, "-m", "inference.cli"]
    address = {"modbus": f"127.0.0.1:{port}", "opcua": f"opc.tcp://127.0.0.1:{port}/hangtag/",
               "mqtt": f"mqtt://127.0.0.1:{port}/hangtag/bench"}[transport]
    inspect = ["--source", args.detector, "--recipe", str(args.recipe)] if args.detector else ["--answer", "OK"]
    if args.detector and args.no_read:
        inspect.append("--no-read")
    station_cmd = cli + ["line", f"--{transport}", address, "--duration", "600", "--ack-timeout", "30",
                                   "--inspect-budget", "60", *inspect]
    if transport == "opcua":
        station_cmd.append("--opcua-anonymous")
    with mosquitto(port) if transport == "mqtt" else contextlib.nullcontext():
        station = subprocess.Popen(station_cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            if transport != "mqtt":
                wait_port(port, station)
            else:
                time.sleep(3.0)  # the station connects to the broker on its own
            cpu_before = process_cpu_s(station.pid)
            sim = subprocess.run(cli + ["plc-sim", f"--{transport}", address, "--count", str(args.count),
                                        "--warmup", "5", "--timeout", "60",
                                        *(["--poll-ms", str(args.poll_ms)] if transport == "modbus" else []),
                                        *(["--publish-ms", str(args.publish_ms)] if transport == "opcua" else [])],
                             cwd=ROOT, capture_output=True, text=True)
            if sim.returncode != 0:
                raise SystemExit(f"plc-sim failed: {sim.stderr}")
            plc = json.loads(sim.stdout)
            # the station's own CPU per cycle (all its threads): what the handshake costs with a core to itself
            cpu_ms = (process_cpu_s(station.pid) - cpu_before) * 1e3 / (args.count + 5)
        finally:
            station.send_signal(2)  # SIGINT: the station prints its own timings and stops
            out, _ = station.communicate(timeout=60)
    station_line = json.loads(out.strip().splitlines()[-1])
    if transport == "modbus" and args.poll_ms:
        transport = f"modbus (PLC reads every {args.poll_ms:g} ms)"
    if transport == "opcua" and args.publish_ms:
        transport = f"opcua (PLC's publishing interval {args.publish_ms:g} ms)"
    keep = ("handover", "inspect", "return", "publish", "handshake", "work", "total")
    # Modbus's result is readable by the PLC's next read the moment it is queued: offered = queued
    offered = station_line.get("offered_ms", {}).get(transport.split()[0], station_line["station_ms"])
    return {"transport": transport, "plc_round_trip_ms": plc["round_trip_ms"], "cycles": plc["cycles"],
            "station_ms": {k: v for k, v in station_line["station_ms"].items() if k in keep},
            "offered_ms": {k: v for k, v in offered.items() if k in keep},
            "station_cpu_ms_per_cycle": round(cpu_ms, 3)}


def in_process(count: int) -> list[dict]:
    """The handshake without a transport: the pure state machine's steps, then a LineStation's thread hand-over."""
    import numpy as np

    sys.path.insert(0, str(ROOT))
    from inference.line.handshake import Ack, Handshake, InspectionDone, JobLoaded, Trigger, Verdict, pulse, step
    from inference.line.station import LineStation, Outcome

    hs, _ = step(Handshake(), JobLoaded(1, "bench"), 0.0)
    pure = []
    for n in range(1, count + 1):
        t0 = time.perf_counter_ns()
        hs, _ = pulse(hs, Trigger, n)
        hs, _ = step(hs, InspectionDone(n, Verdict.OK), n)
        hs, _ = pulse(hs, Ack, n)
        pure.append((time.perf_counter_ns() - t0) / 1e6)
    answer = Outcome(Verdict.OK)
    station = LineStation(lambda start: answer).start(job=(1, "bench"))
    threaded = []
    try:
        for n in range(1, count + 1):
            t0 = time.perf_counter_ns()
            station.pulse(Trigger)
            while station.signals().result_trigger_id != n:
                time.sleep(0)
            threaded.append((time.perf_counter_ns() - t0) / 1e6)
            station.pulse(Ack)
    finally:
        station.close()

    def stats(values):
        return {f"p{q}": round(float(np.percentile(values, q)), 4) for q in (50, 95, 99)}

    return [{"transport": "none: state machine steps (trigger, result, ack)", "ms": stats(pure)},
            {"transport": "none: LineStation trigger -> result ready (worker thread hand-over)", "ms": stats(threaded)}]


def station_alone(count: int) -> dict:
    """The no-transport baseline, run in its own process configured as `hangtag-inspect line` is (GIL switch
    interval 0.5 ms): a LineStation with a trivial inspection, triggered from a thread that then sleeps until
    the result is queued (no polling to steal the GIL). Its `handshake` tail is the station's own scheduling:
    the same hand-over to the inspection thread and back that every transport goes through."""
    import threading

    sys.path.insert(0, str(ROOT))
    sys.setswitchinterval(0.0005)
    from inference.line.handshake import Ack, Publish, Trigger, Verdict
    from inference.line.station import LineStation, Outcome

    answer = Outcome(Verdict.OK)
    station = LineStation(lambda start: answer).start(job=(1, "bench"))
    queued = threading.Event()
    station.subscribe("bench", lambda change: queued.set() if any(isinstance(a, Publish) for a in change.actions)
                      else None, direct=True)
    cpu0 = process_cpu_s(__import__("os").getpid())
    try:
        for _ in range(count + 5):
            queued.clear()
            station.pulse(Trigger)
            if not queued.wait(10):
                raise SystemExit("the station did not answer a trigger in 10 s")
            station.pulse(Ack)
    finally:
        station.close()
    cpu_ms = (process_cpu_s(__import__("os").getpid()) - cpu0) * 1e3 / (count + 5)
    keep = ("handover", "inspect", "return", "handshake", "work", "total")
    return {"transport": "none (LineStation alone, own process)", "cycles": count,
            "station_ms": {k: v for k, v in station.stats.summary().items() if k in keep},
            "station_cpu_ms_per_cycle": round(cpu_ms, 3)}


def baseline(count: int) -> dict:
    done = subprocess.run([sys.executable, __file__, "--baseline-child", "--count", str(count)], cwd=ROOT,
                          capture_output=True, text=True, timeout=1800)
    if done.returncode != 0:
        raise SystemExit(f"baseline failed: {done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def ratios(rows: list[dict]) -> dict:
    """Each transport's handshake overhead against the no-transport station's, p50 and p99, from one run; and
    the share of it that was the station's own CPU work (the rest is waiting for a core, the GIL, a wake-up)."""
    base = rows[0]["station_ms"]["handshake"]
    out = {}
    for row in rows[1:]:
        over = row["offered_ms"]["handshake"]
        work = row["station_ms"].get("work", {})
        out[row["transport"]] = {
            "overhead_p50_vs_alone": round(over["p50"] / max(base["p50"], 1e-6), 2),
            "overhead_p99_vs_alone": round(over["p99"] / max(base["p99"], 1e-6), 2),
            "work_p99_ms": work.get("p99"), "overhead_p99_ms": over["p99"], "alone_p99_ms": base["p99"]}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--transports", default="modbus,opcua,mqtt")
    parser.add_argument("--detector", help="inspect this image with the shipped detector on every trigger")
    parser.add_argument("--recipe", type=Path, default=ROOT / "resources" / "recipes" / "example.toml")
    parser.add_argument("--no-read", action="store_true", help="detection only (no OCR)")
    parser.add_argument("--poll-ms", type=float, default=0.0, help="the Modbus PLC's pause between status reads")
    parser.add_argument("--publish-ms", type=float, default=0.0,
                        help="the OPC UA PLC's subscription publishing interval (0: each event sent as raised)")
    parser.add_argument("--in-process", action="store_true", help="also time the handshake without a transport")
    parser.add_argument("--baseline", action="store_true",
                        help="first the station alone in its own process (no transport), then each transport, "
                             "and the ratios of their handshake overhead to it, all in this one run")
    parser.add_argument("--baseline-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.baseline_child:
        print(json.dumps(station_alone(args.count)), flush=True)
        return
    if args.in_process:
        for row in in_process(args.count):
            print(json.dumps(row), flush=True)
    rows = []
    if args.baseline:
        rows.append({**baseline(args.count), "load_average": _load()})
        print(json.dumps(rows[-1]), flush=True)
    for transport in filter(None, args.transports.split(",")):
        load = _load()
        rows.append({**measure(transport, args), "load_average": [load[0], _load()[0]]})
        print(json.dumps(rows[-1]), flush=True)
    if args.baseline and len(rows) > 1:
        print(json.dumps({"ratios": ratios(rows)}), flush=True)


def _load() -> list[float]:
    import os

    return [round(v, 1) for v in os.getloadavg()]


if __name__ == "__main__":
    main()
