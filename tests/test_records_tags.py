"""One journal row per physical tag: the migration that adds it, the row a line's verdict becomes (frames, the
read it rests on, its archived crop, the trigger's id), missed tags as REVIEW rows, and pruning protection."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from inference.reading.verdict import Verdict
from inference.records.archive import Archive
from inference.records.journal import Journal
from inference.records.recorder import Recorder, SessionKey
from inference.records.schema import SCHEMA_VERSION, migrate
from inference.tracking.records import UNREAD, TagVerdict

KEY = SessionKey(source="camera:line.avi", recipe_name="tee", recipe_path="", model_path="", backend="onnxruntime-cpu",
                 precision="fp32")


def make_verdict(track_id: int, verdict: Verdict, *, reads: int = 1, trigger_id=None, crop: bool = True,
                 reasons: tuple[str, ...] = ()) -> TagVerdict:
    image = np.full((160, 120, 3), 200, np.uint8) if crop else None
    return TagVerdict(track_id, verdict, reasons, frames_seen=9, first_frame=10 * track_id, last_frame=10 * track_id + 8,
                      last_box=(1100.0, 50.0, 1280.0, 600.0), best_frame=10 * track_id + 3, best_focus=4000.0,
                      reads=reads, latency_s=0.125, trigger_id=trigger_id, crop=image,
                      read_frame=10 * track_id + 3 if reads else None,
                      read_box=(400.0, 50.0, 700.0, 600.0) if reads else None)


def make_old_journal(path, version: int, *rows: str) -> None:
    """A journal as the station at schema `version` left it: one session, then `rows` (SQL inserts of that time)."""
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, target=version)
    conn.execute("INSERT INTO sessions (started_at, station_id, source) VALUES (1790000000, 'st-1', 'cam0')")
    for row in rows:
        conn.execute(row)
    conn.close()


def test_an_old_journal_gains_the_tag_table_and_keeps_its_frames(tmp_path):
    old = tmp_path / "old.sqlite3"
    make_old_journal(old, 4, "INSERT INTO frames (session_id, frame_index, timestamp, source_name, verdict) "
                             "VALUES (1, 0, 1790000000, 'old.jpg', 'NG')")  # before tag rows: frames only
    with Journal.open(old) as journal:
        assert journal.schema_version == SCHEMA_VERSION == 7
        assert [f.verdict for f in journal.frames(1)] == ["NG"]
        assert journal.tags(1) == [] and journal.tag_count(1) == 0
    assert sqlite3.connect(tmp_path / "old.sqlite3.v4.bak").execute("PRAGMA user_version").fetchone()[0] == 4


def test_each_tag_is_one_row_with_its_frames_read_and_archived_crop(tmp_path):
    archive = Archive(tmp_path / "archive")
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        recorder = Recorder(journal, archive)
        recorder.use(KEY)
        recorder.record_tag(make_verdict(1, Verdict.OK))
        recorder.record_tag(make_verdict(2, Verdict.NG, reasons=("size L ≠ expected M",)))
        recorder.record_tag(make_verdict(3, Verdict.REVIEW, reads=0, crop=False, reasons=(UNREAD,)))
        session = recorder.session_id
        rows = journal.tags(session)
        protected = journal.unexported_archive_paths()
        assert journal.frame_count(session) == 0  # a tag row needs no per-frame row
    assert [(r.tag_id, r.verdict, r.missed) for r in rows] == [(1, "OK", False), (2, "NG", False), (3, "REVIEW", True)]
    ok, ng, missed = rows
    assert (ng.first_frame, ng.last_frame, ng.best_frame, ng.read_frame, ng.frames_seen) == (20, 28, 23, 23, 9)
    assert ng.reasons == ("size L ≠ expected M",) and ng.box == (400.0, 50.0, 700.0, 600.0)
    assert ng.latency_ms == 125.0 and ng.trigger_id is None
    assert ok.archive_crop.endswith(".png") and ng.archive_annotated.endswith(".jpg")
    assert {ok.archive_crop, ng.archive_crop, ng.archive_annotated} <= protected
    assert missed.archive_crop == "" and missed.reasons == (UNREAD,) and missed.box == (1100.0, 50.0, 1280.0, 600.0)
    import cv2

    assert cv2.imread(ng.archive_crop).shape == (160, 120, 3)


def test_a_triggered_verdict_keeps_its_trigger_id_and_is_never_counted_missed(tmp_path):
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        recorder = Recorder(journal)
        recorder.use(KEY)
        recorder.record_tag(make_verdict(1, Verdict.NG, reads=0, trigger_id=4711, crop=False))
        (row,) = journal.tags(recorder.session_id)
    assert (row.trigger_id, row.verdict, row.missed) == ("4711", "NG", False)


def test_recording_a_tag_before_any_session_is_declared_is_refused(tmp_path):
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        with pytest.raises(RuntimeError, match="use"):
            Recorder(journal).record_tag(make_verdict(1, Verdict.OK))


def test_a_line_sessions_report_counts_tags_not_frames(tmp_path):
    from inference.records import export_session
    from inference.records.synthetic import synthetic_result

    with Journal.open(tmp_path / "j.sqlite3") as journal:
        recorder = Recorder(journal, Archive(tmp_path / "archive"))
        recorder.use(KEY)
        rng = np.random.default_rng(0)
        for index in range(7):  # the frames the line looked at: no per-frame verdict
            frame = synthetic_result(index, rng, flagged=False, judged=False, image_hw=(72, 128),
                                     source_name=f"replay#{index}", source_path=None, timestamp=1_790_000_000.0 + index)
            recorder.record(frame, np.zeros((72, 128, 3), np.uint8))
        recorder.record_tag(make_verdict(1, Verdict.OK))
        recorder.record_tag(make_verdict(2, Verdict.NG, reasons=("size L ≠ expected M",)))
        recorder.record_tag(make_verdict(3, Verdict.REVIEW, reads=0, crop=False, reasons=(UNREAD,)))
        recorder.record_tag(make_verdict(4, Verdict.OK))
        result = export_session(journal, recorder.session_id, tmp_path / "out")
    html = (result.path / "report.html").read_text(encoding="utf-8")
    assert "Yield = OK ÷ tags" in html and ">50.00%<" in html  # 2 OK of 4 tags, not of 7 frames
    assert "passed unread (REVIEW)" in html and "size L ≠ expected M · NG" in html
    csv_rows = (result.path / "tags.csv").read_text(encoding="utf-8-sig").strip().splitlines()
    assert len(csv_rows) == 5 and csv_rows[0].startswith("tag_row_id,tag_id,trigger_id")
    assert (result.path / "frames.csv").read_text(encoding="utf-8-sig").count("\n") == 8  # per-frame rows stay


def test_summary_counts_of_a_line_session(tmp_path):
    from inference.records.report import summarize

    with Journal.open(tmp_path / "j.sqlite3") as journal:
        recorder = Recorder(journal)
        recorder.use(KEY)
        recorder.record_tag(make_verdict(1, Verdict.OK))
        recorder.record_tag(make_verdict(2, Verdict.REVIEW, reads=0, crop=False, reasons=(UNREAD,)))
        session = journal.session(recorder.session_id)
        report = summarize(session, journal.frames(session.id), tags=journal.tags(session.id))
    assert report.unit == "tags"
    assert {k: report.counts[k] for k in ("tags", "OK", "REVIEW", "missed", "frames")} == \
        {"tags": 2, "OK": 1, "REVIEW": 1, "missed": 1, "frames": 0}
    assert report.yield_ == 0.5 and [b.label for b in report.pareto] == ["passed unread (REVIEW)"]


def test_the_report_command_says_how_many_tags_a_line_session_judged(tmp_path, capsys):
    from inference.cli import main as cli_main

    with Journal.open(tmp_path / "j.sqlite3") as journal:
        recorder = Recorder(journal)
        recorder.use(KEY)
        recorder.record_tag(make_verdict(1, Verdict.OK))
        recorder.record_tag(make_verdict(2, Verdict.NG, reasons=("size L ≠ expected M",)))
        recorder.record_tag(make_verdict(3, Verdict.REVIEW, reads=0, crop=False, reasons=(UNREAD,)))
        recorder.end()
    assert cli_main(["report", "--last", "--journal", str(tmp_path / "j.sqlite3"), "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "3 tags, 2 NG/REVIEW (1 passed unread)" in out
    assert out.count("NG/REVIEW") == 1  # the frames' line said '0 NG/REVIEW' (frames), then '2 NG/REVIEW tags'


def test_a_line_sessions_reasons_chart_counts_one_cause_once_whatever_its_measurements(tmp_path):
    """Two REVIEW tags of a line, both in small print: the Pareto had 'print too small to read surely (12 px
    lines, needs 21): brin… · REVIEW' and the same with 13 px, two bars of one cause."""
    from inference.records.report import summarize

    small = "print too small to read surely ({} px lines, needs 21): bring the camera closer or zoom in"
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        recorder = Recorder(journal)
        recorder.use(KEY)
        recorder.record_tag(make_verdict(1, Verdict.REVIEW, reasons=(small.format(12), "color uncertain")))
        recorder.record_tag(make_verdict(2, Verdict.REVIEW, reasons=(small.format(13),)))
        recorder.record_tag(make_verdict(3, Verdict.NG, reasons=("size L ≠ expected M",)))
        session = journal.session(recorder.session_id)
        report = summarize(session, journal.frames(session.id), tags=journal.tags(session.id))
    assert [(b.label, b.count) for b in report.pareto] == [("print too small to read surely · REVIEW", 2),
                                                            ("size L ≠ expected M · NG", 1)]
