"""The window's link to a remote engine (the triton backend): which server answers, in the header; the
servers with their queue and compute times, in the Servers dock; a server that fails, none answering
and the fall-back to the station's own engine, in the journal and the error banner.

A 2 Hz timer on the UI thread reads the engines' status and new events (FleetWatch: copies taken under
the pool's lock); the inspection thread is never waited on and nothing here talks to a server."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QDockWidget

from app.modes import ENGINEER
from app.station_state import StationState
from app.widgets.fleet_panel import FleetPanel
from inference.engines.triton.status import LOCAL, FleetStatus, host_port
from inference.engines.triton.watch import FleetEvent, FleetWatch, journal_events
from inference.errors import HangtagError

POLL_MS = 500


def engine_words(status: FleetStatus, precision: str) -> str:
    """The header's engine field: who answers now, short enough never to be elided."""
    head = f"Triton {precision.upper()}"
    if status.last_server == LOCAL:
        return f"{head}: local fallback"
    if status.all_down:
        return f"{head}: no server answers"
    url = status.last_server or next(s.url for s in status.servers if s.healthy)
    several = f" ({status.up}/{len(status.servers)} up)" if len(status.servers) > 1 else ""
    return f"{head} @ {host_port(url)}{several}"


def reading_words(statuses: list[FleetStatus], note: str, reading_on: bool) -> str:
    """Where the tags are read now: the OCR models' fleets (statuses[1:]) say who answered them last."""
    if not reading_on:
        return "Reading: off"
    ocr = statuses[1:]
    local = [s.model for s in ocr if s.on_local_engine]
    if local:  # the reader was opened on the fleet, but its own engine answers: say so, not "on Triton"
        return f"Reading on this station's own engine: no Triton server answers for {', '.join(local)}"
    if ocr:
        return f"Reading on Triton too ({', '.join(s.model for s in ocr)})"
    return f"Reading on this station: {note}" if note else "Reading on this station"


class RemoteLink(QObject):
    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.watch: FleetWatch | None = None
        self.reader_note = ""
        self.reading_on = False
        self.panel = FleetPanel()
        self.dock = QDockWidget("Servers", window)
        self.dock.setObjectName("dock_servers")
        self.dock.setWidget(self.panel)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        window.tabifyDockWidget(window.docks["plots"], self.dock)
        self.dock.setVisible(False)
        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self.poll)
        self._mode = ENGINEER
        window.state.connect(self._on_state)

    def attach(self, inspector) -> None:
        """Follow a new inspector's remote engines (none: the dock goes away and the banner is cleared)."""
        self.watch = FleetWatch.of(inspector)
        self.reader_note = getattr(inspector, "reader_note", "")
        self.reading_on = getattr(inspector, "reader", None) is not None
        self.window.errors_panel.clear_kind("remote")
        self.panel.events.clear()
        self._show_dock()
        if self.watch is None:
            self.timer.stop()
            return
        self.timer.start()
        self.poll()

    def poll(self) -> None:
        if self.watch is None:
            return
        events = self.watch.new_events()
        if events:
            self._journal(events)
            self._announce(events)
        statuses = self.watch.statuses()
        self.panel.render(statuses, reading_words(statuses, self.reader_note, self.reading_on))
        if self.window.pipeline is not None and self.window.pipeline.backend == "triton":
            self.window.state.update(engine=engine_words(statuses[0], self.window.precision))

    def _journal(self, events: list[FleetEvent]) -> None:
        try:
            journal_events(self.window.records.recorder, events)
        except HangtagError as exc:  # an offline journal: the operator is told, the station goes on
            self.window._on_error(f"JOURNAL: server events were NOT recorded: {exc}")

    def _announce(self, events: list[FleetEvent]) -> None:
        for found in events:
            self.panel.add_event(found.event.at, found.text)
        alarms = [f for f in events if f.alarming]
        if alarms:
            local = any(f.event.kind == "fallback_local" for f in alarms) or self.watch.status().fallback
            title = ("No Triton server answers: inspecting on this station's own engine" if local else
                     "No Triton server answers: frames cannot be inspected until one does")
            self.window.errors_panel.show_error("remote", title, "\n".join(f.text for f in events))
        elif any(f.event.kind == "server_back" for f in events) and not self.watch.status().all_down:
            self.window.errors_panel.clear_kind("remote")
        last = events[-1]
        self.window.statusBar().showMessage(("⚠ " if last.event.kind != "server_back" else "") + last.text, 15000)

    def _on_state(self, state: StationState, changed: frozenset) -> None:
        if "mode" in changed:
            self._mode = state.mode
            self._show_dock()

    def _show_dock(self) -> None:
        """An engineer's dock, there only while the engine is remote."""
        self.dock.setVisible(self.watch is not None and self._mode == ENGINEER)
