"""Two soaks run side by side (e.g. `soak --collect-every 25` and `--collect-every 0`), compared from their CSVs:
per column, the least-squares slope per 1 000 frames after the warm-up and last minus first; plots of anonymous RSS
and of Python's objects (pymalloc in use, and what of it is freed objects on CPython's free lists).

    .venv/bin/python -m tests.reliability.soak_pair A.csv B.csv --labels "collect every 25" "never" --warmup 50 \\
        --png docs/soak_pair_rss.png --objects-png docs/soak_pair_objects.png
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from tests.reliability.soak_bisect import slope_per_1000

COLUMNS = ("rss_mib", "rss_anon_mib", "heap_used_mib", "pymalloc_used_mib", "free_lists_mib", "held_mib")


def read(path: Path) -> list[dict[str, float]]:
    """The soak CSV's rows as numbers, with `held_mib`: pymalloc in use less the free lists (objects alive)."""
    rows = []
    with path.open() as handle:
        for row in csv.DictReader(handle):
            try:
                values = {k: float(v) for k, v in row.items() if k and v not in (None, "")}
            except ValueError:
                continue  # a line cut short when the soak was stopped mid-write
            if "free_lists_mib" not in values or "pymalloc_used_mib" not in values:
                continue
            values["held_mib"] = values["pymalloc_used_mib"] - values["free_lists_mib"]
            rows.append(values)
    return rows


def compare(runs: list[tuple[str, list[dict[str, float]]]], warmup: int) -> list[str]:
    """Per run, per column: slope per 1 000 frames after the warm-up, and last minus first after it."""
    out = []
    for label, rows in runs:
        kept = [r for r in rows if r["frames"] >= warmup]
        if len(kept) < 2:
            out.append(f"{label}: fewer than two samples after the warm-up ({warmup} frames)")
            continue
        out.append(f"{label}: frames {kept[0]['frames']:.0f}-{kept[-1]['frames']:.0f} after warm-up "
                   f"({kept[-1]['seconds'] - kept[0]['seconds']:.0f} s), per 1 000 frames (least squares), last - first:")
        for name in COLUMNS:
            points = [(int(r["frames"]), r[name]) for r in kept]
            out.append(f"  {name:18s} {slope_per_1000(points):+8.3f} /1000  {points[-1][1] - points[0][1]:+7.2f} MiB"
                       f"  ({points[0][1]:.2f} -> {points[-1][1]:.2f})")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="soak_pair")
    parser.add_argument("csvs", type=Path, nargs="+")
    parser.add_argument("--labels", nargs="+", default=None)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--png", type=Path, default=None, help="anonymous RSS of each run")
    parser.add_argument("--objects-png", type=Path, default=None, help="Python objects of each run")
    args = parser.parse_args(argv)
    labels = args.labels or [p.stem for p in args.csvs]
    runs = [(label, read(path)) for label, path in zip(labels, args.csvs)]
    print("\n".join(compare(runs, args.warmup)))
    from tests.reliability.rss_png import write_curves_png

    if args.png:
        write_curves_png(args.png, [(f"{label}: RSS anonymous", [(int(r["frames"]), r["rss_anon_mib"]) for r in rows])
                                    for label, rows in runs], args.warmup,
                         title="Headless station with reading: anonymous RSS", unit="MiB")
    if args.objects_png:
        series = []
        for label, rows in runs:
            series.append((f"{label}: pymalloc in use", [(int(r["frames"]), r["pymalloc_used_mib"]) for r in rows]))
            series.append((f"{label}: less free lists", [(int(r["frames"]), r["held_mib"]) for r in rows]))
        write_curves_png(args.objects_png, series, args.warmup, unit="MiB",
                         title="Headless station with reading: Python's objects (pymalloc)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
