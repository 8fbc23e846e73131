"""The verdict banner: OK / NG / REVIEW, big enough to read from the line, with the reasons."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from app.theme import VERDICT_COLORS


MAX_REASONS = 4


class VerdictBanner(QWidget):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setAutoFillBackground(True)
        self.verdict = QLabel("—")
        self.verdict.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.reasons = QLabel("Waiting for the first tag")
        self.reasons.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.reasons.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        layout.addWidget(self.verdict)
        layout.addWidget(self.reasons)
        self.set_large(False)
        self.show_verdict("—", [])

    def set_large(self, large: bool) -> None:
        self.verdict.setStyleSheet(f"font-size: {72 if large else 30}px; font-weight: bold; color: white;")
        self.reasons.setStyleSheet(f"font-size: {20 if large else 13}px; color: white;")

    def show_verdict(self, verdict: str, reasons: list[str]) -> None:
        if verdict != self.verdict.text() or not self.styleSheet():  # re-styling is costly: only on change
            color = VERDICT_COLORS.get(verdict, "#5f6368")
            self.setStyleSheet(f"background-color: {color}; border-radius: 6px;")
        self.verdict.setText(verdict)
        shown = list(reasons[:MAX_REASONS])
        if len(reasons) > MAX_REASONS:  # the banner must stay readable from the line; the rest is in Tag text
            shown.append(f"and {len(reasons) - MAX_REASONS} more (see Tag text)")
        self.reasons.setText("; ".join(shown) if shown else ("all checks passed" if verdict == "OK" else ""))
