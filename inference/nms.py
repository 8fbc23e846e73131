"""Class-wise non-maximum suppression, vectorized over boxes.

The Python loop runs once per *kept* box; each step compares it against every remaining
candidate at once. No IoU matrix, so memory stays linear in the number of candidates.
"""

from __future__ import annotations

import numpy as np


def nms(xyxy: np.ndarray, scores: np.ndarray, class_id: np.ndarray, iou_threshold: float,
        max_detections: int = 300, max_candidates: int = 30000) -> np.ndarray:
    """Indices of kept boxes, best score first. Boxes of different classes never suppress each other."""
    if scores.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    order = np.argsort(-scores, kind="stable")[:max_candidates]
    boxes = xyxy[order].astype(np.float64)
    # Shift each class into its own region so one pass handles all classes.
    span = float(np.abs(boxes).max()) * 2.0 + 1.0
    boxes += (span * class_id[order].astype(np.float64))[:, None]
    x1, y1, x2, y2 = boxes.T
    area = np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)
    alive = np.ones(order.shape[0], dtype=bool)
    kept: list[int] = []
    while len(kept) < max_detections:
        remaining = np.flatnonzero(alive)
        if remaining.size == 0:
            break
        i = int(remaining[0])
        kept.append(i)
        alive[i] = False
        rest = remaining[1:]
        if rest.size == 0:
            break
        w = np.clip(np.minimum(x2[i], x2[rest]) - np.maximum(x1[i], x1[rest]), 0, None)
        h = np.clip(np.minimum(y2[i], y2[rest]) - np.maximum(y1[i], y1[rest]), 0, None)
        inter = w * h
        union = area[i] + area[rest] - inter
        iou = np.where(union > 0, inter / np.maximum(union, 1e-12), 0.0)
        alive[rest[iou > iou_threshold]] = False
    return order[np.asarray(kept, dtype=np.int64)]
