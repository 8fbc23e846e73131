"""Soak: the headless station over a looping folder for N frames, with process RSS sampled as it goes.

    .venv/bin/python -m tests.reliability.soak --frames 5000 --csv docs/soak_rss.csv --svg docs/soak_rss.svg

Everything runs as the station runs (reading, the recipe, the journal and the archive in a scratch data
folder); only the source loops, as a line that never stops would. RSS is read every `--every` frames;
the drift is the least-squares slope after the warm-up, per 10 000 frames.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import psutil

from inference.imageio import list_images, read_image
from inference.sources import Frame, FrameSource

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


class RssLog:
    """Stands in for stdout: counts result lines and samples RSS every `every` frames."""

    def __init__(self, every: int, rows: list[tuple[int, float, float]], csv_path: Path | None) -> None:
        self.every, self.rows, self.frames, self.csv_path = every, rows, 0, csv_path
        if csv_path:
            csv_path.parent.mkdir(parents=True, exist_ok=True)
            csv_path.write_text("frames,seconds,rss_mib\n")
        self.process = psutil.Process()
        self.start = time.monotonic()

    def write(self, text: str) -> int:
        for line in text.splitlines():
            if line.startswith(("Hangtag Station", "summary:")) or not line.strip():
                continue
            self.frames += 1
            if self.frames % self.every == 0:
                rss = self.process.memory_info().rss / 2**20
                row = (self.frames, round(time.monotonic() - self.start, 1), round(rss, 2))
                self.rows.append(row)
                if self.csv_path:  # written as it goes: a soak stopped early still has its curve
                    with self.csv_path.open("a") as handle:
                        handle.write(",".join(map(str, row)) + "\n")
                print(f"{self.frames} frames  {rss:.1f} MiB  {time.monotonic() - self.start:.0f} s", flush=True)
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="soak")
    parser.add_argument("--frames", type=int, default=5000)
    parser.add_argument("--every", type=int, default=25)
    parser.add_argument("--warmup", type=int, default=500)
    parser.add_argument("--source", type=Path, default=ROOT / "resources" / "samples")
    parser.add_argument("--recipe", type=Path, default=ROOT / "resources" / "recipes" / "example.toml")
    parser.add_argument("--no-read", action="store_true")
    parser.add_argument("--minutes", type=float, default=0.0, help="stop after this long (0: no limit)")
    parser.add_argument("--csv", type=Path, default=None)
    parser.add_argument("--svg", type=Path, default=None)
    args = parser.parse_args(argv)
    data = Path(tempfile.mkdtemp(prefix="hangtag-soak-"))
    os.environ["HANGTAG_DATA_DIR"] = str(data)
    from app.headless import run_headless
    from inference.resources import default_model_path

    rows: list[tuple[int, float, float]] = []
    log = RssLog(args.every, rows, args.csv)
    code = run_headless(LoopingFolder(args.source, args.frames, args.minutes), default_model_path(), None,
                        args.recipe, read=not args.no_read, out=log, err=sys.stderr)
    slope, span = drift_per_10k(rows, args.warmup)
    print(f"soak: {log.frames} frames in {time.monotonic() - log.start:.0f} s, exit {code}; RSS after warm-up "
          f"({args.warmup} frames): slope {slope:+.2f} MiB / 10k frames, last - first {span:+.2f} MiB; data {data}")
    if args.svg:
        from tests.reliability.rss_svg import write_rss_svg

        write_rss_svg(args.svg, rows, args.warmup, title=f"Headless station RSS, {log.frames} frames with reading")
    return code


if __name__ == "__main__":
    sys.exit(main())
