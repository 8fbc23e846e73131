"""Where an OPC UA result waits on its way out: each hop of one trigger stamped inside the station.

    .venv/bin/python benchmarks/line_opcua_hops.py --count 300

Runs a station (trivial inspection, OPC UA server, GIL switch interval 0.5 ms as `hangtag-inspect line` sets it)
in a child process and `hangtag-inspect plc-sim --opcua` against it, then prints p50/p95/p99 in ms of:
handover (trigger accepted -> inspection thread picks it up), return (inspection -> result queued), to the sink
(queued -> the server's hand-over called, the station's lock released), to the loop (-> running on the server's
event loop: the loop's wake-up), to apply (-> the applier task runs), variables (-> variables written), event
(-> ResultReady raised and, with publishing interval 0, sent) and the event's thread CPU. Wall minus CPU is waiting.
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOPS = ("handover", "return", "to the sink", "to the loop", "to apply", "variables", "event", "event CPU")


def station(port: int) -> None:
    sys.path.insert(0, str(ROOT))
    sys.setswitchinterval(0.0005)
    import numpy as np

    from inference.line import opcua
    from inference.line.handshake import Publish, Verdict
    from inference.line.station import LineStation, Outcome

    stamps: dict[int, dict[str, int]] = {}

    def stamp(change, hop: str) -> None:
        for action in change.actions:
            if isinstance(action, Publish):
                stamps.setdefault(action.result.trigger_id, {})[hop] = time.perf_counter_ns()

    class StampedServer(opcua.OpcUaServer):
        def _hand_over(self, change) -> None:
            stamp(change, "sink")
            super()._hand_over(change)

        def _enqueue(self, change) -> None:
            stamp(change, "loop")
            super()._enqueue(change)

        async def _sync_variables(self) -> None:
            await super()._sync_variables()
            self._synced_at = time.perf_counter_ns()

        async def _apply(self, change) -> None:
            stamp(change, "apply")
            cpu = time.thread_time_ns()
            self._synced_at = 0
            await super()._apply(change)
            for action in change.actions:
                if isinstance(action, Publish):
                    hops = stamps[action.result.trigger_id]
                    hops["synced"], hops["sent"] = self._synced_at, time.perf_counter_ns()
                    hops["cpu"] = time.thread_time_ns() - cpu

    answer = Outcome(Verdict.OK)
    st = LineStation(lambda start: answer).start(job=(1, "bench"))
    server = StampedServer(st, f"opc.tcp://127.0.0.1:{port}/hangtag/", anonymous=True).start()
    print("ready", flush=True)
    sys.stdin.readline()
    server.close()
    st.close()
    rows = []
    for tid, h in stamps.items():
        c = st._cycles.get(tid)
        if c is None or not c.queued or "sent" not in h:
            continue
        rows.append([c.picked - c.accepted, c.queued - c.inspected, h["sink"] - c.queued, h["loop"] - h["sink"],
                     h["apply"] - h["loop"], h["synced"] - h["apply"], h["sent"] - h["synced"], h["cpu"]])
    a = np.array(rows) / 1e6
    print(json.dumps({"cycles": len(rows), **{hop: {f"p{q}": round(float(np.percentile(a[:, i], q)), 3)
                                                    for q in (50, 95, 99)} for i, hop in enumerate(HOPS)},
                      "overhead": st.offer_stats["opcua"].summary()["handshake"]}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--station", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.station:
        station(args.station)
        return
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    child = subprocess.Popen([sys.executable, __file__, "--station", str(port)], cwd=ROOT, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        if child.stdout.readline().strip() != "ready":
            raise SystemExit("the station did not start")
        sim = subprocess.run([sys.executable, "-m", "inference.cli", "plc-sim", "--opcua",
                              f"opc.tcp://127.0.0.1:{port}/hangtag/", "--count", str(args.count), "--warmup", "5"],
                             cwd=ROOT, capture_output=True, text=True)
        if sim.returncode != 0:
            raise SystemExit(f"plc-sim failed: {sim.stderr}")
    finally:
        out, _ = child.communicate("\n", timeout=120)
    hops = json.loads(out.strip().splitlines()[-1])
    hops["plc_round_trip_ms"] = json.loads(sim.stdout)["round_trip_ms"]
    print(json.dumps(hops))


if __name__ == "__main__":
    main()
