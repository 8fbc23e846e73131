"""After an export, offer to open the report: a button in the status bar (and, outside tests, a question)
so the person who exported does not have to find the folder (issue 16: nothing offered to open it)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMessageBox, QPushButton


def report_file(folder: str | Path) -> Path:
    """The report a person reads: the PDF when there is one, else the HTML."""
    folder = Path(folder)
    pdf = folder / "report.pdf"
    return pdf if pdf.is_file() else folder / "report.html"


class ReportOpener(QObject):
    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.last_report: Path | None = None
        self.button = QPushButton("Open report")
        self.button.setVisible(False)
        self.button.clicked.connect(self.open)
        # a permanent widget: a normal one sits on top of the status bar's messages ("Report written to …" was
        # drawn under it, its start hidden); permanent ones are laid out beside them, at the left of their group
        window.statusBar().insertPermanentWidget(0, self.button)
        window.records.job.done.connect(self._on_exported)  # queued from the export thread

    def _on_exported(self, folder: str, session_id: int, flagged: int, unit: str = "frames") -> None:
        self.last_report = report_file(folder)
        self.button.setToolTip(str(self.last_report))
        self.button.setVisible(True)
        if self.window.testing or not self.window.isVisible():
            return
        box = QMessageBox(QMessageBox.Icon.Information, "Report exported",
                          f"The report of session {session_id} ({flagged} NG/REVIEW {unit}) is in\n{folder}",
                          parent=self.window)
        open_button = box.addButton("Open report", QMessageBox.ButtonRole.AcceptRole)
        box.addButton("Close", QMessageBox.ButtonRole.RejectRole)
        box.exec()
        if box.clickedButton() is open_button:
            self.open()

    def open(self) -> bool:
        if self.last_report is None or not self.last_report.is_file():
            return False
        return QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.last_report)))
