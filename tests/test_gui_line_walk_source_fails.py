"""The camera fails mid-run (walked by cutting a replayed conveyor recording while it played): the station says the
recording stopped short, at which frame of how many, and keeps what it inspected; a whole recording ends quietly."""

from __future__ import annotations

from pathlib import Path

import pytest

from inference.sources import Frame, FrameError, open_source
from tests.test_gui import line_video
from tests.test_gui_station import make_window


@pytest.mark.parametrize("kept_share, said", [(1.0, False), (0.5, True)])
def test_a_replayed_recording_cut_short_says_so(tmp_path: Path, kept_share, said):
    video = line_video(tmp_path, 20, fps=240, step=4)
    data = video.read_bytes()
    video.write_bytes(data[: int(len(data) * kept_share)])
    source = open_source(f"camera:{video}")
    try:
        assert len(source) == 0  # a camera: its frames are dropped as they come, there is no count to show
        items = list(source.frames())
    finally:
        source.close()
    errors = [item for item in items if isinstance(item, FrameError)]
    assert bool(errors) == said and 0 < sum(isinstance(item, Frame) for item in items) <= 20
    if said:
        assert "stopped at frame" in errors[0].message and "of 20" in errors[0].message


def test_the_window_says_a_replay_stopped_short_and_keeps_its_frames(qtbot, tmp_path: Path):
    video = line_video(tmp_path, 20, fps=60, step=4)
    data = video.read_bytes()
    video.write_bytes(data[: len(data) // 2])
    window = make_window(qtbot, tmp_path)
    window.open_source(f"camera:{video}")
    qtbot.waitUntil(lambda: window.state.state.source_status == "open", timeout=5000)
    # waited for as a signal, not a sleep: the window's own slot for it (connected first) has run when this returns,
    # so the check below sees what the end of the source did to the status bar however slow this machine is
    with qtbot.waitSignal(window.worker.source_finished, timeout=60000):
        window.start()
    qtbot.waitUntil(lambda: any("stopped at frame" in e for e in window.errors), timeout=20000)
    qtbot.waitUntil(lambda: not window.source_bar.running, timeout=5000)
    assert sum(r.ok for r in window.results.results) > 0  # what was inspected before the cut stays
    qtbot.waitUntil(lambda: window.current is not None and not window.current.ok, timeout=3000)
    said = window.view.placeholder.text()
    assert "camera line.avi #" in said and "camera-" not in said  # not "camera-/tmp/…/line.avi#10"
    message = window.statusBar().currentMessage()  # "Finished …" hid the warning at once
    assert message.startswith("⚠ camera line.avi #") and not message.startswith("Finished")
