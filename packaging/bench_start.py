"""Cold start of the bundled station: launch to first inspected result, measured from outside.

    python packaging/bench_start.py [--bundle dist/HangtagStation] [--runs 5] [-- ARGS for --self-test]

Each cold run first evicts the bundle's files (and any file or folder named in ARGS: model, samples)
from the page cache with posix_fadvise, so the bundle is read from disk as on a first launch after
boot, without dropping the whole machine's cache under other users. Warm runs follow straight after.
The clock starts just before the process is spawned and stops when its "first result" line arrives.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def evict(paths: list[Path]) -> int:
    """Drop these files' clean pages from the page cache; returns how many files were touched."""
    count = 0
    for base in paths:
        files = [base] if base.is_file() else [p for p in base.rglob("*") if p.is_file() and not p.is_symlink()]
        for path in files:
            try:
                fd = os.open(path, os.O_RDONLY)
            except OSError:
                continue
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                count += 1
            finally:
                os.close(fd)
    return count


def launch(bundle: Path, args: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """(seconds to the first result line, seconds to exit, output)."""
    started = time.perf_counter()
    process = subprocess.Popen([str(bundle / "HangtagStation"), "--self-test", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, env=env)
    first = float("nan")
    lines = []
    assert process.stdout is not None
    for line in process.stdout:
        lines.append(line)
        if first != first and "first result" in line:  # NaN until seen
            first = time.perf_counter() - started
    status = process.wait()
    total = time.perf_counter() - started
    if status != 0:
        raise SystemExit(f"self-test failed (exit {status}):\n{''.join(lines)}")
    return first, total, "".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bundle", type=Path, default=ROOT / "dist" / "HangtagStation")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("extra", nargs="*", help="arguments passed on to --self-test (after --)")
    args = parser.parse_args(argv)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    inputs = [Path(a) for a in args.extra if Path(a).exists()]
    results: dict[str, list[tuple[float, float]]] = {"cold": [], "warm": []}
    output = ""
    for _ in range(args.runs):
        evict([args.bundle, *inputs])
        first, total, output = launch(args.bundle, args.extra, env)
        results["cold"].append((first, total))
        first, total, output = launch(args.bundle, args.extra, env)
        results["warm"].append((first, total))
    print(output)
    for kind, runs in results.items():
        firsts, totals = [r[0] for r in runs], [r[1] for r in runs]
        print(f"{kind}: launch to first result median {statistics.median(firsts):.2f} s "
              f"(min {min(firsts):.2f}, max {max(firsts):.2f}); whole self-test median {statistics.median(totals):.2f} s "
              f"over {len(runs)} runs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
