"""The window's work threads (inspection, engine loading, report export) run below its GUI thread (Linux: a nice
value per thread), and what they start inherits it: the tag reader, the camera's grabber and ONNX Runtime's pools
do not compete with the event loop."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

import pytest

from app.thread_priority import WORK_NICE, start_below_gui

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="per-thread nice is Linux's")


def nice_of(tid: int) -> int:
    return os.getpriority(os.PRIO_PROCESS, tid)


def test_a_thread_started_below_the_gui_and_the_threads_it_starts_run_lower(qtbot):
    from PySide6.QtCore import QMetaObject, QObject, Qt, QThread, Signal, Slot

    seen: dict[str, int] = {}

    class Probe(QObject):
        done = Signal()

        @Slot()
        def look(self) -> None:
            seen["thread"] = nice_of(threading.get_native_id())
            child = threading.Thread(target=lambda: seen.__setitem__("child", nice_of(threading.get_native_id())))
            child.start()
            child.join()
            self.done.emit()

    gui = nice_of(threading.get_native_id())
    thread, probe = QThread(), Probe()
    probe.moveToThread(thread)
    start_below_gui(thread)
    try:
        with qtbot.waitSignal(probe.done, timeout=5000):
            QMetaObject.invokeMethod(probe, "look", Qt.ConnectionType.QueuedConnection)
    finally:
        thread.quit()
        thread.wait(3000)
    expected = min(19, gui + WORK_NICE)
    assert seen == {"thread": expected, "child": expected}
    assert nice_of(threading.get_native_id()) == gui  # the GUI thread itself is untouched


def test_the_windows_worker_and_engine_loader_run_below_its_gui_thread(qtbot, tmp_path: Path):
    from tests.test_gui_station import make_window

    window = make_window(qtbot, tmp_path)
    gui = nice_of(threading.get_native_id())
    names = {}
    for tid in map(int, os.listdir("/proc/self/task")):
        try:
            names.setdefault(Path(f"/proc/self/task/{tid}/comm").read_text().strip(), set()).add(nice_of(tid))
        except OSError:  # ended meanwhile
            pass
    assert names["inspection-work"] == {min(19, gui + WORK_NICE)}  # Linux cuts names at 15 characters
    assert names["engine-loader"] == {min(19, gui + WORK_NICE)}  # and the ONNX Runtime pool it started
    assert names["report-export"] == {min(19, gui + WORK_NICE)}
    window.close()
