"""Table models of the History window: the journal's sessions with their counts, and one session's rows, fetched a
page at a time as the view scrolls (Qt's canFetchMore/fetchMore), so a 100 000-frame session never loads at once."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QFont

from app.history.reading import PAGE_ROWS
from app.history.rows import HistoryRow
from app.theme import verdict_text_color
from app.widgets.column_model import ColumnModel
from inference.records.journal import INTERRUPTED
from inference.records.types import SessionInfo

SESSION_COLUMNS = ("Session", "Started", "Ended", "Job", "Lot", "Recipe", "Frames", "Tags", "OK", "NG", "REVIEW",
                   "Other", "Report")
NUMBER_COLUMNS = frozenset({"Session", "Frames", "Tags", "OK", "NG", "REVIEW", "Other"})
# a session of one undecodable file read 'Frames 1 · OK 0 · NG 0 · REVIEW 0', its frame in no column
OTHER_TIP = "not judged (inspected without a recipe) or could not be inspected: the session's rows say which"
ROW_COLUMNS = ("Time", "Source", "Verdict", "Reasons")


def day_time(timestamp: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(timestamp)) if timestamp is not None else ""


RUNNING, STOPPED = "running", "stopped"


def ended_text(session: SessionInfo, open_state: str = RUNNING) -> str:
    """`open_state` says what an open session is: RUNNING, STOPPED (its station is idle) or INTERRUPTED (its
    station's process is gone; the journal ends it at that station's next start)."""
    if session.ended_at is None:
        return open_state
    same_day = time.localtime(session.ended_at)[:3] == time.localtime(session.started_at)[:3]
    text = time.strftime("%H:%M:%S" if same_day else "%Y-%m-%d %H:%M:%S", time.localtime(session.ended_at))
    return f"{text} (interrupted)" if session.end_reason == INTERRUPTED else text


OPEN_TIPS = {
    RUNNING: "frames are being inspected into this session",
    STOPPED: "the station is stopped: Start goes on with this session; a new source, recipe or model, or closing the "
             "station, ends it",
    INTERRUPTED: "the station that wrote this session is no longer running (closed without ending it, or killed): "
                 "no frames go into it; the next start of that station ends it at its last frame",
}


class SessionsModel(ColumnModel):
    """Newest session first; a session reads "running" only while frames are going into it: this station's own
    open session reads "stopped" while the station is idle, and one whose station's process is gone "interrupted"
    (a stopped run said "running" until the station was closed)."""

    columns = SESSION_COLUMNS

    def __init__(self, parent=None, inspecting: Callable[[], int | None] | None = None) -> None:
        super().__init__(parent)
        self.sessions: list[SessionInfo] = []
        self.counts: dict[int, Mapping[str, int]] = {}
        self.gone: frozenset[int] = frozenset()
        self.here: frozenset[int] = frozenset()
        self.inspecting = inspecting  # the session this station is inspecting into now; None when it is idle

    def set_sessions(self, sessions: Sequence[SessionInfo], counts: Mapping[int, Mapping[str, int]],
                     gone: frozenset[int] = frozenset(), here: frozenset[int] = frozenset()) -> None:
        self.beginResetModel()
        self.sessions = sorted(sessions, key=lambda s: (s.started_at, s.id), reverse=True)
        self.counts = dict(counts)
        self.gone, self.here = gone, here
        self.endResetModel()

    def open_state(self, session: SessionInfo) -> str:
        if session.id in self.gone:
            return INTERRUPTED
        if session.id in self.here and self.inspecting is not None and self.inspecting() != session.id:
            return STOPPED
        return RUNNING

    def run_changed(self) -> None:
        """The station started or stopped: the open sessions' Ended words are said again."""
        if self.sessions:
            column = SESSION_COLUMNS.index("Ended")
            self.dataChanged.emit(self.index(0, column), self.index(len(self.sessions) - 1, column))

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.sessions)

    def row_of(self, session_id: int) -> int | None:
        return next((i for i, s in enumerate(self.sessions) if s.id == session_id), None)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        session = self.sessions[index.row()]
        column = SESSION_COLUMNS[index.column()]
        counts = self.counts.get(session.id, {})
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(session, column, counts)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in NUMBER_COLUMNS:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole:
            if column in ("OK", "NG", "REVIEW") and counts.get(column):
                return verdict_text_color(column)
            if column == "Ended" and session.ended_at is None and self.open_state(session) == RUNNING:
                return verdict_text_color("OK")
            if column == "Report" and not session.exported:
                return verdict_text_color("")  # the hint grey
        if role == Qt.ItemDataRole.ToolTipRole:
            if column == "Other":
                return OTHER_TIP
            if column == "Ended" and session.ended_at is None:
                return OPEN_TIPS[self.open_state(session)]
            return (f"session {session.id} on {session.station_id}\nsource: {session.source}\n"
                    f"recipe: {session.recipe_path or session.recipe_name or 'none'}\n"
                    f"model {session.model_hash[:19]} on {session.backend} {session.precision}"
                    + (f"\nreport: {session.export_path}" if session.exported else "\nno report exported yet"))
        return None

    def _text(self, session: SessionInfo, column: str, counts: Mapping[str, int]) -> str:
        if column == "Session":
            return str(session.id)
        if column == "Started":
            return day_time(session.started_at)
        if column == "Ended":
            return ended_text(session, self.open_state(session))
        if column == "Report":
            return time.strftime("%m-%d %H:%M", time.localtime(session.exported_at)) if session.exported else "not yet"
        if column in ("Frames", "Tags", "OK", "NG", "REVIEW", "Other"):
            key = column.lower() if column in ("Frames", "Tags", "Other") else column
            return f"{counts.get(key, 0):,}".replace(",", " ")
        return {"Job": session.job, "Lot": session.lot, "Recipe": session.recipe_name}[column] or "—"


