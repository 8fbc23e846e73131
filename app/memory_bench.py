"""The window's memory over a long run (issue 15 item 4): RSS of the real window, offscreen, inspecting a
looping folder, sampled every `--every` frames, after a warm-up.

    QT_QPA_PLATFORM=offscreen python -m app.memory_bench --model M.onnx --source DIR --frames 20000 --json out.json

`--capacity` sets the results ring (rows kept in the window; 0 = keep every result, as the window did
before the ring); `--cache-last` how many keep their detector candidates. With a small, fast model the
run measures the window, not the engine.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path


def rss_mib() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    parser = argparse.ArgumentParser(prog="python -m app.memory_bench")
    parser.add_argument("--source", required=True, help="a folder of images, inspected in a loop")
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--frames", type=int, default=20000)
    parser.add_argument("--warmup", type=int, default=2000)
    parser.add_argument("--every", type=int, default=1000)
    parser.add_argument("--capacity", type=int, default=None, help="results ring size (0 = unbounded)")
    parser.add_argument("--cache-last", type=int, default=None)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from app.main_window import MainWindow
    from app.settings import StationSettings
    from app.ui_bench import _wait
    from inference.resources import default_model_path

    app = QApplication.instance() or QApplication([])
    tmp = Path(tempfile.mkdtemp(prefix="hangtag-membench-"))
    os.environ["HANGTAG_DATA_DIR"] = str(tmp / "data")
    settings = StationSettings(QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat))
    window = MainWindow(model=args.model or default_model_path(), source=args.source, backend="onnxruntime-cpu",
                        settings=settings, read=False, journal_path=tmp / "journal.sqlite3", testing=True)
    if args.capacity is not None:
        window.results.capacity = args.capacity or 10**12
    if args.cache_last is not None:
        window.results.cache_last = args.cache_last
    window.resize(1280, 720)
    window.show()
    assert _wait(app, lambda: window.pipeline is not None, 60), "engine did not load"
    window.source_bar.loop.setChecked(True)
    window.start()
    samples: list[tuple[int, float]] = []
    started = time.perf_counter()
    next_sample = args.warmup
    while window.results.total < args.frames:
        _wait(app, lambda: window.results.total >= next_sample, 600)
        samples.append((window.results.total, round(rss_mib(), 1)))
        next_sample += args.every
    elapsed = time.perf_counter() - started
    window.stop()
    _wait(app, lambda: not window.source_bar.running, 10)
    first, last = samples[0], samples[-1]
    result = {
        "frames": window.results.total, "seconds": round(elapsed, 1), "capacity": window.results.capacity,
        "cache_last": window.results.cache_last, "rows_kept": len(window.results.results),
        "rss_after_warmup_mib": first[1], "rss_end_mib": last[1], "growth_mib": round(last[1] - first[1], 1),
        "growth_per_1000_frames_mib": round((last[1] - first[1]) / max(1, last[0] - first[0]) * 1000, 2),
        "samples": samples, "date": time.strftime("%Y-%m-%d"),
    }
    window.close()
    print(json.dumps(result))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
