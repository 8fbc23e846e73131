"""The window's link to the inspection records: the journal the worker writes, the job/lot the
sessions carry, report export in the background, and archive pruning that asks before deleting
images of unexported sessions."""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QObject, Qt, QThread, QTimer, Signal, Slot
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QProgressDialog

from app.thread_exit import wait_or_let_go
from app.thread_priority import start_below_gui
from inference.records import Journal, JournalError
from inference.records.archive import open_station_archive
from inference.records.journal import OfflineJournal, open_station_journal
from inference.records.recorder import Recorder

ARCHIVE_CAP_BYTES = 20 * 2**30


class ExportJob(QObject):
    progress = Signal(str, int, int)
    done = Signal(str, int, int, str)  # folder, session id, NG/REVIEW count, its unit ("frames", or a line's "tags")
    failed = Signal(str)

    def __init__(self, journal_path: Path) -> None:
        super().__init__()
        self.journal_path = journal_path
        self.cancelled = threading.Event()

    @Slot(int, str, bool)
    def run(self, session_id: int, out_dir: str, pdf: bool) -> None:
        self.cancelled.clear()
        try:
            with Journal.open(self.journal_path, read_only=True) as reader:
                if pdf:
                    from app.report_pdf import export_session_with_pdf

                    result = export_session_with_pdf(reader, session_id, out_dir, progress=self.progress.emit,
                                                     cancel=self.cancelled.is_set, mark_exported=False)
                else:
                    from inference.records import export_session

                    result = export_session(reader, session_id, out_dir, progress=self.progress.emit,
                                            cancel=self.cancelled.is_set, mark_exported=False)
            self.done.emit(str(result.path), result.session_id, result.flagged, result.unit)
        except Exception as exc:
            self.failed.emit(str(exc))


class RecordsLink(QObject):
    _export = Signal(int, str, bool)

    def __init__(self, window, journal_path: Path | None = None) -> None:
        super().__init__(window)
        self.window = window
        self.journal = open_station_journal(journal_path)  # a read-only or full data folder: OfflineJournal
        if isinstance(self.journal, OfflineJournal):  # said once the window is up; each frame then says "NOT recorded"
            QTimer.singleShot(0, lambda: window._on_error(f"Results will NOT be recorded: {self.journal.reason}"))
        self.archive = open_station_archive(ARCHIVE_CAP_BYTES)
        self.recorder = Recorder(self.journal, self.archive)
        self.thread = QThread(self)
        self.thread.setObjectName("report-export")
        self.job = ExportJob(self.journal.path)
        self.job.moveToThread(self.thread)
        self._export.connect(self.job.run)
        self.job.progress.connect(self._on_progress)
        self.job.done.connect(self._on_done)
        self.job.failed.connect(self._on_failed)
        start_below_gui(self.thread)  # a report exported during a run leaves the event loop its core
        self.dialog: QProgressDialog | None = None
        menu = window.file_menu
        first = menu.actions()[0] if menu.actions() else None
        for action in (QAction("Export report of the last session…", window, triggered=self.ask_export),
                       QAction("Set job and lot…", window, triggered=self.ask_job),
                       QAction("Prune image archive…", window, triggered=self.prune)):
            menu.insertAction(first, action)
        menu.insertSeparator(first)

    def ask_job(self) -> None:
        """Starts from the job and lot in use: a new lot of the same job must not mean typing the job again (an
        empty field accepted cleared it)."""
        current_job, current_lot = self.window.job_lot
        job, ok = QInputDialog.getText(self.window, "Job", "Job / style being inspected:", text=current_job)
        if not ok:
            return
        lot, ok = QInputDialog.getText(self.window, "Lot", "Lot number:", text=current_lot)
        if ok:
            self.window.set_job(job.strip(), lot.strip())

    def ask_export(self) -> None:
        try:
            session_id = self.journal.last_session_id()
        except Exception as exc:  # said with what to do: "the journal has no sessions yet" stopped there
            QMessageBox.information(self.window, "Export report", with_hint(
                str(exc), "inspect frames first (open a source and press Start): the report is of the last session"))
            return
        folder = QFileDialog.getExistingDirectory(self.window, "Export the report into…", str(Path.home()))
        if folder:
            self.export(session_id, folder, pdf=True)

    def export(self, session_id: int, folder: str, pdf: bool = True) -> None:
        self.dialog = QProgressDialog("Exporting the report…", "Cancel", 0, 100, self.window)
        self.dialog.setWindowTitle("Export report")
        self.dialog.setMinimumDuration(200)
        self.dialog.canceled.connect(self.job.cancelled.set)
        self._export.emit(session_id, folder, pdf)

    def _on_progress(self, stage: str, done: int, total: int) -> None:
        if self.dialog is not None:
            self.dialog.setLabelText(f"Exporting: {stage}")
            self.dialog.setValue(int(100 * done / total) if total else 0)

    def _on_done(self, folder: str, session_id: int, flagged: int, unit: str = "frames") -> None:
        self._close_dialog()
        self.journal.mark_exported(session_id, folder)
        self.last_export = folder
        # the folder's name only: its whole path ran under the permanent labels at 1280 px (the path is in the
        # "Report exported" message and the Open report button's tooltip)
        bar = self.window.statusBar()
        bar.showMessage(written_text(folder, flagged, bar.fontMetrics(), message_room(self.window), unit), 15000)

    def _on_failed(self, message: str) -> None:
        self._close_dialog()
        self.last_export = None
        self.window._on_error(f"Report not exported: {message}")  # the status bar showed "Report not exported:" alone
        if self.window.isVisible() and not self.window.testing:
            QMessageBox.warning(self.window, "Export report", message)

    def _close_dialog(self) -> None:
        if self.dialog is not None:
            self.dialog.close()
            self.dialog = None

    def prune(self) -> None:
        try:
            result = self.archive.prune(self.journal.unexported_archive_paths())
        except JournalError as exc:  # without the journal, nobody knows which images are still unexported
            self.window._on_error(f"Archive not pruned: {exc}")
            return
        if getattr(result, "needs_confirmation", False):
            answer = QMessageBox.question(self.window, "Prune image archive",
                                          "The archive is over its size cap, and freeing space would delete images "
                                          "of sessions that were never exported. Delete them anyway?")
            if answer == QMessageBox.StandardButton.Yes:
                result = self.archive.prune(self.journal.unexported_archive_paths(), confirm=True)
        self.window.statusBar().showMessage(prune_text(result), 10000)

    def close(self) -> None:
        """A report being exported is cancelled; one that does not stop in time is let go and ends with the
        process. Either way nothing is left under the report's name (it is staged: inference/records/staging.py)."""
        self.job.cancelled.set()
        self.thread.quit()
        if not wait_or_let_go(self.thread, 5.0, self.job):
            self.window._on_error("Closing: the report being exported did not stop within 5 s and is abandoned: no "
                                  "report was written under its name (export it again after the next start)")
        self.journal.close()


