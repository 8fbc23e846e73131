"""What the line knows about one tag (TagTrack) and its one final answer (TagVerdict): immutable, plain values."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from inference.reading.types import TagReading
from inference.reading.verdict import FrameVerdict, Verdict, judge_tag

Box = tuple[float, float, float, float]

UNREAD = "tag passed unread: never seen whole (the frame's edge cut it every time)"
UNREAD_BUSY = "tag passed unread: seen whole, but the reader was still busy with the tags before it"


def unread_because(cause: str) -> str:
    """A tag still in view when the run ended (`cause`: "the line was stopped") and never read."""
    return f"tag left unread: {cause} while it was in view"
# First the evidence that settles a tag, then doubt: a confident NG read is a defect seen; an OK read
# clears a tag whose other reads were unsure; REVIEW only when no read settled it.
_RANK = {Verdict.NG: 0, Verdict.OK: 1, Verdict.REVIEW: 2}


@dataclass(frozen=True)
class Read:
    """One read of a tag: which frame, how sharp, what the reader saw and what the recipe says of it."""

    frame: int
    focus: float
    reading: TagReading | None
    verdict: FrameVerdict
    crop: np.ndarray | None = field(default=None, repr=False, compare=False)  # the tag's box in that frame (BGR)
    box: Box | None = None  # the tag's box in that frame


@dataclass(frozen=True)
class TagTrack:
    """One tag as the line has followed it so far."""

    track_id: int
    frames_seen: int
    first_frame: int
    last_frame: int
    last_box: Box
    best_frame: int | None  # the sharpest frame where the tag was fully inside the view
    best_focus: float | None
    fully_inside: bool  # seen whole (not touching the frame's edge) at least once
    reads: tuple[Read, ...] = ()

    @property
    def settled(self) -> bool:
        return any(r.verdict.verdict is not Verdict.REVIEW for r in self.reads)


@dataclass(frozen=True)
class TagVerdict:
    """The one verdict of one physical tag (or of one trigger). `latency_s`: from the moment the line saw the
    tag gone to this verdict (reads still running are waited for); for a trigger, from frame to verdict."""

    track_id: int
    verdict: Verdict
    reasons: tuple[str, ...]
    frames_seen: int
    first_frame: int
    last_frame: int
    last_box: Box
    best_frame: int | None
    best_focus: float | None
    reads: int
    latency_s: float
    trigger_id: Any = None
    reading: TagReading | None = None  # the read the verdict rests on
    timed_out: bool = False  # still in view when its time ran out
    crop: np.ndarray | None = field(default=None, repr=False, compare=False)  # the best read's tag crop, to archive
    read_frame: int | None = None  # the frame of the read the verdict rests on (what the verdict is about)
    read_box: Box | None = None
    checks: tuple[Any, ...] = ()  # that read's checks (expected vs read per field): what History shows of the tag

    @property
    def unread(self) -> bool:
        return self.reads == 0

    def to_record(self) -> dict:
        """Plain dict for JSON lines, journals and reports."""
        return {
            "track_id": self.track_id, "trigger_id": self.trigger_id, "verdict": self.verdict.value,
            "reasons": list(self.reasons), "frames_seen": self.frames_seen, "first_frame": self.first_frame,
            "last_frame": self.last_frame, "last_box": [round(v, 1) for v in self.last_box],
            "best_frame": self.best_frame,
            "best_focus": None if self.best_focus is None else round(self.best_focus, 1), "reads": self.reads,
            "latency_s": round(self.latency_s, 4), "timed_out": self.timed_out, "read_frame": self.read_frame,
            "read_box": None if self.read_box is None else [round(v, 1) for v in self.read_box],
        }


def best_evidence(reads: Sequence[Read]) -> Read | None:
    """The read a tag's verdict rests on: NG needs an NG read, OK beats REVIEW only where an OK read exists;
    among equals the sharpest, then the earliest."""
    if not reads:
        return None
    return min(reads, key=lambda r: (_RANK[r.verdict.verdict], -r.focus, r.frame))


def judge_read(recipe: Any, reading: TagReading) -> FrameVerdict:
    """One read of one tag against the job; a box the reader found no tag in is doubt, never OK."""
    if reading.rejected:
        return FrameVerdict(Verdict.REVIEW, (f"not read as a hangtag: {reading.rejected}",))
    return judge_tag(recipe, reading)


def verdict_of(track: TagTrack, *, latency_s: float, trigger_id: Any = None, timed_out: bool = False) -> TagVerdict:
    best = best_evidence(track.reads)
    if best is None:
        verdict, reading, crop = Verdict.REVIEW, None, None
        reasons = (UNREAD_BUSY if track.fully_inside else UNREAD,)
    else:
        verdict, reasons, reading, crop = best.verdict.verdict, tuple(best.verdict.reasons), best.reading, best.crop
    if timed_out:
        reasons = reasons + ("still in view when its time ran out",)
    return TagVerdict(track.track_id, verdict, reasons, track.frames_seen, track.first_frame, track.last_frame,
                      track.last_box, track.best_frame, track.best_focus, len(track.reads), latency_s, trigger_id,
                      reading, timed_out, crop, best.frame if best else None, best.box if best else None,
                      tuple(best.verdict.checks) if best else ())
