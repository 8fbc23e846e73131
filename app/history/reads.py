"""The History window's reading thread: every journal read runs here, never on the GUI thread.

The window asks with `submit(purpose, work)`; `work(journal)` runs on this thread's own read-only connection and its
value (or the reason it could not be read) comes back by signal, to be applied on the GUI thread. Each purpose
("sessions", "rows", "archive") keeps only its newest read: an older one still queued is skipped, one that answers
late is dropped (`is_current`), so rows of a filter the operator has already left never land. A journal locked by
another program is said once (`waiting`) and tried again until it is free, the read is superseded, or the window
closes; closing waits for at most one attempt."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal, Slot

from app.history.reading import BUSY_TIMEOUT_S, busy_cause, journal_problem, open_reader
from app.thread_exit import wait_or_let_go
from app.thread_priority import start_below_gui
from inference.records.journal import Journal

RETRY_PAUSE_S = 0.1  # between attempts on a locked journal, on top of each attempt's own busy wait
CLOSE_WAIT_S = 3.0  # one attempt's busy wait and its query, with room; longer and the thread is let go


@dataclass(frozen=True)
class Read:
    purpose: str
    generation: int  # the purpose's newest generation when asked; a later one makes this read stale
    work: Callable[[Journal], Any] = field(compare=False)
    context: Any = field(default=None, compare=False)  # what the GUI thread needs to apply the value


class JournalReader(QObject):
    """Lives on the reading thread and owns its connection; signals carry the Read they answer."""

    done = Signal(object, object)  # Read, value
    failed = Signal(object, object)  # Read, HangtagError
    waiting = Signal(object, object)  # Read, HangtagError: the journal is locked, still trying

    def __init__(self, path: Path, busy_timeout_s: float, newest: dict[str, int], closing: threading.Event) -> None:
        super().__init__()
        self.path = path
        self.busy_timeout_s = busy_timeout_s
        self.newest = newest  # written by the GUI thread; an int per purpose, read here
        self.closing = closing
        self.journal: Journal | None = None

    def stale(self, read: Read) -> bool:
        return self.closing.is_set() or self.newest.get(read.purpose) != read.generation

    @Slot(object)
    def run(self, read: Read) -> None:
        told = False
        while not self.stale(read):
            try:
                if self.journal is None:
                    self.journal = open_reader(self.path, self.busy_timeout_s)
                value = read.work(self.journal)
            except Exception as exc:  # noqa: BLE001 - every failure becomes a message, none a traceback
                self.close_journal()  # reopened by the next attempt: a drive that came back reads again
                problem = journal_problem(exc, self.path, self.busy_timeout_s)
                if busy_cause(exc) is None:
                    self.failed.emit(read, problem)
                    return
                if not told:
                    self.waiting.emit(read, problem)
                    told = True
                self.closing.wait(RETRY_PAUSE_S)
                continue
            self.done.emit(read, value)
            return

    def close_journal(self) -> None:
        journal, self.journal = self.journal, None
        if journal is not None:
            try:
                journal.close()
            except Exception:  # noqa: BLE001 - a connection that broke is closed as far as it can be
                pass


class JournalReads(QObject):
    """The window's side: starts the thread at the first read (again after a close), numbers each purpose's reads,
    and says which answers are still wanted."""

    done = Signal(object, object)
    failed = Signal(object, object)
    waiting = Signal(object, object)
    _run = Signal(object)

    def __init__(self, path: Path, busy_timeout_s: float = BUSY_TIMEOUT_S, parent=None) -> None:
        super().__init__(parent)
        self.path = Path(path)
        self.busy_timeout_s = busy_timeout_s
        self.newest: dict[str, int] = {}
        self.pending: dict[str, Read] = {}  # purpose -> the read not yet answered
        self._numbers = itertools.count(1)
        self.thread: QThread | None = None
        self.reader: JournalReader | None = None
        self.closing = threading.Event()

    def submit(self, purpose: str, work: Callable[[Journal], Any], context: Any = None, *,
               new_generation: bool = True) -> Read:
        """`new_generation=False` adds a read to the purpose's current generation (the next page of the same rows)."""
        if new_generation or purpose not in self.newest:
            self.newest[purpose] = next(self._numbers)
        read = Read(purpose, self.newest[purpose], work, context)
        self.pending[purpose] = read
        self._start()
        self._run.emit(read)
        return read

    def is_current(self, read: Read) -> bool:
        return self.newest.get(read.purpose) == read.generation and not self.closing.is_set()

    def busy(self, purpose: str) -> bool:
        return purpose in self.pending

    def forget(self, purpose: str) -> None:
        """Whatever is in flight for `purpose` is no longer wanted (the session or filter it was for is gone)."""
        self.newest[purpose] = next(self._numbers)
        self.pending.pop(purpose, None)

    def _start(self) -> None:
        if self.thread is not None:
            return
        self.closing.clear()
        self.thread = QThread(self)
        self.thread.setObjectName("history-reads")
        self.reader = JournalReader(self.path, self.busy_timeout_s, self.newest, self.closing)
        self.reader.moveToThread(self.thread)
        self._run.connect(self.reader.run)
        self.reader.done.connect(self._on_done)
        self.reader.failed.connect(self._on_failed)
        self.reader.waiting.connect(self.waiting)
        start_below_gui(self.thread)

    def _settle(self, read: Read) -> bool:
        if self.pending.get(read.purpose) is read:
            del self.pending[read.purpose]
        return self.is_current(read)

    def _on_done(self, read: Read, value: Any) -> None:
        if self._settle(read):
            self.done.emit(read, value)

    def _on_failed(self, read: Read, problem: Exception) -> None:
        if self._settle(read):
            self.failed.emit(read, problem)

    def close(self) -> bool:
        """Reads queued are skipped, the one in flight ends after its current attempt, the connection is closed.
        False when the thread did not end in CLOSE_WAIT_S and was let go (its connection ends with the process)."""
        if self.thread is None:
            return True
        self.closing.set()
        for purpose in list(self.newest):  # an answer already queued to the GUI thread is stale, after a reopen too
            self.forget(purpose)
        thread, reader, self.thread, self.reader = self.thread, self.reader, None, None
        self._run.disconnect(reader.run)
        thread.quit()
        ended = wait_or_let_go(thread, CLOSE_WAIT_S, reader)
        if ended:
            reader.close_journal()  # its thread has ended: this thread may close the connection
        return ended