def _size(n: int) -> str:
    return f"{n / 2**30:.1f} GB" if n >= 2**30 else f"{n / 2**20:.1f} MB"


def prune_text(result) -> str:
    """What pruning did, in words: the status bar showed the result's repr ("Archive: PruneResult(deleted_files=(…")."""
    used = f"{_size(result.used_bytes)} of the {_size(result.cap_bytes)} cap in use"
    if not result.deleted_files:
        text = f"Archive: nothing deleted; {used}"
    else:
        text = f"Archive pruned: {len(result.deleted_files)} files deleted, {_size(result.freed_bytes)} freed; {used}"
    if result.used_bytes > result.cap_bytes:
        text += f" — still over the cap: {_size(result.protected_bytes)} are images of sessions never exported"
    return text


def with_hint(message: str, hint: str) -> str:
    """`message` with the station's own hint line in the expected / found / hint layout (the library's hint, written
    for the command line, gives way to what to do in the window)."""
    return f"{message.split(chr(10) + '  hint:')[0]}\n  hint:     {hint}"


def message_room(window) -> int:
    """Pixels the status bar leaves its message beside the labels that stay with it and the Open report button
    (shown with this message, so counted even while still hidden); the engine's details step aside for it
    (app/widgets/status_room.py)."""
    room = getattr(window, "status_room", None)
    if room is not None:
        return room.room(with_yielding=False, with_hidden=True)
    bar = window.statusBar()
    opener = getattr(window, "report_opener", None)
    widgets = [*window.status_labels.values(), *([opener.button] if opener is not None else [])]
    return bar.width() - sum(w.sizeHint().width() + 8 for w in widgets) - 24


def written_text(folder: str | Path, flagged: int, metrics, room: int, unit: str = "frames") -> str:
    """The report folder's name, cut in its middle to the room there is: its recipe part made it run under the
    permanent labels at 1280 px, the session's number and date cut off (the whole path is in the dialog and the
    Open report button's tooltip)."""
    head, tail = "Report written: ", f" ({flagged} NG/REVIEW {unit})"
    name = metrics.elidedText(Path(folder).name, Qt.TextElideMode.ElideMiddle,
                              max(room - metrics.horizontalAdvance(head + tail), metrics.horizontalAdvance("report_…")))
    return head + name + tail