class RowsModel(ColumnModel):
    """One session's rows under the window's filter, a page at a time: `more(after_key)` asks for the next page
    (read elsewhere, it comes back through `add_page`), and the view asks for no other while one is on its way."""

    columns = ROW_COLUMNS

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.rows: list[HistoryRow] = []
        self.total = 0  # rows under the filter, counted by the journal
        self.exhausted = True
        self.asking = False  # a page is being read
        self._more: Callable[[int], None] | None = None
        self._bold = QFont()
        self._bold.setBold(True)

    def load(self, rows: Sequence[HistoryRow] = (), total: int = 0, more: Callable[[int], None] | None = None) -> None:
        self.beginResetModel()
        self.rows, self.total, self._more, self.asking = list(rows), max(total, len(rows)), more, False
        self.exhausted = more is None or len(self.rows) < PAGE_ROWS
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.rows)

    def canFetchMore(self, parent=QModelIndex()) -> bool:  # noqa: N802
        return not parent.isValid() and not self.exhausted and not self.asking

    def fetchMore(self, parent=QModelIndex()) -> None:  # noqa: N802
        if self.canFetchMore(parent) and self._more is not None:
            self.asking = True
            self._more(self.last_key)

    @property
    def last_key(self) -> int:
        return self.rows[-1].key if self.rows else 0

    def add_page(self, page: Sequence[HistoryRow]) -> None:
        self.asking = False
        self.exhausted = len(page) < PAGE_ROWS
        if page:
            self.beginInsertRows(QModelIndex(), len(self.rows), len(self.rows) + len(page) - 1)
            self.rows.extend(page)
            self.endInsertRows()
            self.total = max(self.total, len(self.rows))

    def page_failed(self) -> None:
        """No more pages until the rows are read again (the view would otherwise ask on every scroll)."""
        self.asking, self.exhausted = False, True

    def catch_up(self, total: int, page: Sequence[HistoryRow] = ()) -> None:
        """A running session's new rows, read after the last one shown when the view had reached the end."""
        self.total = max(total, len(self.rows))
        if page:
            self.add_page(page)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row = self.rows[index.row()]
        column = ROW_COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            if column == "Time":
                return row.time_text
            if column == "Source":
                return row.source
            if column == "Verdict":
                return row.verdict
            return "; ".join(row.reasons)
        if role == Qt.ItemDataRole.ForegroundRole and column == "Verdict":
            return verdict_text_color(row.verdict)
        if role == Qt.ItemDataRole.FontRole and column == "Verdict" and row.verdict in ("NG", "REVIEW", "ERROR"):
            return self._bold
        if role == Qt.ItemDataRole.ToolTipRole and row.reasons:
            return "\n".join(row.reasons)
        return None
