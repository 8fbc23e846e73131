"""Help → About: icon, version, and the library versions from app.versions with a Copy button."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QIcon, QPixmap
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QHeaderView, QLabel, QPushButton,
                               QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from app.versions import APP_TITLE, app_version, build_kind, library_versions, version_text
from inference.resources import resource_path


def show_about(parent: QWidget | None = None) -> None:
    AboutDialog(parent).exec()


class AboutDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"About {APP_TITLE}")
        icon_path = resource_path("icons", "hangtag_station.png")
        self.setWindowIcon(QIcon(str(icon_path)))
        self.versions = library_versions()

        banner = QHBoxLayout()
        icon = QLabel()
        icon.setPixmap(QPixmap(str(icon_path)).scaled(64, 64, Qt.AspectRatioMode.KeepAspectRatio,
                                                      Qt.TransformationMode.SmoothTransformation))
        banner.addWidget(icon)
        title = QLabel(f"<b style='font-size:16pt'>{APP_TITLE}</b><br>version {app_version()} "
                       f"({build_kind()})<br>Garment hangtag inspection station")
        title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        banner.addWidget(title, 1)

        self.table = QTableWidget(len(self.versions), 2)
        self.table.setHorizontalHeaderLabels(["Component", "Version"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for row, (name, value) in enumerate(self.versions):
            self.table.setItem(row, 0, QTableWidgetItem(name))
            self.table.setItem(row, 1, QTableWidgetItem(value))
        columns = self.table.horizontalHeader()
        columns.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        columns.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)  # long rows wrap instead of scrolling
        self.table.setWordWrap(True)
        self.table.resizeRowsToContents()

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        copy = QPushButton("Copy")
        copy.setToolTip("Copy the versions, for a support ticket")
        buttons.addButton(copy, QDialogButtonBox.ButtonRole.ActionRole)
        copy.clicked.connect(self._on_copy)
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addLayout(banner)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.resize(680, 600)

    def text(self) -> str:
        return version_text(self.versions)

    def _on_copy(self) -> None:
        QGuiApplication.clipboard().setText(self.text())
