"""The window's work threads run below its GUI thread, so the event loop gets a core when it wakes.

On a 2-core station a line run keeps both cores busy with the detector, the reader (each with ONNX Runtime's
pool), the camera's decoding and the journal: at the same priority as those, the GUI thread waited for a core
and a 5 ms timer fired 61 ms late at p99, against 12 ms for the same window idle at the same machine load
(BENCHMARKS.md, issue 18, fourth pass). A work thread a few nice steps down still gets every core the GUI
thread leaves idle, which is nearly all of it (the GUI thread uses ~5 % of one).

Linux keeps a nice value per thread, and a thread starts at its creator's: lowering the worker's thread, the
engine loader's and the report export's also lowers what they start (the tag reader, the camera's grabber, ONNX
Runtime's pools). Elsewhere this does nothing (Qt's thread priorities do not reach the threads those libraries start).
"""

from __future__ import annotations

import os
import sys
import threading

from PySide6.QtCore import QThread, Qt

WORK_NICE = 5  # nice steps below the GUI thread (CFS weight 335 against 1024): enough at load 17 (fourth pass)


def lower_this_thread(steps: int = WORK_NICE) -> int | None:
    """The calling thread `steps` nice steps below where it is (at most 19); its new nice value, or None where
    the platform has no per-thread nice. Raising nice needs no privilege, so this cannot fail for lack of one."""
    if not sys.platform.startswith("linux"):
        return None
    tid = threading.get_native_id()
    try:
        nice = min(19, os.getpriority(os.PRIO_PROCESS, tid) + steps)
        os.setpriority(os.PRIO_PROCESS, tid, nice)
    except OSError:  # a sandbox that forbids it: the thread runs as before
        return None
    return nice


def start_below_gui(thread: QThread, steps: int = WORK_NICE) -> None:
    """Start `thread` lowered before it runs anything (its `started` is handled on the new thread itself)."""
    thread.started.connect(lambda: lower_this_thread(steps), Qt.ConnectionType.DirectConnection)
    thread.start()
