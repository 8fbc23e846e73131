"""A label that elides its text to the width it is given instead of widening the window.

A long recipe name or folder path must never push the window past the screen (issue 16: a recipe
name widened it to 1639 px); the full text stays in the tooltip."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QLabel, QSizePolicy


class ElidedLabel(QLabel):
    def __init__(self, text: str = "", parent=None, *, mode: Qt.TextElideMode = Qt.TextElideMode.ElideMiddle,
                 min_chars: int = 6) -> None:
        super().__init__(text, parent)
        self._mode = mode
        self._min_chars = min_chars
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setToolTip(text)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt naming
        super().setText(text)
        self.setToolTip(text)

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(self.fontMetrics().averageCharWidth() * self._min_chars, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(min(super().sizeHint().width(), 480), super().sizeHint().height())

    def elided(self) -> str:
        """The text as drawn at the current width."""
        return self.fontMetrics().elidedText(self.text(), self._mode, max(0, self.contentsRect().width()))

    def paintEvent(self, event) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(self.contentsRect(), int(self.alignment() | Qt.AlignmentFlag.AlignVCenter), self.elided())
