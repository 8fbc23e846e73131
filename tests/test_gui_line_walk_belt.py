"""A line engineer keeps the belt speed the line learned: learned on a starved worker, tags were split into two ids
(the walk at load 11–16: 14 and 21 tags for 14), while the same recording with the speed kept gave each tag one
verdict (12 tags, all right). The speed learned so far is offered in Line → Belt speed…"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from inference.tracking.tracker import TagTracker, TrackerSettings


def moved(tracker: TagTracker, px_per_frame: float, frames: int = 4) -> TagTracker:
    for frame in range(frames):
        x = 300.0 + px_per_frame * frame
        tracker.update(frame, np.array([[x, 100.0, x + 120.0, 300.0]]), np.array([0.9]))
    return tracker


def test_the_tracker_says_the_belt_speed_it_learned_and_only_that():
    assert TagTracker((1280, 720)).learned_belt is None  # nothing seen yet
    learned = moved(TagTracker((1280, 720)), 30.5).learned_belt
    assert learned is not None and learned[0] == pytest.approx(30.5, abs=0.5) and abs(learned[1]) < 0.5
    given = moved(TagTracker((1280, 720), TrackerSettings(belt_px_per_frame=(30.0, 0.0))), 30.5)
    assert given.learned_belt is None  # the line gave it: nothing learned to offer


@pytest.mark.parametrize("learned, offered", [((30.3, 0.2), 30.3), ((-12.0, 0.1), -12.0), ((0.2, 25.0), None),
                                              ((0.4, 0.1), None), (None, None)])
def test_the_line_offers_a_learned_speed_along_the_settings_axis(qtbot, tmp_path: Path, learned, offered):
    from tests.test_gui_station import make_window

    link = make_window(qtbot, tmp_path).line
    running, link.inspector = link.inspector, SimpleNamespace(learned_belt=learned)  # the line's tracker, as asked
    try:
        assert link.learned_belt_px_per_frame() == offered
    finally:
        link.inspector = running  # closing the window finishes the real one


@pytest.mark.parametrize("learned", [30.27666938, None])
def test_the_belt_speed_dialog_keeps_the_learned_speed_with_one_click(qtbot, learned):
    from app.widgets.belt_speed import BeltSpeedDialog

    dialog = BeltSpeedDialog(0.0, learned=learned)
    qtbot.addWidget(dialog)
    if learned is None:
        assert dialog.use_learned is None
        return
    assert dialog.use_learned.text() == "Keep the speed learned so far: 30.28 px/frame, left to right"
    dialog.use_learned.click()
    assert not dialog.learn.isChecked() and dialog.px_per_frame() == pytest.approx(30.28)
