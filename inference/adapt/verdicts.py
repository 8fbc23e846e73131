"""The verdicts a candidate detector leads to, next to the model in use's, on a small sample of frames.

Box metrics alone once picked a detector that found more tags and fewer false ones yet turned good
frames NG: the reader reads inside the box it is given, and another extent gives another crop and
sometimes a confident misread. So the comparison runs the station's own reading and verdict with each
model. Reading costs seconds per tag on a small CPU, so only a capped sample is judged: the frames where
the two models' tag boxes differ most (a box that did not move cannot change a read), ties by name.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from inference.adapt.errors import FineTuneCancelled
from inference.adapt.scoring import iou_matrix

DEFAULT_CAP = 5  # frames judged per set unless the engineer asks for more


@dataclass(frozen=True)
class JudgedFrame:
    """One frame to judge: `recipe` None reads without judging; `good` when its tag is known to be right."""

    name: str
    image_bgr: np.ndarray
    recipe: object | None
    good: bool


@dataclass(frozen=True)
class Outcome:
    verdict: str  # OK, REVIEW, NG, ERROR, or "no recipe"
    reasons: tuple[str, ...]
    tag_boxes: np.ndarray  # (N, 4) at the station's confidence
    reads: tuple[dict[str, str], ...]  # per tag box, field -> value read
    seconds: float = 0.0  # detecting, reading and judging this frame


@dataclass(frozen=True)
class VerdictChange:
    frame: str
    current: str
    candidate: str
    good: bool
    tag_box: str  # how the candidate's tag box differs
    reads: tuple[str, ...]  # "size 'M' → 'N'"
    reasons: tuple[str, ...]  # the candidate's reasons

    @property
    def kind(self) -> str:
        return f"{self.current}→{self.candidate}"

    def describe(self) -> str:
        what = ", ".join(self.reads) if self.reads else "no field read differently"
        why = f"; {self.reasons[0]}" if self.reasons and self.candidate != "OK" else ""
        return f"{self.frame}: {self.kind} ({self.tag_box}; {what}{why})"


@dataclass(frozen=True)
class Tally:
    frames: int
    good: int
    counts: dict[str, int]  # verdict -> frames
    good_ok: int
    false_ng: int  # good frames judged NG

    def to_json(self) -> dict:
        return {"frames": self.frames, "good": self.good, "counts": self.counts, "good_ok": self.good_ok,
                "false_ng": self.false_ng}


@dataclass(frozen=True)
class VerdictSample:
    frames: tuple[str, ...]
    eligible: int  # frames that could have been judged
    current: Tally
    candidate: Tally
    changes: tuple[VerdictChange, ...]  # frames whose verdict or reads differ
    seconds: float = 0.0  # inspecting the sample with both models (loading them not counted)

    @property
    def verdict_changes(self) -> tuple[VerdictChange, ...]:
        return tuple(c for c in self.changes if c.current != c.candidate)

    @property
    def ok_to_ng(self) -> tuple[VerdictChange, ...]:
        return tuple(c for c in self.changes if c.current == "OK" and c.candidate == "NG")

    @property
    def sample_note(self) -> str:
        return f"{self.extent}: " + ", ".join(self.frames)

    @property
    def extent(self) -> str:
        rest = ""
        if len(self.frames) < self.eligible:
            # a read can flip when the box moves a pixel, so a flip may sit in any frame not judged
            per_frame = self.seconds / max(len(self.frames), 1)
            rest = f"; all {self.eligible} would take about {_duration(per_frame * self.eligible)} here"
        return f"{len(self.frames)} of {self.eligible} frames judged (those whose tag boxes differ most{rest})"

    def to_json(self) -> dict:
        return {"frames": list(self.frames), "eligible": self.eligible, "seconds": round(self.seconds, 1),
                "current": self.current.to_json(),
                "candidate": self.candidate.to_json(),
                "changes": [{"frame": c.frame, "current": c.current, "candidate": c.candidate, "good": c.good,
                             "tag_box": c.tag_box, "reads": list(c.reads), "reasons": list(c.reasons)}
                            for c in self.changes]}


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.0f} min"


def box_disagreement(a: np.ndarray, b: np.ndarray) -> float:
    """1 − the worst best-overlap between the two models' tag boxes (1.0 when only one model finds a tag)."""
    a, b = np.asarray(a, np.float64).reshape(-1, 4), np.asarray(b, np.float64).reshape(-1, 4)
    if len(a) == 0 and len(b) == 0:
        return 0.0
    if len(a) == 0 or len(b) == 0 or len(a) != len(b):
        return 1.0
    ious = iou_matrix(a, b)
    return float(1.0 - min(ious.max(axis=1).min(), ious.max(axis=0).min()))


def pick(frames: Sequence[JudgedFrame], disagreement: dict[str, float], cap: int) -> list[JudgedFrame]:
    ranked = sorted(frames, key=lambda f: (-disagreement.get(f.name, 0.0), f.name))
    return ranked if cap <= 0 else ranked[:cap]


