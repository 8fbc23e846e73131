"""What one result costs the OPC UA server's loop thread, apart from any wait: CPU and Python calls, in-process.

    .venv/bin/python benchmarks/line_opcua_event_cost.py --count 600

A station (trivial inspection) and its OPC UA server, one asyncua client subscribed to ResultReady with publishing
interval 0 (each event published as raised), as `plc-sim` subscribes. On the server's loop thread it times:
- `variables`: `_sync_variables` between two signal snapshots, a result's and the ack's after it (about eight of the
  nineteen variables change each time), thread CPU per call;
- `event`: `_apply` of a result (its variables already written, so: ResultReady raised, the publish response
  encoded and sent), one event per publish (the client's next publish request is waited for), thread CPU per call;
- `python_calls_per_event`: the Python function calls of that `_apply` (cProfile, a separate pass): a count that
  does not depend on the machine's load, for comparing two trees run alternately (PYTHONPATH=TREE, cwd outside).
Medians of thread CPU: a call preempted by another process does not count the wait, only a colder cache.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import os
import socket
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=600, help="calls timed for each of variables and event")
    args = parser.parse_args()
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from asyncua import Client

    from inference.line import opcua
    from inference.line.handshake import Publish, State, Trigger, Verdict
    from inference.line.station import Change, LineStation, Outcome

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"opc.tcp://127.0.0.1:{port}/hangtag/"
    station = LineStation(lambda start: Outcome(Verdict.OK, (("frame", "f1"),))).start(job=(1, "bench"))
    server = opcua.OpcUaServer(station, url, anonymous=True).start()
    station.pulse(Trigger)
    deadline = time.monotonic() + 10
    while not station.signals().results_ready:
        if time.monotonic() > deadline:
            raise SystemExit("the station did not answer its trigger")
        time.sleep(0.01)
    result_signals = station.signals()
    result = station.handshake.queue[0]
    acked_signals = dataclasses.replace(result_signals, state=State.READY, ready=True, busy=False,
                                        results_ready=False, queue_length=0, result_trigger_id=0)
    seen: list[int] = []
    subscribed, done = threading.Event(), threading.Event()

    class Handler:
        def event_notification(self, event) -> None:
            seen.append(int(event.TriggerId))

    async def plc() -> None:
        client = Client(url, timeout=10)
        await client.connect()
        try:
            idx = await client.get_namespace_index(opcua.NAMESPACE)
            obj = await client.nodes.objects.get_child([f"{idx}:HangtagStation"])
            etype = await client.nodes.base_event_type.get_child([f"{idx}:ResultReadyEventType"])
            sub = await client.create_subscription(0, Handler())
            await sub.subscribe_events(obj, etype)
            subscribed.set()
            while not done.is_set():
                await asyncio.sleep(0.05)
        finally:
            await client.disconnect()

    client_thread = threading.Thread(target=lambda: asyncio.run(plc()), daemon=True)
    client_thread.start()
    if not subscribed.wait(60):
        raise SystemExit("the client did not subscribe")

    async def variables() -> list[int]:
        spent = []
        for n in range(args.count):
            station._signals = acked_signals if n % 2 else result_signals  # what the station would have set
            t0 = time.thread_time_ns()
            await server._sync_variables()
            spent.append(time.thread_time_ns() - t0)
        station._signals = result_signals
        await server._sync_variables()
        return spent

    async def events(profile) -> list[int]:
        spent = []
        change = Change(result_signals, (Publish(result),), "InspectionDone", 0.0)
        for _ in range(args.count):
            before = len(seen)
            t0 = time.thread_time_ns()
            if profile is not None:
                profile.enable()
            await server._apply(change)
            if profile is not None:
                profile.disable()
            spent.append(time.thread_time_ns() - t0)
            while len(seen) == before:  # delivered, and the client's next publish request on its way
                await asyncio.sleep(0.0005)
            await asyncio.sleep(0.002)
        return spent

    def on_loop(coro):
        return asyncio.run_coroutine_threadsafe(coro, server._loop).result(600)

    import cProfile
    import pstats

    try:
        var_ns = on_loop(variables())
        event_ns = on_loop(events(None))
        profile = cProfile.Profile()
        on_loop(events(profile))
        calls = pstats.Stats(profile).total_calls / args.count
    finally:
        done.set()
        client_thread.join(10)
        server.close()
        station.close()

    def median_us(values: list[int]) -> float:
        return round(sorted(values)[len(values) // 2] / 1e3, 1)

    print(json.dumps({"tree": str(ROOT), "count": args.count, "variables_cpu_us_median": median_us(var_ns),
                      "event_cpu_us_median": median_us(event_ns), "python_calls_per_event": round(calls, 1),
                      "events_received": len(seen), "load_average": [round(v, 1) for v in os.getloadavg()]}))


if __name__ == "__main__":
    main()
