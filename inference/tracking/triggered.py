"""Triggered mode: the line says when an item is in place (a key, a watched folder, a PLC, the camera's own
trigger input); one frame per item, one verdict per trigger, carrying the trigger's id.

The frame is judged whole (counts included: one item, one frame), read on the caller's thread, since the
line waits for this answer before the next trigger. `verdict_of_frame` makes the same TagVerdict from a frame
the station already inspected (the window's triggered camera, a PLC's trigger answered by the next frame), so a
trigger's journal row is built the same way whoever inspected its frame, and the same way as a tracked tag's.
"""

from __future__ import annotations

import time
from typing import Any, Callable

import numpy as np

from inference.detections import Detections
from inference.reading.verdict import FrameVerdict, Verdict, judge
from inference.tracking.line import NoRecipeError, tag_focus
from inference.tracking.records import TagVerdict
from inference.tracking.station import TRACKED

NOT_INSPECTED = "the trigger's frame could not be inspected"
NOT_JUDGED = "no recipe judged the trigger's frame"
ONLY_TRACKED = "the trigger's frame was only tracked (one verdict per tag): its tags are judged when they leave"


class TriggeredInspector:
    def __init__(self, detect: Callable[[np.ndarray], Detections] | None, reader: Any, recipe: Any) -> None:
        if recipe is None:
            raise NoRecipeError("triggered inspection needs a job's recipe", expected="a recipe (--recipe JOB.toml)",
                                found="none", hint="teach or load the job's recipe, then start the line")
        self.detect, self.reader, self.recipe = detect, reader, recipe
        self.count = 0

    @classmethod
    def around(cls, inspector: Any) -> TriggeredInspector:
        pipeline = inspector.pipeline
        return cls(lambda image: pipeline.process(image).detections, inspector.reader, inspector.recipe)

    def inspect(self, trigger_id: Any, image: np.ndarray, detections: Detections | None = None) -> TagVerdict:
        """The one verdict of the item this trigger asked about."""
        start = time.perf_counter()
        detections = self.detect(image) if detections is None else detections
        self.count += 1
        try:
            readings = tuple(self.reader.read(image, detections, recipe=self.recipe))
            verdict = judge(self.recipe, detections, readings)
        except Exception as exc:  # a reader fault is doubt about this item, not the end of the line
            readings = ()
            verdict = FrameVerdict(Verdict.REVIEW, (f"reading failed: {type(exc).__name__}: {exc}",))
        return trigger_verdict(trigger_id, self.count, image, detections, readings, verdict,
                               latency_s=time.perf_counter() - start)


def trigger_verdict(trigger_id: Any, tag_id: int, image: np.ndarray | None, detections: Detections,
                    readings: tuple, verdict: FrameVerdict, *, latency_s: float) -> TagVerdict:
    """One triggered item as a tag: its frame's verdict, the first hangtag's box, read and crop (what the journal
    archives). The item's frame number is its tag id (one frame per item)."""
    tags = [i for i, label in enumerate(detections.labels) if label == "hangtag"]
    whole = (0.0, 0.0, float(image.shape[1]), float(image.shape[0])) if image is not None else (0.0, 0.0, 0.0, 0.0)
    box = tuple(float(v) for v in detections.xyxy[tags[0]]) if tags else whole
    seen = bool(tags) and image is not None and image.size > 0
    focus = tag_focus(image, box, []) if seen else None
    read = next((r for r in readings if getattr(r, "is_tag", False)), None)
    x1, y1, x2, y2 = (int(v) for v in box)
    # no hangtag seen: the whole frame is the item's evidence (an NG "no hangtag" item had no image in History or
    # the report, which then blamed the archive)
    crop = image[max(0, y1):max(0, y2), max(0, x1):max(0, x2)].copy() if seen else \
        (image.copy() if image is not None and image.size else None)
    return TagVerdict(tag_id, verdict.verdict, tuple(verdict.reasons), 1, tag_id, tag_id, box,
                      tag_id if seen else None, focus, len(readings), latency_s, trigger_id, read, crop=crop,
                      read_frame=tag_id if seen else None, read_box=box if seen else None, checks=tuple(verdict.checks))


def verdict_of_frame(result: Any, image: np.ndarray | None, trigger_id: Any) -> TagVerdict:
    """A frame the station inspected (an `inference.pipeline.FrameResult`) that answered a trigger, as that
    item's one verdict. A frame that could not be inspected, or that no recipe judged, is a REVIEW row saying
    so: the item passed the station, and someone has to look at it."""
    tag_id = int(getattr(result, "index", 0) or 0)
    latency_s = float(getattr(getattr(result, "timings", None), "total_ms", 0.0) or 0.0) / 1000
    if not getattr(result, "ok", True):
        first = (result.error or "").splitlines()[0] if result.error else "unknown error"
        verdict = FrameVerdict(Verdict.REVIEW, (f"{NOT_INSPECTED}: {first}",))
        return trigger_verdict(trigger_id, tag_id, None, result.detections, (), verdict, latency_s=latency_s)
    if isinstance(result.verdict, FrameVerdict):
        verdict = result.verdict
    else:
        verdict = FrameVerdict(Verdict.REVIEW, (ONLY_TRACKED if result.verdict == TRACKED else NOT_JUDGED,))
    image = image if image is not None and image.size else None
    return trigger_verdict(trigger_id, tag_id, image, result.detections, tuple(result.readings), verdict,
                           latency_s=latency_s)
