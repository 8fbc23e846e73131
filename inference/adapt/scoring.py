"""How good a detector is on labelled frames: AP50 per class and what the operator would see.

AP50 uses 101-point interpolation as COCO does (pycocotools agrees to the third decimal on our sets);
it lives here, in numpy, because the station compares models without the dev extra.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class LabelledFrame:
    truth_xyxy: np.ndarray  # (M, 4)
    truth_class: np.ndarray  # (M,)


@dataclass(frozen=True)
class FrameDetections:
    xyxy: np.ndarray  # (N, 4), every box above a low floor: AP needs the whole ranking
    score: np.ndarray
    class_id: np.ndarray


@dataclass(frozen=True)
class Score:
    frames: int
    ap50: dict[str, float]  # nan where the class has no truth box
    recall: dict[str, float]  # at the station's confidence
    precision: dict[str, float]
    false_tags_per_100: float  # tag boxes matching no tag, per 100 frames, at the station's confidence

    def to_json(self) -> dict:
        def clean(d: dict[str, float]) -> dict[str, float | None]:
            return {k: (None if np.isnan(v) else round(v, 4)) for k, v in d.items()}
        return {"frames": self.frames, "ap50": clean(self.ap50), "recall": clean(self.recall),
                "precision": clean(self.precision), "false_tags_per_100": round(self.false_tags_per_100, 2)}


def iou_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a, b = np.asarray(a, np.float64).reshape(-1, 4), np.asarray(b, np.float64).reshape(-1, 4)
    iw = np.clip(np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0]), 0, None)
    ih = np.clip(np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1]), 0, None)
    inter = iw * ih
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return inter / np.maximum(area_a[:, None] + area_b[None, :] - inter, 1e-9)


def greedy_matches(xyxy: np.ndarray, score: np.ndarray, truth: np.ndarray, iou: float = 0.5) -> np.ndarray:
    """Per detection (in descending score), True where it takes a truth box not taken before."""
    order = np.argsort(-np.asarray(score), kind="stable")
    hit = np.zeros(len(order), bool)
    if len(truth) == 0 or len(order) == 0:
        return hit
    ious = iou_matrix(np.asarray(xyxy)[order], truth)
    used = np.zeros(len(truth), bool)
    for k in range(len(order)):
        row = np.where(used, -1.0, ious[k])
        j = int(row.argmax())
        if row[j] >= iou:
            used[j] = True
            hit[k] = True
    out = np.zeros(len(order), bool)
    out[order] = hit
    return out


def average_precision_50(frames: list[LabelledFrame], found: list[FrameDetections], class_id: int) -> float:
    records: list[tuple[float, bool]] = []
    n_truth = 0
    for truth, det in zip(frames, found):
        gt = truth.truth_xyxy[truth.truth_class == class_id]
        n_truth += len(gt)
        mask = det.class_id == class_id
        hits = greedy_matches(det.xyxy[mask], det.score[mask], gt)
        records += list(zip(det.score[mask].tolist(), hits.tolist()))
    if n_truth == 0:
        return float("nan")
    if not records:
        return 0.0
    records.sort(key=lambda r: -r[0])
    tp = np.cumsum([r[1] for r in records])
    recall = tp / n_truth
    precision = np.maximum.accumulate((tp / np.arange(1, len(records) + 1))[::-1])[::-1]
    idx = np.searchsorted(recall, np.linspace(0, 1, 101), side="left")
    return float(np.mean([precision[i] if i < len(precision) else 0.0 for i in idx]))


def score(frames: list[LabelledFrame], found: list[FrameDetections], class_names: tuple[str, ...],
          confidence: float = 0.25, tag_class: int = 0) -> Score:
    ap = {name: average_precision_50(frames, found, c) for c, name in enumerate(class_names)}
    recall, precision = {}, {}
    false_tags = 0
    for c, name in enumerate(class_names):
        tp = shown = n_truth = 0
        for truth, det in zip(frames, found):
            mask = (det.class_id == c) & (det.score >= confidence)
            gt = truth.truth_xyxy[truth.truth_class == c]
            hits = greedy_matches(det.xyxy[mask], det.score[mask], gt)
            tp += int(hits.sum())
            shown += int(mask.sum())
            n_truth += len(gt)
            if c == tag_class:
                false_tags += int((~hits).sum())
        recall[name] = tp / n_truth if n_truth else float("nan")
        precision[name] = tp / shown if shown else float("nan")
    per_100 = 100.0 * false_tags / len(frames) if frames else 0.0
    return Score(len(frames), ap, recall, precision, per_100)
