"""Soak: the headless station over a looping folder for N frames, with process RSS sampled as it goes.

    nice .venv/bin/python -m tests.reliability.soak --frames 100000 --minutes 60 --csv benchmarks/soak.csv --png docs/soak.png

Everything runs as the station runs (reading, the recipe, the journal and the archive in a scratch data
folder); only the source loops, as a line that never stops would. Memory is read every `--every` frames
(RSS, and glibc's heap in use / free / mmapped, which tell a leak from fragmentation) and appended to
the CSV as it goes, so a soak stopped by `--minutes` or by hand still has its curve. The drift is the
least-squares slope after the warm-up, per 10 000 frames, and the growth over each 10 000 frames; then the
same per 1 000 frames for RSS and heap in use, and that slope carried on to 100 000 frames, printed as what
it is, an extrapolation. `--from-csv` gives the record and the plot of a CSV a soak already wrote (a soak
ended by `timeout` or by hand: the CSV is written as it goes).

It is not resumable across processes on purpose: a restarted process starts with fresh memory, so a
curve spliced from two processes would hide exactly the drift this measures.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from inference.imageio import list_images, read_image
from inference.sources import Frame, FrameSource
from tests.reliability.memory_probe import MemoryProbe

ROOT = Path(__file__).resolve().parents[2]


class LoopingFolder(FrameSource):
    """A folder's images over and over (decoded each time, as a camera folder would deliver them)."""

    def __init__(self, folder: Path, frames: int, minutes: float = 0.0) -> None:
        self.paths = list_images(folder)
        self.count = frames
        self.deadline = time.monotonic() + minutes * 60 if minutes else float("inf")
        self.description = f"looping folder {folder}"

    def __len__(self) -> int:
        return self.count

    def frames(self):
        for index in range(self.count):
            if time.monotonic() > self.deadline:
                return
            path = self.paths[index % len(self.paths)]
            start = time.perf_counter_ns()
            image = read_image(path)
            yield Frame(index, path.name, str(path), image, (time.perf_counter_ns() - start) / 1e6)


CSV_HEADER = ("frames,seconds,rss_mib,heap_used_mib,heap_free_mib,mmapped_mib,rss_anon_mib,rss_file_mib,"
              "pymalloc_arenas_mib,pymalloc_used_mib,free_lists_mib\n")
PYMALLOC_HEADER = CSV_HEADER.replace(",free_lists_mib", "")  # before the free lists were read apart
OLD_HEADER = "frames,seconds,rss_mib,heap_used_mib,heap_free_mib,mmapped_mib,rss_anon_mib,rss_file_mib\n"  # before pymalloc


class RssLog:
    """Stands in for stdout: counts result lines and samples memory every `every` frames.

    `rows` gets (frames, seconds, RSS MiB); the CSV also has the heap columns."""

    def __init__(self, every: int, rows: list[tuple[int, float, float]], csv_path: Path | None) -> None:
        self.every, self.rows, self.frames, self.csv_path = every, rows, 0, csv_path
        self.heap_used: list[tuple[int, float]] = []
        if csv_path:
            csv_path.parent.mkdir(parents=True, exist_ok=True)
            csv_path.write_text(CSV_HEADER)
        self.probe = MemoryProbe()
        self.start = time.monotonic()

    def write(self, text: str) -> int:
        for line in text.splitlines():
            if line.startswith(("Hangtag Station", "summary:")) or not line.strip():
                continue
            self.frames += 1
            if self.frames % self.every == 0:
                memory = self.probe.sample()
                row = (self.frames, round(time.monotonic() - self.start, 1), round(memory.rss_mib, 2))
                self.rows.append(row)
                self.heap_used.append((self.frames, memory.heap_used_mib))
                if self.csv_path:  # written as it goes: a soak stopped early still has its curve
                    heap = tuple(round(v, 2) for v in (memory.heap_used_mib, memory.heap_free_mib, memory.mmapped_mib,
                                                       memory.rss_anon_mib, memory.rss_file_mib,
                                                       memory.pymalloc_arenas_mib))
                    heap += (round(memory.pymalloc_used_mib, 3), round(memory.free_lists_mib, 3))
                    with self.csv_path.open("a") as handle:
                        handle.write(",".join(map(str, row + heap)) + "\n")
                print(f"{self.frames} frames  {memory.rss_mib:.1f} MiB (anonymous {memory.rss_anon_mib:.1f}, files "
                      f"{memory.rss_file_mib:.1f}; heap in use {memory.heap_used_mib:.1f}, free "
                      f"{memory.heap_free_mib:.1f}, mmapped {memory.mmapped_mib:.1f}; Python objects "
                      f"{memory.pymalloc_used_mib:.2f} in {memory.pymalloc_arenas_mib:.0f} MiB of arenas, of which "
                      f"{memory.free_lists_mib:.2f} freed on CPython's free lists)  "
                      f"{time.monotonic() - self.start:.0f} s", flush=True)
        return len(text)

    def flush(self) -> None:
        pass


