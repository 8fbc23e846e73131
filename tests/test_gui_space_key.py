"""Space toggles the run from a focused spin box, and the filter that makes it so watches spin boxes only: on the
whole application it ran Python for every event of the GUI thread (a third of that thread's time on a line run)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDoubleSpinBox, QLabel

from tests.test_gui_station import make_window


def counting(monkeypatch, window) -> tuple[list[object], list[int]]:
    """(objects the Space filter was asked about, runs toggled): the filter's calls seen, the run not started."""
    seen: list[object] = []
    toggled: list[int] = []
    space = window._space
    original = space.eventFilter
    monkeypatch.setattr(space, "eventFilter", lambda obj, event: seen.append(obj) or original(obj, event))
    monkeypatch.setattr(window, "toggle_run", lambda: toggled.append(1))
    return seen, toggled


def test_the_space_filter_sees_no_event_of_other_widgets(qtbot, monkeypatch, tmp_path: Path):
    window = make_window(qtbot, tmp_path)
    seen, _ = counting(monkeypatch, window)
    for widget in (window.banner, window.view, window.table, window.findChild(QLabel)):
        QApplication.sendEvent(widget, QEvent(QEvent.Type.User))
    assert seen == []


def test_space_in_a_spin_box_added_after_the_window_was_built_toggles_the_run(qtbot, monkeypatch, tmp_path: Path):
    window = make_window(qtbot, tmp_path)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=3000)
    seen, toggled = counting(monkeypatch, window)
    late = QDoubleSpinBox()
    window.source_bar.layout().addWidget(late)
    late.setFocus()
    qtbot.waitUntil(late.hasFocus, timeout=3000)
    QTest.keyClick(late, Qt.Key.Key_Space)
    assert toggled == [1] and seen
    QTest.keyClick(window.source_bar.fps_cap, Qt.Key.Key_Space)  # one the window was built with
    assert toggled == [1, 1]
