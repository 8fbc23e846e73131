"""The Servers dock: the Triton servers the station's engines use, as they stand now, with the server-side
times per request (queue, compute) from Triton's statistics, where reading runs, and the fleet's recent
events. It renders FleetStatus values it is handed and keeps no state of its own."""

from __future__ import annotations

import time

from PySide6.QtWidgets import QHeaderView, QLabel, QPlainTextEdit, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from app.theme import PLAIN_TEXT, alarm_style
from app.words import counted
from inference.engines.triton.status import LOCAL, FleetStatus, host_port

# The served model and the server-side times first: with reading on the fleet one server has three rows
# (detector, ocr_det, ocr_rec), and a 1280-px screen shows about five columns of the dock.
COLUMNS = ("Model", "Server", "State", "Queue ms", "Compute ms", "Round trip ms", "Answered", "In flight",
           "Last error")
MAX_EVENTS = 50


def _ms(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"


def answered_by(status: FleetStatus) -> str:
    if status.last_server == LOCAL:
        return "this station's own engine (fallback)"
    return host_port(status.last_server) if status.last_server else "no frame yet"


class FleetPanel(QWidget):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("fleet_panel")
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.reading = QLabel()
        self.reading.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.events = QPlainTextEdit()
        self.events.setReadOnly(True)
        self.events.setMaximumBlockCount(MAX_EVENTS)
        self.events.setPlaceholderText("No server events since the engine opened")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.setSpacing(4)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 3)
        layout.addWidget(self.reading)
        layout.addWidget(QLabel("Events"))
        layout.addWidget(self.events, 2)

    def render(self, statuses: list[FleetStatus], reading: str) -> None:
        """`statuses`: the detector's fleet first, then the OCR models' where reading runs on Triton."""
        detector = statuses[0]
        up, total = detector.up, len(detector.servers)
        fallback = "falls back to its own engine" if detector.fallback else "has no local fallback"
        self.summary.setText(f"Detector {detector.model} on Triton: {up} of {counted(total, 'server')} up; last frame "
                             f"answered by {answered_by(detector)}; {counted(detector.busy_answers, 'busy answer')} (queue "
                             f"full), {detector.retries} retried; the station {fallback}. Queue and compute are "
                             "per request, from the server's statistics.")
        self.summary.setStyleSheet(alarm_style() if detector.all_down else PLAIN_TEXT)
        rows = [(status.model, server) for status in statuses for server in status.servers]
        self.table.setRowCount(len(rows))
        for row, (model, server) in enumerate(rows):
            values = (model, host_port(server.url), server.state, _ms(server.queue_ms), _ms(server.compute_ms),
                      _ms(server.round_trip_ms if server.requests else None), str(server.requests),
                      str(server.in_flight), server.last_error)
            for column, value in enumerate(values):
                item = self.table.item(row, column)
                if item is None:
                    item = QTableWidgetItem()
                    self.table.setItem(row, column, item)
                if item.text() != value:
                    item.setText(value)
                if column == len(values) - 1:
                    item.setToolTip(value)
        self.reading.setText(reading)

    def add_event(self, at: float, text: str) -> None:
        self.events.appendPlainText(f"{time.strftime('%H:%M:%S', time.localtime(at))}  {text}")