def drift_per_10k(rows: list[tuple[int, float, float]], warmup: int) -> tuple[float, float]:
    """(least-squares slope in MiB per 10 000 frames after `warmup`, last minus first sample after it)."""
    kept = [(f, r) for f, _, r in rows if f > warmup]
    if len(kept) < 2:
        return 0.0, 0.0
    n = len(kept)
    mx = sum(f for f, _ in kept) / n
    my = sum(r for _, r in kept) / n
    slope = sum((f - mx) * (r - my) for f, r in kept) / max(1e-9, sum((f - mx) ** 2 for f, _ in kept))
    return slope * 10_000, kept[-1][1] - kept[0][1]


def growth_per_block(rows: list[tuple[int, float, float]], warmup: int, block: int = 10_000) -> list[tuple[int, int, float]]:
    """(from frame, to frame, RSS growth MiB) for each `block` frames after the warm-up; the last block may be short."""
    kept = [(f, r) for f, _, r in rows if f >= warmup]
    out: list[tuple[int, int, float]] = []
    start = 0
    while start < len(kept) - 1:
        end = start
        while end + 1 < len(kept) and kept[end + 1][0] - kept[start][0] <= block:
            end += 1
        if end == start:
            end = start + 1
        out.append((kept[start][0], kept[end][0], kept[end][1] - kept[start][1]))
        start = end
    return out


def drift_record(rows: list[tuple[int, float, float]], heap_used: list[tuple[int, float]], warmup: int,
                 horizon: int = 100_000) -> list[str]:
    """The record a bounded soak can give: RSS and heap-in-use drift after the warm-up per 1 000 frames, and
    that slope carried on to `horizon` frames, said to be an extrapolation (nothing past the last sample ran)."""
    kept = [(f, r) for f, _, r in rows if f > warmup]
    if len(kept) < 2:
        return [f"soak: fewer than two samples after the warm-up ({warmup} frames): no drift can be read"]
    slope, span = drift_per_10k(rows, warmup)
    heap_slope, heap_span = drift_per_10k([(f, 0.0, v) for f, v in heap_used], warmup)
    first, last = kept[0], kept[-1]
    out = [f"soak: after warm-up, frames {first[0]}-{last[0]} ({last[0] - first[0]} frames): RSS {first[1]:.2f} -> "
           f"{last[1]:.2f} MiB ({span:+.2f}), least-squares {slope / 10:+.3f} MiB per 1 000 frames; heap in use "
           f"{heap_span:+.2f} MiB, {heap_slope / 10:+.3f} MiB per 1 000 frames"]
    if last[0] < horizon:
        def count(n: int) -> str:
            return f"{n:,}".replace(",", " ")

        out.append(f"soak: extrapolation, not measured: at that slope {count(horizon)} frames would add "
                   f"{slope / 10_000 * (horizon - warmup):+.1f} MiB after warm-up ({count(horizon - last[0])} "
                   f"frames past the last sample)")
    return out


