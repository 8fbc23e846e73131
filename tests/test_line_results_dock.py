"""The Results dock on a moving line lists finished tags, one row each (verdict, the fields read in the recipe's
language, the frame the verdict rests on), not tracked frames; a row clicked shows that tag as it was read. Per
frame again, the frame rows are back. Screenshots at 1280x720 go to test-artifacts/line/ to be looked at."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("PySide6")

from inference.reading.types import FieldReading, TagReading  # noqa: E402
from inference.reading.verdict import Verdict  # noqa: E402
from inference.tracking.records import UNREAD, TagVerdict  # noqa: E402
from inference.tracking.recent import RecentTag  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "line"


def finished(track_id: int, verdict: Verdict, size: str | None, *, reasons=(), frame: int | None = None) -> TagVerdict:
    """A tag as the line hands it over: read (style and size, a crop) or, with size None, passed unread."""
    reading = None if size is None else TagReading(0, (10, 10, 130, 170), fields={
        "style_number": FieldReading("style_number", "AB1234", 0.99, "ocr"), "size": FieldReading("size", size, 0.98, "ocr")})
    crop = None if size is None else np.full((160, 120, 3), 200, np.uint8)
    return TagVerdict(track_id, verdict, tuple(reasons), 9, frame or 0, (frame or 0) + 8, (0.0, 0.0, 1.0, 1.0),
                      frame, 900.0, 0 if size is None else 1, 0.2, reading=reading, crop=crop, read_frame=frame)


def per_tag_window(qtbot, tmp_path):
    from tests.test_gui_station import make_window

    window = make_window(qtbot, tmp_path)
    window.resize(1280, 720)
    window.line.per_tag_action.trigger()
    qtbot.waitUntil(lambda: window.line.shows_tags, timeout=20000)
    return window


def cell(model, row: int, column: str) -> str:
    from app.widgets.tag_results import COLUMNS

    return model.data(model.index(row, COLUMNS.index(column)))


def test_in_per_tag_mode_the_results_dock_has_one_row_per_tag_with_its_fields_and_frame(qtbot, tmp_path):
    window = per_tag_window(qtbot, tmp_path)
    link = window.line
    assert link.results_stack.currentWidget() is link.tag_table
    for verdict in (finished(1, Verdict.OK, "M", frame=14),
                    finished(2, Verdict.NG, "L", reasons=("尺码: read L, expected M",), frame=52),
                    finished(3, Verdict.REVIEW, None, reasons=(UNREAD,))):
        link.tag_finished.emit(RecentTag.of(verdict))
    rows = link.tag_rows
    qtbot.waitUntil(lambda: rows.rowCount() == 3, timeout=3000)
    assert [cell(rows, r, "Tag") for r in range(3)] == ["#1", "#2", "#3"]
    assert [cell(rows, r, "Verdict") for r in range(3)] == ["OK", "NG", "unread"]
    assert cell(rows, 1, "Fields") == "货号 AB1234 · 尺码 L" and cell(rows, 1, "Frame") == "52"
    assert cell(rows, 2, "Fields") == UNREAD and cell(rows, 2, "Frame") == "—"
    assert rows.data(rows.index(1, 2), 3) == "货号 AB1234 · 尺码 L\n尺码: read L, expected M"  # the whole row
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    qtbot.wait(100)
    window.grab().save(str(ARTIFACTS / "results_per_tag_engineer.png"))

    link.show_tag_at(1)  # an older tag clicked: its crop on the view, its verdict on the banner, live stops
    assert window.follow_live is False and window.banner.verdict.text() == "NG #2"
    assert window.view._pixmap.pixmap().width() == 120
    link.show_tag_at(2)  # the newest row: back to following the line
    assert window.follow_live is True

    window.modes.set_mode("operator")  # the frame and the number of reads are an engineer's
    assert [link.tag_table.isColumnHidden(c) for c in range(6)] == [False, False, False, False, True, True]
    qtbot.wait(100)  # the layout settles
    window.grab().save(str(ARTIFACTS / "results_per_tag_operator.png"))
    window.modes.set_mode("engineer")
    link.per_tag_action.trigger()  # per frame again: the frame rows are back
    assert link.results_stack.currentWidget() is window.table
    window.close()


@pytest.mark.parametrize("large", [False, True])
def test_the_banner_is_wide_enough_for_a_long_tag_id(qtbot, large):
    from PySide6.QtGui import QFont, QFontMetrics

    from app.widgets.verdict_banner import VerdictBanner

    banner = VerdictBanner()
    qtbot.addWidget(banner)
    banner.show_tag("#1234", "REVIEW", ["tag passed unread"])
    banner.set_large(large)  # operator mode after the tag came: measured again at the larger size
    font = QFont(banner.verdict.font())
    font.setPixelSize(60 if large else 30)
    font.setBold(True)
    assert banner.verdict.minimumWidth() >= QFontMetrics(font).horizontalAdvance("REVIEW #1234")


def test_in_operator_mode_docks_are_fixed_in_place_and_the_results_cannot_be_hidden(qtbot, tmp_path):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QDockWidget

    from tests.test_gui_station import make_window

    window = make_window(qtbot, tmp_path)
    movable = (QDockWidget.DockWidgetFeature.DockWidgetClosable | QDockWidget.DockWidgetFeature.DockWidgetMovable
               | QDockWidget.DockWidgetFeature.DockWidgetFloatable)
    results = window.docks["results"]
    results.setFloating(True)  # an engineer floated it, and left it so
    window.modes.set_mode("operator")
    assert results.features() == QDockWidget.DockWidgetFeature.NoDockWidgetFeatures
    assert not results.isFloating() and results.isVisible()
    assert not results.toggleViewAction().isEnabled()  # View → Results cannot hide it either
    late = QDockWidget("I/O", window)  # a dock the line adds after the mode was set (PlcLink's I/O)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, late)
    qtbot.waitUntil(lambda: late.features() == QDockWidget.DockWidgetFeature.NoDockWidgetFeatures, timeout=2000)
    window.modes.set_mode("engineer")
    assert all(d.features() == movable for d in (results, late, window.docks["text"]))
    assert results.toggleViewAction().isEnabled()
    window.close()


def test_the_latency_plots_are_not_redrawn_while_tabbed_behind_tag_text(qtbot, tmp_path):
    """Qt calls a dock tabbed behind another visible; redrawing its plots there was most of the GUI thread's own
    work per second on a running line (benchmarks/line_gui_thread.py)."""
    from tests.test_gui_station import make_window

    window = make_window(qtbot, tmp_path)
    panel = window.plots
    drawn = []
    panel._draw = lambda: drawn.append(1)
    assert panel.isVisible() and panel.visibleRegion().isEmpty()  # behind Tag text, the default
    panel._dirty = True
    panel.refresh()
    assert drawn == [] and panel._dirty  # kept for when it is shown
    window.docks["plots"].raise_()
    qtbot.waitUntil(lambda: not panel.visibleRegion().isEmpty(), timeout=3000)
    panel.refresh()
    assert drawn == [1] and not panel._dirty
    window.close()


def test_the_view_shows_a_frames_own_pixels_after_the_caller_drops_them(qtbot):
    """The view's pixmap shares its pixels (no copy on the GUI thread): they must outlive the caller's array."""
    import gc

    from app.widgets.image_view import ImageView

    view = ImageView()
    qtbot.addWidget(view)
    frame = np.zeros((72, 128, 3), np.uint8)
    frame[:, :, 2] = 200  # red in BGR
    view.show_frame(frame, None)
    del frame
    gc.collect()
    _ = [np.full((72, 128, 4), 7, np.uint8) for _ in range(50)]  # memory a freed buffer would be reused for
    pixel = view._pixmap.pixmap().toImage().pixelColor(5, 5)
    assert (pixel.red(), pixel.green(), pixel.blue()) == (200, 0, 0)
