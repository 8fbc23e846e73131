"""The line's takt, as a line engineer sets it in Latency & memory: kept across a restart (violations were counted
against the 250 ms default after each one), and the violations always counted over the frames they are said of."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.widgets.plots_panel import STAGES, PlotsPanel
from tests.test_gui_station import make_settings, make_window


def test_the_takt_set_for_the_line_survives_a_restart(qtbot, tmp_path: Path):
    settings = make_settings(tmp_path)
    window = make_window(qtbot, tmp_path, settings=settings)
    assert window.plots.takt.value() == 250  # nothing set yet: the default
    window.plots.takt.setValue(1250)  # a tag every 1.25 s
    window.close()
    again = make_window(qtbot, tmp_path, settings=make_settings(tmp_path))
    assert again.plots.takt.value() == 1250 and again.plots.takt_line.value() == 1250
    assert "takt 1250 ms" in again.plots.legend_labels("lat")


@pytest.mark.parametrize("frames, takt, summary", [
    (20, 250, "takt violations 20 of 20"),  # every frame's 400 ms over the default
    (20, 1250, "takt violations 0 of 20"),
    (400, 250, "takt violations 300 of the last 300"),  # the plot holds the newest 300: the count is of those
    (400, 1250, "takt violations 0 of the last 300"),
])
def test_takt_violations_are_counted_over_the_frames_they_are_said_of(qtbot, frames, takt, summary):
    panel = PlotsPanel()
    qtbot.addWidget(panel)
    panel.show()
    for frame in range(1, frames + 1):
        panel.frames = frame
        panel.latency.push([400.0 / len(STAGES)] * len(STAGES) + [frame])
    panel.takt.setValue(takt)  # set after the frames came, as an engineer does on a running line
    panel._draw()
    assert summary in panel.summary.text()
