"""The verdict banner: OK / NG / REVIEW, big enough to read from the line, with the reasons.

Two states that are not verdicts are drawn so no one takes them for one: a what-if PREVIEW (tuning
thresholds before they are applied) is hatched and says so, and NO SOURCE / ERROR are red, not the
grey of "no recipe"."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics, QPainter
from PySide6.QtWidgets import QHBoxLayout, QLabel, QStyle, QStyleOption, QVBoxLayout, QWidget

from app.theme import VERDICT_COLORS


MAX_REASONS = 4
PREVIEW_TEXT = "PREVIEW at these thresholds — not a recorded verdict"


class VerdictBanner(QWidget):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("verdict_banner")
        self.preview_label = QLabel(PREVIEW_TEXT)
        self.preview_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.preview_label.setVisible(False)
        self.verdict = QLabel("—")
        self.verdict.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.reasons = QLabel("Waiting for the first tag")
        self.reasons.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.reasons.setWordWrap(True)
        # a word-wrapped label still asks for its longest word: an unreadable file's long name (camera software
        # names files by time, trigger and settings) widened the window past the screen; it is cut instead
        self.reasons.setMinimumWidth(1)
        # Verdict left, reasons right: one short band, so the live image keeps the height.
        row = QHBoxLayout()
        row.setSpacing(16)
        row.addWidget(self.verdict)
        row.addWidget(self.reasons, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 4, 10, 4)
        layout.setSpacing(2)
        layout.addWidget(self.preview_label)
        layout.addLayout(row)
        self.preview = False
        self._color = ""
        self._tag_shown = False
        self._shown: tuple | None = None  # what is on the banner, to say again in the other mode's words
        self.set_large(False)
        self.show_verdict("—", [])

    def set_large(self, large: bool) -> None:
        self.large = large
        self.verdict.setStyleSheet(f"font-size: {60 if large else 30}px; font-weight: bold; color: white;")
        self.verdict.setMinimumWidth(self._base_width)
        if self._tag_shown:
            self._fit_verdict()
        self.reasons.setStyleSheet(f"font-size: {18 if large else 13}px; color: white;")
        self.preview_label.setStyleSheet("font-size: 13px; font-weight: bold; color: black; background: #fdd663; "
                                         "border-radius: 3px;")
        if self._shown is not None:  # "(see Tag text)" is said only where the Tag text dock is shown
            self._render_reasons(*self._shown)

    def show_verdict(self, verdict: str, reasons: list[str], *, preview: bool = False) -> None:
        color = VERDICT_COLORS.get(verdict, "#5f6368")
        if color != self._color:  # re-styling is costly: only on change
            self._color = color
            self.setStyleSheet(f"#verdict_banner {{ background-color: {color}; border-radius: 6px; }}")
        if preview != self.preview:
            self.preview = preview
            self.preview_label.setVisible(preview)
            self.update()
        self.verdict.setText(verdict)
        if self._tag_shown:
            self._tag_shown = False
            self.verdict.setMinimumWidth(self._base_width)
        self._shown = (verdict, list(reasons))
        self._render_reasons(verdict, reasons)

    def _render_reasons(self, verdict: str, reasons: list[str]) -> None:
        shown = list(reasons[:MAX_REASONS])
        if len(reasons) > MAX_REASONS:  # the banner must stay readable from the line; the rest is in Tag text
            where = "" if self.large else " (see Tag text)"  # operator mode has no Tag text dock
            shown.append(f"and {len(reasons) - MAX_REASONS} more{where}")
        self.reasons.setText("; ".join(shown) if shown else ("all checks passed" if verdict == "OK" else ""))
        # every reason, where the banner leaves some out: operator mode has no Tag text to read the rest in
        self.reasons.setToolTip("\n".join(reasons) if len(reasons) > MAX_REASONS else "")

    def show_tag(self, label: str, verdict: str, reasons: list[str]) -> None:
        """The last tag the line finished: its verdict, and which tag it was (its id on the strip)."""
        self.show_verdict(verdict, reasons)
        self.verdict.setText(f"{verdict} {label}")
        self._tag_shown = True
        self._fit_verdict()

    def _fit_verdict(self) -> None:
        """Wide enough for the verdict at the style sheet's size: "REVIEW #123" must never be cut."""
        font = QFont(self.verdict.font())
        font.setPixelSize(60 if self.large else 30)
        font.setBold(True)
        needed = QFontMetrics(font).horizontalAdvance(self.verdict.text()) + 12
        self.verdict.setMinimumWidth(max(self._base_width, needed))

    @property
    def _base_width(self) -> int:
        return 300 if self.large else 150

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt naming
        option = QStyleOption()
        option.initFrom(self)
        painter = QPainter(self)
        self.style().drawPrimitive(QStyle.PrimitiveElement.PE_Widget, option, painter, self)
        if self.preview:  # hatched: a preview must not look like a verdict the station recorded
            painter.fillRect(self.rect(), QBrush(QColor(255, 255, 255, 90), Qt.BrushStyle.BDiagPattern))
