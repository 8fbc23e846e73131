"""Which inspected frames the current model is unsure of: worth an engineer's look and a label."""

from __future__ import annotations

from typing import Any

import numpy as np

from inference.records.convert import verdict_parts

NEAR = 0.15  # a score within this of the class's threshold, kept or dropped, is "near"


def unsure_reason(result: Any, near: float = NEAR) -> str:
    """Why this frame should be kept, or "" when the model was sure of it.

    A REVIEW verdict means the station itself asked a person; a box whose score lies close to the
    threshold (above it: a shaky detection, below it: a tag or symbol the model almost missed) is
    where a few labels move the model most."""
    if result is None or not getattr(result, "ok", False):
        return ""
    verdict, _, _ = verdict_parts(result.verdict)
    if verdict == "REVIEW":
        return "REVIEW verdict"
    thresholds = result.thresholds
    detections = result.detections
    names = detections.class_names
    candidates = result.candidates
    # Below the threshold only boxes that are not a suppressed copy of a box already shown count.
    missed = [i for i in range(len(candidates))
              if not _covered(candidates.xyxy[i], int(candidates.class_id[i]), detections)]
    pairs = list(zip(detections.confidence.tolist(), detections.class_id.tolist()))
    pairs += [(float(candidates.score[i]), int(candidates.class_id[i])) for i in missed]
    closest: tuple[float, str, float, float] | None = None
    for score, class_id in pairs:
        name = names[class_id] if 0 <= class_id < len(names) else f"class_{class_id}"
        if name in thresholds.disabled_classes:
            continue
        limit = thresholds.confidence_for(name)
        gap = abs(score - limit)
        if gap <= near and (closest is None or gap < closest[0]):
            closest = (gap, name, score, limit)
    if closest is None:
        return ""
    _, name, score, limit = closest
    return f"unsure: {name} score {score:.2f} near {limit:.2f}"


def _covered(box, class_id: int, detections, iou: float = 0.3) -> bool:
    same = detections.xyxy[detections.class_id == class_id]
    if len(same) == 0:
        return False
    iw = np.clip(np.minimum(box[2], same[:, 2]) - np.maximum(box[0], same[:, 0]), 0, None)
    ih = np.clip(np.minimum(box[3], same[:, 3]) - np.maximum(box[1], same[:, 1]), 0, None)
    inter = iw * ih
    union = (box[2] - box[0]) * (box[3] - box[1]) + (same[:, 2] - same[:, 0]) * (same[:, 3] - same[:, 1]) - inter
    return bool((inter / np.maximum(union, 1e-9) >= iou).any())
