"""A line engineer at 1920×1080 looks at the Tag text dock on a moving line: it shows the last finished tag's verdict,
reasons and fields as read (and a tag row clicked shows that tag's), not 'One verdict per tag' all run long; the
tracked frames painted after it do not wipe it."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from inference.pipeline import FrameResult
from inference.postprocess import Thresholds
from inference.reading.types import FieldReading, TagReading
from inference.telemetry import StageTimings
from inference.tracking.recent import RecentTag
from inference.tracking.station import TRACKED
from tests.test_gui_line_walk_swap import per_tag_window
from tests.test_tracking import detections_of


def read_tag(size: str) -> TagReading:
    return TagReading(0, (10.0, 10.0, 190.0, 150.0), fields={
        "style_number": FieldReading("style_number", "QL9018923", 0.99, "ocr"),
        "size": FieldReading("size", size, 0.97, "ocr")})


def tracked_frame(index: int) -> FrameResult:
    return FrameResult(index, f"camera-line.avi#{index}", None, (120, 160), detections_of([(20, 20, 80, 100)]), None,
                       Thresholds(), StageTimings({}, 40.0), verdict=TRACKED)


def test_the_tag_text_shows_the_last_finished_tag_and_a_clicked_ones(qtbot, tmp_path: Path):
    window = per_tag_window(qtbot, tmp_path)
    link, panel = window.line, window.text_panel
    link._on_tag(RecentTag(4, "OK", "", reads=1, frame=30, reading=read_tag("160/96B")))
    link._on_tag(RecentTag(5, "NG", "size 155/92B ≠ expected 160/96B", reasons=("size 155/92B ≠ expected 160/96B",),
                           reads=1, frame=61, reading=read_tag("155/92B")))
    link._on_tag(RecentTag(6, "REVIEW", "tag passed unread", missed=True, reasons=("tag passed unread",)))
    assert "Tag #6" in panel.view.toPlainText() and "Never read" in panel.view.toPlainText()
    window._display(np.zeros((120, 160, 3), np.uint8), tracked_frame(70))  # the live frame painted next
    assert "Tag #6" in panel.view.toPlainText()  # not "One verdict per tag"
    link.show_tag_at(1)
    text = panel.view.toPlainText()
    assert "Tag #5: NG" in text and "size 155/92B ≠ expected 160/96B" in text and "155/92B" in text
    assert "As read at frame 61" in text and "QL9018923" in text
    link._on_tag(RecentTag(7, "OK", "", reads=1, frame=90, reading=read_tag("160/96B")))
    assert "Tag #5" in panel.view.toPlainText()  # the row clicked stays while the line goes on
