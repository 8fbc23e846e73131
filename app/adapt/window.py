"""Adapt the detector (engineer mode): the five steps as tabs over one AdaptState."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox, QTabWidget, QVBoxLayout, QWidget

from app.adapt.adopt_page import AdoptPage
from app.adapt.collect_page import CollectPage
from app.adapt.compare_page import ComparePage
from app.adapt.correct_page import CorrectPage
from app.adapt.state import AdaptState
from app.adapt.station_link import StationLink
from app.adapt.train_page import TrainPage
from inference.adapt.models import ModelStore
from inference.resources import user_data_dir

STEPS = ("1 Collect", "2 Correct", "3 Fine-tune", "4 Compare", "5 Adopt / roll back")


def _fitted(width: int, height: int) -> tuple[int, int]:
    """The preferred size, shrunk to the screen's free area (a 1280x720 station leaves ~1280x680)."""
    screen = QGuiApplication.primaryScreen()
    if screen is None:
        return width, height
    free = screen.availableGeometry()
    return min(width, free.width()), min(height, free.height() - 40)  # the title bar sits above the area


def default_data_dir() -> Path:
    return user_data_dir() / "adapt"


class AdaptWindow(QWidget):
    """A window of its own (not a dialog: Enter belongs to the box editor, not to a default button)."""

    def __init__(self, window, *, data_dir: Path | None = None, store: ModelStore | None = None) -> None:
        super().__init__(window, Qt.WindowType.Window)
        self.setWindowTitle("Adapt the detector to this line")
        self.resize(*_fitted(1200, 780))
        self.state = AdaptState(StationLink(window), data_dir or default_data_dir(), store or ModelStore())
        self.tabs = QTabWidget()
        self.collect = CollectPage(self.state)
        self.correct = CorrectPage(self.state)
        self.train = TrainPage(self.state)
        self.compare = ComparePage(self.state)
        self.adopt = AdoptPage(self.state)
        for page, title in zip((self.collect, self.correct, self.train, self.compare, self.adopt), STEPS):
            self.tabs.addTab(page, title)
        intro = QLabel("Keep frames of this line's tags, fix the boxes the model draws, fine-tune, compare, and adopt "
                       "only a candidate that is better — the station keeps inspecting throughout.")
        intro.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.tabs, 1)
        app = QApplication.instance()
        if app is not None:  # quitting mid fine-tune stops it between steps instead of killing its thread
            app.aboutToQuit.connect(self._stop_jobs)

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Escape closes it, as it does History and every dialog
        if event.key() == Qt.Key.Key_Escape and not event.modifiers():
            self.close()
            event.accept()
            return
        super().keyPressEvent(event)

    def running_jobs(self) -> list[str]:
        jobs = {"the fine-tune": self.train, "pre-labelling": self.correct, "the comparison": self.compare}
        return [name for name, page in jobs.items() if page.job is not None and page.job.running]

    def closeEvent(self, event) -> None:  # noqa: N802 - a running job is stopped, never left behind
        running = self.running_jobs()
        if running and QMessageBox.question(
                self, "Close Adapt?", f"{' and '.join(running).capitalize()} {'are' if len(running) > 1 else 'is'} still running: closing this window "
                "stops it, and what it has done so far is lost. Close and stop it?",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No) != QMessageBox.StandardButton.Yes:
            event.ignore()  # an Escape or a click on the window's X must not throw away a fine-tune
            return
        self._stop_jobs()
        super().closeEvent(event)

    def _stop_jobs(self) -> None:
        for page in (self.correct, self.train, self.compare):
            page.close_resources()
