"""The journal's queries for the History window: counts per session in one pass, and pages of one session's
frames or tags filtered by verdict and by text, read through a read-only connection."""

from __future__ import annotations

import numpy as np
import pytest

from inference.reading.verdict import Verdict
from inference.records.journal import Journal
from inference.records.recorder import Recorder, SessionKey
from inference.records.synthetic import synthetic_result
from inference.tracking.records import TagVerdict

KEY = SessionKey(source="camera:line.avi", recipe_name="tee", recipe_path="", model_path="", backend="onnxruntime-cpu",
                 precision="fp32")


def make_result(index: int, flagged: bool, seed: int):
    return synthetic_result(index, np.random.default_rng(seed), flagged=flagged, image_hw=(96, 128),
                            source_name=f"tag_{index:03d}.jpg", source_path=None, timestamp=1_790_000_000.0 + index)


def make_tag(track_id: int, verdict: Verdict, reasons: tuple[str, ...] = ()) -> TagVerdict:
    return TagVerdict(track_id, verdict, reasons, frames_seen=5, first_frame=track_id, last_frame=track_id + 4,
                      last_box=(0.0, 0.0, 10.0, 10.0), best_frame=track_id, best_focus=1.0, reads=1, latency_s=0.1,
                      trigger_id=None, crop=None, read_frame=track_id, read_box=None)


def build(path, flagged: list[bool]) -> tuple[int, int]:
    """A frame session with these frames (verdicts from the synthetic failures) and a tag session of 3 tags."""
    with Journal.open(path) as journal:
        frames = journal.start_session(job="J1", lot="L1")
        for i, bad in enumerate(flagged):
            journal.record(frames, make_result(i, bad, seed=i))
        recorder = Recorder(journal)
        recorder.use(KEY)
        recorder.record_tag(make_tag(1, Verdict.OK))
        recorder.record_tag(make_tag(2, Verdict.NG, ("size L ≠ expected M",)))
        recorder.record_tag(make_tag(3, Verdict.REVIEW, ("price 29_9% read at 55% confidence",)))
        tags = recorder.session_id
        recorder.end()
    return frames, tags


def test_counts_per_session_count_tags_where_there_are_tag_rows(tmp_path):
    flagged = [False, True, False, True, True, False]
    frames_sid, tags_sid = build(tmp_path / "j.sqlite3", flagged)
    with Journal.open(tmp_path / "j.sqlite3", read_only=True) as reader:
        counts = reader.session_counts()
        verdicts = [f.verdict for f in reader.frames(frames_sid)]
    assert counts[frames_sid]["frames"] == 6 and counts[frames_sid]["tags"] == 0
    assert (counts[frames_sid]["OK"], counts[frames_sid]["NG"], counts[frames_sid]["REVIEW"]) == (
        verdicts.count("OK"), verdicts.count("NG"), verdicts.count("REVIEW"))
    assert counts[frames_sid]["OK"] == 3
    assert counts[tags_sid] == {"frames": 0, "tags": 3, "OK": 1, "NG": 1, "REVIEW": 1, "other": 0}


@pytest.mark.parametrize("verdicts, text, expected", [
    ((), "", list(range(12))),
    (("OK",), "", [0, 2, 4, 6, 8, 10]),
    (("NG", "REVIEW"), "", [1, 3, 5, 7, 9, 11]),
    ((), "tag_01", [10, 11]),  # the source name
    (("OK",), "tag_01", [10]),
])
def test_pages_filter_by_verdict_and_text(tmp_path, verdicts, text, expected):
    frames_sid, _ = build(tmp_path / "j.sqlite3", [i % 2 == 1 for i in range(12)])
    with Journal.open(tmp_path / "j.sqlite3", read_only=True) as reader:
        seen, after = [], 0
        while page := reader.frame_page(frames_sid, verdicts=verdicts, text=text, after_id=after, limit=4):
            assert len(page) <= 4
            seen += [f.frame_index for f in page]
            after = page[-1].id
        total = reader.count_rows(frames_sid, verdicts=verdicts, text=text)
    assert seen == expected and total == len(expected)


def test_text_search_reads_reasons_and_treats_wildcards_literally(tmp_path):
    _, tags_sid = build(tmp_path / "j.sqlite3", [])
    with Journal.open(tmp_path / "j.sqlite3", read_only=True) as reader:
        assert [t.tag_id for t in reader.tag_page(tags_sid, text="expected M")] == [2]
        assert [t.tag_id for t in reader.tag_page(tags_sid, text="29_9%")] == [3]
        assert reader.tag_page(tags_sid, text="29x9") == []  # "_" is no wildcard
        assert [t.tag_id for t in reader.tag_page(tags_sid, verdicts=("OK", "NG"))] == [1, 2]
        assert reader.count_rows(tags_sid, tags=True, verdicts=("REVIEW",)) == 1
        assert [t.tag_id for t in reader.tag_page(tags_sid, after_id=reader.tag_page(tags_sid, limit=1)[0].id)] == [2, 3]


@pytest.mark.parametrize("options, busy_ms", [({}, 10_000), ({"busy_timeout_s": 0.5}, 500),
                                              ({"busy_timeout_s": 0.5, "read_only": True}, 500)])
def test_the_busy_timeout_is_the_one_asked_for_and_the_writers_ten_seconds_by_default(tmp_path, options, busy_ms):
    """A reader on the GUI thread asks for a short wait; the station's writer keeps its 10 s."""
    path = tmp_path / "journal.sqlite3"
    Journal.open(path).close()
    with Journal.open(path, **options) as journal:
        assert journal._conn.execute("PRAGMA busy_timeout").fetchone()[0] == busy_ms


def test_a_reader_with_a_short_busy_timeout_fails_on_a_held_lock_with_sqlites_reason(tmp_path):
    import sqlite3

    from inference.records.journal import JournalError

    path = tmp_path / "journal.sqlite3"
    Journal.open(path).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("PRAGMA journal_mode = DELETE")  # WAL readers are never blocked by a writer
    holder.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(JournalError) as caught:
            Journal.open(path, read_only=True, busy_timeout_s=0.1)
        assert isinstance(caught.value.__cause__, sqlite3.OperationalError) and "locked" in str(caught.value.__cause__)
    finally:
        holder.rollback()
        holder.close()
