"""Reference cycles a frame leaves: the headless station over a folder, once to warm up, then again with every
object the garbage collector finds unreachable kept (gc.DEBUG_SAVEALL) and shown by type and by where it was made.

    nice .venv/bin/python -m tests.reliability.cycles --passes 1 [--source DIR] [--no-read]

A frame whose objects form a cycle is freed only by a garbage collection; CPython collects its oldest generation
ever more rarely as a process grows, so a station that leaves cycles every frame holds more and more of them
between collections. Everything runs as the station runs (reading, the recipe, the journal and the archive in a
scratch data folder). The last line is "cycles: N objects in cycles over M frames"; 0 is the goal.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import tracemalloc
from collections import Counter
from pathlib import Path

from tests.reliability.soak import ROOT, LoopingFolder


class _Frames:
    """Stands in for the station's stdout: counts result lines; at the end of the warm-up starts keeping what the
    collector finds unreachable (and tracing where objects are made, so each can be traced to its maker)."""

    def __init__(self, warmup: int) -> None:
        self.warmup, self.frames, self.lines = warmup, 0, []

    def write(self, text: str) -> int:
        for line in text.splitlines():
            if line.strip() and not line.startswith(("Hangtag Station", "summary:")):
                self.frames += 1
                self.lines.append(line)
                if self.frames == self.warmup:
                    gc.collect()
                    gc.garbage.clear()
                    tracemalloc.start(25)
                    gc.set_debug(gc.DEBUG_SAVEALL)
        return len(text)

    def flush(self) -> None:
        pass


def _site(obj: object, depth: int) -> str:
    """Where `obj` was allocated: the innermost frames of this project's code (file:line, innermost first)."""
    trace = tracemalloc.get_object_traceback(obj)
    if trace is None:
        return "(made before tracing began)"
    ours = [f for f in reversed(list(trace)) if str(ROOT) in f.filename and ".venv" not in f.filename
            and "reliability/cycles.py" not in f.filename]
    return " <- ".join(f"{Path(f.filename).relative_to(ROOT)}:{f.lineno}" for f in ours[:depth]) or "(library code)"


def find_cycles(source: Path, recipe: Path | None, *, passes: int = 1, read: bool = True,
                top: int = 30) -> tuple[int, int, list[str]]:
    """(objects left in cycles, frames checked, report lines) for the station over `source`: one pass to warm up,
    then `passes` more with the collector's finds kept."""
    data = tempfile.TemporaryDirectory(prefix="hangtag-cycles-", ignore_cleanup_errors=True)
    given = os.environ.get("HANGTAG_DATA_DIR")
    os.environ["HANGTAG_DATA_DIR"] = data.name  # a scratch journal and archive, as the soak's
    import app.headless
    from app.headless import run_headless
    from inference.resources import default_model_path

    images = len(LoopingFolder(source, 1).paths)
    frames = _Frames(warmup=images)
    collect_every = app.headless.COLLECT_FRAMES
    app.headless.COLLECT_FRAMES = 2**62  # the collections that count here are this tool's own
    try:
        code = run_headless(LoopingFolder(source, images * (1 + passes)), default_model_path(), None, recipe,
                            read=read, out=frames, err=sys.stderr)
        gc.collect()
    finally:
        gc.set_debug(0)
        app.headless.COLLECT_FRAMES = collect_every
        if given is None:
            os.environ.pop("HANGTAG_DATA_DIR", None)
        else:
            os.environ["HANGTAG_DATA_DIR"] = given
        data.cleanup()
    garbage = list(gc.garbage)
    gc.garbage.clear()
    by_type = Counter(f"{type(o).__module__}.{type(o).__qualname__}" for o in garbage)
    by_site = Counter(f"{type(o).__qualname__} made at {_site(o, 4)}" for o in garbage)
    tracemalloc.stop()
    checked = frames.frames - images
    report = [f"cycles: station exit {code}; {images} frames of warm-up, then {checked} checked"]
    report += [f"  {n:6d}  {name}" for name, n in by_type.most_common(top)]
    if garbage:
        report.append("cycles: where they were made (innermost first):")
        report += [f"  {n:6d}  {site}" for site, n in by_site.most_common(top)]
    report.append(f"cycles: {len(garbage)} objects in cycles over {checked} frames")
    del garbage
    return int(sum(by_type.values())), checked, report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cycles")
    parser.add_argument("--source", type=Path, default=ROOT / "resources" / "samples")
    parser.add_argument("--recipe", type=Path, default=ROOT / "resources" / "recipes" / "example.toml")
    parser.add_argument("--passes", type=int, default=1, help="passes over the folder checked after the warm-up pass")
    parser.add_argument("--no-read", action="store_true")
    args = parser.parse_args(argv)
    _, _, report = find_cycles(args.source, args.recipe, passes=args.passes, read=not args.no_read)
    print("\n".join(report), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
