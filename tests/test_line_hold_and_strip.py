"""The operator's view across a shift: what is held on screen is an engineer's setting that survives a restart
(NG, NG and REVIEW, or off), each release is journaled with the tag's verdict, and the strip of the last tags
keeps its tags across Stop and Start (every Stop ends a tracker line) until a new job or an explicit Clear."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from inference.tracking.recent import RecentTag
from tests.test_gui_station import make_settings, make_window

JOB_A = ("/recipes/a.toml", "job A")
JOB_B = ("/recipes/b.toml", "job B")


def finished(tag_id: int, verdict: str, *, line: int, job=JOB_A, reason: str = "") -> RecentTag:
    return RecentTag(tag_id, verdict, reason, line=(1, line), job=job)


def test_holding_review_tags_is_kept_in_the_settings_and_a_release_is_journaled(qtbot, tmp_path: Path):
    from inference.reading.verdict import Verdict
    from tests.test_records_tags import KEY, make_verdict

    settings = make_settings(tmp_path)
    window = make_window(qtbot, tmp_path, settings=settings)
    link = window.line
    assert link.hold_actions["NG"].isChecked()  # the default: NG tags only
    link.hold_actions["NG+REVIEW"].trigger()
    assert settings.get("line/hold") == "NG+REVIEW" and link.model.hold == {"NG", "REVIEW"}
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    recorder = window.records.recorder
    recorder.use(KEY)
    verdict = make_verdict(9, Verdict.REVIEW, crop=False, reasons=("size unreadable",))
    recorder.record_tag(verdict)
    session = recorder.session_id
    link._on_tag(replace(RecentTag.of(verdict), session_id=session))
    assert link.hold.isVisible() and link.hold.text.text().startswith("REVIEW tag #9: size unreadable")
    QTest.keyClick(window.view, Qt.Key.Key_A)
    assert link.model.held == () and not link.hold.isVisible()
    (event,) = [e for e in window.records.journal.events(session) if e.kind == "acknowledged"]
    assert event.subject == "tag #9" and event.detail.startswith("REVIEW: size unreadable")


def test_the_hold_setting_survives_a_restart(qtbot, tmp_path: Path):
    settings = make_settings(tmp_path)
    settings.set("line/hold", "off")
    window = make_window(qtbot, tmp_path, settings=settings)
    link = window.line
    assert link.hold_actions["off"].isChecked() and link.model.hold == frozenset()
    link.model.add(RecentTag(1, "NG", "price"))
    assert not link.hold.isVisible()


def test_the_strip_keeps_its_tags_across_stop_and_start_and_empties_for_a_new_job_or_clear(qtbot, tmp_path: Path):
    window = make_window(qtbot, tmp_path)
    link = window.line
    link._on_tag(finished(1, "OK", line=1))
    link._on_tag(finished(2, "NG", line=1, reason="price"))
    link._on_tag(finished(3, "OK", line=2))  # Stop, Start: a new tracker line, the same job
    assert [t.label for t in link.model.tags] == ["#1", "#2", "#3"]
    link._on_tag(finished(4, "OK", line=3, job=JOB_B))  # the next job's first tag
    assert [t.label for t in link.model.tags] == ["#4"]
    assert [t.label for t in link.model.held] == ["#2"]  # an NG not yet seen still waits
    link.clear_action.trigger()
    assert link.model.tags == () and [t.label for t in link.model.held] == ["#2"]
