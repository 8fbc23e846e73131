"""The inspection journal: one SQLite row per inspected frame, committed before `record` returns.

Durability: WAL with `synchronous=NORMAL` by default. Each `record` is its own transaction, and a
commit in WAL mode has reached the operating system before it returns, so a station that crashes,
is killed or loses its GUI keeps every frame whose verdict was shown. What NORMAL gives up is the
fsync per commit: on a power cut the last commits (those not yet checkpointed or synced, typically
under a second) can be lost, but the file is never corrupted. Stations without a UPS can open with
`durability="full"` (an fsync of the WAL per frame); `hangtag-inspect journal-bench` measures both.
"""

from __future__ import annotations

import json
import os
import socket
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from inference.errors import HangtagError
from inference.pipeline import FrameResult
from inference.records.convert import frame_values
from inference.records.schema import SCHEMA_VERSION, migrate, user_version
from inference.records.tag_rows import INSERT_TAG, SELECT_TAGS, TagRecord, row_params
from inference.records.types import VERDICTS, EventRecord, FrameRecord, SessionInfo
from inference.resources import user_data_dir

DURABILITY = {"normal": "NORMAL", "full": "FULL"}

_FRAME_COLUMNS = ("session_id", "frame_index", "timestamp", "source_name", "image_path", "image_hash",
                  "image_h", "image_w", "verdict", "reasons", "checks", "detections", "fields", "thresholds",
                  "timings", "total_ms", "rss_mb", "vram_mb", "error", "archive_original", "archive_annotated",
                  "job", "lot")
_JSON_COLUMNS = frozenset({"reasons", "checks", "detections", "fields", "thresholds", "timings"})
_INSERT_FRAME = (f"INSERT INTO frames ({', '.join(_FRAME_COLUMNS)}) "
                 f"VALUES ({', '.join('?' * len(_FRAME_COLUMNS))})")
_SESSION_SELECT = """
SELECT s.id, s.started_at, s.ended_at, s.station_id, s.job, s.lot, s.recipe_name, s.recipe_path, s.source,
       s.model_hash, s.backend, s.precision, s.exported_at, s.export_path,
       (SELECT COUNT(*) FROM frames f WHERE f.session_id = s.id), s.end_reason, s.owner
FROM sessions s
"""
_FRAME_SELECT = """
SELECT id, session_id, frame_index, timestamp, source_name, image_path, image_hash, image_h, image_w,
       verdict, reasons, checks, detections, fields, thresholds, timings, rss_mb, vram_mb, error,
       archive_original, archive_annotated, job, lot
FROM frames
"""


class JournalError(HangtagError):
    """The journal cannot be opened, is from a newer station, or was asked for something it lacks."""


def default_journal_path() -> Path:
    try:
        return user_data_dir() / "journal.sqlite3"
    except OSError as exc:
        raise JournalError("the station's data folder cannot be created", expected="a writable folder",
                           found=f"{exc.filename}: {exc.strerror}",
                           hint="free disk space or fix the folder (HANGTAG_DATA_DIR moves it)") from exc


def default_station_id() -> str:
    return os.environ.get("HANGTAG_STATION_ID") or socket.gethostname()


INTERRUPTED = "interrupted"


def _this_process() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _process_alive(owner: str) -> bool:
    """Whether the "host:pid" that wrote a session still runs; another host's sessions count as alive."""
    host, _, pid = owner.rpartition(":")
    if not owner or (host == socket.gethostname() and not pid.isdigit()):
        return False  # written before sessions had owners: no station of that version can still be writing
    if host != socket.gethostname():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def writer_gone(session: SessionInfo) -> bool:
    """An open session whose station process no longer runs (killed, crashed, power cut): it is not running, though
    the journal keeps it open until a station next opens the journal for writing and ends it "interrupted"."""
    return session.ended_at is None and session.owner != _this_process() and not _process_alive(session.owner)


