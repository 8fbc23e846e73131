"""Words over an empty table saying why it is empty: an empty grid alone looks the same whether nothing has happened
yet, something is loading or something failed."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QAbstractItemView, QLabel


class TableNote(QLabel):
    """Centred grey words over an empty table or list, saying why it is empty; hidden while it has rows."""

    def __init__(self, view: QAbstractItemView) -> None:
        super().__init__(view.viewport())
        self.view = view
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setWordWrap(True)
        self.setStyleSheet("font-size: 12pt;")
        self.setForegroundRole(QPalette.ColorRole.PlaceholderText)  # the theme's hint colour: #5f6368 was 3:1 on dark
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        model = view.model()
        for signal in (model.modelReset, model.rowsInserted, model.rowsRemoved):
            signal.connect(self._update)
        view.viewport().installEventFilter(self)
        self.hide()

    def say(self, text: str) -> None:
        self.setText(text)
        self._update()

    def eventFilter(self, watched, event) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Resize:
            self.setGeometry(self.view.viewport().rect().adjusted(12, 0, -12, 0))
        return False

    def _update(self, *_) -> None:
        self.setGeometry(self.view.viewport().rect().adjusted(12, 0, -12, 0))
        self.setVisible(bool(self.text()) and self.view.model().rowCount() == 0)
