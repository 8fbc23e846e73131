"""What the History window reads from its journal, and how it says why it cannot: expected / found / what to do.

No widgets here: these run on the window's reading thread (`reads.JournalReads`). A read waits at most
`BUSY_TIMEOUT_S` for another connection's lock before it is told, so a journal held by a backup or a maintenance tool
is said within that time (the station's writer waits 10 s) while the read goes on trying."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from app.history.archive_folder import NoArchiveFolder, session_archive_folder
from app.history.rows import HistoryRow, frame_row, tag_row
from inference.errors import HangtagError
from inference.records.journal import Journal, JournalError, writer_gone, written_here
from inference.records.types import SessionInfo

BUSY_TIMEOUT_S = 0.5  # how long one attempt waits behind another connection's lock before the window says so
PAGE_ROWS = 200


@dataclass(frozen=True)
class RowsQuery:
    """One session's rows under the window's filter, as they were when the read was asked for."""

    session_id: int
    tags: bool
    verdicts: tuple[str, ...] = ()
    text: str = ""


@dataclass(frozen=True)
class Listing:
    sessions: list[SessionInfo]
    counts: Mapping[int, Mapping[str, int]]
    gone: frozenset[int] = frozenset()  # open sessions whose station process no longer runs
    here: frozenset[int] = frozenset()  # open sessions this station writes


@dataclass(frozen=True)
class RowsRead:
    total: int  # rows under the filter, counted by the journal
    page: list[HistoryRow]  # the first page, or the page after the one asked from


def read_listing(reader: Journal) -> Listing:
    sessions = reader.sessions()
    still_open = [s for s in sessions if s.ended_at is None]
    return Listing(sessions, reader.session_counts(), gone=frozenset(s.id for s in still_open if writer_gone(s)),
                   here=frozenset(s.id for s in still_open if written_here(s)))


def read_page(reader: Journal, query: RowsQuery, after: int = 0, limit: int = PAGE_ROWS) -> list[HistoryRow]:
    options = {"verdicts": query.verdicts, "text": query.text, "after_id": after, "limit": limit}
    if query.tags:
        return [tag_row(t) for t in reader.tag_page(query.session_id, **options)]
    return [frame_row(f) for f in reader.frame_page(query.session_id, **options)]


def read_rows(reader: Journal, query: RowsQuery, after: int = 0, *, page: bool = True) -> RowsRead:
    """The count and a page in one read, so the count said matches the rows shown."""
    total = reader.count_rows(query.session_id, tags=query.tags, verdicts=query.verdicts, text=query.text)
    return RowsRead(total, read_page(reader, query, after) if page else [])


def find_archive_folder(reader: Journal, session: SessionInfo, *, tags: bool) -> Path | NoArchiveFolder:
    """No folder is an answer, not a failure to read: it comes back as the NoArchiveFolder that says why."""
    try:
        return session_archive_folder(reader, session, tags=tags)
    except NoArchiveFolder as exc:
        return exc


def journal_problem(exc: BaseException, path: Path, busy_timeout_s: float = BUSY_TIMEOUT_S) -> HangtagError:
    """Any failure to read, in the station's words: expected / found / what to do."""
    busy = busy_cause(exc)
    if busy is not None:
        return JournalError("the journal is busy: another program holds it locked",
                            expected="a journal no other program holds locked (the station's own writes never do)",
                            found=f"{path}: {busy} (tried for {busy_timeout_s:g} s)",
                            hint="a backup, copy or maintenance tool is writing to it: the window keeps trying and "
                                 "shows the rows once it is free; if this stays, close that program")
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


def busy_cause(exc: BaseException | None) -> sqlite3.OperationalError | None:
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
