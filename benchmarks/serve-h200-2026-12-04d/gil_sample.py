"""Where each thread of the service's processes is, sampled from /proc without stopping them (issue 20; 2026-12-04d).

py-spy --gil shows who holds the GIL, not who waits for it, and its native mode stops the process at every sample.
Here /proc/PID/task/TID/syscall is read at a fixed rate: a thread blocked in futex() shows the futex word's address.
A thread that waits for the GIL waits on the main interpreter's GIL (gil->cond, beside gil->mutex and
gil->switch_cond), which lives in the static data of the python binary or libpython (CPython 3.11 and 3.12), while
the locks of executors' queues, threading and the libraries are on the heap or in their own libraries. So a futex
word inside a python mapping of /proc/PID/maps counts as the GIL: a thread blocked there waits to take the GIL (or,
having dropped it on request, for another thread to take it). Checked on this VM with two threads spinning in
Python (each ~45 % waiting there) against one hashing with the GIL released (none).
Per thread: share of samples running, waiting for the GIL, in other futexes, in other syscalls (by number), and its
CPU from /proc/.../stat and its time runnable but waiting for a core (/proc/.../schedstat) over the window. Thread names come from one `py-spy dump` (CPython names no OS threads).

    python3 gil_sample.py --pid OWNER [--pid WORKER ...] --seconds 4 --hz 1000 --spy /tmp/site_spy/bin/py-spy --out x.json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import time
from collections import Counter, defaultdict

FUTEX = 202  # x86-64
NAMES = {7: "poll", 0: "read", 1: "write", 232: "epoll_wait", 281: "epoll_pwait", 23: "select", 270: "pselect6",
         230: "clock_nanosleep", 35: "nanosleep", 16: "ioctl", 45: "recvfrom", 47: "recvmsg", 24: "sched_yield",
         441: "epoll_pwait2", 271: "ppoll"}


def thread_names(spy: str | None, pid: int) -> dict[int, str]:
    if not spy:
        return {}
    try:
        out = subprocess.run([spy, "dump", "--nonblocking", "-p", str(pid)], capture_output=True, text=True,
                             timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return {}
    return {int(tid): name for tid, name in re.findall(r'^Thread (\d+) \([^)]*\): "([^"]*)"', out, re.M)}


def python_ranges(pid: int) -> list[tuple[int, int]]:
    """The address ranges mapped from the python binary or libpython (their static data holds the GIL)."""
    ranges = []
    try:
        lines = open(f"/proc/{pid}/maps").read().splitlines()
    except OSError:  # exited
        return ranges
    for line in lines:
        parts = line.split()
        name = os.path.basename(parts[5]) if len(parts) > 5 else ""
        if name.startswith("python") or name.startswith("libpython"):
            low, high = (int(x, 16) for x in parts[0].split("-"))
            ranges.append((low, high))
    return ranges


def cpu_ticks(pid: int, tid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/task/{tid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime
    except (OSError, IndexError, ValueError):
        return None


def runqueue_ns(pid: int, tid: int) -> int | None:
    """Time the thread has waited on a run queue, runnable but given no core (/proc/.../schedstat, field 2)."""
    try:
        with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
            return int(f.read().split()[1])
    except (OSError, IndexError, ValueError):
        return None


def where(pid: int, tid: int) -> tuple[str, int | None, int | None]:
    """('running', None, None) | ('syscall', number, first argument) | ('gone', None, None)."""
    try:
        with open(f"/proc/{pid}/task/{tid}/syscall") as f:
            parts = f.read().split()
    except OSError:
        return "gone", None, None
    if not parts or parts[0] == "running":
        return "running", None, None
    number = int(parts[0])
    if number < 0:
        return "blocked", None, None
    return "syscall", number, int(parts[1], 16) if len(parts) > 1 else None


def sample(pids: list[int], seconds: float, hz: float) -> dict:
    pids = [pid for pid in pids if os.path.isdir(f"/proc/{pid}/task")]  # one that has exited is left out
    tids = {pid: sorted(int(t) for t in os.listdir(f"/proc/{pid}/task")) for pid in pids}
    start_ticks = {(p, t): cpu_ticks(p, t) for p, ts in tids.items() for t in ts}
    start_queue = {(p, t): runqueue_ns(p, t) for p, ts in tids.items() for t in ts}
    seen: dict[tuple[int, int], Counter] = defaultdict(Counter)
    futex_threads: dict[int, dict[int, set[int]]] = {pid: defaultdict(set) for pid in pids}
    period, n = 1.0 / hz, 0
    t0 = time.perf_counter()
    next_at = t0
    while time.perf_counter() - t0 < seconds:
        for pid, ts in tids.items():
            for tid in ts:
                state, number, arg = where(pid, tid)
                if state == "syscall" and number == FUTEX:
                    seen[(pid, tid)][("futex", arg)] += 1
                    futex_threads[pid][arg].add(tid)
                elif state == "syscall":
                    seen[(pid, tid)][("syscall", NAMES.get(number, str(number)))] += 1
                else:
                    seen[(pid, tid)][(state, None)] += 1
        n += 1
        next_at += period
        delay = next_at - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
    wall = time.perf_counter() - t0
    end_ticks = {(p, t): cpu_ticks(p, t) for p, ts in tids.items() for t in ts}
    end_queue = {(p, t): runqueue_ns(p, t) for p, ts in tids.items() for t in ts}
    hz_ticks = os.sysconf("SC_CLK_TCK")
    gil = {pid: python_ranges(pid) for pid in pids}

    def in_gil(pid: int, address: int) -> bool:
        return any(low <= address < high for low, high in gil[pid])

    out = {"seconds": round(wall, 3), "rounds": n, "hz_achieved": round(n / wall, 1), "processes": []}
    for pid in pids:
        words = sorted(a for a in futex_threads[pid] if in_gil(pid, a))
        proc = {"pid": pid, "gil_futex_words": [hex(a) for a in words],
                "gil_waiters": len(set().union(*(futex_threads[pid][a] for a in words))) if words else 0,
                "threads": []}
        for tid in tids[pid]:
            counts = seen[(pid, tid)]
            total = sum(counts.values()) or 1
            gil_n = sum(c for (k, a), c in counts.items() if k == "futex" and in_gil(pid, a))
            futex_n = sum(c for (k, a), c in counts.items() if k == "futex") - gil_n
            other = Counter()
            for (k, a), c in counts.items():
                if k == "syscall":
                    other[a] += c
            a, b = start_ticks.get((pid, tid)), end_ticks.get((pid, tid))
            qa, qb = start_queue.get((pid, tid)), end_queue.get((pid, tid))
            proc["threads"].append({
                "tid": tid, "running": round(counts[("running", None)] / total, 3), "gil_wait": round(gil_n / total, 3),
                "other_futex": round(futex_n / total, 3), "blocked": round(counts[("blocked", None)] / total, 3),
                "syscalls": {k: round(v / total, 3) for k, v in other.most_common(4)},
                "cpu": round((b - a) / hz_ticks / wall, 3) if a is not None and b is not None else None,
                "runqueue": round((qb - qa) / 1e9 / wall, 3) if qa is not None and qb is not None else None})
        out["processes"].append(proc)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pid", type=int, action="append", required=True)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--hz", type=float, default=1000.0)
    parser.add_argument("--spy", default=None, help="py-spy, for the threads' Python names")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    names = {pid: thread_names(args.spy, pid) for pid in args.pid}
    result = sample(args.pid, args.seconds, args.hz)
    if not result["processes"]:
        print(f"none of the processes {args.pid} is running")
    for proc in result["processes"]:
        for t in proc["threads"]:
            t["name"] = names[proc["pid"]].get(t["tid"], "")
        proc["threads"].sort(key=lambda t: -(t["cpu"] or 0))
    with open(args.out, "w") as f:
        json.dump(result, f, indent=1)
    for proc in result["processes"]:
        print(f"pid {proc['pid']}: GIL futex words {proc['gil_futex_words']} ({proc['gil_waiters']} threads waited there); "
              f"{result['rounds']} rounds at {result['hz_achieved']}/s")
        for t in proc["threads"]:
            if (t["cpu"] or 0) < 0.01 and t["gil_wait"] < 0.01:
                continue
            print(f"  {t['tid']:>7} {t['name'][:22]:<22} cpu {t['cpu'] or 0:5.2f}  runqueue {t['runqueue'] or 0:4.2f}  "
                  f"running {t['running']:.2f}  "
                  f"gil_wait {t['gil_wait']:.2f}  other futex {t['other_futex']:.2f}  {t['syscalls']}")


if __name__ == "__main__":
    main()