def written_here(session: SessionInfo) -> bool:
    """Whether this process is the station that writes `session`."""
    return session.owner == _this_process()


class Journal:
    """One connection, guarded by a lock so the inspection worker and the GUI may share it.

    Exports read 10,000s of rows: give them their own `Journal.open(path, read_only=True)` so a long
    read never delays the next `record` (WAL lets a reader and the writer run side by side).
    """

    def __init__(self, conn: sqlite3.Connection, path: Path, *, read_only: bool = False) -> None:
        self._conn = conn
        self.path = path
        self.read_only = read_only
        self._lock = threading.Lock()

    # -- opening ---------------------------------------------------------------------------------
    @classmethod
    def open(cls, path: Path | str | None = None, *, durability: str = "normal", read_only: bool = False,
             busy_timeout_s: float = 10.0) -> Journal:
        """`busy_timeout_s`: how long a statement waits for another connection's lock before it fails "database is
        locked"; the writer waits long, a window reading on the GUI thread should not."""
        path = Path(path) if path is not None else default_journal_path()
        if durability not in DURABILITY:
            raise JournalError("unknown journal durability", expected=" or ".join(DURABILITY), found=durability)
        if read_only and not path.is_file():
            raise JournalError("journal not found", expected="an existing journal file", found=str(path),
                               hint="pass --journal with the station's journal.sqlite3")
        try:
            if not read_only:
                path.parent.mkdir(parents=True, exist_ok=True)
            uri = f"{path.resolve().as_uri()}?mode={'ro' if read_only else 'rwc'}"
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False,
                                   timeout=busy_timeout_s)
        except (OSError, sqlite3.Error) as exc:
            raise JournalError("cannot open the journal", expected="a writable SQLite file", found=f"{path}: {exc}",
                               hint="check the folder exists and is writable") from exc
        try:
            conn.execute("PRAGMA foreign_keys = ON")
            if not read_only:
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute(f"PRAGMA synchronous = {DURABILITY[durability]}")
            cls._bring_up_to_date(conn, path, read_only)
            if not read_only:
                _close_interrupted(conn)
        except sqlite3.OperationalError as exc:
            conn.close()
            raise JournalError("cannot open the journal for writing", expected="a writable SQLite file on a drive "
                               "with free space", found=f"{path}: {exc}",
                               hint="make the data folder writable or free space (HANGTAG_DATA_DIR moves it)") from exc
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise JournalError("the file is not a readable journal", expected="an SQLite journal",
                               found=f"{path}: {exc}", hint="move the file aside; the station starts a new journal") from exc
        except BaseException:
            conn.close()
            raise
        return cls(conn, path, read_only=read_only)

    @staticmethod
    def _bring_up_to_date(conn: sqlite3.Connection, path: Path, read_only: bool) -> None:
        found = user_version(conn)
        if found > SCHEMA_VERSION:
            raise JournalError("the journal was written by a newer station", expected=f"schema ≤ v{SCHEMA_VERSION}",
                               found=f"schema v{found} in {path}", hint="update this station, or open a copy elsewhere")
        if found == SCHEMA_VERSION:
            return
        if read_only:
            raise JournalError("the journal needs a migration but was opened read-only",
                               expected=f"schema v{SCHEMA_VERSION}", found=f"schema v{found}",
                               hint="open it once read-write (the station does this at start)")
        if found > 0:  # keep the old file as it was before changing its tables
            backup = path.with_name(f"{path.name}.v{found}.bak")
            with sqlite3.connect(backup) as copy:
                conn.backup(copy)
            copy.close()
        migrate(conn)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def schema_version(self) -> int:
        with self._lock:
            return user_version(self._conn)

    # -- writing ---------------------------------------------------------------------------------
    def start_session(self, *, station_id: str | None = None, job: str = "", lot: str = "", recipe_name: str = "",
                      recipe_path: str = "", source: str = "", model_hash: str = "", backend: str = "",
                      precision: str = "", started_at: float | None = None) -> int:
        with self._lock, self._writing("the session could not be started"):
            cursor = self._conn.execute(
                "INSERT INTO sessions (started_at, station_id, job, lot, recipe_name, recipe_path, source, "
                "model_hash, backend, precision, owner) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (started_at or time.time(), station_id or default_station_id(), job, lot,
                 recipe_name or (Path(recipe_path).stem if recipe_path else ""), str(recipe_path), str(source),
                 model_hash, backend, precision, _this_process()))
            return int(cursor.lastrowid)

    def record(self, session_id: int, result: FrameResult, *, image_hash: str = "", image_path: str | None = None,
               archive_original: str = "", archive_annotated: str = "", job: str | None = None,
               lot: str | None = None) -> int:
        """Journal one frame and commit; returns the frame's row id. Call before showing the verdict.
        `job`, `lot`: what the frame was inspected under; by default its session's."""
        if job is None or lot is None:
            job, lot = self._session_job_lot(session_id, job, lot)
        values = frame_values(result)
        values.update(session_id=session_id, image_hash=image_hash, archive_original=str(archive_original),
                      archive_annotated=str(archive_annotated), job=job, lot=lot)
        if image_path is not None:
            values["image_path"] = str(image_path)
        return self.record_values(values)

    def record_values(self, values: dict[str, Any]) -> int:
        """Insert one prepared row (the columns of `frame_values` plus session, hash and archive)."""
        params = [json.dumps(values.get(c) or ([] if c not in ("thresholds", "timings") else {}),
                             ensure_ascii=False, separators=(",", ":"))
                  if c in _JSON_COLUMNS else values.get(c, "" if c in _TEXT_DEFAULTS else None)
                  for c in _FRAME_COLUMNS]
        with self._lock, self._writing("the frame could not be journaled"):
            return int(self._conn.execute(_INSERT_FRAME, params).lastrowid)

    def record_event(self, kind: str, subject: str = "", detail: str = "", *, session_id: int | None = None,
                     at: float | None = None) -> int:
        """Journal a station event that is not a frame (e.g. `triton_all_down`); returns its row id."""
        with self._lock, self._writing("the event could not be journaled"):
            return int(self._conn.execute(
                "INSERT INTO events (session_id, at, kind, subject, detail) VALUES (?, ?, ?, ?, ?)",
                (session_id, at or time.time(), kind, subject, detail)).lastrowid)

    def record_tag(self, values: dict[str, Any]) -> int:
        """Journal one tag's verdict (`tag_rows.tag_values`) and commit; returns its row id."""
        if values.get("job") is None or values.get("lot") is None:
            job, lot = self._session_job_lot(values["session_id"], values.get("job"), values.get("lot"))
            values = {**values, "job": job, "lot": lot}
        with self._lock, self._writing("the tag could not be journaled"):
            return int(self._conn.execute(INSERT_TAG, row_params(values)).lastrowid)

    def _session_job_lot(self, session_id: int, job: str | None, lot: str | None) -> tuple[str, str]:
        with self._lock:
            row = self._conn.execute("SELECT job, lot FROM sessions WHERE id = ?", (session_id,)).fetchone()
        found = row or ("", "")
        return (found[0] if job is None else job), (found[1] if lot is None else lot)

    def end_session(self, session_id: int, ended_at: float | None = None) -> None:
        with self._lock, self._writing("the session's end could not be journaled"):
            self._conn.execute("UPDATE sessions SET ended_at = ? WHERE id = ?", (ended_at or time.time(), session_id))

    @contextmanager
    def _writing(self, what: str) -> Iterator[None]:
        """A full disk or a read-only drive is a JournalError the station reports, never an sqlite3 traceback."""
        try:
            yield
        except sqlite3.Error as exc:
            raise JournalError(what, expected=f"a writable journal at {self.path}", found=str(exc),
                               hint="free disk space or check the drive: results are not being saved until this "
                                    "is fixed") from exc

    def mark_exported(self, session_id: int, export_path: str, when: float | None = None) -> None:
        with self._lock, self._writing("the export could not be noted in the journal"):
            self._conn.execute("UPDATE sessions SET exported_at = ?, export_path = ? WHERE id = ?",
                               (when or time.time(), str(export_path), session_id))

    # -- reading ---------------------------------------------------------------------------------
    def sessions(self) -> list[SessionInfo]:
        with self._lock:
            rows = self._conn.execute(_SESSION_SELECT + " ORDER BY s.id").fetchall()
        return [SessionInfo(*row) for row in rows]

    def session(self, session_id: int) -> SessionInfo:
        with self._lock:
            row = self._conn.execute(_SESSION_SELECT + " WHERE s.id = ?", (session_id,)).fetchone()
        if row is None:
            raise JournalError("no such session in the journal", expected="a session id that `report --list` shows",
                               found=f"{session_id} in {self.path}", hint="list sessions, or use --last")
        return SessionInfo(*row)

    def last_session_id(self) -> int:
        """The session started last (ties: the higher id), whichever station wrote it."""
        with self._lock:
            row = self._conn.execute("SELECT id FROM sessions ORDER BY started_at DESC, id DESC LIMIT 1").fetchone()
        if row is None:
            raise JournalError("the journal has no sessions yet", expected="at least one inspection run",
                               found=f"an empty journal at {self.path}",
                               hint="inspect a folder or a camera first (hangtag-inspect run --recipe …, or Start in the "
                                    "station), or pass --journal with the journal the line wrote")
        return int(row[0])

    def overlapping(self, session_id: int) -> list[SessionInfo]:
        """Other sessions that were running at some time while `session_id` ran (concurrent stations)."""
        target = self.session(session_id)
        end = target.ended_at if target.ended_at is not None else float("inf")
        return [s for s in self.sessions() if s.id != session_id and s.started_at <= end
                and (s.ended_at is None or s.ended_at >= target.started_at)]

    def frames(self, session_id: int) -> list[FrameRecord]:
        return list(self.iter_frames(session_id))

    def iter_frames(self, session_id: int) -> Iterator[FrameRecord]:
        with self._lock:
            rows = self._conn.execute(_FRAME_SELECT + " WHERE session_id = ? ORDER BY id", (session_id,)).fetchall()
        for row in rows:
            yield _frame_record(row)

    def events(self, session_id: int | None = None) -> list[EventRecord]:
        """Station events in time order: every one, or those journaled under `session_id`."""
        query = "SELECT id, session_id, at, kind, subject, detail FROM events"
        with self._lock:
            rows = (self._conn.execute(query + " ORDER BY at, id").fetchall() if session_id is None else
                    self._conn.execute(query + " WHERE session_id = ? ORDER BY at, id", (session_id,)).fetchall())
        return [EventRecord(*row) for row in rows]

    def tags(self, session_id: int) -> list[TagRecord]:
        """The session's tag rows (a moving line's one verdict per tag), in the order they were given."""
        with self._lock:
            rows = self._conn.execute(SELECT_TAGS + " WHERE session_id = ? ORDER BY id", (session_id,)).fetchall()
        return [TagRecord.from_row(row) for row in rows]

    def tag_count(self, session_id: int) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM tags WHERE session_id = ?", (session_id,)).fetchone()[0])

    def frame_count(self, session_id: int) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM frames WHERE session_id = ?", (session_id,)).fetchone()[0])

    def session_counts(self) -> dict[int, dict[str, int]]:
        """Per session: its frames, its tags, and OK/NG/REVIEW/other counted as a report counts them (tags where
        the session has tag rows, else frames). Two GROUP BYs the (session_id, verdict) indexes answer alone, so
        a journal of millions of frames lists its sessions without reading a row."""
        with self._lock:
            frames = self._conn.execute("SELECT session_id, verdict, COUNT(*) FROM frames "
                                        "GROUP BY session_id, verdict").fetchall()
            tags = self._conn.execute("SELECT session_id, verdict, COUNT(*) FROM tags "
                                      "GROUP BY session_id, verdict").fetchall()
        by_unit: dict[int, dict[str, Counter]] = {}
        for unit, rows in (("frames", frames), ("tags", tags)):
            for sid, verdict, n in rows:
                by_unit.setdefault(sid, {"frames": Counter(), "tags": Counter()})[unit][
                    verdict if verdict in VERDICTS else "other"] += n
        out = {}
        for sid, units in by_unit.items():
            counted = units["tags"] or units["frames"]
            out[sid] = {"frames": units["frames"].total(), "tags": units["tags"].total(),
                        **{verdict: counted[verdict] for verdict in (*VERDICTS, "other")}}
        return out

    def frame_page(self, session_id: int, *, verdicts: Sequence[str] = (), text: str = "", after_id: int = 0,
                   limit: int = 200) -> list[FrameRecord]:
        """The next `limit` frames after row `after_id`, with one of `verdicts` (all when empty) and `text` in their
        reasons or source name: a history view pages a 100 000-frame session instead of loading it."""
        where, params = _page_filter(session_id, verdicts, text, _FRAME_TEXT, after_id)
        with self._lock:
            rows = self._conn.execute(f"{_FRAME_SELECT} WHERE {where} ORDER BY id LIMIT ?",
                                      (*params, int(limit))).fetchall()
        return [_frame_record(row) for row in rows]

    def tag_page(self, session_id: int, *, verdicts: Sequence[str] = (), text: str = "", after_id: int = 0,
                 limit: int = 200) -> list[TagRecord]:
        """As `frame_page`, over a moving line's tag rows; `text` matches reasons, tag number and trigger id."""
        where, params = _page_filter(session_id, verdicts, text, _TAG_TEXT, after_id)
        with self._lock:
            rows = self._conn.execute(f"{SELECT_TAGS} WHERE {where} ORDER BY id LIMIT ?",
                                      (*params, int(limit))).fetchall()
        return [TagRecord.from_row(row) for row in rows]

    def count_rows(self, session_id: int, *, tags: bool = False, verdicts: Sequence[str] = (), text: str = "") -> int:
        """How many rows `frame_page` (or `tag_page`) would page through under the same filter."""
        where, params = _page_filter(session_id, verdicts, text, _TAG_TEXT if tags else _FRAME_TEXT, 0)
        with self._lock:
            return int(self._conn.execute(f"SELECT COUNT(*) FROM {'tags' if tags else 'frames'} WHERE {where}",
                                          params).fetchone()[0])

    def unexported_archive_paths(self) -> set[str]:
        """Archive files still referenced by sessions nobody exported: pruning keeps them unless confirmed."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT f.archive_original, f.archive_annotated FROM frames f JOIN sessions s ON s.id = f.session_id "
                "WHERE s.exported_at IS NULL AND (f.archive_original != '' OR f.archive_annotated != '')").fetchall()
        with self._lock:
            tag_rows = self._conn.execute(
                "SELECT t.archive_crop, t.archive_annotated FROM tags t JOIN sessions s ON s.id = t.session_id "
                "WHERE s.exported_at IS NULL AND t.archive_crop != ''").fetchall()
        return {p for row in (*rows, *tag_rows) for p in row if p}

    def integrity_check(self) -> str:
        with self._lock:
            return str(self._conn.execute("PRAGMA integrity_check").fetchone()[0])


_FRAME_TEXT = ("reasons", "source_name")
_TAG_TEXT = ("reasons", "CAST(tag_id AS TEXT)", "COALESCE(trigger_id, '')")


def _page_filter(session_id: int, verdicts: Sequence[str], text: str, text_columns: Sequence[str],
                 after_id: int) -> tuple[str, list[Any]]:
    """WHERE clause and parameters for one session's rows after `after_id`; `text` is matched literally (a % or _
    the operator types is no wildcard)."""
    where, params = ["session_id = ?", "id > ?"], [session_id, int(after_id)]
    if verdicts:
        where.append(f"verdict IN ({', '.join('?' * len(verdicts))})")
        params += list(verdicts)
    if text.strip():
        pattern = "%" + text.strip().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        where.append("(" + " OR ".join(f"{column} LIKE ? ESCAPE '\\'" for column in text_columns) + ")")
        params += [pattern] * len(text_columns)
    return " AND ".join(where), params


_TEXT_DEFAULTS = frozenset({"source_name", "image_path", "image_hash", "verdict", "error",
                            "archive_original", "archive_annotated", "job", "lot"})


def _close_interrupted(conn: sqlite3.Connection) -> None:
    """Sessions left open by a station that is no longer running end at their last frame, "interrupted"."""
    rows = conn.execute("SELECT id, owner, started_at FROM sessions WHERE ended_at IS NULL").fetchall()
    for session_id, owner, started_at in rows:
        if owner == _this_process() or _process_alive(owner):
            continue
        last = conn.execute("SELECT MAX(timestamp) FROM frames WHERE session_id = ?", (session_id,)).fetchone()[0]
        conn.execute("UPDATE sessions SET ended_at = ?, end_reason = ? WHERE id = ? AND ended_at IS NULL",
                     (max(last or started_at, started_at), INTERRUPTED, session_id))


class OfflineJournal:
    """Stands in for a journal the data folder cannot hold (read-only, full, unreadable): the station keeps
    inspecting, and every frame it cannot record is reported with `reason` instead of being lost silently."""

    read_only = False

    def __init__(self, path: Path, reason: JournalError) -> None:
        self.path = path
        self.reason = reason

    def _refuse(self, *args: object, **kwargs: object):
        raise JournalError(f"not recorded: {self.reason.message}", expected=self.reason.expected,
                           found=self.reason.found, hint=self.reason.hint)

    start_session = record = record_values = mark_exported = last_session_id = sessions = session = _refuse
    frames = iter_frames = frame_count = overlapping = record_event = events = _refuse
    record_tag = tags = tag_count = _refuse
    unexported_archive_paths = _refuse  # unknown: pruning must not take it for "nothing to protect"

    def end_session(self, *args: object, **kwargs: object) -> None:
        pass

    def close(self) -> None:
        pass


def open_station_journal(path: Path | str | None = None, **options: Any) -> Journal | OfflineJournal:
    """The journal the station records into, or an OfflineJournal saying why it cannot (the caller says so
    at start and goes on inspecting)."""
    try:
        return Journal.open(path, **options)
    except JournalError as exc:
        return OfflineJournal(Path(path) if path is not None else Path("journal.sqlite3"), exc)


def _frame_record(row: tuple) -> FrameRecord:
    (fid, sid, index, ts, source_name, image_path, image_hash, h, w, verdict, reasons, checks, detections,
     fields, thresholds, timings, rss, vram, error, archive_original, archive_annotated, job, lot) = row
    return FrameRecord(
        id=fid, session_id=sid, frame_index=index, timestamp=ts, source_name=source_name, image_path=image_path,
        image_hash=image_hash, image_hw=(int(h), int(w)), verdict=verdict, reasons=tuple(json.loads(reasons)),
        checks=tuple(json.loads(checks)), detections=tuple(json.loads(detections)), tags=tuple(json.loads(fields)),
        thresholds=json.loads(thresholds), timings_ms=json.loads(timings), rss_mb=rss, vram_mb=vram, error=error,
        archive_original=archive_original, archive_annotated=archive_annotated, job=job, lot=lot)
