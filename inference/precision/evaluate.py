"""What a precision costs in accuracy: AP50 per class against YOLO labels, and agreement with FP32.

AP50 follows COCO's recipe at one IoU threshold (greedy matching by descending score, each
ground-truth box matched once, 101-point interpolated precision envelope), so the numbers line up
with pycocotools' AP@0.5 on the same detections.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

RECALL_POINTS = np.linspace(0.0, 1.0, 101)


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU matrix (len(a), len(b)) of xyxy boxes."""
    a = np.asarray(a, np.float64).reshape(-1, 4)
    b = np.asarray(b, np.float64).reshape(-1, 4)
    lt = np.maximum(a[:, None, :2], b[None, :, :2])
    rb = np.minimum(a[:, None, 2:], b[None, :, 2:])
    inter = np.prod(np.clip(rb - lt, 0, None), axis=2)
    area_a = np.prod(np.clip(a[:, 2:] - a[:, :2], 0, None), axis=1)
    area_b = np.prod(np.clip(b[:, 2:] - b[:, :2], 0, None), axis=1)
    union = area_a[:, None] + area_b[None, :] - inter
    return np.where(union > 0, inter / np.where(union > 0, union, 1), 0.0)


def label_path_for(image_path: Path) -> Path | None:
    """YOLO layout: `<root>/images/x.jpg` ↔ `<root>/labels/x.txt`, or `x.txt` beside the image."""
    image_path = Path(image_path)
    candidates = [image_path.with_suffix(".txt")]
    if image_path.parent.name == "images":
        candidates.insert(0, image_path.parent.parent / "labels" / f"{image_path.stem}.txt")
    return next((c for c in candidates if c.is_file()), None)


def read_yolo_labels(path: Path, image_hw: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """(xyxy in pixels, class ids) from a YOLO txt file of `class cx cy w h` normalised rows."""
    h, w = image_hw
    rows = [line.split() for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    if not rows:
        return np.zeros((0, 4), np.float32), np.zeros(0, np.int32)
    data = np.array([[float(v) for v in row[:5]] for row in rows], np.float64)
    cx, cy, bw, bh = data[:, 1] * w, data[:, 2] * h, data[:, 3] * w, data[:, 4] * h
    xyxy = np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], axis=1).astype(np.float32)
    return xyxy, data[:, 0].astype(np.int32)


@dataclass
class AP50Evaluator:
    """Accumulates per-image detections and ground truth; `result()` gives AP50 per class."""

    num_classes: int
    _scores: list[list[float]] = field(default_factory=list)
    _hits: list[list[bool]] = field(default_factory=list)
    _gt_counts: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self._scores = [[] for _ in range(self.num_classes)]
        self._hits = [[] for _ in range(self.num_classes)]
        self._gt_counts = np.zeros(self.num_classes, np.int64)

    def add(self, det_xyxy: np.ndarray, det_score: np.ndarray, det_class: np.ndarray,
            gt_xyxy: np.ndarray, gt_class: np.ndarray, iou_threshold: float = 0.5) -> None:
        for c in range(self.num_classes):
            gt = gt_xyxy[gt_class == c]
            self._gt_counts[c] += len(gt)
            mask = det_class == c
            boxes, scores = det_xyxy[mask], det_score[mask]
            order = np.argsort(-scores, kind="stable")
            taken = np.zeros(len(gt), bool)
            ious = box_iou(boxes[order], gt) if len(gt) and len(boxes) else None
            for rank, i in enumerate(order):
                hit = False
                if ious is not None:
                    candidates = np.where(taken, -1.0, ious[rank])
                    j = int(np.argmax(candidates))
                    if candidates[j] >= iou_threshold:
                        taken[j], hit = True, True
                self._scores[c].append(float(scores[i]))
                self._hits[c].append(hit)

    def ap(self, c: int) -> float | None:
        """AP50 of class c, or None when the class has no ground truth (nothing to recall)."""
        n_gt = int(self._gt_counts[c])
        if n_gt == 0:
            return None
        if not self._scores[c]:
            return 0.0
        order = np.argsort(-np.array(self._scores[c]), kind="stable")
        hits = np.array(self._hits[c])[order]
        tp = np.cumsum(hits)
        fp = np.cumsum(~hits)
        recall = tp / n_gt
        precision = tp / np.maximum(tp + fp, 1)
        envelope = np.maximum.accumulate(precision[::-1])[::-1]
        idx = np.searchsorted(recall, RECALL_POINTS, side="left")
        sampled = np.where(idx < len(envelope), envelope[np.minimum(idx, len(envelope) - 1)], 0.0)
        return float(sampled.mean())

    def result(self) -> dict[int, float | None]:
        return {c: self.ap(c) for c in range(self.num_classes)}

    def tally(self, c: int) -> tuple[int, int, int]:
        """(truth boxes found, detections, truth boxes) of class c, as matched by `add`."""
        return int(sum(self._hits[c])), len(self._hits[c]), int(self._gt_counts[c])

    @staticmethod
    def mean(per_class: dict[int, float | None]) -> float | None:
        values = [v for v in per_class.values() if v is not None]
        return float(np.mean(values)) if values else None


def agreement(ref_xyxy: np.ndarray, ref_class: np.ndarray, xyxy: np.ndarray, class_id: np.ndarray,
              iou_threshold: float = 0.9) -> tuple[int, int, int]:
    """(matched, reference count, other count): same-class pairs at IoU ≥ threshold, each box used once."""
    matched = 0
    for c in np.union1d(ref_class, class_id):
        a, b = ref_xyxy[ref_class == c], xyxy[class_id == c]
        if not len(a) or not len(b):
            continue
        ious = box_iou(a, b)
        pairs = np.argwhere(ious >= iou_threshold)
        if not len(pairs):
            continue
        pairs = pairs[np.argsort(-ious[pairs[:, 0], pairs[:, 1]], kind="stable")]
        used_a, used_b = set(), set()
        for i, j in pairs:
            if i not in used_a and j not in used_b:
                used_a.add(int(i))
                used_b.add(int(j))
                matched += 1
    return matched, int(len(ref_xyxy)), int(len(xyxy))
