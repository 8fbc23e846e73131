"""The station window, offscreen: results arrive, tuning re-filters without the engine, stop/start,
bad files, mode locking. Screenshots go to test-artifacts/ for a person to look at."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("PySide6")
from PySide6.QtCore import QSettings  # noqa: E402

from app.main_window import MainWindow  # noqa: E402
from app.settings import StationSettings  # noqa: E402
from tests.factories import blob_detector, scene_with_squares, write_image  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"


def make_folder(tmp_path: Path, n: int = 4, corrupt_at: int | None = None) -> Path:
    folder = tmp_path / "tags"
    folder.mkdir()
    for i in range(n):
        if i == corrupt_at:
            (folder / f"tag_{i:02d}.jpg").write_bytes(b"\xff\xd8\xff not really a jpeg")
            continue
        image = scene_with_squares(240, 320, [(40 + 20 * i, 60, 80)])
        image[150:, 200:] = np.linspace(0, 90, 120, dtype=np.uint8)[None, :, None]
        write_image(folder / f"tag_{i:02d}.png", image)
    return folder


def make_window(qtbot, tmp_path: Path, folder: Path | None = None, **kwargs) -> MainWindow:
    settings = StationSettings(QSettings(str(tmp_path / "station.ini"), QSettings.Format.IniFormat))
    model = blob_detector(tmp_path / "blob.onnx", size=64)
    window = MainWindow(model=model, source=str(folder) if folder else None, backend="onnxruntime-cpu",
                        settings=settings, read=False, journal_path=tmp_path / "journal.sqlite3", testing=True,
                        **kwargs)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.pipeline is not None, timeout=15000)
    return window


def line_video(tmp_path: Path, frames: int, *, fps: int, step: int) -> Path:
    """A 160×120 MJPG recording of one square moving `step` px a frame: a line's camera, replayed."""
    import cv2

    video = tmp_path / "line.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), fps, (160, 120))
    for i in range(frames):
        writer.write(scene_with_squares(120, 160, [(10 + step * i, 30, 40)]))
    writer.release()
    return video


def run_to_end(qtbot, window: MainWindow, expected: int) -> None:
    window.start()
    qtbot.waitUntil(lambda: len(window.results.results) >= expected and not window.source_bar.running, timeout=30000)
    # The live view paints the newest result on its display timer; wait until it is on screen.
    qtbot.waitUntil(lambda: window.current is window.results.results[-1], timeout=3000)
    qtbot.waitUntil(lambda: window.results.rowCount() == len(window.results.results), timeout=3000)


def test_folder_is_processed_and_results_arrive(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 4))
    run_to_end(qtbot, window, 4)
    results = window.results.results
    assert [r.source_name for r in results] == [f"tag_{i:02d}.png" for i in range(4)]
    assert all(len(r.detections) > 0 for r in results)
    assert window.view.box_count == len(window.current.detections) > 0
    assert window.results.rowCount() == 4
    save_screenshot(window, "station_engineer.png")


def test_slider_changes_box_count_without_an_engine_call(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 1))
    run_to_end(qtbot, window, 1)
    calls = window.pipeline.engine.calls
    before = window.view.box_count
    window.tuning.confidence.slider.setValue(95)
    after_strict = window.view.box_count
    window.tuning.confidence.slider.setValue(5)
    after_loose = window.view.box_count
    assert window.pipeline.engine.calls == calls
    assert after_strict < before < after_loose or after_strict < after_loose


def test_per_class_toggle_hides_that_class(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 1))
    run_to_end(qtbot, window, 1)
    assert {"bright", "dark"} <= set(window.current.refiltered(window.thresholds).labels)
    enabled, _ = window.tuning._class_rows["dark"]
    enabled.setChecked(False)
    shown = window.current.refiltered(window.thresholds)
    assert "dark" not in shown.labels and "dark" in window.thresholds.disabled_classes
    assert window.view.box_count == len(shown)


