"""How the History window opens its journal and says why it cannot read it: expected / found / what to do.

Its reads run on the GUI thread, so its connection waits at most `BUSY_TIMEOUT_S` for another connection's lock,
where the station's writer waits 10 s: a journal held by a backup or a maintenance tool is said at once."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from inference.errors import HangtagError
from inference.records.journal import Journal, JournalError

BUSY_TIMEOUT_S = 0.5  # the longest one read may hold the GUI thread behind another connection's lock


def journal_problem(exc: BaseException, path: Path, busy_timeout_s: float = BUSY_TIMEOUT_S) -> HangtagError:
    """Any failure to read, in the station's words: expected / found / what to do."""
    busy = _busy_cause(exc)
    if busy is not None:
        return JournalError("the journal is busy: another program holds it locked",
                            expected=f"a journal this window can read within {busy_timeout_s:g} s",
                            found=f"{path}: {busy} (waited {busy_timeout_s:g} s)",
                            hint="a backup, a copy or a maintenance tool is writing to it (the station's own writes "
                                 "never lock readers out); the window tries again every few seconds, Refresh (F5) "
                                 "tries now")
    if isinstance(exc, HangtagError):
        return exc
    if isinstance(exc, sqlite3.Error):
        return JournalError("the journal could not be read", expected="a readable station journal (SQLite)",
                            found=f"{path}: {exc}",
                            hint="'malformed' or 'not a database': the file is damaged, move it aside (the station "
                                 "starts a new journal) and keep it for analysis; otherwise press Refresh (F5)")
    return JournalError("a journal row could not be read", expected="rows as the station writes them",
                        found=f"{path}: {type(exc).__name__}: {exc}",
                        hint="the journal may have been edited by hand; export it with hangtag-inspect report")


def _busy_cause(exc: BaseException | None) -> sqlite3.OperationalError | None:
    """SQLite's "database is locked" (or busy), itself or as the cause of the journal's own error."""
    while exc is not None:
        code = getattr(exc, "sqlite_errorcode", None)
        if isinstance(exc, sqlite3.OperationalError) and code is not None and code & 0xFF in (sqlite3.SQLITE_BUSY,
                                                                                             sqlite3.SQLITE_LOCKED):
            return exc
        exc = exc.__cause__
    return None


def open_reader(path: Path, busy_timeout_s: float = BUSY_TIMEOUT_S) -> Journal:
    if not path.is_file():
        raise JournalError("no journal yet", expected=f"the station's journal at {path}", found="no such file",
                           hint="it is created with the first inspected frame: inspect, then press Refresh (F5)")
    return Journal.open(path, read_only=True, busy_timeout_s=busy_timeout_s)
