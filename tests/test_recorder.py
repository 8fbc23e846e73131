from __future__ import annotations

import numpy as np

from inference.pipeline import Pipeline
from inference.reading.verdict import FrameVerdict, Verdict
from inference.records import Archive, Journal
from inference.records.recorder import Recorder, SessionKey
from tests.factories import blob_detector, scene_with_squares


def key(**changes) -> SessionKey:
    base = dict(source="line-3", recipe_name="K2291", recipe_path="", model_path="m.onnx", backend="onnxruntime-cpu",
                precision="fp32")
    return SessionKey(**{**base, **changes})


def test_sessions_follow_what_defines_them_and_flagged_frames_are_archived(tmp_path):
    image = scene_with_squares(64, 64, [(16, 16, 24)])
    pristine = image.copy()
    with Pipeline.open(blob_detector(tmp_path / "m.onnx"), "onnxruntime-cpu") as pipe:
        ok = pipe.process(image, source_name="a.png").with_(verdict=FrameVerdict(Verdict.OK, ()))
        ng = pipe.process(image, source_name="b.png").with_(verdict=FrameVerdict(Verdict.NG, ("price ¥199.00 ≠ expected ¥259.00",)))
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        recorder = Recorder(journal, Archive(tmp_path / "archive"))
        recorder.use(key())
        recorder.record(ok, image)
        recorder.record(ng, image)
        first = recorder.session_id
        recorder.use(key())  # same definition: same session
        assert recorder.session_id == first
        recorder.use(key(precision="int8"))  # a precision change is a new session
        recorder.record(ok, image)
        second = recorder.session_id
        recorder.end()
        assert second != first
        rows = journal.frames(first)
        assert [r.source_name for r in rows] == ["a.png", "b.png"]
        assert rows[0].archive_original == "" and rows[1].archive_original.endswith(".png")
        assert "price ¥199.00" in rows[1].reasons[0]
        assert journal.session(second).precision == "int8"
        assert all(len(r.image_hash) > 8 for r in rows)
    archived = list((tmp_path / "archive").rglob("*"))
    assert any(p.name.endswith(".jpg") for p in archived)
    assert np.array_equal(image, pristine)  # archiving draws on a copy, never on the caller's frame
