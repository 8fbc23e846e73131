"""`hangtag-inspect plc-sim`: play the line's PLC against a station (commissioning): triggers at a rate, acks,
job changes, and the round-trip time of each trigger → result (p50/p95/p99)."""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("plc-sim", help="play a PLC against a line station and print round-trip times")
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--modbus", metavar="HOST:PORT", help="the station's Modbus TCP server")
    target.add_argument("--opcua", metavar="URL", help="the station's OPC UA server")
    target.add_argument("--mqtt", metavar="URL", help="the broker the station uses (mqtt://HOST:PORT/TOPIC/BASE)")
    parser.add_argument("--user", help="OPC UA username (password from HANGTAG_OPCUA_PASSWORD)")
    parser.add_argument("--rate", type=float, default=0.0, help="triggers per second (0 = back to back)")
    parser.add_argument("--count", type=int, default=100, help="triggers to send")
    parser.add_argument("--warmup", type=int, default=5, help="cycles run first and left out of the statistics")
    parser.add_argument("--jobs", default="", help="job indices to cycle through, e.g. 1,2 (with --job-every)")
    parser.add_argument("--job-every", type=int, default=0, help="select the next of --jobs every N triggers")
    parser.add_argument("--reset", action="store_true", help="send Reset error first")
    parser.add_argument("--poll-ms", type=float, default=0.0,
                        help="Modbus: pause between status reads, like a PLC's scan cycle (0 = read back to back)")
    parser.add_argument("--publish-ms", type=float, default=0.0,
                        help="OPC UA: the subscription's publishing interval the PLC asks for (0 = each ResultReady "
                             "event sent as raised; a positive interval adds up to that much to each round trip)")
    parser.add_argument("--timeout", type=float, default=12.0,
                        help="seconds to wait for each answer (default 12: longer than the station's 10 s inspection budget, so a slow "
                             "inspection is answered late, not abandoned with its result left unacknowledged)")
    parser.add_argument("--each", action="store_true", help="print every cycle")
    parser.add_argument("--json", type=Path, help="write the summary here as JSON")
    parser.set_defaults(func=run)


def open_plc(args: argparse.Namespace):
    from inference.line import plc

    if args.modbus:
        from inference.line.modbus import parse_host_port

        return plc.ModbusPlc(*parse_host_port(args.modbus), timeout_s=args.timeout, poll_s=args.poll_ms / 1000)
    if args.opcua:
        return plc.OpcUaPlc(args.opcua, args.user, os.environ.get("HANGTAG_OPCUA_PASSWORD"), timeout_s=args.timeout,
                            publish_ms=args.publish_ms)
    return plc.MqttPlc(args.mqtt, timeout_s=args.timeout)


def run(args: argparse.Namespace) -> int:
    from inference.line.station import LineError

    jobs = [int(j) for j in args.jobs.split(",") if j.strip()] if args.jobs else []
    if args.job_every and not jobs:
        raise LineError("--job-every needs --jobs", expected="--jobs 1,2", found="no --jobs")
    transport = "modbus" if args.modbus else "opcua" if args.opcua else "mqtt"
    device = open_plc(args)
    rtts: list[float] = []
    verdicts: dict[str, int] = {}
    job_changes = 0
    try:
        if args.reset:
            device.reset()
        period = 1.0 / args.rate if args.rate > 0 else 0.0
        next_at = time.perf_counter()
        for n in range(args.warmup + args.count):
            counted = n - args.warmup
            if args.job_every and counted > 0 and counted % args.job_every == 0:
                device.select_job(jobs[(counted // args.job_every) % len(jobs)])
                job_changes += 1
            if period:
                delay = next_at - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
                next_at += period
            cycle = device.cycle()
            if counted < 0:
                continue
            rtts.append(cycle.round_trip_ms)
            verdicts[cycle.verdict] = verdicts.get(cycle.verdict, 0) + 1
            if args.each:
                print(f"trigger {cycle.trigger_id}: {cycle.verdict} in {cycle.round_trip_ms:.2f} ms", flush=True)
    finally:
        device.close()
    summary = summarize(transport, rtts, verdicts, job_changes)
    print(json.dumps(summary, indent=2))
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return 0


def summarize(transport: str, rtts: list[float], verdicts: dict[str, int], job_changes: int) -> dict:
    values = np.asarray(rtts, dtype=float)
    stats = {f"p{q}": round(float(np.percentile(values, q)), 3) for q in (50, 95, 99)} if len(values) else {}
    if len(values):
        stats["max"] = round(float(values.max()), 3)
    return {"transport": transport, "cycles": len(rtts), "verdicts": verdicts, "job_changes": job_changes,
            "round_trip_ms": stats}
