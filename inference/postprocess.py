"""Thresholds and the re-filter step: candidates → Detections, cheap enough to run on every slider move."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Callable, Mapping

import numpy as np

from inference.decode import Candidates
from inference.detections import Detections
from inference.errors import ConfigError
from inference.nms import nms

# Candidates are kept down to this score so thresholds can be lowered later without re-running the engine.
CANDIDATE_FLOOR = 0.01


@dataclass(frozen=True)
class Thresholds:
    confidence: float = 0.25
    iou: float = 0.45
    max_detections: int = 100
    class_confidence: Mapping[str, float] = field(default_factory=dict)  # per-class override
    disabled_classes: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        for name, value in [("confidence", self.confidence), ("iou", self.iou),
                            *[(f"confidence of {k}", v) for k, v in dict(self.class_confidence).items()]]:
            if not 0.0 <= float(value) <= 1.0:
                raise ConfigError(f"{name} threshold out of range", expected="0.0 … 1.0", found=str(value))
        if int(self.max_detections) < 1:
            raise ConfigError("max detections must be positive", expected="≥ 1", found=str(self.max_detections))
        object.__setattr__(self, "class_confidence", MappingProxyType(dict(self.class_confidence)))
        object.__setattr__(self, "disabled_classes", frozenset(self.disabled_classes))

    def with_(self, **changes: object) -> Thresholds:
        return replace(self, **changes)

    def confidence_for(self, class_name: str) -> float:
        return float(self.class_confidence.get(class_name, self.confidence))

    @property
    def floor(self) -> float:
        return min([self.confidence, *self.class_confidence.values()])

    def to_dict(self) -> dict:
        return {"confidence": self.confidence, "iou": self.iou, "max_detections": self.max_detections,
                "class_confidence": dict(self.class_confidence), "disabled_classes": sorted(self.disabled_classes)}


def select(candidates: Candidates, class_names: tuple[str, ...], thresholds: Thresholds, *,
           suppress: Callable[..., np.ndarray] = nms) -> Detections:
    """Per-class confidence, class enable, class-wise NMS and max detections. xyxy stays in candidate space.

    `suppress(xyxy, score, class_id, iou, max_detections) -> kept indices` is the NMS to use.
    """
    if len(candidates) == 0:
        return Detections.empty(class_names)
    names = [class_names[c] if 0 <= c < len(class_names) else f"class_{c}" for c in range(int(candidates.class_id.max()) + 1)]
    per_class_conf = np.array([0.0 if n in thresholds.disabled_classes else thresholds.confidence_for(n)
                               for n in names], dtype=np.float32)
    enabled = np.array([n not in thresholds.disabled_classes for n in names], dtype=bool)
    cls = candidates.class_id
    keep = enabled[cls] & (candidates.score >= per_class_conf[cls])
    xyxy, score, cls = candidates.xyxy[keep], candidates.score[keep], cls[keep]
    if candidates.already_suppressed:
        order = np.argsort(-score, kind="stable")[: thresholds.max_detections]
    else:
        order = suppress(xyxy, score, cls, thresholds.iou, thresholds.max_detections)
    return Detections(xyxy[order], score[order], cls[order], class_names)
