"""File → History… (Ctrl+H): the journal's sessions, one session's frames or tags, and the chosen row in full.

Every read runs on the window's reading thread (`reads.JournalReads`) through a read-only connection of its own
(WAL lets it read beside the inspection worker's writes, so looking back never delays a verdict); the GUI thread
only asks and applies, so a journal another program holds locked leaves the window responsive. The window pages
rows as the table scrolls and refreshes the sessions every few seconds while it is shown. While a read is on its way
the window says "loading…"; every failure to read (no journal yet, locked, damaged, older schema) is shown in its
error panel with expected / found / hint, and the sessions already listed stay on screen; nothing raises into Qt."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QItemSelectionModel, Qt, QTimer, QUrl
from PySide6.QtGui import QAction, QDesktopServices, QGuiApplication, QKeySequence, QShortcut
from PySide6.QtWidgets import (QComboBox, QFileDialog, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QPushButton,
                               QSplitter, QVBoxLayout, QWidget)

from app.history.archive_folder import NoArchiveFolder
from app.history.detail import NO_ROWS, NOTHING_CHOSEN, DetailPanel
from app.history.export import HistoryExport
from app.history.models import SESSION_COLUMNS, RowsModel, SessionsModel
from app.history.reading import (BUSY_TIMEOUT_S, Listing, RowsQuery, RowsRead, find_archive_folder, read_listing,
                                 read_page, read_rows)
from app.history.reads import JournalReads, Read
from app.history.tables import TableNote, table
from app.widgets.error_panel import ErrorPanel
from inference.records.journal import Journal
from inference.records.types import SessionInfo

AUTO_REFRESH_MS = 5000
FILTERS = {"All": (), "NG + REVIEW": ("NG", "REVIEW"), "NG": ("NG",), "REVIEW": ("REVIEW",), "OK": ("OK",)}
LOADING = "loading…"
WAITING = "waiting for the journal (locked by another program)…"


class HistoryWindow(QWidget):
    def __init__(self, journal_path: Path | str, *, records=None, parent=None,
                 refresh_ms: int = AUTO_REFRESH_MS, busy_timeout_s: float = BUSY_TIMEOUT_S,
                 inspecting: Callable[[], int | None] | None = None) -> None:
        """`inspecting`: the station's own answer to which session it is inspecting into now (None while idle), so
        its open session is not called running while it is stopped."""
        super().__init__(parent, Qt.WindowType.Window)
        self.journal_path = Path(journal_path)
        self.busy_timeout_s = busy_timeout_s
        self.setWindowTitle(f"History — {self.journal_path.name}")
        self.reads = JournalReads(self.journal_path, busy_timeout_s, self)
        self.reads.done.connect(self._on_read)
        self.reads.failed.connect(self._on_read_failed)
        self.reads.waiting.connect(self._on_read_waiting)
        self.session: SessionInfo | None = None
        self.last_export: str | None = None
        self.archive_opened: Path | None = None  # the archive folder last opened
        self._rows_query: RowsQuery | None = None  # what the rows shown were read for
        self.read_at = ""  # when the sessions were last read
        self.sessions = SessionsModel(self, inspecting)
        self.rows = RowsModel(self)
        self.detail = DetailPanel()
        self.errors = ErrorPanel()
        self._build()
        self.export_link = HistoryExport(self.journal_path, records, self)
        self.export_link.done.connect(self._on_exported)
        self.export_link.failed.connect(lambda message: self.errors.show_error("export", "Report not exported",
                                                                                message))
        self.timer = QTimer(self)
        self.timer.setInterval(refresh_ms)
        self.timer.timeout.connect(lambda: self.refresh(auto=True))
        self._enable_session_actions()  # nothing chosen until the sessions are read
        self._choose_row(-1)
        self.refresh()

    # -- construction --------------------------------------------------------------------------------
    def _build(self) -> None:
        self.refresh_button = QPushButton("Refresh (F5)")
        self.refresh_button.clicked.connect(lambda: self.refresh())
        self.updated = QLabel()
        self.export_button = QPushButton("Export report…")
        self.export_button.setToolTip("HTML, PDF, CSV, JSON and COCO of the chosen session, as File → Export report")
        self.export_button.clicked.connect(self.ask_export)
        self.archive_button = QPushButton("Open archive folder")
        self.archive_button.setToolTip("The chosen session's folder in the image archive: its NG and REVIEW pictures")
        self.archive_button.clicked.connect(self.open_archive_folder)
        self.folder_button = QPushButton("Open picture's folder")
        self.folder_button.setToolTip("The folder of the chosen row's picture")
        self.folder_button.clicked.connect(self.open_folder)
        bar = QHBoxLayout()
        for widget in (self.refresh_button, self.updated):
            bar.addWidget(widget)
        bar.addStretch(1)
        for widget in (self.export_button, self.archive_button, self.folder_button):
            bar.addWidget(widget)

        self.sessions_view = table(self.sessions)
        self.sessions_note = TableNote(self.sessions_view)  # why the list is empty: loading, waiting, failed, none
        header = self.sessions_view.horizontalHeader()
        metrics = self.sessions_view.fontMetrics()
        for column, widest in enumerate(("Session", "2026-12-04 10:42:13", "10:42:13 (interrupted)", "", "", "",
                                         "100 000", "Tags", "100 000", "NG 000", "REVIEW", "Other", "12-04 10:42")):
            header.resizeSection(column, metrics.horizontalAdvance(widest or "K2291 女士连衣裙") + 18)
        header.setSectionResizeMode(SESSION_COLUMNS.index("Recipe"), QHeaderView.ResizeMode.Stretch)
        self.sessions_view.selectionModel().currentRowChanged.connect(lambda current, _: self._choose_session(
            current.row()))
        self.sessions_view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)  # right-click: per session
        for text, slot in (("Export report…", self.ask_export), ("Open archive folder", self.open_archive_folder)):
            self.sessions_view.addAction(QAction(text, self.sessions_view, triggered=slot))

        self.verdict_filter = QComboBox()
        self.verdict_filter.addItems(list(FILTERS))
        self.verdict_filter.setToolTip("Show rows of this verdict")
        self.verdict_filter.currentIndexChanged.connect(lambda _: self._load_rows())
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search reasons or source (Ctrl+F)")
        self.search.setClearButtonEnabled(True)
        self._search_timer = QTimer(self, singleShot=True, interval=300)  # a query per pause, not per key
        self._search_timer.timeout.connect(self._load_rows)
        self.search.textChanged.connect(lambda _: self._search_timer.start())
        self.count = QLabel()
        filters = QHBoxLayout()
        filters.addWidget(QLabel("Verdict"))
        filters.addWidget(self.verdict_filter)
        filters.addWidget(self.search, 1)
        self.rows_view = table(self.rows)
        self.rows_note = TableNote(self.rows_view)
        header = self.rows_view.horizontalHeader()
        metrics = self.rows_view.fontMetrics()
        for column, widest in enumerate(("00:00:00", "camera 0 #100000", "REVIEW")):
            header.resizeSection(column, metrics.horizontalAdvance(widest) + 18)
        header.setStretchLastSection(True)
        self.rows_view.selectionModel().currentRowChanged.connect(lambda current, _: self._choose_row(current.row()))
        rows_box = QWidget()
        rows_layout = QVBoxLayout(rows_box)
        rows_layout.setContentsMargins(0, 0, 0, 0)
        rows_layout.addLayout(filters)
        rows_layout.addWidget(self.rows_view, 1)
        rows_layout.addWidget(self.count)

        self.lower = QSplitter(Qt.Orientation.Horizontal)
        self.lower.addWidget(rows_box)
        self.lower.addWidget(self.detail)
        self.lower.setStretchFactor(0, 2)
        self.lower.setStretchFactor(1, 3)
        self.upper = QSplitter(Qt.Orientation.Vertical)
        self.upper.addWidget(self.sessions_view)
        self.upper.addWidget(self.lower)
        self.upper.setStretchFactor(0, 1)
        self.upper.setStretchFactor(1, 3)
        self.upper.setCollapsible(0, False)
        # the running session and the last few stay in sight: the list was three rows tall at 1280×720
        self.sessions_view.setMinimumHeight(self.sessions_view.horizontalHeader().sizeHint().height()
                                            + 5 * self.sessions_view.verticalHeader().defaultSectionSize() + 4)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addWidget(self.errors)
        layout.addLayout(bar)
        layout.addWidget(self.upper, 1)
        QShortcut(QKeySequence(Qt.Key.Key_F5), self, activated=lambda: self.refresh())
        QShortcut(QKeySequence.StandardKey.Find, self, activated=self._focus_search)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self, activated=self.close)
        self._split_by_hand = False  # once the operator drags a divider, the window keeps it where it was put
        for splitter in (self.lower, self.detail.splitter):
            splitter.splitterMoved.connect(self._on_split_moved)
        self.resize(*_fitted(1600, 960))
        self._split(self.width())

    def _split(self, width: int) -> None:
        """The rows, the chosen row's text and its picture across the window's width. A narrow window gives the rows
        more of it: at 1280 px a third left the reasons column ~130 px, every reason cut after two words."""
        rows = 40 if width < 1600 else 32
        picture = (100 - rows) * 45 // 100
        self.lower.setSizes([width * rows // 100, width * (100 - rows) // 100])
        self.detail.splitter.setSizes([width * (100 - rows - picture) // 100, width * picture // 100])

    def _on_split_moved(self, *_) -> None:
        self._split_by_hand = True

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        if not self._split_by_hand:
            self._split(event.size().width())

    # -- reading: asked here, read on self.reads' thread, applied here ----------------------------------------
    def refresh(self, *, auto: bool = False) -> None:
        """Sessions and their counts again; the chosen session stays chosen. By hand (F5) its rows are read again
        from the start; automatically, a running session's new rows are only appended, and a read still waiting
        (a locked journal) is not asked again."""
        if auto and self.reads.busy("sessions"):
            return
        catch_up = None
        if auto and self.session is not None and not self.reads.busy("rows") and self._rows_query == self._query():
            catch_up = (self._rows_query, self.rows.last_key if self.rows.exhausted else None)

        def work(reader: Journal) -> tuple[Listing, RowsRead | None]:
            if catch_up is None:
                return read_listing(reader), None
            query, after = catch_up
            return read_listing(reader), read_rows(reader, query, after or 0, page=after is not None)

        self.reads.submit("sessions", work, context=(auto, catch_up, self.reads.newest.get("rows")))
        if not auto or not self.sessions.sessions:
            self.updated.setText(LOADING)
            self.sessions_note.say("Reading the journal…")

    def _apply_listing(self, context: tuple, value: tuple[Listing, RowsRead | None]) -> None:
        auto, catch_up, rows_generation = context
        listing, caught = value
        self.read_at = time.strftime("%H:%M:%S")
        self.updated.setText(f"updated {self.read_at} · every {self.timer.interval() // 1000} s")
        self.sessions_note.say("No sessions yet: the station starts one with its first inspected frame")
        chosen = self.session.id if self.session is not None else None
        selection = self.sessions_view.selectionModel()
        selection.blockSignals(True)  # re-listing must not reload the rows the operator is reading
        self.sessions.set_sessions(listing.sessions, listing.counts, listing.gone, listing.here)
        row = self.sessions.row_of(chosen) if chosen is not None else (0 if listing.sessions else None)
        if row is not None:
            selection.setCurrentIndex(self.sessions.index(row, 0), QItemSelectionModel.SelectionFlag.ClearAndSelect
                                      | QItemSelectionModel.SelectionFlag.Rows)
        selection.blockSignals(False)
        self.session = self.sessions.sessions[row] if row is not None else None
        if self.session is None or self.session.id != chosen or not auto:
            self._load_rows()
        elif (caught is not None and rows_generation == self.reads.newest.get("rows")
              and catch_up[0] == self._rows_query == self._query()):  # the rows shown are still the ones it extends
            self.rows.catch_up(caught.total, caught.page)
            self._show_count()
        self._enable_session_actions()

    def _choose_session(self, row: int) -> None:
        self.session = self.sessions.sessions[row] if 0 <= row < len(self.sessions.sessions) else None
        self._enable_session_actions()
        self.errors.clear_kind("archive")
        self._load_rows()

    def _enable_session_actions(self) -> None:
        for widget in (self.export_button, self.archive_button, *self.sessions_view.actions()):
            widget.setEnabled(self.session is not None)

    def _query(self) -> RowsQuery | None:
        session = self.session
        if session is None:
            return None
        tags = bool(self.sessions.counts.get(session.id, {}).get("tags"))
        return RowsQuery(session.id, tags, FILTERS[self.verdict_filter.currentText()], self.search.text())

    def _load_rows(self) -> None:
        """The chosen session's rows under the filter, from the start. The rows shown go at once: under a new filter
        they would be taken for its answer."""
        query = self._query()
        self._rows_query = None
        self.rows.load()
        self._choose_row(-1)
        if query is None:
            self.reads.forget("rows")
            self._show_count()
            self.rows_note.say("")
            return
        self.reads.submit("rows", lambda reader: read_rows(reader, query), context=("load", query))
        self.count.setText(LOADING)
        self.rows_note.say("Loading rows…")

    def _ask_page(self, after: int) -> None:
        query = self._rows_query
        self.reads.submit("rows", lambda reader: read_page(reader, query, after), context=("page", query),
                          new_generation=False)

    def _on_read(self, read: Read, value) -> None:
        self.errors.clear_kind("journal")
        if read.purpose == "sessions":
            self._apply_listing(read.context, value)
        elif read.purpose == "rows" and read.context[0] == "page":
            self.rows.add_page(value)
            self._show_count()
        elif read.purpose == "rows":
            self._rows_query = read.context[1]
            self.rows.load(value.page, value.total, self._ask_page)
            self._show_count()
            self.rows_note.say("No rows match the filter" if self._filtered() else "No rows in this session")
            if self.rows.rows:
                self.rows_view.selectRow(0)
        elif read.purpose == "archive":
            self._open_archive_folder(read.context, value)

    def _on_read_failed(self, read: Read, problem: Exception) -> None:
        self.errors.show_error("journal", "The history cannot be shown", problem)
        if read.purpose == "sessions":  # what was read last stays on screen; the error panel says why it is not newer
            self.updated.setText(f"not updated since {self.read_at}" if self.sessions.sessions else "")
            self.sessions_note.say("No sessions shown: the message above says why")
            self._enable_session_actions()
        elif read.purpose == "rows" and read.context[0] == "page":
            self.rows.page_failed()
            self._show_count()
        elif read.purpose == "rows":
            self.count.setText("rows not read: the message above says why")
            self.rows_note.say("Rows not read: the message above says why")

    def _on_read_waiting(self, read: Read, problem: Exception) -> None:
        self.errors.show_error("journal", "Waiting for the journal", problem)
        if read.purpose == "sessions":
            self.updated.setText(WAITING)
            self.sessions_note.say("Waiting for the journal: another program holds it locked")
        elif read.purpose == "rows":
            self.count.setText(WAITING)
            self.rows_note.say("Waiting for the journal: another program holds it locked")

    def _show_count(self) -> None:
        total, loaded = self.rows.total, len(self.rows.rows)
        query = self._query()
        if query is None:  # no session: "0 frames" under the empty list counted nothing
            self.count.setText("")
            return
        unit = ("tag" if query is not None and query.tags else "frame") + ("" if total == 1 else "s")
        text = f"{total:,} {unit}".replace(",", " ")
        if self._filtered():
            text += " matches the filter" if total == 1 else " match the filter"
        if loaded < total:
            text += f" · {loaded:,} loaded (scroll for more)".replace(",", " ")
        self.count.setText(text)

    def _filtered(self) -> bool:
        return bool(FILTERS[self.verdict_filter.currentText()] or self.search.text().strip())

    def _choose_row(self, row: int) -> None:
        self.detail.show_row(self.rows.rows[row] if 0 <= row < len(self.rows.rows) else None,
                             nothing=NOTHING_CHOSEN if self.rows.rows else NO_ROWS)
        self.folder_button.setEnabled(bool(self.detail.image_path))

    # -- actions -----------------------------------------------------------------------------------------
    def ask_export(self) -> None:
        if self.session is None:
            return
        folder = QFileDialog.getExistingDirectory(self, f"Export the report of session {self.session.id} into…",
                                                  str(Path.home()))
        if folder:
            self.export_to(folder)

    def export_to(self, folder: str) -> None:
        if self.session is not None:
            self.errors.clear_kind("export")
            self.export_link.export(self.session.id, folder)

    def _on_exported(self, folder: str, session_id: int, flagged: int, unit: str = "frames") -> None:
        self.last_export = folder
        self.updated.setText(f"report of session {session_id} written: {Path(folder).name} "
                             f"({flagged} NG/REVIEW {unit})")
        # the station marks it exported after this signal; a window closed meanwhile starts no reading thread. Only
        # the listing is read again: reading the rows from the start took the operator's chosen frame away
        QTimer.singleShot(500, self, lambda: self.isVisible() and self.refresh(auto=True))

    def folder_to_open(self) -> Path | None:
        return Path(self.detail.image_path).parent if self.detail.image_path else None

    def open_archive_folder(self) -> None:
        """The chosen session's folder in the image archive, found from its rows on the reading thread."""
        session, query = self.session, self._query()
        if session is None:
            return
        self.errors.clear_kind("archive")
        self.reads.submit("archive", lambda reader: find_archive_folder(reader, session, tags=query.tags),
                          context=session)

    def _open_archive_folder(self, session: SessionInfo, found: Path | NoArchiveFolder) -> None:
        if isinstance(found, NoArchiveFolder):
            self.errors.show_error("archive", f"No archive folder for session {session.id}", found)
            return
        self.archive_opened = found
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(found)))

    def open_folder(self) -> bool:
        folder = self.folder_to_open()
        return folder is not None and QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder)))

    def _focus_search(self) -> None:
        self.search.setFocus()
        self.search.selectAll()

    # -- lifecycle ---------------------------------------------------------------------------------------
    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        self.timer.start()

    def hideEvent(self, event) -> None:  # noqa: N802
        self.timer.stop()
        super().hideEvent(event)

    def closeEvent(self, event) -> None:  # noqa: N802
        self.shutdown()
        super().closeEvent(event)

    def shutdown(self) -> None:
        """Closed, or with the station: an export on a thread of its own is cancelled, the connection closed (the
        station's own export, through its RecordsLink, goes on)."""
        self.timer.stop()
        self.export_link.close()
        self.reads.close()


def _fitted(width: int, height: int) -> tuple[int, int]:
    """The preferred size, shrunk to the screen's free area (a 1280×720 station leaves ~1280×680)."""
    screen = QGuiApplication.primaryScreen()
    if screen is None:
        return width, height
    free = screen.availableGeometry()
    return min(width, free.width()), min(height, free.height() - 40)
