"""A run that ends while a tag's read is still running (the station closing, issue 15): `finish(drain_s)` waits that
long in all, then gives every tag in view its one verdict anyway; the tag whose read was cut short is a REVIEW that
says so, never dropped (before, a read outlasting the drain left its tag with no verdict and no journal row).
The reader is tests/test_tracking.py's stand-in, held inside its read until the test lets it go."""

from __future__ import annotations

import threading

from inference.reading.verdict import Verdict
from inference.tracking import LineInspector, LineSettings
from inference.tracking.line import READ_CUT_SHORT
from tests.test_tracking import RECIPE, PlantedReader, detections_of, frame_with


class HeldReader(PlantedReader):
    """Reads as PlantedReader does, once the test lets it: `inside` is set while a read waits to be let go."""

    def __init__(self) -> None:
        super().__init__()
        self.inside, self.go = threading.Event(), threading.Event()

    def read(self, image, detections, should_stop=None, recipe=None, neighbours=()):
        self.inside.set()
        self.go.wait(30)
        return super().read(image, detections, should_stop, recipe)


def tags_in_view(line: LineInspector, boxes, frames: int = 3) -> None:
    for frame in range(frames):
        line.step(frame, frame_with([(box, "ok") for box in boxes], frame), detections_of(boxes))


def test_a_tag_whose_read_outlasts_the_drain_gets_a_review_that_says_so():
    reader = HeldReader()
    line = LineInspector(None, reader, RECIPE, LineSettings(sharp_focus=0.0))  # read at the first whole sighting
    try:
        tags_in_view(line, [(100, 100, 220, 260), (360, 100, 480, 260)])
        assert reader.inside.wait(10)  # the first tag's read is running; the second waits behind it
        verdicts = line.finish(drain_s=0.2)
    finally:
        reader.go.set()
        line.close()
    assert len(verdicts) == 2 and len({v.track_id for v in verdicts}) == 2  # one each, none dropped
    assert all(v.verdict is Verdict.REVIEW and v.reads == 0 for v in verdicts)
    assert all(v.reasons == (READ_CUT_SHORT,) for v in verdicts), [v.reasons for v in verdicts]


def test_reads_that_end_within_the_drain_give_their_own_verdicts():
    reader = HeldReader()
    reader.go.set()
    line = LineInspector(None, reader, RECIPE, LineSettings(sharp_focus=0.0))
    try:
        tags_in_view(line, [(100, 100, 220, 260)])
        verdicts = line.finish(drain_s=30.0)
    finally:
        line.close()
    assert [(v.verdict, v.reads) for v in verdicts] == [(Verdict.OK, 1)]
    assert READ_CUT_SHORT not in verdicts[0].reasons


def test_hurry_cuts_short_a_finish_already_waiting_for_a_read():
    """The window closing while the worker's thread drains a source that ended (its own allowance, a minute):
    `hurry` from another thread ends that wait, and the tags in view are judged at once, saying why."""
    reader = HeldReader()
    line = LineInspector(None, reader, RECIPE, LineSettings(sharp_focus=0.0, drain_s=60.0))
    verdicts: list = []
    try:
        tags_in_view(line, [(100, 100, 220, 260)])
        assert reader.inside.wait(10)
        finishing = threading.Thread(target=lambda: verdicts.extend(line.finish()))
        finishing.start()
        line.hurry(0.0)
        finishing.join(30)
        assert not finishing.is_alive()
    finally:
        reader.go.set()
        line.close()
    assert [(v.verdict, v.reads, v.reasons) for v in verdicts] == [(Verdict.REVIEW, 0, (READ_CUT_SHORT,))]
