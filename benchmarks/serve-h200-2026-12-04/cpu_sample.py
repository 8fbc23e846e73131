"""Once a second, the CPU each `serve` process used (the owner, its busiest threads, every front end), as JSON lines.

    python benchmarks/serve-h200-2026-12-04/cpu_sample.py --seconds 300 > cpu.jsonl &

Cheaper than a profiler (two /proc reads a process a second) and enough to say which process saturates first:
an owner thread near 100 % of a core is a limit no number of front ends lifts. Percentages are of one core.
"""

from __future__ import annotations

import argparse
import json
import time

import psutil


def owners() -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["cmdline"]):
        cmd = proc.info["cmdline"] or []
        if "inference.cli" in cmd and "serve" in cmd:
            found.append(proc)
    return found


def times(proc: psutil.Process) -> tuple[float, dict[int, float]]:
    t = proc.cpu_times()
    return t.user + t.system, {th.id: th.user_time + th.system_time for th in proc.threads()}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--every", type=float, default=1.0)
    args = parser.parse_args()
    end = time.monotonic() + args.seconds
    last: dict[int, tuple[float, float, dict[int, float]]] = {}
    while time.monotonic() < end:
        now = time.monotonic()
        row: dict = {"ts": round(time.time(), 2), "owners": []}
        for owner in owners():
            entry: dict = {"pid": owner.pid}
            try:
                procs = [owner, *owner.children(recursive=True)]
            except psutil.Error:
                continue
            for proc in procs:
                try:
                    total, threads = times(proc)
                except psutil.Error:
                    continue
                prev = last.get(proc.pid)
                last[proc.pid] = (now, total, threads)
                if prev is None:
                    continue
                dt = now - prev[0]
                pct = round(100 * (total - prev[1]) / dt, 1)
                if proc is owner:
                    busy = sorted((round(100 * (v - prev[2].get(k, v)) / dt, 1) for k, v in threads.items()), reverse=True)
                    entry.update(owner_pct=pct, owner_threads_pct=busy[:6])
                else:
                    entry.setdefault("children_pct", []).append(pct)
            row["owners"].append(entry)
        print(json.dumps(row), flush=True)
        time.sleep(max(0.0, args.every - (time.monotonic() - now)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
