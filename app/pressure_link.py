"""The window's side of GPU memory pressure (inference/gpu/degrade.py): a change of the detector's variant is
journaled, shown in the error banner while the station runs degraded (cleared when it is back to normal),
and said in the status bar. A 2 Hz timer on the UI thread reads the guard's new events (copies taken under
its lock); the inspection thread is never waited on."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer

from inference.errors import HangtagError
from inference.gpu.degrade import journal_pressure, pressure_guard

POLL_MS = 500
KIND = "gpu_memory"


class PressureLink(QObject):
    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.guard = None
        self.timer = QTimer(self)
        self.timer.setInterval(POLL_MS)
        self.timer.timeout.connect(self.poll)

    def attach(self, inspector) -> None:
        self.guard = pressure_guard(inspector)
        self.window.errors_panel.clear_kind(KIND)
        if self.guard is None:
            self.timer.stop()
            return
        self.timer.start()

    def poll(self) -> None:
        if self.guard is None:
            return
        events = self.guard.new_events()
        if not events:
            return
        try:
            journal_pressure(self.window.records.recorder, events)
        except HangtagError as exc:  # an offline journal: the operator is told, the station goes on
            self.window._on_error(f"JOURNAL: GPU memory events were NOT recorded: {exc}")
        last = events[-1]
        if last.after.value == 0:
            self.window.errors_panel.clear_kind(KIND)
        else:
            self.window.errors_panel.show_error(KIND, "GPU memory nearly full: the detector runs degraded",
                                                "\n".join(e.text for e in events))
        self.window.statusBar().showMessage(("⚠ " if last.degraded else "") + last.text, 15000)
