"""Following an inspector's Triton engines from outside the inspection thread: how the servers stand
(for a status view) and what happened since the last look (for the journal and the banner).

An inspector on the triton backend has up to three remote engines (the detector and, when the
fleet serves them, the OCR pair), each with its own pool; all three are followed, the detector's
is the one a status view shows first. Nothing here talks to a server.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inference.engines.triton.pool import PoolEvent
from inference.engines.triton.status import FleetStatus

JOURNAL_KINDS = {"server_down": "triton_server_down", "all_down": "triton_all_down",
                 "fallback_local": "triton_fallback_local", "server_back": "triton_server_back"}


@dataclass(frozen=True)
class FleetEvent:
    model: str  # the served model whose engine saw it
    event: PoolEvent

    @property
    def journal_kind(self) -> str:
        return JOURNAL_KINDS.get(self.event.kind, f"triton_{self.event.kind}")

    @property
    def alarming(self) -> bool:
        """No server answers: the operator must see it (a banner), not only the journal."""
        return self.event.kind in ("all_down", "fallback_local")

    @property
    def text(self) -> str:
        kind, url, detail = self.event.kind, self.event.url, self.event.detail
        if kind == "server_down":
            return f"Triton server {url} stopped answering ({self.model}): {detail}"
        if kind == "all_down":
            return f"No Triton server answers for {self.model}"
        if kind == "fallback_local":
            return f"{self.model} is inspected on this station's own engine: no Triton server answers"
        if kind == "server_back":
            return f"Triton server {url} answers again ({self.model})"
        return f"Triton {kind} {url} ({self.model}): {detail}"


def triton_engines(inspector: Any) -> list:
    """The inspector's engines on the triton backend: its detector, then the reader's OCR pair."""
    engines = [inspector.pipeline.engine]
    reader = getattr(inspector, "reader", None)
    for part in ("detector", "recognizer"):
        engines.append(getattr(getattr(reader, part, None), "engine", None))
    return [e for e in engines if getattr(e, "backend_name", "") == "triton" and hasattr(e, "status")]


class FleetWatch:
    """One per inspector; `new_events` keeps a cursor per engine, so each event is handed out once."""

    def __init__(self, engines: list) -> None:
        if not engines:
            raise ValueError("FleetWatch needs at least one triton engine")
        self.engines = engines
        self._seen = [0] * len(engines)

    @classmethod
    def of(cls, inspector: Any) -> FleetWatch | None:
        engines = triton_engines(inspector)
        return cls(engines) if engines else None

    def status(self) -> FleetStatus:
        """The detector's servers (the OCR pair's are in `statuses`)."""
        return self.engines[0].status()

    def statuses(self) -> list[FleetStatus]:
        return [engine.status() for engine in self.engines]

    @property
    def models(self) -> list[str]:
        return [engine.model_name for engine in self.engines]

    def new_events(self) -> list[FleetEvent]:
        found = []
        for i, engine in enumerate(self.engines):
            events, self._seen[i] = engine.events_after(self._seen[i])
            found += [FleetEvent(engine.model_name, e) for e in events]
        return sorted(found, key=lambda f: f.event.at)


def journal_events(recorder: Any, events: list[FleetEvent]) -> None:
    """Into the station's journal, under the session being recorded (if one is open)."""
    for found in events:
        recorder.note_event(found.journal_kind, found.event.url, found.text, at=found.event.at)
