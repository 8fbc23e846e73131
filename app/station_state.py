"""The station's state, once: source, recipe, job, lot, engine, mode and run state.

Qt-free on purpose (napari's models): every widget that shows a piece of this state renders it from
here, through `connect`, and keeps no copy of its own, so the header, the source bar and the verdict
banner cannot disagree. A failed source is a state ("failed"), not a status-bar message: Start is
off and the banner says NO SOURCE until another source opens.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace

NONE, OPEN, FAILED = "none", "open", "failed"  # source status
STOPPED, RUNNING, ERROR = "stopped", "running", "error"  # run state


@dataclass(frozen=True)
class StationState:
    source: str = ""  # the spec of the source the worker holds (or failed to open)
    source_status: str = NONE
    source_message: str = ""  # why the source failed, in full (expected / found / hint)
    recipe: str = ""  # the recipe's name ("" = none loaded)
    recipe_path: str = ""
    job: str = ""
    lot: str = ""
    engine: str = ""  # "onnxruntime-cpu · FP32"; "" while none is loaded
    engine_problem: str = ""  # why no engine could be loaded; "" while one loads or is in use
    mode: str = "engineer"
    run: str = STOPPED

    @property
    def can_start(self) -> bool:
        return self.source_status == OPEN and bool(self.engine) and self.run != RUNNING


Listener = Callable[[StationState, frozenset], None]


class StationModel:
    """Holds one immutable StationState; `update` replaces it and tells every listener which fields changed."""

    def __init__(self, state: StationState | None = None) -> None:
        self.state = state or StationState()
        self._listeners: list[Listener] = []

    def connect(self, listener: Listener) -> None:
        """`listener(state, changed_field_names)`; called once at once so a new view starts in step."""
        self._listeners.append(listener)
        listener(self.state, frozenset(f.name for f in fields(StationState)))

    def update(self, **changes: object) -> StationState:
        unknown = set(changes) - {f.name for f in fields(StationState)}
        if unknown:
            raise TypeError(f"StationState has no field(s) {sorted(unknown)}")
        new = replace(self.state, **changes)
        changed = frozenset(k for k in changes if getattr(new, k) != getattr(self.state, k))
        if changed:
            self.state = new
            for listener in list(self._listeners):
                listener(new, changed)
        return self.state
