"""An error's line in the status bar ends with '…' where the permanent labels begin: at 1280 px 'Recipe not loaded:
PATH (the recipe in use stays: ZEPHYRA 女士连衣裙…' ran on under them and read '…女士连衣裙Model: hangtag_det.onnx'."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from app.records_link import message_room  # noqa: E402
from tests.test_gui_station import make_window  # noqa: E402

LONG = ("Recipe not loaded: /home/line/recipes/2026-12/typo_key.toml (the recipe in use stays: ZEPHYRA 女士连衣裙 "
        "22HX-1489 白色 175/92A(XL))\nRecipe …, line 30, key barcode.expectd: unknown key")


# At 1280 the line is whole since the engine's details step aside for a message (app/widgets/status_room.py);
# narrower, it is cut with "…" where the counts begin
@pytest.mark.parametrize(("width", "elided"), [(800, True), (1280, False), (1920, False)])
def test_an_error_line_in_the_status_bar_stops_before_the_permanent_labels(qtbot, tmp_path, width, elided):
    window = make_window(qtbot, tmp_path)
    window.resize(width, 720)
    qtbot.wait(50)
    window._on_error(LONG)
    bar = window.statusBar()
    shown = bar.currentMessage()
    assert bar.fontMetrics().horizontalAdvance(shown) <= max(message_room(window), 240)
    qtbot.wait(50)
    bar.layout().activate()
    counts = window.status_labels["frames"]
    assert counts.isVisible() and bar.fontMetrics().horizontalAdvance(shown) + 12 <= counts.x()
    assert shown.startswith("⚠ Recipe not loaded: /home/line/recipes/2026-12/typo_key.toml")
    assert shown.endswith("…") == elided


def test_a_report_that_could_not_be_written_says_why_in_the_status_bar(qtbot, tmp_path):
    """It said '⚠ Report not exported:' and nothing after the colon (the why was on the next line)."""
    window = make_window(qtbot, tmp_path)
    window.resize(1280, 720)
    window.records._on_failed("the export folder is read-only or not writable\n  expected: a writable folder: /mnt/ro\n"
                              "  hint:     choose another folder; nothing partial was left")
    assert "Report not exported: the export folder is read-only" in window.statusBar().currentMessage()
    assert "choose another folder" in window.errors[-1]
