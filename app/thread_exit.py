"""Closing the window never aborts the process, whatever its work threads are doing.

Qt aborts the whole process ("QThread: Destroyed while thread is still running") when a QThread object is
destroyed while its thread runs, and the window's threads are its children: a read, a report export or an engine
build that outlasts the window's wait would take the process down with it, and with it what the journal had not
yet been told. A thread that does not end within its allowance is let go instead: it is handed to the main
thread's own QThread object, which Qt does not destroy before the process ends, and its worker is kept alive,
so the window can go and the process exits normally (the thread ends with the process).
"""

from __future__ import annotations

import ctypes

from PySide6.QtCore import QCoreApplication, QObject, QThread


def wait_or_let_go(thread: QThread, timeout_s: float, *keep_alive: QObject) -> bool:
    """Wait `timeout_s` for `thread` to end; True if it did. Else let it go (module doc) with the objects living
    on it (`keep_alive`: their Python wrappers must not delete them under the running thread), and return False:
    the caller says what that thread's work leaves unfinished."""
    if thread.wait(max(0, int(timeout_s * 1000))):
        return True
    app = QCoreApplication.instance()
    thread.setParent(app.thread() if app is not None else None)  # not destroyed with the window
    for obj in (thread, *keep_alive):
        ctypes.pythonapi.Py_IncRef(ctypes.py_object(obj))  # never collected: the thread may still use them
    return False


WORKER_CLOSE_S = 15.0  # the worker's own close (worker.CLOSE_DRAIN_S for the reads) and one frame still in hand


def close_inspection(window) -> None:
    """Stop the window's inspection worker and wait for it to journal what it holds and end its session
    (InspectionWorker.shutdown); what it said meanwhile reaches the window's log. A worker that does not end in
    WORKER_CLOSE_S is let go, and the log and the journal say that what it held was not recorded."""
    from PySide6.QtCore import QEvent

    from app.worker import CLOSE_DRAIN_S

    worker = window.worker
    worker.request_stop()
    if window.line.inspector is not None:  # a source that just ended may have its tags waiting for their reads
        window.line.inspector.hurry(CLOSE_DRAIN_S)
    window._shutdown.emit()
    ended = wait_or_let_go(window.worker_thread, WORKER_CLOSE_S, worker)
    if ended:  # its messages were queued to this thread: deliver them now, while the window still has its log
        QCoreApplication.sendPostedEvents(window, QEvent.Type.MetaCall)
        return
    detail = (f"the inspection did not stop within {WORKER_CLOSE_S:g} s of closing the station: the frame or the tags "
              "it was inspecting were NOT recorded, and its session was not ended (the next start closes it)")
    window._on_error(f"JOURNAL: {detail}")
    try:
        window.records.recorder.note_event("not_recorded", "closing", detail)
    except Exception as exc:  # the journal itself failing: the log line above is all there is
        window._on_error(f"JOURNAL: that could not be noted in the journal either: {exc}")
