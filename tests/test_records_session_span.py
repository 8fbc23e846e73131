"""A session's Started and Ended are when its line ran: its first frame's time and the last frame or tag journaled in
it. They were the moment its first frame was journaled (seconds of reading later) and the moment the next session's
first frame arrived (a session ended 40 s after its last frame)."""

from __future__ import annotations

import types

import numpy as np
import pytest

from inference.reading.verdict import Verdict
from inference.records.journal import Journal
from inference.records.recorder import Recorder, SessionKey
from tests.test_records_journal import make_result
from tests.test_records_tags import make_verdict

KEY = SessionKey(source="camera:line.avi", recipe_name="tee", recipe_path="", model_path="", backend="onnxruntime-cpu",
                 precision="fp32")
IMAGE = np.zeros((8, 8, 3), np.uint8)


def frame_at(index: int, at: float):
    return make_result(index).with_(timestamp=at)


@pytest.fixture
def clock(monkeypatch):
    """The recorder's wall clock, set by the test: what "now" is when a row is journaled."""
    now = types.SimpleNamespace(t=0.0)
    monkeypatch.setattr("inference.records.recorder.time", types.SimpleNamespace(time=lambda: now.t))
    return now


@pytest.mark.parametrize("frames, tags, next_at, expected", [
    # frames taken at 1000 and 1005, each journaled 3 s later; the next session's first frame 40 s after the last
    ([1000.0, 1005.0], [], 1045.0, (1000.0, 1005.0)),
    # a line: the last tag's verdict (journaled at 1012) comes after the last frame it was seen in
    ([1000.0, 1005.0], [1009.0, 1012.0], 1045.0, (1000.0, 1012.0)),
])
def test_a_session_runs_from_its_first_frame_to_the_last_row_journaled_in_it(tmp_path, clock, frames, tags, next_at,
                                                                            expected):
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        recorder = Recorder(journal)
        recorder.use(KEY)
        for index, at in enumerate(frames):
            clock.t = at + 3.0
            recorder.record(frame_at(index, at), IMAGE)
        for track_id, at in enumerate(tags, start=1):
            clock.t = at
            recorder.record_tag(make_verdict(track_id, Verdict.OK, crop=False))
        first = recorder.session_id
        clock.t = next_at + 3.0
        recorder.use(SessionKey(**{**KEY.__dict__, "recipe_name": "polo"}))  # the operator picked another recipe
        recorder.record(frame_at(9, next_at), IMAGE)
        second = recorder.session_id
        clock.t = next_at + 600.0  # the window closed ten minutes later
        recorder.end()
        spans = {s.id: (s.started_at, s.ended_at) for s in journal.sessions()}
    assert spans[first] == expected
    assert spans[second] == (next_at, next_at)
