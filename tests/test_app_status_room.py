"""The status bar's message at 1280×720: what a moving line says at a Stop must not run under the permanent labels.

QStatusBar clips its message where its permanent widgets begin; with a live line's counts ("Frames: 12345 (dropped
4321)", "9.7 fps") the labels left about 500 px at 1280, and 'Stopped: 4 tags in view judged now (2 OK, 1 NG,
1 REVIEW); tags passing while stopped get no verdict' (605 px) lost its end."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.line_link import paused_text, stopped_text
from inference.reading.verdict import Verdict
from tests.test_gui_station import make_window


class Judged:
    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict


LINE_MESSAGES = [
    stopped_text([Judged(Verdict.OK)] * 2 + [Judged(Verdict.NG), Judged(Verdict.REVIEW)]),
    paused_text(3),
    "Finished camera replay /data/line-recordings/2026-12-05/夜班/line-3 女士连衣裙 夏季新款.avi",
]


def shown_room(window) -> int:
    """Where the message must end on screen: the leftmost permanent widget shown, less the bar's margins (the
    bar laid out first: its widgets' places lag a change of their text until the event loop runs)."""
    from PySide6.QtWidgets import QApplication

    from app.widgets.status_room import MESSAGE_MARGIN

    bar = window.statusBar()
    QApplication.processEvents()
    bar.layout().activate()
    shown = [w for w in [*window.status_labels.values(), window.report_opener.button] if w.isVisible()]
    return (min(w.x() for w in shown) if shown else bar.width()) - MESSAGE_MARGIN


def live_counts(window) -> None:
    """The labels as the station shows them on a live line (the shipped model's name, a long run's counts)."""
    window._status_timer.stop()
    window.status_labels["model"].setText("Model: hangtag_det.onnx")
    window.status_labels["frames"].setText("Frames: 12345 (dropped 4321)")
    window.status_labels["fps"].setText("9.7 fps")


@pytest.mark.parametrize("message", LINE_MESSAGES)
def test_a_line_message_has_room_at_1280_and_the_counts_stay(qtbot, tmp_path: Path, message):
    window = make_window(qtbot, tmp_path)
    window.resize(1280, 720)
    live_counts(window)
    window.statusBar().showMessage(message, 30000)
    bar = window.statusBar()
    assert bar.fontMetrics().horizontalAdvance(message) <= shown_room(window)
    assert window.status_labels["frames"].isVisible() and window.status_labels["fps"].isVisible()


def test_the_engine_details_come_back_when_the_message_goes(qtbot, tmp_path: Path):
    window = make_window(qtbot, tmp_path)
    window.resize(1280, 720)
    live_counts(window)
    window.statusBar().showMessage(LINE_MESSAGES[0], 30000)
    qtbot.waitUntil(lambda: not window.status_labels["model"].isVisible(), timeout=3000)
    window.statusBar().clearMessage()
    qtbot.waitUntil(lambda: window.status_labels["model"].isVisible(), timeout=3000)
    window.statusBar().showMessage("Engine ready: onnxruntime-cpu, FP32", 30000)  # short: nothing steps aside
    assert window.status_labels["model"].isVisible() and window.status_labels["device"].isVisible()


def test_counts_that_grow_under_a_message_make_room_too(qtbot, tmp_path: Path):
    window = make_window(qtbot, tmp_path)
    window.resize(1280, 720)
    live_counts(window)
    window.status_labels["frames"].setText("Frames: 0")
    window.status_labels["fps"].setText("— fps")
    message = LINE_MESSAGES[1]
    window.statusBar().showMessage(message, 30000)
    live_counts(window)  # the line runs on after Start, under the message
    bar = window.statusBar()
    assert bar.fontMetrics().horizontalAdvance(message) <= shown_room(window)
