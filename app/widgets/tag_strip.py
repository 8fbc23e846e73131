"""The line's last tags and its held tags: views of `inference.tracking.recent.RecentTags`.

TagStrip: one cell per finished tag, newest at the right, in its verdict's colour with its id, so the operator
sees the run of the line at a glance. HoldBar: while a held tag (NG, or NG and REVIEW, as set) waits for an
acknowledgement it stays on screen (its verdict's colour, its id, first reason and what to do, an Acknowledge
button); with the alarm on it flashes and beeps when it appears. Both keep no copy of the model's state: they
repaint from it when it changes.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QWidget

from app.theme import VERDICT_COLORS
from inference.tracking.recent import RecentTags

CELL_W, CELL_H, GAP = 64, 40, 4
MISSED_TEXT = "unread"
ACKNOWLEDGE_KEY = "A"  # the Line menu's Acknowledge held tags; the bar's button names it
# the hold bar's background (bright, dim while flashing) and its text: white on amber read at 2.2:1, dark at 9:1
HOLD_COLORS = {"NG": (VERDICT_COLORS["NG"], "#7a1a14"), "REVIEW": (VERDICT_COLORS["REVIEW"], "#8a5700")}
HOLD_TEXT = {"NG": "white", "REVIEW": "#202124"}


class TagStrip(QWidget):
    def __init__(self, model: RecentTags, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("tag_strip")
        self.model = model
        model.on_change(self._on_model_changed)
        self.setMinimumHeight(CELL_H + 8)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setToolTip("The last tags the line finished, newest at the right")

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt naming
        return QSize(self.model.size * (CELL_W + GAP), CELL_H + 8)

    def _on_model_changed(self) -> None:
        self.update()

    def cell_rects(self) -> list[QRectF]:
        """Where each shown tag is drawn (oldest first); as many of the newest as the width holds."""
        fits = max(1, int((self.width() - GAP) // (CELL_W + GAP)))
        shown = min(len(self.model.tags), fits)
        right = self.width() - GAP
        rects = [QRectF(right - (shown - i) * (CELL_W + GAP) + GAP, 4, CELL_W, CELL_H) for i in range(shown)]
        return rects

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt naming
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        tags = self.model.tags
        rects = self.cell_rects()
        label_font = QFont(self.font())
        label_font.setBold(True)
        small = QFont(self.font())
        small.setPointSizeF(max(7.0, self.font().pointSizeF() - 2))
        if not tags:
            painter.setPen(self.palette().color(self.foregroundRole()))
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "No tag finished yet")
            return
        for tag, rect in zip(tags[len(tags) - len(rects):], rects):
            color = QColor(VERDICT_COLORS.get(tag.verdict, "#5f6368"))
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(color)
            painter.drawRoundedRect(rect, 5, 5)
            if tag.missed:  # an unread tag: outlined, so it is not taken for a REVIEW the reader gave
                painter.setPen(QPen(QColor("white"), 2, Qt.PenStyle.DashLine))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRoundedRect(rect.adjusted(2, 2, -2, -2), 4, 4)
            painter.setPen(QColor("white"))
            painter.setFont(label_font)
            painter.drawText(rect.adjusted(0, 2, 0, -CELL_H / 2), Qt.AlignmentFlag.AlignCenter, tag.label)
            painter.setFont(small)
            text = MISSED_TEXT if tag.missed else tag.verdict
            painter.drawText(rect.adjusted(0, CELL_H / 2 - 2, 0, -2), Qt.AlignmentFlag.AlignCenter, text)


def held_text(held: tuple) -> str:
    """What the bar says of the tags held: the oldest, what to do with it, and how many more wait."""
    first = held[0]
    if first.verdict == "NG":
        said = f"NG tag {first.label}: {first.reason or 'rejected'} — take it off the line"
    else:
        why = "passed unread" if first.missed else (first.reason or "not judged")
        said = f"{first.verdict} tag {first.label}: {why} — check it by hand"
    more = len(held) - 1
    if more:
        said += f"  (+{more} more waiting)"
    return said


class HoldBar(QWidget):
    """Visible while held tags wait for an acknowledgement (NG, or also REVIEW, as the Line menu sets it).
    `alarm`: flash and beep when a new one arrives. Red while an NG waits, amber while only REVIEW tags do."""

    acknowledged = Signal(int)  # how many held tags the operator released

    def __init__(self, model: RecentTags, parent=None, *, alarm: bool = False) -> None:
        super().__init__(parent)
        self.setObjectName("ng_hold")
        self.model = model
        self.alarm = alarm
        self.alarms = 0  # alarms raised (the number the tests and the journal of a shift can check)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.button = QPushButton("Acknowledge")
        self.button.setToolTip("I have seen this tag and dealt with it (taken an NG off the line, checked a REVIEW)")
        self.button.clicked.connect(self._acknowledge)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 4, 10, 4)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.button)
        self._flash = QTimer(self)
        self._flash.setInterval(400)
        self._flash.timeout.connect(self._toggle)
        self._bright = True
        self._held_before = 0
        self._verdict = "NG"
        self._style(True)
        model.on_change(self._on_model_changed)
        self._on_model_changed()

    def _style(self, bright: bool) -> None:
        self._bright = bright
        color = HOLD_COLORS[self._verdict][0 if bright else 1]
        self.setStyleSheet(f"#ng_hold {{ background-color: {color}; border-radius: 6px; }}")
        self.text.setStyleSheet(f"color: {HOLD_TEXT[self._verdict]}; font-size: 16px; font-weight: bold;")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)

    def _toggle(self) -> None:
        self._style(not self._bright)

    def _on_model_changed(self) -> None:
        held = self.model.held
        self.setVisible(bool(held))
        if held:
            self._verdict = "NG" if any(t.verdict == "NG" for t in held) else "REVIEW"
            self._style(self._bright)
            self.text.setText(held_text(held))
            self.button.setText(("Acknowledge" if len(held) == 1 else f"Acknowledge all {len(held)}")
                                + f" ({ACKNOWLEDGE_KEY})")
        if len(held) > self._held_before and self.alarm:
            self.alarms += 1
            QApplication.beep()
            self._flash.start()
        if not held:
            self._flash.stop()
            self._style(True)
        self._held_before = len(held)

    def _acknowledge(self) -> None:
        self.acknowledged.emit(self.model.acknowledge())
