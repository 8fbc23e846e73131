"""Export report… from the History window, with the station's own report code: through the window's RecordsLink
when there is one (the same background job, progress dialog, "Open report" button and exported mark as File →
Export report), else on an `ExportJob` and thread of its own (a History window opened on a copied journal)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QThread, Signal

from app.records_link import ExportJob
from app.thread_exit import wait_or_let_go
from app.thread_priority import start_below_gui


class HistoryExport(QObject):
    done = Signal(str, int, int, str)  # folder, session id, NG/REVIEW count, its unit
    failed = Signal(str)
    _run = Signal(int, str, bool)

    def __init__(self, journal_path: Path, records=None, parent=None) -> None:
        super().__init__(parent)
        self.records = records
        self.journal_path = Path(journal_path)
        self.thread: QThread | None = None  # started at the first export of its own, stopped by close()
        if records is not None:
            records.job.done.connect(self.done)
            records.job.failed.connect(self.failed)

    def export(self, session_id: int, folder: str) -> None:
        if self.records is not None:
            self.records.export(session_id, folder, pdf=True)
            return
        if self.thread is None:
            self.thread = QThread(self)
            self.thread.setObjectName("history-export")
            self.job = ExportJob(self.journal_path)
            self.job.moveToThread(self.thread)
            self._run.connect(self.job.run)
            self.job.done.connect(self.done)
            self.job.failed.connect(self.failed)
            start_below_gui(self.thread)
        self._run.emit(session_id, folder, True)

    def close(self) -> None:
        if self.thread is None:
            return
        self.job.cancelled.set()
        self.thread.quit()
        wait_or_let_go(self.thread, 5.0, self.job)
        self._run.disconnect(self.job.run)
        self.thread = None
