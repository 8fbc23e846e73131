"""Trigger → result-ready round trips per transport: a `hangtag-inspect line` station process and a
`plc-sim` PLC process on loopback (MQTT through a mosquitto this script starts).

    .venv/bin/python benchmarks/line_latency.py --count 1000                       # trivial inspection
    .venv/bin/python benchmarks/line_latency.py --count 100 --detector resources/samples/<image>

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
                                        *(["--poll-ms", str(args.poll_ms)] if transport == "modbus" else [])],
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
    keep = ("handover", "inspect", "return", "publish", "handshake", "total")
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--transports", default="modbus,opcua,mqtt")
    parser.add_argument("--detector", help="inspect this image with the shipped detector on every trigger")
    parser.add_argument("--recipe", type=Path, default=ROOT / "resources" / "recipes" / "example.toml")
    parser.add_argument("--no-read", action="store_true", help="detection only (no OCR)")
    parser.add_argument("--poll-ms", type=float, default=0.0, help="the Modbus PLC's pause between status reads")
    parser.add_argument("--in-process", action="store_true", help="also time the handshake without a transport")
    args = parser.parse_args()
    if args.in_process:
        for row in in_process(args.count):
            print(json.dumps(row), flush=True)
    for transport in filter(None, args.transports.split(",")):
        print(json.dumps(measure(transport, args)), flush=True)


if __name__ == "__main__":
    main()