def read_csv(path: Path) -> tuple[list[tuple[int, float, float]], list[tuple[int, float]]]:
    """(rows, heap in use) back from a soak's CSV: a soak stopped by its time limit or by hand keeps its record."""
    rows: list[tuple[int, float, float]] = []
    heap_used: list[tuple[int, float]] = []
    lines = path.read_text().splitlines()
    if not lines or lines[0] + "\n" not in (CSV_HEADER, PYMALLOC_HEADER, OLD_HEADER):
        raise SystemExit(f"soak: {path} is not a soak CSV\n  expected: the header {CSV_HEADER.strip()}\n"
                         f"  found:    {lines[0] if lines else 'an empty file'}")
    for line in lines[1:]:
        cells = line.split(",")
        if len(cells) != lines[0].count(",") + 1:
            continue  # a line cut short when the soak was stopped mid-write
        rows.append((int(cells[0]), float(cells[1]), float(cells[2])))
        heap_used.append((int(cells[0]), float(cells[3])))
    return rows, heap_used


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="soak")
    parser.add_argument("--frames", type=int, default=5000)
    parser.add_argument("--every", type=int, default=25)
    parser.add_argument("--warmup", type=int, default=500)
    parser.add_argument("--source", type=Path, default=ROOT / "resources" / "samples")
    parser.add_argument("--recipe", type=Path, default=ROOT / "resources" / "recipes" / "example.toml")
    parser.add_argument("--model", type=Path, default=None, help="detector (default: the shipped one)")
    parser.add_argument("--no-read", action="store_true")
    parser.add_argument("--minutes", type=float, default=0.0, help="stop after this long (0: no limit)")
    parser.add_argument("--csv", type=Path, default=None)
    parser.add_argument("--svg", type=Path, default=None)
    parser.add_argument("--png", type=Path, default=None)
    parser.add_argument("--collect-every", type=int, default=None, metavar="N",
                        help="the station's full garbage collection every N frames (0: never, only Python's own; "
                             "default: as the station ships)")
    parser.add_argument("--from-csv", type=Path, default=None,
                        help="run nothing: the record and plot of an earlier soak's CSV (e.g. one a time limit ended)")
    args = parser.parse_args(argv)
    what = "without reading" if args.no_read else "with reading"
    if args.from_csv:
        rows, heap_used = read_csv(args.from_csv)
        frames = rows[-1][0] if rows else 0
        print(f"soak: {args.from_csv}: {len(rows)} samples, {frames} frames in {rows[-1][1] if rows else 0:.0f} s")
        for line in drift_record(rows, heap_used, args.warmup):
            print(line)
        _plot(args, rows, frames, what)
        return 0
    data = Path(tempfile.mkdtemp(prefix="hangtag-soak-"))
    os.environ["HANGTAG_DATA_DIR"] = str(data)
    import app.headless
    from app.headless import run_headless
    from inference.resources import default_model_path

    if args.collect_every is not None:  # a before/after of the periodic collection, as two soaks side by side
        app.headless.COLLECT_FRAMES = args.collect_every or 2**62
    every = app.headless.COLLECT_FRAMES
    print(f"soak: the station's full garbage collection {f'every {every} frames' if every < 2**62 else 'never'}",
          flush=True)
    rows: list[tuple[int, float, float]] = []
    log = RssLog(args.every, rows, args.csv)
    code = run_headless(LoopingFolder(args.source, args.frames, args.minutes), args.model or default_model_path(), None,
                        args.recipe, read=not args.no_read, out=log, err=sys.stderr)
    slope, span = drift_per_10k(rows, args.warmup)
    heap_slope, heap_span = drift_per_10k([(f, 0.0, v) for f, v in log.heap_used], args.warmup)
    print(f"soak: {log.frames} frames in {time.monotonic() - log.start:.0f} s, exit {code}; RSS after warm-up "
          f"({args.warmup} frames): slope {slope:+.2f} MiB / 10k frames, last - first {span:+.2f} MiB; "
          f"heap in use: slope {heap_slope:+.2f} MiB / 10k frames, last - first {heap_span:+.2f} MiB; data {data}")
    for first, last, grew in growth_per_block(rows, args.warmup):
        print(f"soak: frames {first}-{last}: RSS {grew:+.2f} MiB")
    for line in drift_record(rows, log.heap_used, args.warmup):
        print(line)
    _plot(args, rows, log.frames, what)
    return code


def _plot(args, rows: list[tuple[int, float, float]], frames: int, what: str) -> None:
    slope, span = drift_per_10k(rows, args.warmup)
    if args.svg:
        from tests.reliability.rss_svg import write_rss_svg

        write_rss_svg(args.svg, rows, args.warmup, title=f"Headless station RSS, {frames} frames {what}")
    if args.png:
        from tests.reliability.rss_png import write_rss_png

        write_rss_png(args.png, [(f, r) for f, _, r in rows], args.warmup,
                      title=f"Headless station RSS, {frames} frames {what}",
                      note=f"after warm-up: {span:+.2f} MiB, slope {slope / 10:+.3f} MiB per 1 000 frames")


if __name__ == "__main__":
    sys.exit(main())
