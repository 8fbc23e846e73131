"""The live frames the window keeps for re-display are bounded by bytes: 200 frames of a 1280x720 line were 530 MiB
(the window's RSS rose 500 -> 1450 MiB on a moving line), and a row whose frame has left says so instead of drawing
its boxes over the frame on screen."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("PySide6")

from app.frame_memory import FRAME_MEMORY_BYTES, FrameMemory  # noqa: E402
from tests.test_gui import line_video, make_window  # noqa: E402


@pytest.mark.parametrize("height, width, frames", [(720, 1280, 300), (1080, 1920, 300), (2048, 2448, 60),
                                                   (120, 160, 300)])
def test_the_frames_kept_stay_within_the_budget_whatever_the_camera(height, width, frames):
    memory = FrameMemory()
    for number in range(frames):
        memory.keep(number, np.zeros((height, width, 3), np.uint8))
    assert 0 < memory.nbytes <= FRAME_MEMORY_BYTES and len(memory) <= 200
    assert memory.nbytes == sum(image.nbytes for image in memory.values())
    assert memory.get(frames - 1) is not None and memory.get(frames - 1 - len(memory)) is None  # the newest kept


def test_a_row_whose_frame_has_left_says_so_instead_of_drawing_over_another_frame(qtbot, tmp_path):
    video = line_video(tmp_path, 12, fps=30, step=3)
    window = make_window(qtbot, tmp_path)
    window.images = FrameMemory(budget_bytes=3 * 120 * 160 * 3)  # three frames of this camera
    window.open_source(f"camera:{video}")
    qtbot.waitUntil(lambda: window.worker._source is not None, timeout=5000)
    window.start()
    qtbot.waitUntil(lambda: not window.source_bar.running and len(window.results.results) >= 6, timeout=20000)
    assert len(window.images) == 3
    window.show_result_at(len(window.results.results) - 1)
    assert window.view.placeholder.isHidden()  # the newest frame is still held: shown
    window.show_result_at(0)
    assert not window.view.placeholder.isHidden()
    assert "no longer held by the window" in window.view.placeholder.text() and "History" in window.view.placeholder.text()
