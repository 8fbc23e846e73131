"""The error panel: recipe, source and engine errors with their full expected / found / hint text.

A fixed height, so a long message scrolls inside it instead of moving the live view; hidden when
there is nothing to say. The status bar only had room for the first line ("Recipe not loaded:")."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from app.theme import alarm_style
from app.widgets.elided_label import ElidedLabel
from inference.errors import HangtagError

PANEL_HEIGHT = 124  # title and four lines: the message, expected, found, hint


def error_text(error: BaseException | str) -> str:
    """The full text: a HangtagError's message with its expected / found / hint lines."""
    if isinstance(error, HangtagError):
        return str(error)
    if isinstance(error, BaseException):
        return f"{type(error).__name__}: {error}"
    return str(error)


class ErrorPanel(QWidget):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("error_panel")
        # elided: a recipe on a long share path made a plain label ask for 1689 px and widened the window past
        # a 1280-px screen; the whole title is its tooltip and the message below wraps
        self.title = ElidedLabel(mode=Qt.TextElideMode.ElideMiddle, min_chars=20)
        self.title.setStyleSheet(alarm_style())
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.dismiss = QPushButton("Dismiss")
        self.dismiss.clicked.connect(self.clear)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.dismiss)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.setSpacing(2)
        layout.addLayout(top)
        layout.addWidget(self.text, 1)
        self.setFixedHeight(PANEL_HEIGHT)
        self.setStyleSheet("#error_panel { border: 2px solid #d93025; border-radius: 4px; }")
        self.kind = ""  # the newest error's kind
        self._errors: dict[str, tuple[str, str]] = {}  # kind -> (title, text), oldest first
        self.setVisible(False)

    def show_error(self, kind: str, title: str, error: BaseException | str) -> None:
        """`kind` is "recipe", "source", "engine" or "remote": a later success of that kind clears it
        (`clear_kind`). An error of another kind still standing stays below the newest one: a bad recipe and
        a missing folder at start-up are both said."""
        self._errors.pop(kind, None)
        self._errors[kind] = (title, error_text(error))
        self._render()

    def clear_kind(self, kind: str) -> None:
        if self._errors.pop(kind, None) is not None:
            self._render()

    def clear(self) -> None:
        self._errors.clear()
        self._render()

    def _render(self) -> None:
        if not self._errors:
            self.kind = ""
            self.title.clear()
            self.text.clear()
            self.setVisible(False)
            return
        newest_first = list(self._errors.items())[::-1]
        self.kind, (title, text) = newest_first[0]
        more = len(newest_first) - 1
        self.title.setText(f"⚠ {title}" + (f"  (+{more} more below)" if more else ""))
        self.text.setPlainText("\n\n".join([text] + [f"⚠ {t}\n{body}" for _, (t, body) in newest_first[1:]]))
        self.setVisible(True)
