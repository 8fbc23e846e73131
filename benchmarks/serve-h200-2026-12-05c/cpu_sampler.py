"""Per-core CPU busy share and the kernel's pressure-stall counters every few ms, as JSON lines (issue 20; 2026-12-05c).

    python cpu_sampler.py --out samples.jsonl --seconds 200 [--every-ms 20]

Each line: wall time, each core's busy share over the interval (from /proc/stat: everything but idle and iowait),
and the microseconds that some task stalled on CPU, memory or IO over it (/proc/pressure/*, "some total"), where the
kernel has them. Read beside the service's request log, it tells whether the episodes in which every front end's
answers come late line up with cores 0-11 running full (CPU oversubscription) or with a stall of another kind.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path


def core_times() -> dict[str, tuple[int, int]]:
    out = {}
    for line in Path("/proc/stat").read_text().splitlines():
        if line.startswith("cpu") and line[3:4].isdigit():
            name, *vals = line.split()
            v = list(map(int, vals))
            idle = v[3] + (v[4] if len(v) > 4 else 0)
            out[name[3:]] = (sum(v), idle)
    return out


def pressure() -> dict[str, int]:
    out = {}
    for kind in ("cpu", "memory", "io"):
        try:
            some = Path(f"/proc/pressure/{kind}").read_text().splitlines()[0]
        except OSError:
            continue
        out[kind] = int(some.rsplit("total=", 1)[1])
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--every-ms", type=float, default=20.0)
    args = parser.parse_args()
    end = time.time() + args.seconds
    before, p_before = core_times(), pressure()
    with args.out.open("w") as f:
        while time.time() < end:
            time.sleep(args.every_ms / 1000)
            now, p_now = core_times(), pressure()
            busy = {}
            for core, (total, idle) in now.items():
                dt = total - before[core][0]
                busy[core] = round(1 - (idle - before[core][1]) / dt, 2) if dt > 0 else None
            f.write(json.dumps({"ts": round(time.time(), 4), "busy": busy,
                                "stall_us": {k: p_now[k] - p_before.get(k, p_now[k]) for k in p_now}}) + "\n")
            before, p_before = now, p_now
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