def test_stop_takes_effect_and_start_resumes(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 30))
    window.worker.set_fps_cap(20)
    window.start()
    qtbot.waitUntil(lambda: len(window.results.results) >= 2, timeout=15000)
    window.stop()
    qtbot.waitUntil(lambda: not window.source_bar.running, timeout=1000)
    stopped_at = len(window.results.results)
    qtbot.wait(300)
    assert len(window.results.results) <= stopped_at + 1
    assert stopped_at < 30
    window.worker.set_fps_cap(0)
    run_to_end(qtbot, window, 30)


def test_corrupt_file_mid_folder_is_recorded_and_the_run_goes_on(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 4, corrupt_at=1))
    run_to_end(qtbot, window, 4)
    results = window.results.results
    assert [r.ok for r in results] == [True, False, True, True]
    assert "could not be decoded" in results[1].error
    assert any("tag_01.jpg" in e for e in window.errors)


def test_truncated_video_fails_mid_stream_and_the_station_recovers(qtbot, tmp_path):
    video = line_video(tmp_path, 20, fps=10, step=4)
    data = video.read_bytes()
    video.write_bytes(data[: len(data) // 2])
    window = make_window(qtbot, tmp_path)
    window.open_source(str(video))
    window.start()
    qtbot.waitUntil(lambda: not window.source_bar.running and len(window.results.results) > 0, timeout=20000)
    qtbot.wait(200)
    assert 0 < sum(r.ok for r in window.results.results) < 20
    # After the failure the station is idle and can open another source.
    window.open_source(str(make_folder(tmp_path, 2)))
    before = len(window.results.results)
    run_to_end(qtbot, window, before + 2)


def test_unavailable_backend_is_disabled_with_reason_and_station_falls_back(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    combo = window.tuning.backend
    cuda = combo.findData("onnxruntime-cuda")
    item = combo.model().item(cuda)
    if item.isEnabled():
        pytest.skip("CUDA is available here; nothing to fall back from")
    assert "unavailable" in item.toolTip()
    window.request_engine("onnxruntime-cuda", "fp32")
    qtbot.waitUntil(lambda: any("Engine not changed" in e for e in window.errors), timeout=10000)
    assert window.pipeline.backend == "onnxruntime-cpu"


def test_operator_mode_locks_tuning_and_pin_unlocks(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 1))
    run_to_end(qtbot, window, 1)
    window.settings.set_pin("2468")
    window.modes.set_mode("operator")
    assert not window.tuning.confidence.isEnabled() and not window.docks["tuning"].isVisible()
    assert not window.source_bar.path.isEnabled() and not window.source_bar.reading.isEnabled()
    assert window.source_bar.start_button.isEnabled()  # the operator still starts and stops the line
    save_screenshot(window, "station_operator.png")
    assert not window.modes.unlock("0000") and window.modes.mode == "operator"
    assert window.modes.unlock("2468") and window.tuning.confidence.isEnabled()


def test_clicking_a_row_shows_that_frame_again(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 3))
    run_to_end(qtbot, window, 3)
    window.show_result_at(0)
    assert window.current is window.results.results[0]
    assert window.current_image is not None and window.current_image.shape == (240, 320, 3)


def test_what_if_counts_flips_without_inference(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 3))
    run_to_end(qtbot, window, 3)
    calls = window.pipeline.engine.calls
    window.tuning.confidence.slider.setValue(90)
    qtbot.waitUntil(lambda: "What-if" in window.tuning.whatif.text(), timeout=3000)
    assert window.pipeline.engine.calls == calls


