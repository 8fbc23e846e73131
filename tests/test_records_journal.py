"""The journal: schema and migration, round trips of every kind of frame, and crash safety."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from inference.pipeline import error_result
from inference.postprocess import Thresholds
from inference.records.journal import Journal, JournalError
from inference.records.schema import MIGRATIONS, SCHEMA_VERSION, migrate
from inference.records.synthetic import synthetic_result

ROOT = Path(__file__).resolve().parents[1]


def make_result(index: int = 0, *, flagged: bool = False, judged: bool = True, seed: int = 0):
    return synthetic_result(index, np.random.default_rng(seed), flagged=flagged, image_hw=(96, 128),
                            source_name=f"tag_{index}.jpg", source_path=f"/line/tag_{index}.jpg",
                            timestamp=1_790_000_000.0 + index, judged=judged)


def make_v1_journal(path: Path) -> None:
    """A journal exactly as the v1 station left it: v1 tables, user_version 1, two rows."""
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, target=1)
    conn.execute("INSERT INTO sessions (started_at, station_id, job, recipe_path, source, model_hash, backend, precision) "
                 "VALUES (1790000000, 'st-1', 'J-old', 'C:\\\\recipes\\\\summer_tee.toml', 'cam0', 'sha256:aa', 'onnxruntime-cpu', 'fp32')")
    for i, verdict in enumerate(("OK", "NG")):
        conn.execute("INSERT INTO frames (session_id, frame_index, timestamp, source_name, verdict, reasons, timings) "
                     "VALUES (1, ?, ?, ?, ?, ?, ?)",
                     (i, 1790000000 + i, f"old_{i}.jpg", verdict, '["price 1 ≠ expected 2"]' if verdict == "NG" else "[]",
                      '{"infer": 5.5, "total": 9.25}'))
    conn.close()


def schema_of(path: Path) -> list[tuple]:
    conn = sqlite3.connect(path)
    rows = conn.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").fetchall()
    conn.close()
    return rows


def test_a_new_journal_is_at_the_current_schema_in_wal_mode(tmp_path):
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        assert journal.schema_version == SCHEMA_VERSION == len(MIGRATIONS) == 7
    conn = sqlite3.connect(tmp_path / "j.sqlite3")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_v1_journal_opens_migrated_with_its_rows_and_a_backup(tmp_path):
    old = tmp_path / "old.sqlite3"
    make_v1_journal(old)
    with Journal.open(old) as journal:
        assert journal.schema_version == 7
        session = journal.sessions()[0]
        frames = journal.frames(session.id)
    assert session.recipe_name == "summer_tee" and session.job == "J-old" and not session.exported
    assert [f.verdict for f in frames] == ["OK", "NG"]
    assert frames[1].reasons == ("price 1 ≠ expected 2",) and frames[1].checks == ()
    assert frames[0].timings_ms == {"infer": 5.5, "total": 9.25}
    conn = sqlite3.connect(old)
    assert conn.execute("SELECT total_ms FROM frames ORDER BY id").fetchall() == [(9.25,), (9.25,)]
    assert sqlite3.connect(tmp_path / "old.sqlite3.v1.bak").execute("PRAGMA user_version").fetchone()[0] == 1
    fresh = tmp_path / "fresh.sqlite3"
    Journal.open(fresh).close()
    assert schema_of(old) == schema_of(fresh)


def test_a_failed_migration_leaves_the_journal_as_it_was(tmp_path, monkeypatch):
    old = tmp_path / "old.sqlite3"
    make_v1_journal(old)

    def broken(conn):
        raise RuntimeError("disk pulled mid-migration")

    monkeypatch.setattr("inference.records.schema.MIGRATIONS", (MIGRATIONS[0], (MIGRATIONS[1][0], broken)))
    with pytest.raises(RuntimeError):
        Journal.open(old)
    conn = sqlite3.connect(old)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    assert "lot" not in [r[1] for r in conn.execute("PRAGMA table_info(sessions)")]


@pytest.mark.parametrize("setup, message", [
    (lambda p: sqlite3.connect(p).execute("PRAGMA user_version = 9"), "newer station"),
    (lambda p: p.write_bytes(b"this is not sqlite at all" * 100), "not a readable journal"),
])
def test_journals_it_cannot_use_are_refused_with_a_hint(tmp_path, setup, message):
    path = tmp_path / "j.sqlite3"
    setup(path)
    with pytest.raises(JournalError) as info:
        Journal.open(path)
    assert message in str(info.value) and "hint" in str(info.value)


@pytest.mark.parametrize("result, verdict, reasons, n_checks, error", [
    (make_result(0, flagged=False), "OK", (), 6, ""),
    (make_result(1, flagged=True, seed=3), "NG", ("price 199.00 ≠ expected 299.00",), 6, ""),
    (make_result(2, judged=False), "", (), 0, ""),
    (error_result(3, "bad.jpg", "/line/bad.jpg", "could not be decoded", Thresholds()), "", (), 0, "could not be decoded"),
])
def test_every_kind_of_frame_round_trips(tmp_path, result, verdict, reasons, n_checks, error):
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        sid = journal.start_session(station_id="st-9", job="J", recipe_path="r/x.toml", model_hash="sha256:m",
                                    backend="onnxruntime-cpu", precision="fp16")
        fid = journal.record(sid, result, image_hash="sha256:abc", archive_original="/a/o.jpg")
        (row,) = journal.frames(sid)
    assert row.id == fid and row.verdict == verdict and row.reasons == reasons and len(row.checks) == n_checks
    assert row.error == error and row.image_hash == "sha256:abc" and row.archive_original == "/a/o.jpg"
    assert row.detections == tuple(result.detections.to_records())
    assert row.thresholds["confidence"] == result.thresholds.confidence
    assert row.timings_ms == result.timings.to_dict() and row.image_path == (result.source_path or "")
    if result.readings:
        assert row.tags[0]["fields"]["price"]["value"] == result.readings[0].fields["price"].value
        assert row.rss_mb == round(result.memory.rss_mb, 2) and row.vram_mb == round(result.memory.vram_mb, 2)


def test_unexported_sessions_protect_their_archive_paths_until_exported(tmp_path):
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        a, b = journal.start_session(job="a"), journal.start_session(job="b")
        journal.record(a, make_result(0, flagged=True), archive_original="/ar/a.orig.jpg", archive_annotated="/ar/a.annotated.jpg")
        journal.record(b, make_result(1, flagged=True), archive_original="/ar/b.orig.jpg")
        assert journal.unexported_archive_paths() == {"/ar/a.orig.jpg", "/ar/a.annotated.jpg", "/ar/b.orig.jpg"}
        journal.mark_exported(a, "/reports/a")
        assert journal.unexported_archive_paths() == {"/ar/b.orig.jpg"}
        assert journal.last_session_id() == b and journal.session(a).exported


def test_a_frame_that_cannot_be_written_is_a_journal_error_not_a_silent_loss(tmp_path):
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        session = journal.start_session(job="x")
    with Journal.open(tmp_path / "j.sqlite3", read_only=True) as journal:
        with pytest.raises(JournalError, match="could not be journaled") as info:
            journal.record(session, make_result(0))
    assert "readonly" in str(info.value).replace("-", "").lower()


def test_missing_sessions_and_empty_journals_are_named(tmp_path):
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        with pytest.raises(JournalError, match="no sessions yet") as info:
            journal.last_session_id()
        assert info.value.hint and "inspect" in info.value.hint  # says what to do, not only what is missing
        with pytest.raises(JournalError, match="no such session"):
            journal.session(42)


CRASH_CHILD = """
import sys, time
import numpy as np
from inference.records.journal import Journal
from inference.records.synthetic import synthetic_result
journal = Journal.open(sys.argv[1])
session = journal.start_session(job="crash")
rng = np.random.default_rng(0)
i = 0
while True:
    result = synthetic_result(i, rng, flagged=i % 3 == 0, image_hw=(96, 128), source_name=f"{i}.jpg",
                              source_path=None, timestamp=time.time())
    journal.record(session, result)
    print(i, flush=True)  # the verdict is "shown" only after record() returned
    i += 1
"""


def test_sigkill_mid_run_loses_at_most_the_frame_in_flight(tmp_path):
    path = tmp_path / "crash.sqlite3"
    child = subprocess.Popen([sys.executable, "-c", CRASH_CHILD, str(path)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    shown = -1
    deadline = time.monotonic() + 60
    while shown < 150 and time.monotonic() < deadline:
        line = child.stdout.readline()
        if not line:
            break
        shown = int(line)
    os.kill(child.pid, signal.SIGKILL)
    rest = child.stdout.read().split()  # lines the child printed before it died
    child.wait()
    shown = max([shown, *map(int, rest)])
    assert shown >= 150, "the child did not get going"
    with Journal.open(path) as journal:
        assert journal.integrity_check() == "ok"
        frames = journal.frames(journal.last_session_id())
    assert shown + 1 <= len(frames) <= shown + 2
    assert [f.frame_index for f in frames] == list(range(len(frames)))
    assert all(f.verdict in ("OK", "NG", "REVIEW") for f in frames)
