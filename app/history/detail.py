"""The chosen row in full: verdict, time and source, every reason, the fields read (value, confidence, what the recipe
expected) and the archived picture, or in plain words why there is none: never a blank box."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QPalette
from PySide6.QtWidgets import (QAbstractItemView, QHeaderView, QLabel, QPlainTextEdit, QSplitter, QStackedWidget,
                               QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from app.history.rows import HistoryRow, nothing_read
from app.theme import PLAIN_TEXT, verdict_text_color
from app.words import named
from app.widgets.image_view import ImageView
from inference.imageio import read_image

FIELD_COLUMNS = ("Field", "Read", "Expected", "Conf.")  # the check's verdict colours Read
NOTHING_CHOSEN = "Choose a row to see its reasons, the fields read and its picture."
NO_ROWS = "A row's reasons, the fields read and its picture appear here once there are rows to choose."


class DetailPanel(QWidget):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.title = QLabel()
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.title.setWordWrap(True)
        self.reasons = QPlainTextEdit()
        self.reasons.setReadOnly(True)
        self.reasons.setMaximumHeight(self.fontMetrics().lineSpacing() * 4 + 12)
        self.fields = QTableWidget(0, len(FIELD_COLUMNS))
        self.fields.setHorizontalHeaderLabels(FIELD_COLUMNS)
        self.fields.verticalHeader().setVisible(False)
        self.fields.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.fields.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.fields.setWordWrap(False)
        # Read and Expected share what is left and elide (the tooltip has the whole row): sized to their contents,
        # a long composition pushed Conf. out of sight at 1280×720
        header = self.fields.horizontalHeader()
        for column, mode in enumerate((QHeaderView.ResizeMode.ResizeToContents, QHeaderView.ResizeMode.Stretch,
                                       QHeaderView.ResizeMode.Stretch, QHeaderView.ResizeMode.ResizeToContents)):
            header.setSectionResizeMode(column, mode)
        self.fields.setTextElideMode(Qt.TextElideMode.ElideRight)
        self._bold = QFont()
        self._bold.setBold(True)
        self.image_note = QLabel()
        self.image_note.setWordWrap(True)
        self.image_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.image = ImageView()
        self.image_path = ""  # the file shown; "" when none
        text = QWidget()
        text_layout = QVBoxLayout(text)
        text_layout.setContentsMargins(0, 0, 0, 0)
        text_layout.addWidget(self.title)
        text_layout.addWidget(self.reasons)
        text_layout.addWidget(self.fields, 1)
        picture = QWidget()
        picture_layout = QVBoxLayout(picture)
        picture_layout.setContentsMargins(0, 0, 0, 0)
        picture_layout.addWidget(self.image, 1)
        picture_layout.addWidget(self.image_note)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(text)
        self.splitter.addWidget(picture)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 1)
        # no row: one sentence in place of the whole panel (a title, an empty grid and a picture area said it twice)
        self.nothing = QLabel()
        self.nothing.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.nothing.setWordWrap(True)
        self.nothing.setStyleSheet("font-size: 12pt;")
        self.nothing.setForegroundRole(QPalette.ColorRole.PlaceholderText)  # readable on either theme
        self.pages = QStackedWidget()
        self.pages.addWidget(self.nothing)
        self.pages.addWidget(self.splitter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.pages)
        self.show_row(None)

    def show_row(self, row: HistoryRow | None, *, nothing: str = NOTHING_CHOSEN) -> None:
        """`nothing`: what the panel says when no row is shown (the window knows whether there are rows to choose)."""
        if row is None:
            self.title.setText("")
            self.reasons.setPlainText("")
            self.fields.setRowCount(0)
            self._show_image("", "")
            self.nothing.setText(nothing)
            self.pages.setCurrentWidget(self.nothing)
            return
        self.pages.setCurrentWidget(self.splitter)
        color = verdict_text_color(row.verdict).name()
        self.title.setText(f"<b style='color:{color}; font-size:15pt'>{html.escape(row.verdict)}</b>"
                           f"&nbsp;&nbsp;{html.escape(row.day_time_text)} · {html.escape(row.source)}")
        self.reasons.setPlainText("\n".join(row.reasons) if row.reasons else "no reasons: every check passed"
                                  if row.verdict == "OK" else "no reasons recorded")
        self._show_fields(row)
        self._show_image(*row.image())

    def _show_fields(self, row: HistoryRow) -> None:
        fields = row.fields
        self.fields.clearSpans()
        self.fields.setRowCount(len(fields))
        for r, field in enumerate(fields):
            confidence = "" if field.confidence is None else f"{field.confidence:.0%}"
            for c, text in enumerate((field.label, field.read or "—", field.expected, confidence)):
                item = QTableWidgetItem(text)
                item.setToolTip(f"{field.label}: read {field.read or 'nothing'}"
                                + (f", expected {field.expected}" if field.expected else "")
                                + (f" → {field.verdict}" if field.verdict else ""))
                if c == 1 and field.verdict in ("NG", "REVIEW"):
                    item.setForeground(verdict_text_color(field.verdict))
                    item.setFont(self._bold)
                self.fields.setItem(r, c, item)
        if not fields:
            self.fields.setRowCount(1)
            self.fields.setItem(0, 0, QTableWidgetItem(nothing_read(row)))
            self.fields.setSpan(0, 0, 1, self.fields.columnCount())  # whole, not cut to the Field column's width

    def _show_image(self, path: str, note: str) -> None:
        self.image_path = ""
        self.image_note.setText(note)
        self.image_note.setToolTip(path or note)  # the note names the file; its whole path is here
        plain = note.startswith(("annotated copy", "original in the archive"))  # else: not the archived picture
        self.image_note.setStyleSheet(PLAIN_TEXT if plain or not note else "color: #b06000; font-weight: bold;")
        # the note names the picture shown; with none, the picture area alone says why (the note said it again)
        self.image_note.setVisible(bool(path))
        if not path:
            self.image.show_message(note)
            return
        try:
            image = read_image(path)
        except Exception as exc:  # a damaged or unreadable file is said, not raised into Qt
            # its first line only: the whole expected / found / hint is in the reasons above (an ERROR row said it twice)
            self.image.show_message("image could not be read: " + named(Path(path).name, str(exc).splitlines()[0]))
            self.image_note.setText(f"image could not be read: {path}")
            self.image_note.hide()
            return
        self.image_path = path
        self.image.show_frame(image, None)

