"""Long Adapt work on its own thread: checks a stop flag between steps, every exception becomes `failed`."""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import QObject, QThread, Signal

from inference.adapt.errors import FineTuneCancelled
from inference.errors import HangtagError


class Job(QObject):
    progress = Signal(object)  # whatever the work reports (an epoch, a count)
    finished = Signal(object)  # the work's result
    failed = Signal(str)  # a message for a person: what, expected, found, hint
    cancelled = Signal(str)

    def __init__(self, work: Callable[[Callable[[object], None], Callable[[], bool]], object], parent=None) -> None:
        """`work(report, should_stop)` runs on the job's thread; `report(x)` emits progress(x)."""
        super().__init__(parent)
        self._work = work
        self._stop = threading.Event()
        self.thread = QThread()
        self.thread.setObjectName("adapt-job")
        self.moveToThread(self.thread)
        self.thread.started.connect(self._run)

    def start(self) -> None:
        self.thread.start()

    def cancel(self) -> None:
        self._stop.set()

    def wait(self, ms: int = 60_000) -> bool:
        return self.thread.wait(ms)

    @property
    def running(self) -> bool:
        return self.thread.isRunning()

    def _run(self) -> None:
        try:
            result = self._work(self.progress.emit, self._stop.is_set)
        except FineTuneCancelled as exc:
            self.cancelled.emit(str(exc))
        except HangtagError as exc:
            self.failed.emit(str(exc))
        except Exception as exc:  # no traceback reaches the engineer; the message says what broke
            self.failed.emit(f"{type(exc).__name__}: {exc}")
        else:
            self.finished.emit(result)
        finally:
            self.thread.quit()
