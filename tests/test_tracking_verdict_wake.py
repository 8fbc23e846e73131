"""A tag that left waiting for its read gets its verdict the moment the read lands, on the reading thread, not at the
next frame the detection loop steps: on a loaded CPU a detection takes 0.1-1 s, and the verdict used to wait for it
(BENCHMARKS, issue 18, "where a leaving tag's verdict waits"). Each verdict is given once, whichever thread gives it.
The reader is held inside its read until the test lets it go (tests/test_tracking_cut_short.py)."""

from __future__ import annotations

import threading

from inference.reading.verdict import Verdict
from inference.sources import Frame
from inference.tracking import LineInspector, LineSettings, TrackerSettings
from inference.tracking.station import PerTagInspector
from tests.test_line_view import PlantedInspector, PlantedPipeline
from tests.test_tracking import RECIPE, conveyor, detections_of, frame_with
from tests.test_tracking_cut_short import HeldReader

SPEED = 20
SETTINGS = LineSettings(sharp_focus=0.0, tracker=TrackerSettings(belt_px_per_frame=(float(SPEED), 0.0)))


class Given:
    """The verdicts given to `on_verdict`, and the thread each came on."""

    def __init__(self) -> None:
        self.verdicts, self.threads = [], []
        self.arrived = threading.Event()

    def __call__(self, verdict) -> None:
        self.verdicts.append(verdict)
        self.threads.append(threading.current_thread().name)
        self.arrived.set()


def until_it_left(line: LineInspector, reader: HeldReader) -> int:
    """One tag crosses and leaves while its one read is held; returns the frame its track ended at."""
    frames = list(conveyor(1, speed=SPEED))
    frames += [(frames[-1][0] + k, []) for k in range(1, 4)]  # the belt after it: nothing in view
    for frame, visible in frames:
        boxes = [box for box, _, _ in visible]
        line.step(frame, frame_with([(box, "ok") for box in boxes], frame % 250), detections_of(boxes))
        if frame > 3 and not line.tracker.live_ids:
            assert reader.inside.is_set()  # read while it crossed, the read still running as it left
            return frame
    raise AssertionError("the tag never left")


def test_the_read_landing_after_the_tag_left_gives_its_verdict_without_another_frame():
    reader, given = HeldReader(), Given()
    line = LineInspector(None, reader, RECIPE, SETTINGS, on_verdict=given)
    try:
        until_it_left(line, reader)
        assert given.verdicts == [] and len(line.tracks()) == 1  # waiting for its read
        reader.go.set()  # the read lands; the loop steps no frame
        assert given.arrived.wait(30)
        assert [(v.verdict, v.reads) for v in given.verdicts] == [(Verdict.OK, 1)]
        assert given.threads == ["tag-reader"]
        assert line.tracks() == ()
        assert line.follow(999) == [] and line.finish() == []  # given once: the loop does not give it again
    finally:
        reader.go.set()
        line.close()
    assert len(given.verdicts) == 1


def test_the_station_hands_it_to_its_listeners_as_the_read_lands():
    frames = list(conveyor(1, speed=SPEED))
    frames += [(frames[-1][0] + k, []) for k in range(1, 4)]
    boxes = {frame % 250: [box for box, _, _ in visible] for frame, visible in frames}
    reader, given = HeldReader(), Given()
    station = PerTagInspector(PlantedInspector(PlantedPipeline(boxes), reader, RECIPE), SETTINGS, live_source=True)
    station.listeners.append(given)
    try:
        for frame, visible in frames:
            station.inspect(Frame(frame, f"cam#{frame}", None,
                                  frame_with([(box, "ok") for box, _, _ in visible], frame % 250), 0.0))
            if frame > 3 and station.tags_in_view == 1 and not station._line.tracker.live_ids:
                break  # the tag left; its read is held
        else:
            raise AssertionError("the tag never left")
        assert given.verdicts == []
        reader.go.set()
        assert given.arrived.wait(30)
        assert [(v.verdict, v.reads) for v in given.verdicts] == [(Verdict.OK, 1)] and station.tags_given == 1
        station.finish()
        assert station.tags_given == 1
    finally:
        reader.go.set()
        station.close()


def test_without_a_listener_the_verdict_waits_for_the_loop_as_before():
    reader = HeldReader()
    line = LineInspector(None, reader, RECIPE, SETTINGS)
    try:
        left_at = until_it_left(line, reader)
        reader.go.set()
        assert line.worker.wait_for(1, 30)
        verdicts = line.follow(left_at + 1)
        assert [(v.verdict, v.reads) for v in verdicts] == [(Verdict.OK, 1)]
    finally:
        reader.go.set()
        line.close()
