"""A recording played frame by frame is not timed by the wall clock: the station takes each of its frames when it is
ready, so how long a tag stays in view there is how slow this machine is, not how the belt moved. On a loaded CI
machine (112 s of wall time for a 4.8 s recording) both tags of tests/test_line_gui.py were judged 'still in view
when its time ran out' while they crossed the view; a live camera's stopped belt is still timed out."""

from __future__ import annotations

from inference.reading.verdict import Verdict
from inference.sources import Frame
from inference.tracking import LineSettings
from inference.tracking.station import PerTagInspector
from tests.test_line_view import PlantedInspector, PlantedPipeline
from tests.test_tracking import RECIPE, PlantedReader, frame_with

BOX = (200, 100, 320, 260)
SETTINGS = LineSettings(look_frames=1, timeout_s=0.0)  # any time at all in view is "too long" by the clock


def stand_still(line: PerTagInspector, frames: int) -> list:
    """One tag standing in the middle of the view for `frames` frames (a stopped belt, or a slow recording)."""
    given = []
    line.listeners.append(given.append)
    for f in range(frames):
        line.inspect(Frame(f, f"f{f}", None, frame_with([(BOX, "ok")], f), 0.0))
    return given


def test_a_recordings_tag_is_judged_when_it_leaves_however_long_the_station_took():
    inner = PlantedInspector(PlantedPipeline({s: [BOX] for s in range(6)}), PlantedReader(), RECIPE)
    line = PerTagInspector(inner, SETTINGS, live_source=False)
    given = stand_still(line, 6)
    assert given == []  # in view on every frame of the recording: no verdict yet
    line.finish()
    assert [(v.verdict, v.timed_out, v.reads) for v in given] == [(Verdict.OK, False, 1)]
    line.close()


def test_a_live_cameras_tag_still_in_view_after_its_time_is_judged_anyway():
    inner = PlantedInspector(PlantedPipeline({s: [BOX] for s in range(6)}), PlantedReader(), RECIPE)
    line = PerTagInspector(inner, SETTINGS)  # a live source, as the worker says for a camera
    given = stand_still(line, 6)
    assert len(given) == 1 and given[0].timed_out and "still in view when its time ran out" in given[0].reasons
    line.finish()
    assert len(given) == 1  # judged once
    line.close()