def test_every_frame_is_journaled_and_the_report_exports(qtbot, tmp_path):
    from inference.records import Journal

    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 3, corrupt_at=2))
    window.set_job("K2291", "LOT-7")
    run_to_end(qtbot, window, 3)
    with Journal.open(tmp_path / "journal.sqlite3", read_only=True) as journal:
        session = journal.last_session_id()
        rows = journal.frames(session)
        info = journal.session(session)
    assert [r.source_name for r in rows] == [r.source_name for r in window.results.results]
    assert info.job == "K2291" and info.backend == "onnxruntime-cpu"
    out = tmp_path / "reports"
    out.mkdir()
    window.records.export(session, str(out), pdf=True)
    qtbot.waitUntil(lambda: hasattr(window.records, "last_export"), timeout=60000)
    folder = Path(window.records.last_export)
    assert (folder / "report.html").is_file() and (folder / "report.pdf").stat().st_size > 1000
    assert "tag_00.png" in (folder / "frames.csv").read_text(encoding="utf-8")


def save_screenshot(window: MainWindow, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    window.resize(1400, 900)
    window.grab().save(str(ARTIFACTS / name))


def test_no_widget_is_touched_from_the_worker_thread(qtbot, qtlog, tmp_path):
    """Qt warns when a widget is used from another thread; a full run must produce no such warning."""
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 3, corrupt_at=1))
    run_to_end(qtbot, window, 3)
    qtbot.wait(100)
    threading_warnings = [r.message for r in qtlog.records
                          if "different thread" in r.message or "another thread" in r.message]
    assert threading_warnings == []


def test_precision_change_builds_in_the_background_and_swaps_when_ready(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 2))
    old = window.pipeline
    window.request_engine("onnxruntime-cpu", "fp16")
    qtbot.waitUntil(lambda: window.pipeline is not old, timeout=60000)
    assert window.precision == "fp16"
    assert window.pipeline.engine.model_path != old.engine.model_path  # the converted, cached model
    run_to_end(qtbot, window, 2)
    assert all(len(r.detections) > 0 for r in window.results.results)


def test_stop_between_stages_abandons_the_frame_and_start_inspects_it_again(qtbot, tmp_path):
    """A frame caught by Stop between detection and reading is not lost: it is first at the next Start."""
    from inference.inspection import FrameAborted

    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 3))
    inspector = window.worker._inspector
    read_calls = []

    class Reader:
        def read(self, image, detections, should_stop=None, recipe=None, neighbours=()):
            read_calls.append(1)
            return ()

    inspector.reader = Reader()
    with pytest.raises(FrameAborted):
        inspector.inspect_image(np.zeros((64, 64, 3), np.uint8), should_stop=lambda: True)
    detect = inspector.pipeline.process
    pressed = []

    def detect_then_stop(*args, **kwargs):
        result = detect(*args, **kwargs)
        if not pressed:  # Stop pressed while the first frame is in detection
            pressed.append(kwargs.get("source_name"))
            window.worker.request_stop()
        return result

    inspector.pipeline.process = detect_then_stop
    window.start()
    qtbot.waitUntil(lambda: bool(pressed) and not window.source_bar.running, timeout=10000)
    qtbot.wait(100)
    assert window.results.results == [] and read_calls == []  # abandoned before reading, nothing shown
    run_to_end(qtbot, window, 3)
    names = [r.source_name for r in window.results.results]
    assert names == ["tag_00.png", "tag_01.png", "tag_02.png"]  # nothing skipped, nothing twice
    assert pressed == ["tag_00.png"]


def test_banner_keeps_reasons_short(qtbot):
    from app.widgets.verdict_banner import VerdictBanner

    banner = VerdictBanner()
    qtbot.addWidget(banner)
    banner.show_verdict("NG", [f"reason {i}" for i in range(9)])
    assert banner.reasons.text() == "reason 0; reason 1; reason 2; reason 3; and 5 more (see Tag text)"
    banner.show_verdict("OK", [])
    assert banner.reasons.text() == "all checks passed"


