"""A line operator's keys (walked on a conveyor recording, 1280×720): an NG tag held on screen is acknowledged with
one key, whether or not the Line menu was ever opened; the key does nothing while no NG tag waits."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from inference.tracking.recent import RecentTag
from tests.test_gui_station import make_window


def test_the_acknowledge_key_releases_held_ng_tags_after_the_menu_was_opened_empty(qtbot, tmp_path: Path):
    window = make_window(qtbot, tmp_path)
    window.modes.set_mode("operator")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    link = window.line
    link.menu.aboutToShow.emit()  # opened while nothing was held: the action was greyed, and stayed so
    link.model.add(RecentTag(7, "NG", "size L ≠ expected M"))
    link.model.add(RecentTag(8, "NG", "price ¥99 ≠ expected ¥79"))
    assert link.hold.isVisible() and link.hold.button.text() == "Acknowledge all 2 (A)"
    QTest.keyClick(window.view, Qt.Key.Key_A)
    assert link.model.held == () and not link.hold.isVisible()
    assert not link.ack_action.isEnabled()  # nothing waits: greyed, the key a no-op


def test_the_end_of_a_replayed_recording_names_the_recording(qtbot, tmp_path: Path):
    """A camera replay is live (its length is 0): the status bar said "Finished source" at its end."""
    from tests.test_gui import line_video

    video = line_video(tmp_path, 12, fps=30, step=3)
    window = make_window(qtbot, tmp_path)
    window.open_source(f"camera:{video}")
    qtbot.waitUntil(lambda: window.state.state.source_status == "open", timeout=5000)
    with qtbot.waitSignal(window.worker.source_finished, timeout=20000) as finished:
        window.start()
    assert finished.args == [f"camera replay {video}"]
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == f"Finished camera replay {video}", timeout=3000)


def test_an_acknowledgement_is_journaled_under_its_tags_session(qtbot, tmp_path: Path):
    """A held NG tag released by the operator left no trace: nobody could say when a reject was seen."""
    from dataclasses import replace

    from inference.reading.verdict import Verdict
    from tests.test_records_tags import KEY, make_verdict

    window = make_window(qtbot, tmp_path)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    recorder = window.records.recorder
    recorder.use(KEY)
    verdict = make_verdict(8, Verdict.NG, crop=False, reasons=("price ¥1099.00 ≠ expected ¥79.00",))
    recorder.record_tag(verdict)
    session = recorder.session_id
    recorder.end()  # the recording ended before the operator looked: the event still goes under the tag's session
    window.line._on_tag(replace(RecentTag.of(verdict), session_id=session))
    QTest.keyClick(window.view, Qt.Key.Key_A)
    (event,) = [e for e in window.records.journal.events(session) if e.kind == "acknowledged"]
    assert event.subject == "tag #8" and event.detail.startswith("NG: price ¥1099.00 ≠ expected ¥79.00")
