"""What the operator's view of the line shows, as plain state: the last finished tag, the last N tags, and the
tags still waiting for someone to acknowledge them. Qt-free; the window's widgets render it.

A tag whose verdict is held (NG by default; NG and REVIEW, or none, as the station is set) stays "held" until
`acknowledge` names it (or all): a reject the operator never saw is a defect shipped, and a REVIEW tag nobody
checked by hand is one shipped unchecked. Tags keep coming while one is held; the strip goes on filling.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from inference.reading.types import FIELD_LABELS_ZH


@dataclass(frozen=True)
class RecentTag:
    """One finished tag as the operator sees it: its id, verdict and first reason."""

    tag_id: int
    verdict: str  # "OK", "NG", "REVIEW"
    reason: str
    trigger_id: Any = None
    missed: bool = False  # the tag passed unread (a REVIEW row the line could not read)
    reasons: tuple[str, ...] = ()
    fields: tuple[tuple[str, str], ...] = ()  # (label, value) as read, in the recipe's language (货号, 尺码…)
    frame: int | None = None  # the frame the verdict rests on (its read), None when never read
    reads: int = 0
    finished_at: float = field(default_factory=time.time)
    crop: np.ndarray | None = field(default=None, repr=False, compare=False)  # the tag as read (BGR)
    # the read the verdict rests on (an inference.reading TagReading) and its checks: the Tag text shows them
    reading: Any = field(default=None, repr=False, compare=False)
    line: Any = field(default=None, compare=False)  # the line (tracker) whose id it is: ids restart with each line
    job: Any = field(default=None, compare=False)  # the job (recipe) it was judged under: a new one empties the strip
    session_id: int | None = field(default=None, compare=False)  # the journal session its row went into
    checks: tuple[Any, ...] = field(default=(), repr=False, compare=False)

    @property
    def label(self) -> str:
        return f"#{self.tag_id}" if self.trigger_id is None else f"T{self.trigger_id}"

    @classmethod
    def of(cls, verdict: Any) -> RecentTag:
        """From an `inference.tracking.TagVerdict`."""
        value = getattr(verdict.verdict, "value", verdict.verdict)
        reading = getattr(verdict, "reading", None)
        fields = tuple((FIELD_LABELS_ZH.get(name, name), f.value) for name, f in
                       (reading.fields.items() if reading is not None else ()) if f.value)
        missed = bool(getattr(verdict, "unread", False)) and verdict.trigger_id is None  # as the journal says it:
        # a triggered item is judged from its frame, read or not; only a tracked tag can pass the camera unread
        return cls(int(verdict.track_id), str(value), verdict.reasons[0] if verdict.reasons else "",
                   verdict.trigger_id, missed, tuple(verdict.reasons), fields,
                   getattr(verdict, "read_frame", None), int(getattr(verdict, "reads", 0)),
                   crop=getattr(verdict, "crop", None), reading=reading, checks=tuple(getattr(verdict, "checks", ())))


# What the station can hold on screen until acknowledged, by the setting's value (line/hold)
HOLD_CHOICES: dict[str, tuple[str, ...]] = {"NG": ("NG",), "NG+REVIEW": ("NG", "REVIEW"), "off": ()}
DEFAULT_HOLD = "NG"


def hold_choice(value: str, legacy_hold_ng: str = "") -> str:
    """The hold setting as stored: an unknown value is the default; before the setting existed the station kept
    only an NG on/off switch (line/hold_ng "1"/"0"), which stays the operator's choice."""
    if value in HOLD_CHOICES:
        return value
    if legacy_hold_ng == "0":
        return "off"
    return DEFAULT_HOLD


class RecentTags:
    """Not thread-safe: fed and read on the window's thread. `changed` listeners are called after every change."""

    def __init__(self, size: int = 12, *, hold: Iterable[str] = HOLD_CHOICES[DEFAULT_HOLD]) -> None:
        if size < 1:
            raise ValueError(f"the strip shows at least one tag, got {size}")
        self.size = size
        self.hold = frozenset(hold)
        self._tags: deque[RecentTag] = deque(maxlen=size)
        self._held: list[RecentTag] = []
        self.counts = {"OK": 0, "NG": 0, "REVIEW": 0}
        self._listeners: list[Callable[[], None]] = []
        self._acknowledged: list[Callable[[tuple[RecentTag, ...]], None]] = []

    def on_change(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def on_acknowledged(self, listener: Callable[[tuple[RecentTag, ...]], None]) -> None:
        """`listener(released)`: the NG tags an acknowledgement released (the journal keeps who saw what, when)."""
        self._acknowledged.append(listener)

    @property
    def tags(self) -> tuple[RecentTag, ...]:
        """Newest last."""
        return tuple(self._tags)

    @property
    def last(self) -> RecentTag | None:
        return self._tags[-1] if self._tags else None

    @property
    def held(self) -> tuple[RecentTag, ...]:
        """Tags waiting for an acknowledgement, oldest first."""
        return tuple(self._held)

    def add(self, tag: RecentTag) -> None:
        self._tags.append(tag)
        self.counts[tag.verdict] = self.counts.get(tag.verdict, 0) + 1
        if tag.verdict in self.hold:
            self._held.append(tag)
        self._changed()

    def acknowledge(self, tag_id: int | None = None) -> int:
        """The operator saw the held tag (`tag_id`), or every held one (None); returns how many were released."""
        released = tuple(t for t in self._held if tag_id is None or t.tag_id == tag_id)
        kept = {id(t) for t in released}
        self._held = [t for t in self._held if id(t) not in kept]
        if released:
            self._changed()
            for listener in self._acknowledged:
                listener(released)
        return len(released)

    def set_hold(self, hold: Iterable[str]) -> None:
        """Tags of a verdict no longer held are released (not acknowledged: nobody saw them); the others stay."""
        self.hold = frozenset(hold)
        kept = [t for t in self._held if t.verdict in self.hold]
        if len(kept) != len(self._held):
            self._held = kept
            self._changed()

    def clear(self) -> None:
        """A new job or an explicit Clear: the strip starts empty (held tags stay: they still need a look)."""
        self._tags.clear()
        self.counts = {"OK": 0, "NG": 0, "REVIEW": 0}
        self._changed()

    def _changed(self) -> None:
        for listener in self._listeners:
            listener()