def test_banner_on_screen_says_the_new_modes_words_when_the_mode_changes(qtbot):
    """Switching to operator mode with a long REVIEW on screen must not keep pointing at the Tag text dock
    the operator no longer has (seen at 1280x720: 'and 5 more (see Tag text)' after Mode → Operator)."""
    from app.widgets.verdict_banner import VerdictBanner

    banner = VerdictBanner()
    qtbot.addWidget(banner)
    banner.show_verdict("REVIEW", [f"reason {i}" for i in range(9)])
    banner.set_large(True)  # operator mode
    assert banner.reasons.text() == "reason 0; reason 1; reason 2; reason 3; and 5 more"
    assert banner.verdict.text() == "REVIEW"
    banner.set_large(False)  # engineer mode again
    assert banner.reasons.text().endswith("and 5 more (see Tag text)")


def test_a_camera_reads_into_lent_frames_and_the_window_keeps_copies(qtbot, tmp_path):
    """With an engine that offers frame memory (the GPU pipeline's page-locked frames; ordinary memory here),
    the camera reads into lent frames, every frame is inspected, and the window's history holds its own
    copies, so the lender does not run dry however many frames the window keeps."""
    from inference.lending import is_lent

    video = line_video(tmp_path, 24, fps=30, step=3)
    window = make_window(qtbot, tmp_path)
    window.pipeline.frame_memory = lambda shape: np.zeros(shape, np.uint8)
    window.open_source(f"camera:{video}")
    qtbot.waitUntil(lambda: window.worker._source is not None, timeout=5000)
    source = window.worker._source  # kept here: the worker lets go of it at the end of the replay
    window.start()
    qtbot.waitUntil(lambda: not window.source_bar.running and len(window.results.results) > 0, timeout=20000)
    results = window.results.results
    assert len(results) >= 12 and all(r.ok for r in results)  # a camera may drop frames; none may fail
    assert window.images and not any(is_lent(image) for image in window.images.values())
    assert source.lender.lent >= 23 and source.lender.refused == 0 and source.frames_in_own_memory == 1
    errors = list(window.errors)
    window.show_result_at(0)  # a video frame is shown again from the window's copy, not re-read from the video
    assert window.errors == errors and window.current is results[0] and window.current_image is not None


@pytest.mark.parametrize("spec, kind", [
    ("0@1280x720", "Camera"), ("0@800x600", "Camera"), ("camera:/line/replay.avi", "Camera"),
    ("rtsp://user:pw@cam/stream", "Camera"), ("watch:/line/drop", "Watch folder"), ("/line/run.avi", "Video file"),
    ("/line/tag.jpg", "Single image"), ("/line/tags", "Image folder"),
])
def test_the_source_bar_shows_a_spec_as_its_kind_and_gives_it_back_unchanged(qtbot, spec, kind):
    from app.widgets.source_bar import KINDS, SourceBar

    bar = SourceBar()
    qtbot.addWidget(bar)
    bar.kind.setCurrentIndex(KINDS.index("Single image"))  # whatever was picked before
    bar.set_spec(spec)
    assert KINDS[bar.kind.currentIndex()] == kind
    assert bar.spec() == spec


@pytest.mark.parametrize("spec, picked, kind", [
    ("{tmp}/report.pdf", "Single image", "Single image"),  # a file of no kind the bar offers: the pick stays
    ("gige:22918301", "Camera", "Camera"),  # a scheme the station does not know
    ("{tmp}/lot.2024", "Video file", "Image folder"),  # a folder with a dot in its name is still a folder
    ("{tmp}/no-such-folder", "Single image", "Image folder"),  # typed as a folder: said as one
])
def test_the_source_bar_calls_a_refused_spec_no_image_folder(qtbot, tmp_path, spec, picked, kind):
    from app.widgets.source_bar import KINDS, SourceBar

    (tmp_path / "report.pdf").write_bytes(b"%PDF-1.4")
    (tmp_path / "lot.2024").mkdir()
    spec = spec.format(tmp=tmp_path)
    bar = SourceBar()
    qtbot.addWidget(bar)
    bar.kind.setCurrentIndex(KINDS.index(picked))
    bar.set_spec(spec)
    assert KINDS[bar.kind.currentIndex()] == kind and bar.path.text() == spec
