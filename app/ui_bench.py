"""Headless GUI benchmarks (issue targets, not timed tests):

  * UI event-loop stall while the worker runs flat out: a 5 ms QTimer probe records how late it fires.
  * Threshold change on a still image → new boxes painted: time from slider move to repaint done.
  * Camera path display rate: a live source (a video file played as a camera) shown in the window.

    QT_QPA_PLATFORM=offscreen python -m app.ui_bench --source resources/samples --json out.json
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path

import numpy as np


def _percentiles(values: list[float]) -> dict[str, float]:
    if not values:
        return {"p50": 0.0, "p95": 0.0, "p99": 0.0, "max": 0.0, "n": 0}
    arr = np.asarray(values)
    p50, p95, p99 = np.percentile(arr, [50, 95, 99])
    return {"p50": round(float(p50), 2), "p95": round(float(p95), 2), "p99": round(float(p99), 2),
            "max": round(float(arr.max()), 2), "n": int(arr.size)}


def _report(result: dict, json_path: Path | None) -> int:
    """Print a bench's result, and write it where asked."""
    print(json.dumps(result, indent=2))
    if json_path:
        json_path.write_text(json.dumps(result, indent=2) + "\n")
    return 0


def _wait(app, predicate, timeout_s: float) -> bool:
    deadline = time.perf_counter() + timeout_s
    while time.perf_counter() < deadline:
        app.processEvents()
        if predicate():
            return True
        time.sleep(0.001)
    return False


def _bench_app(prefix: str):
    """The application with the station's fonts, and settings in a new temporary folder (never the user's):
    (app, folder, settings)."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from app.settings import StationSettings
    from app.theme import register_fonts

    app = QApplication.instance() or QApplication([])
    register_fonts()
    tmp = Path(tempfile.mkdtemp(prefix=prefix))
    return app, tmp, StationSettings(QSettings(str(tmp / "s.ini"), QSettings.Format.IniFormat))


def _lateness_probe(interval_ms: int = 5):
    """A started timer firing every `interval_ms` and the list it fills with how late each firing was (ms): the
    event loop's stalls. The caller stops the timer."""
    from PySide6.QtCore import QElapsedTimer, QTimer

    lateness: list[float] = []
    clock = QElapsedTimer()
    probe = QTimer()
    probe.setInterval(interval_ms)
    last = [0.0]

    def tick() -> None:
        now = clock.nsecsElapsed() / 1e6
        if last[0]:
            lateness.append(max(0.0, now - last[0] - interval_ms))
        last[0] = now

    probe.timeout.connect(tick)
    clock.start()
    probe.start()
    return probe, lateness


def _make_camera_video(path: Path, frames: int = 300) -> Path:
    import cv2

    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 60, (640, 480))
    for i in range(frames):
        image = np.full((480, 640, 3), 114, np.uint8)
        image[100:300, 50 + i % 400:150 + i % 400] = 255
        writer.write(image)
    writer.release()
    return path


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    parser = argparse.ArgumentParser(prog="python -m app.ui_bench")
    parser.add_argument("--source", default="resources/samples")
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--read", action="store_true", help="run the tag reader too")
    parser.add_argument("--seconds", type=float, default=15.0, help="duration of the flat-out run")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)

    from app.main_window import MainWindow
    from inference.resources import default_model_path

    app, tmp, settings = _bench_app("hangtag-uibench-")
    model = args.model or default_model_path()
    window = MainWindow(model=model, source=args.source, backend="onnxruntime-cpu", settings=settings, read=args.read)
    window.resize(1500, 950)
    window.show()
    assert _wait(app, lambda: window.pipeline is not None, 60), "engine did not load"
    window.source_bar.loop.setChecked(True)

    # 1. Event-loop stall probe while the worker runs flat out.
    probe, lateness = _lateness_probe()
    window.start()
    _wait(app, lambda: False, args.seconds)
    window.stop()
    probe.stop()
    frames = window.results.total
    _wait(app, lambda: not window.source_bar.running, 5)

    # 2. Threshold change → repaint of the still frame.
    repaint: list[float] = []
    values = [10, 90, 25, 60, 40, 80, 15, 70]
    for i in range(80):
        start = time.perf_counter()
        window.tuning.confidence.slider.setValue(values[i % len(values)])
        window.view.viewport().repaint()
        repaint.append((time.perf_counter() - start) * 1000)

    # 3. Stop latency: Stop pressed at a random moment while frames are in flight → worker idle.
    stops: list[float] = []
    rng = np.random.default_rng(0)
    window.source_bar.loop.setChecked(True)
    for _ in range(8):
        window.start()
        _wait(app, lambda: window.source_bar.running, 5)
        _wait(app, lambda: False, float(rng.uniform(0.3, 1.0)))
        start = time.perf_counter()
        window.stop()
        _wait(app, lambda: not window.source_bar.running, 10)
        stops.append((time.perf_counter() - start) * 1000)
    window.source_bar.loop.setChecked(False)

    # 4. Camera path: a video played as a live camera, newest frame only.
    video = _make_camera_video(tmp / "camera.avi")
    shown_before = window.results.total
    painted_before = window.frames_painted
    window.open_source(f"camera:{video}")
    _wait(app, lambda: False, 0.3)
    cam_start = time.perf_counter()
    window.start()
    _wait(app, lambda: window.source_bar.running, 5)
    _wait(app, lambda: not window.source_bar.running, 30)
    cam_elapsed = time.perf_counter() - cam_start
    cam_frames = window.results.total - shown_before
    cam_painted = window.frames_painted - painted_before

    result = {
        "model": str(model), "read": args.read, "frames_flat_out": frames, "seconds": args.seconds,
        "event_loop_lateness_ms": _percentiles(lateness),
        "threshold_repaint_ms": _percentiles(repaint),
        "stop_latency_ms": _percentiles(stops),
        "camera": {"frames_inspected": cam_frames, "frames_painted": cam_painted, "seconds": round(cam_elapsed, 2),
                   "inspected_fps": round(cam_frames / cam_elapsed, 1) if cam_elapsed else 0.0,
                   "display_fps": round(cam_painted / cam_elapsed, 1) if cam_elapsed else 0.0,
                   "dropped": window.drops},
        "date": time.strftime("%Y-%m-%d"),
    }
    window.close()
    return _report(result, args.json)


if __name__ == "__main__":
    raise SystemExit(main())
