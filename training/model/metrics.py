"""A quick AP50 for the training log (101-point interpolation, as COCO does).

The numbers that ship are computed by training/evaluate.py with pycocotools; this one only has
to tell, on the leased machine, whether training is going where it should.
"""

from __future__ import annotations

import numpy as np


def _iou(box: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    iw = np.clip(np.minimum(box[2], boxes[:, 2]) - np.maximum(box[0], boxes[:, 0]), 0, None)
    ih = np.clip(np.minimum(box[3], boxes[:, 3]) - np.maximum(box[1], boxes[:, 1]), 0, None)
    inter = iw * ih
    union = (box[2] - box[0]) * (box[3] - box[1]) + (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]) - inter
    return inter / np.maximum(union, 1e-9)


def average_precision(predictions: list[tuple[np.ndarray, np.ndarray, np.ndarray]],
                      truths: list[tuple[np.ndarray, np.ndarray]], num_classes: int,
                      iou_threshold: float = 0.5) -> list[float]:
    """predictions[i] = (xyxy, score, class) and truths[i] = (xyxy, class) for image i."""
    aps = []
    for c in range(num_classes):
        records = []
        n_gt = 0
        for i, ((pb, ps, pc), (gb, gc)) in enumerate(zip(predictions, truths)):
            n_gt += int((gc == c).sum())
            for box, score in zip(pb[pc == c], ps[pc == c]):
                records.append((float(score), i, box))
        if n_gt == 0:
            aps.append(float("nan"))
            continue
        records.sort(key=lambda r: -r[0])
        used = [np.zeros(int((t[1] == c).sum()), bool) for t in truths]
        tp = np.zeros(len(records))
        for k, (_, i, box) in enumerate(records):
            gt = truths[i][0][truths[i][1] == c]
            if len(gt) == 0:
                continue
            ious = _iou(box, gt)
            ious[used[i]] = -1
            j = int(ious.argmax())
            if ious[j] >= iou_threshold:
                used[i][j] = True
                tp[k] = 1
        ctp = np.cumsum(tp)
        recall = ctp / n_gt
        precision = ctp / np.arange(1, len(records) + 1)
        precision = np.maximum.accumulate(precision[::-1])[::-1] if len(precision) else precision
        points = np.linspace(0, 1, 101)
        idx = np.searchsorted(recall, points, side="left")
        sampled = np.array([precision[i] if i < len(precision) else 0.0 for i in idx])
        aps.append(float(sampled.mean()))
    return aps
