"""Each frame and tag row carries the job and lot it was inspected under (a PLC changes them mid-run): schema v6,
an old journal migrated to it with its rows taking their session's, and the exports carrying both."""

from __future__ import annotations

import csv
import io
import sqlite3

import numpy as np

from inference.reading.verdict import Verdict
from inference.records.journal import Journal
from inference.records.recorder import Recorder, SessionKey
from inference.records.schema import SCHEMA_VERSION, migrate
from inference.records.tables import frames_csv, tags_csv
from inference.tracking.records import TagVerdict
from tests.test_records_journal import make_result


def make_v5_journal(path) -> None:
    """A journal as the station before per-row job and lot left it: one session with a job and lot, a frame, a tag."""
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, target=5)
    conn.execute("INSERT INTO sessions (started_at, station_id, source, job, lot) "
                 "VALUES (1790000000, 'st-1', 'cam0', '2 · shirt', 'L-77')")
    conn.execute("INSERT INTO frames (session_id, frame_index, timestamp, source_name, verdict) "
                 "VALUES (1, 0, 1790000000, 'old.jpg', 'NG')")
    conn.execute("INSERT INTO tags (session_id, tag_id, timestamp, verdict) VALUES (1, 4, 1790000001, 'OK')")
    conn.close()


def tag(track_id: int) -> TagVerdict:
    return TagVerdict(track_id, Verdict.OK, (), frames_seen=3, first_frame=0, last_frame=2,
                      last_box=(0.0, 0.0, 10.0, 10.0), best_frame=1, best_focus=1.0, reads=1, latency_s=0.01,
                      trigger_id=None, crop=None, read_frame=1, read_box=(0.0, 0.0, 10.0, 10.0))


def test_a_v5_journal_migrates_and_its_rows_take_their_sessions_job_and_lot(tmp_path):
    old = tmp_path / "old.sqlite3"
    make_v5_journal(old)
    with Journal.open(old) as journal:
        assert journal.schema_version == SCHEMA_VERSION == 7
        frames, tags = journal.frames(1), journal.tags(1)
        session = journal.sessions()[0]
    assert [(f.source_name, f.job, f.lot) for f in frames] == [("old.jpg", "2 · shirt", "L-77")]
    assert [(t.tag_id, t.job, t.lot) for t in tags] == [(4, "2 · shirt", "L-77")]
    assert sqlite3.connect(tmp_path / "old.sqlite3.v5.bak").execute("PRAGMA user_version").fetchone()[0] == 5
    rows = list(csv.DictReader(io.StringIO(frames_csv(session, frames).lstrip("\ufeff"))))
    assert (rows[0]["job"], rows[0]["lot"]) == ("2 · shirt", "L-77")


def test_frames_and_tags_are_journaled_with_the_job_and_lot_in_force(tmp_path):
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        recorder = Recorder(journal)
        key = SessionKey(source="cam0", recipe_name="polo", recipe_path="", model_path="", backend="onnxruntime-cpu",
                         precision="fp32", job="1 · polo", lot="L-1")
        recorder.use(key)
        recorder.record(make_result(0), np.zeros((8, 8, 3), np.uint8))
        recorder.record_tag(tag(1))
        recorder.use(SessionKey(**{**key.__dict__, "job": "2 · shirt", "lot": "L-2"}))  # the PLC changed the job
        recorder.record(make_result(1), np.zeros((8, 8, 3), np.uint8))
        recorder.record_tag(tag(2))
        recorder.end()
        sessions = journal.sessions()
        frames = [f for s in sessions for f in journal.frames(s.id)]
        tags = [t for s in sessions for t in journal.tags(s.id)]
        journal.record(sessions[0].id, make_result(2))  # no job given: the session's
        default = journal.frames(sessions[0].id)[-1]
    assert [(f.job, f.lot) for f in frames] == [("1 · polo", "L-1"), ("2 · shirt", "L-2")]
    assert [(t.job, t.lot) for t in tags] == [("1 · polo", "L-1"), ("2 · shirt", "L-2")]
    assert (default.job, default.lot) == ("1 · polo", "L-1")
    rows = list(csv.DictReader(io.StringIO(tags_csv(tags).lstrip("\ufeff"))))
    assert [(r["job"], r["lot"]) for r in rows] == [("1 · polo", "L-1"), ("2 · shirt", "L-2")]
