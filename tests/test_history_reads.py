"""The History window's reads on their own thread: an answer to a filter the operator has already left never lands,
a read superseded while queued never runs, and the window closes cleanly (and opens again) while a read waits on a
locked journal. Real journals written by the station's writer; reads held at a gate where the order matters."""

from __future__ import annotations

import threading

import pytest

pytest.importorskip("PySide6")

import app.history.window as history_window  # noqa: E402
from app.history import HistoryWindow  # noqa: E402
from app.history.reads import CLOSE_WAIT_S  # noqa: E402
from tests.test_history_window import (choose_session, hold_write_lock, make_journal, open_window,  # noqa: E402
                                       settle)

GATE_S = 10.0  # the longest a gated read waits for the test to open the gate


def gate_rows_reads(monkeypatch, held_verdicts: tuple[str, ...]) -> tuple[threading.Event, threading.Event, list]:
    """Reads of the rows under `held_verdicts` wait at a gate on the reading thread; every rows read is noted."""
    real = history_window.read_rows
    gate, reached, asked = threading.Event(), threading.Event(), []

    def gated(reader, query, *args, **kwargs):
        asked.append(query.verdicts)
        if query.verdicts == held_verdicts:
            reached.set()
            gate.wait(GATE_S)
        return real(reader, query, *args, **kwargs)

    monkeypatch.setattr(history_window, "read_rows", gated)
    return gate, reached, asked


def test_rows_read_for_a_filter_the_operator_has_left_are_dropped_and_a_superseded_read_never_runs(
        qtbot, tmp_path, monkeypatch):
    made = make_journal(tmp_path)
    window = open_window(qtbot, made["path"])
    choose_session(qtbot, window, made["a"])
    gate, reached, asked = gate_rows_reads(monkeypatch, ("NG",))
    loaded = []
    real_load = window.rows.load
    monkeypatch.setattr(window.rows, "load", lambda rows=(), *a, **k: loaded.append(
        {r.verdict for r in rows}) or real_load(rows, *a, **k))
    window.verdict_filter.setCurrentText("NG")
    assert reached.wait(GATE_S)  # the NG read is on the reading thread, held
    window.verdict_filter.setCurrentText("REVIEW")  # queued behind it, then left too
    window.verdict_filter.setCurrentText("OK")
    assert window.count.text() == "loading…" and window.rows.rowCount() == 0  # the old filter's rows are gone
    gate.set()
    settle(qtbot, window)
    ok = [f for f in made["frames"][made["a"]] if f.verdict == "OK"]
    assert [r.verdict for r in window.rows.rows] == ["OK"] * len(ok) and window.rows.total == len(ok)
    assert {"NG"} not in loaded and {"REVIEW"} not in loaded  # the NG answer came, and was dropped
    assert asked == [("NG",), ("OK",)]  # the REVIEW read was skipped before it touched the journal
    assert window.errors.isHidden()


def test_a_page_asked_for_rows_since_replaced_is_dropped(qtbot, tmp_path, monkeypatch):
    from inference.records.journal import Journal
    from inference.records.synthetic import build_session

    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        build_session(journal, None, frames=450, flagged_rate=0.3, image_dir=tmp_path / "images", image_hw=(48, 64))
    window = open_window(qtbot, path)
    assert window.rows.rowCount() == 200 and window.rows.canFetchMore()
    real_page = history_window.read_page
    gate, reached = threading.Event(), threading.Event()

    def gated(*args, **kwargs):
        reached.set()
        gate.wait(GATE_S)
        return real_page(*args, **kwargs)

    monkeypatch.setattr(history_window, "read_page", gated)
    window.rows.fetchMore()
    assert reached.wait(GATE_S)
    window.verdict_filter.setCurrentText("NG")  # the page asked for belongs to the unfiltered rows
    gate.set()
    settle(qtbot, window)
    assert window.rows.rows and {r.verdict for r in window.rows.rows} == {"NG"}
    assert window.rows.rowCount() == min(window.rows.total, 200)


def test_closing_while_a_read_waits_on_a_locked_journal_ends_its_thread_and_the_window_opens_again(qtbot, tmp_path):
    made = make_journal(tmp_path)
    lock = hold_write_lock(made["path"])
    try:
        window = HistoryWindow(made["path"])
        qtbot.addWidget(window)
        window.show()
        qtbot.waitUntil(lambda: not window.errors.isHidden(), timeout=10000)
        thread = window.reads.thread
        assert window.reads.busy("sessions") and thread.isRunning()
        window.close()  # as Escape or the title bar's close does
        assert thread.isFinished() and window.reads.thread is None and not window.reads.pending
    finally:
        lock.rollback()
        lock.close()
    window.show()  # File → History… again (the station keeps the window): a new reading thread
    window.refresh()
    settle(qtbot, window)
    assert window.sessions.rowCount() == 3 and window.errors.isHidden()


def test_closing_while_a_read_is_running_waits_for_it_and_drops_its_answer(qtbot, tmp_path, monkeypatch):
    made = make_journal(tmp_path)
    window = open_window(qtbot, made["path"])
    choose_session(qtbot, window, made["a"])
    gate, reached, _ = gate_rows_reads(monkeypatch, ("NG",))
    window.verdict_filter.setCurrentText("NG")
    assert reached.wait(GATE_S)
    threading.Timer(0.3, gate.set).start()  # the read ends within the close's wait (CLOSE_WAIT_S)
    assert CLOSE_WAIT_S >= 1.0
    thread = window.reads.thread
    window.close()
    assert thread.isFinished()
    qtbot.wait(50)  # its answer, queued to the GUI thread, arrives to a closed window
    assert window.rows.rowCount() == 0 and window.errors.isHidden()
    window.deleteLater()
    qtbot.wait(50)
