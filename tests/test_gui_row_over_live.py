"""A Results row chosen while the last frame's paint is still queued stays on screen: the queued live frame was painted
after the click and replaced the chosen row's frame and verdict (seen when a row was clicked as the run ended)."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from tests.test_gui import make_folder  # noqa: E402
from tests.test_gui_station import make_window  # noqa: E402


def test_a_chosen_row_is_not_replaced_by_a_live_frame_painted_after_it(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, n=3))
    window.start()
    qtbot.waitUntil(lambda: window.results.total == 3 and not window.source_bar.running, timeout=30000)
    qtbot.wait(100)
    last = window.results.results[-1]
    window._pending = (window.current_image, last)  # the last frame's paint, queued as the run ended
    window._paint_timer.start(30)
    window.show_result_at(0)
    qtbot.wait(120)
    assert window.current.source_name == window.results.results[0].source_name
