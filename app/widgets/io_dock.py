"""The "I/O" dock: the line handshake live — each signal as a lamp, the transports' connection state,
missed triggers and late acks, and a timeline of trigger → busy → result → ack with timestamps.

It renders a LineStation (inference/line/station.py) and keeps no copy of its state: a 20 Hz timer on
the GUI thread reads the station's immutable snapshot, so no worker thread ever touches a widget and
a burst of triggers costs one repaint per tick, not one per event."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFont, QTextCursor
from PySide6.QtWidgets import QFormLayout, QGridLayout, QHBoxLayout, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from app.theme import PLAIN_TEXT, alarm_style
from app.widgets.elided_label import ElidedLabel
from inference.line.handshake import Signals
from inference.line.station import LineStation

LAMPS = (("ready", "Ready", "#1e8e3e"), ("busy", "Busy", "#f9ab00"), ("results_ready", "Results", "#1a73e8"),
         ("ok", "OK", "#1e8e3e"), ("ng", "NG", "#d93025"), ("review", "REVIEW", "#f9ab00"),
         ("error", "Error", "#d93025"), ("heartbeat", "Heartbeat", "#5f6368"))
OFF = "#dadce0"
FIELDS = ("state", "code", "trigger", "result", "queue", "results", "missed", "late", "job", "lot")
WIDE_FIELDS = ("job", "lot")


class IoDock(QWidget):
    def __init__(self, station: LineStation, parent=None, refresh_hz: float = 20.0) -> None:
        super().__init__(parent)
        self.station = station
        self._seen = 0
        self._last: Signals | None = None
        layout = QVBoxLayout(self)
        lamps = QGridLayout()
        self.lamps: dict[str, QLabel] = {}
        for n, (key, text, _color) in enumerate(LAMPS):
            lamp = QLabel(text)
            lamp.setObjectName(f"io_lamp_{key}")
            lamp.setMinimumWidth(lamp.fontMetrics().horizontalAdvance("Heartbeat") + 12)
            lamps.addWidget(lamp, n // 4, n % 4)
            self.lamps[key] = lamp
        layout.addLayout(lamps)
        # two columns of counters, then the long ones full width: the timeline keeps the dock's height at 720 px
        columns, wide = QHBoxLayout(), QFormLayout()
        forms = (QFormLayout(), QFormLayout())
        for form in forms:
            columns.addLayout(form, 1)
        self.fields: dict[str, QLabel] = {}
        for n, key in enumerate(FIELDS):
            # a job's recipe name or a PLC's lot can be long: elided (whole in the tooltip), never widening the dock
            label = ElidedLabel("—", mode=Qt.TextElideMode.ElideRight) if key in WIDE_FIELDS else QLabel("—")
            label.setObjectName(f"io_{key}")
            target = wide if key in WIDE_FIELDS else forms[n % 2]
            target.addRow(_FIELD_TITLES[key], label)
            self.fields[key] = label
        self.links = QLabel("no transport")
        self.links.setObjectName("io_links")
        self.links.setWordWrap(True)
        wide.addRow("Connections", self.links)
        layout.addLayout(columns)
        layout.addLayout(wide)
        self.timeline = QPlainTextEdit()
        self.timeline.setObjectName("io_timeline")
        self.timeline.setReadOnly(True)
        self.timeline.setMaximumBlockCount(500)
        self.timeline.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)  # one event, one line
        self.timeline.setFont(QFont("monospace"))
        layout.addWidget(self.timeline, 1)
        self._timer = QTimer(self)
        self._timer.setInterval(int(1000 / refresh_hz))
        self._timer.timeout.connect(self._on_tick)
        self._timer.start()
        self._on_tick()

    def _on_tick(self) -> None:
        sig = self.station.signals()
        if sig != self._last:
            self._show_signals(sig)
            self._last = sig
        links = dict(self.station.links)
        text = "\n".join(f"{name}: {state}" for name, state in sorted(links.items())) or "no transport"
        if text != self.links.text():
            self.links.setText(text)
        self._append_events()

    def _show_signals(self, sig: Signals) -> None:
        for key, _text, color in LAMPS:
            lit = bool(getattr(sig, key))
            self.lamps[key].setStyleSheet(f"background:{color if lit else OFF}; color:{'white' if lit else '#5f6368'};"
                                          "border-radius:3px; padding:2px 6px; font-weight:bold;")
        values = {
            "state": sig.state.value, "code": f"{int(sig.code)} {sig.code.name}" if int(sig.code) else "0",
            "trigger": str(sig.trigger_id),
            "result": f"{sig.result_trigger_id} {sig.verdict.name}" if sig.results_ready else "—",
            "queue": str(sig.queue_length), "job": f"{sig.job_index} {sig.job_name}".strip(), "lot": sig.lot or "—",
            "results": str(sig.result_counter), "missed": str(sig.missed_triggers), "late": str(sig.late_acks),
        }
        for key, value in values.items():
            self.fields[key].setText(value)
        alarm = alarm_style()  # the banner's #d93025 as text was 2.9:1 on the dark window
        self.fields["missed"].setStyleSheet(alarm if sig.missed_triggers else PLAIN_TEXT)
        self.fields["late"].setStyleSheet(alarm if sig.late_acks else PLAIN_TEXT)

    def _append_events(self) -> None:
        total = self.station.events_total
        new = total - self._seen
        if new <= 0:
            return
        entries = list(self.station.log)[-min(new, len(self.station.log)):]
        self._seen = total
        lines = []
        for e in entries:
            stamp = time.strftime("%H:%M:%S", time.localtime(e.wall)) + f".{int(e.wall * 1000) % 1000:03d}"
            code = f" code {e.code}" if e.code else ""
            lines.append(f"{stamp} {e.event:<15} → {e.state:<15} #{e.trigger_id}{code} {e.detail}".rstrip())
        self.timeline.appendPlainText("\n".join(lines))
        # the cursor at the newest line's start: shown from its time stamp, now and when a dock filled while
        # hidden is first shown (Qt then scrolls to the cursor, which appending leaves at the line's end)
        cursor = self.timeline.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.movePosition(QTextCursor.MoveOperation.StartOfBlock)
        self.timeline.setTextCursor(cursor)


_FIELD_TITLES = {"state": "State", "code": "Code", "trigger": "Trigger id", "result": "Result", "queue": "Queue",
                 "job": "Job", "lot": "Lot", "results": "Results", "missed": "Missed triggers", "late": "Late acks"}
