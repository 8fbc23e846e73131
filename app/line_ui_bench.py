"""The window's responsiveness on a moving line (a benchmark, not a test): per-tag mode on, reading on, a conveyor
recording replayed as a live camera; a 5 ms QTimer probe records how late the UI's event loop fires while the
worker detects and tracks and the line's thread reads, and the tags the strip received are counted.

    QT_QPA_PLATFORM=offscreen python -m app.line_ui_bench --source camera:datasets/line/s1.25/line.avi \
        --recipe datasets/line/s1.25/recipe.toml --seconds 30 --json out.json
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from app.ui_bench import _bench_app, _lateness_probe, _percentiles, _report, _wait


def open_line_window(prefix: str, source: str, recipe: Path, belt_px_per_frame: float,
                     size: tuple[int, int] = (1280, 720)):
    """(app, its temporary folder, the window) reading a recording in per-tag mode at `size`, its engine loaded."""
    from app.main_window import MainWindow

    app, tmp, settings = _bench_app(prefix)
    settings.set("line/per_tag", "1")
    settings.set("line/belt_px_per_frame", f"{belt_px_per_frame:g}")
    window = MainWindow(source=source, backend="onnxruntime-cpu", recipe=recipe, settings=settings,
                        read=True, journal_path=tmp / "journal.sqlite3", testing=True)
    window.resize(*size)
    window.show()
    if not _wait(app, lambda: window.pipeline is not None and window.line.shows_tags, 120):
        raise SystemExit("the engine did not load in 120 s")
    return app, tmp, window


def window_size(text: str) -> tuple[int, int]:
    width, _, height = text.lower().partition("x")
    if not (width.isdigit() and height.isdigit()):
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 1920x1080, found {text!r}")
    return int(width), int(height)


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    parser = argparse.ArgumentParser(prog="python -m app.line_ui_bench")
    parser.add_argument("--source", required=True, help="camera:VIDEO, a conveyor recording played live")
    parser.add_argument("--recipe", type=Path, required=True)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--belt-px-per-frame", type=float, default=0.0, help="the Line menu's belt speed (0: learn)")
    parser.add_argument("--size", type=window_size, default=(1280, 720), help="the window's WIDTHxHEIGHT (a 1920x1080 station paints "
                        "each frame larger, on the same two cores)")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)

    size = args.size
    app, tmp, window = open_line_window("hangtag-line-uibench-", args.source, args.recipe, args.belt_px_per_frame, size)
    probe, lateness = _lateness_probe()
    started = time.perf_counter()
    window.start()
    _wait(app, lambda: not window.source_bar.running and time.perf_counter() - started > 2, args.seconds)
    probe.stop()
    window.stop()
    _wait(app, lambda: not window.source_bar.running, 10)
    seen = [len(window.line.model.tags), time.perf_counter()]

    def settled() -> bool:  # the tags still in view at the end are finished on the worker's thread: wait for them
        if len(window.line.model.tags) != seen[0]:
            seen[:] = [len(window.line.model.tags), time.perf_counter()]
        return time.perf_counter() - seen[1] > 5.0

    _wait(app, settled, 60)
    result = {
        "source": args.source, "window": f"{size[0]}x{size[1]}", "belt_px_per_frame": args.belt_px_per_frame, "seconds": round(time.perf_counter() - started, 1),
        "event_loop_lateness_ms": _percentiles(lateness), "frames_inspected": window.results.total,
        "frames_painted": window.frames_painted, "tags_finished": sum(window.line.model.counts.values()),
        "tag_counts": dict(window.line.model.counts), "load_average": round(os.getloadavg()[0], 2),
        "date": time.strftime("%Y-%m-%d %H:%M"),
    }
    window.close()
    return _report(result, args.json)


if __name__ == "__main__":
    raise SystemExit(main())
