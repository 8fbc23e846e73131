"""Triggered mode: the line says when an item is in place (a key, a watched folder, a PLC, the camera's own
trigger input); one frame per trigger, one verdict per trigger, carrying the trigger's id.

The frame is judged whole (counts included: one item, one frame), read on the caller's thread, since the
line waits for this answer before the next trigger.
"""

from __future__ import annotations

import time
from typing import Any, Callable

import numpy as np

from inference.detections import Detections
from inference.reading.verdict import FrameVerdict, Verdict, judge
from inference.tracking.line import NoRecipeError, tag_focus
from inference.tracking.records import TagVerdict


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
        tags = [i for i, label in enumerate(detections.labels) if label == "hangtag"]
        box = tuple(float(v) for v in detections.xyxy[tags[0]]) if tags else (0.0, 0.0, float(image.shape[1]),
                                                                                float(image.shape[0]))
        focus = tag_focus(image, box, []) if tags else None
        read = next((r for r in readings if r.is_tag), None)
        x1, y1, x2, y2 = (int(v) for v in box)
        crop = image[max(0, y1):max(0, y2), max(0, x1):max(0, x2)].copy() if tags else None  # what the journal archives
        return TagVerdict(self.count, verdict.verdict, tuple(verdict.reasons), 1, self.count, self.count, box,
                          self.count if tags else None, focus, len(readings), time.perf_counter() - start,
                          trigger_id, read, crop=crop, read_frame=self.count if tags else None,
                          read_box=box if tags else None)