def judge_all(model, frames: Sequence[JudgedFrame], backend: str | None, confidence: float,
              should_stop: Callable[[], bool] | None = None,
              progress: Callable[[int], None] | None = None) -> list[Outcome]:
    """Each frame through the station's detector, reader and verdict, as on the line."""
    from inference.inspection import Inspector
    from inference.postprocess import Thresholds

    out = []
    with Inspector.open(model, backend, read=True, thresholds=Thresholds(confidence=confidence)) as inspector:
        for f in frames:
            if should_stop is not None and should_stop():
                raise FineTuneCancelled("the comparison was stopped")
            inspector.recipe = f.recipe
            start = time.perf_counter()
            result = inspector.inspect_image(f.image_bgr, source_name=f.name)
            seconds = time.perf_counter() - start
            reasons = tuple(getattr(result.verdict, "reasons", ()) or ()) if result.ok else (result.error.splitlines()[0],)
            tags = result.detections.of_class("hangtag").xyxy if result.ok else np.zeros((0, 4))
            reads = tuple({k: v.value for k, v in r.fields.items()} for r in result.readings) if result.ok else ()
            boxes = np.array([r.xyxy for r in result.readings], np.float64).reshape(-1, 4) if result.ok else tags
            out.append(Outcome(Inspector.verdict_text(result), reasons, boxes if len(boxes) else tags, reads, seconds))
            if progress is not None:
                progress(1)
    return out


def tally(frames: Sequence[JudgedFrame], outcomes: Sequence[Outcome]) -> Tally:
    counts: dict[str, int] = {}
    for o in outcomes:
        counts[o.verdict] = counts.get(o.verdict, 0) + 1
    good = [o for f, o in zip(frames, outcomes) if f.good]
    return Tally(len(outcomes), len(good), counts, sum(o.verdict == "OK" for o in good),
                 sum(o.verdict == "NG" for o in good))


def _box_text(a: np.ndarray, b: np.ndarray) -> str:
    if len(a) == 0 and len(b) == 0:
        return "no tag box either way"
    if len(a) == 0 or len(b) == 0:
        return f"tag boxes {len(a)} → {len(b)}"
    ious = overlap_of_smaller(a, b)
    i, j = np.unravel_index(int(ious.argmax()), ious.shape)
    (x1, y1, x2, y2), (u1, v1, u2, v2) = a[i], b[j]
    dw, dh = (u2 - u1) - (x2 - x1), (v2 - v1) - (y2 - y1)
    edges = max(abs(u1 - x1), abs(v1 - y1), abs(u2 - x2), abs(v2 - y2))
    counts = "" if len(a) == len(b) else f"tag boxes {len(a)} → {len(b)}, "
    return (f"{counts}tag box {x2 - x1:.0f}×{y2 - y1:.0f} → {u2 - u1:.0f}×{v2 - v1:.0f} px "
            f"(Δw {int(round(float(dw))):+d}, Δh {int(round(float(dh))):+d}, an edge moved {int(round(float(edges)))} px)")


def overlap_of_smaller(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Intersection over the smaller box's area: a box cut to half the tag still pairs with the whole tag."""
    a, b = np.asarray(a, np.float64).reshape(-1, 4), np.asarray(b, np.float64).reshape(-1, 4)
    iw = np.clip(np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0]), 0, None)
    ih = np.clip(np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1]), 0, None)
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return iw * ih / np.maximum(np.minimum(area_a[:, None], area_b[None, :]), 1e-9)


def _read_changes(a: Outcome, b: Outcome) -> tuple[str, ...]:
    if not a.reads or not b.reads:
        return ()
    pairs = overlap_of_smaller(a.tag_boxes, b.tag_boxes)
    out = []
    for i, ra in enumerate(a.reads):
        if pairs.shape[1] == 0 or i >= pairs.shape[0] or pairs[i].max() < 0.5:
            continue
        rb = b.reads[int(pairs[i].argmax())]
        for name in sorted(set(ra) | set(rb)):
            va, vb = ra.get(name), rb.get(name)
            if va != vb:
                out.append(f"{name} {'not read' if va is None else repr(va)} → {'not read' if vb is None else repr(vb)}")
    return tuple(out)


def judge_sample(current, candidate, frames: Sequence[JudgedFrame], disagreement: dict[str, float], cap: int, *,
                 backend: str | None, confidence: float, should_stop: Callable[[], bool] | None = None,
                 progress: Callable[[int], None] | None = None) -> VerdictSample:
    chosen = pick(frames, disagreement, cap)
    a = judge_all(current, chosen, backend, confidence, should_stop, progress)
    b = judge_all(candidate, chosen, backend, confidence, should_stop, progress)
    changes = []
    for f, x, y in zip(chosen, a, b):
        reads = _read_changes(x, y)
        if x.verdict != y.verdict or reads:
            changes.append(VerdictChange(f.name, x.verdict, y.verdict, f.good, _box_text(x.tag_boxes, y.tag_boxes),
                                         reads, y.reasons))
    return VerdictSample(tuple(f.name for f in chosen), len(frames), tally(chosen, a), tally(chosen, b), tuple(changes),
                         sum(o.seconds for o in (*a, *b)))
