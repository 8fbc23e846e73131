"""Raw model output → candidate boxes in model-input pixels, one free function per layout.

Layouts:
  yolov5   [N, A, 5+C]  cx, cy, w, h, objectness, class scores   (score = obj × cls)
  yolov8   [N, 4+C, A]  cx, cy, w, h, class scores               (YOLOv8/11, our own detector)
  end2end  [N, K, 6]    x1, y1, x2, y2, score, class              (NMS inside the model)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from inference.errors import InputShapeError, UnknownOutputLayoutError

LAYOUTS = ("yolov5", "yolov8", "end2end")


@dataclass(frozen=True)
class Candidates:
    """Boxes above the confidence floor, before NMS; xyxy in model-input pixels."""

    xyxy: np.ndarray
    score: np.ndarray
    class_id: np.ndarray
    already_suppressed: bool = False

    def __len__(self) -> int:
        return int(self.score.shape[0])


def _cxcywh_to_xyxy(boxes: np.ndarray) -> np.ndarray:
    out = np.empty_like(boxes, dtype=np.float32)
    half_w, half_h = boxes[:, 2] / 2, boxes[:, 3] / 2
    out[:, 0] = boxes[:, 0] - half_w
    out[:, 1] = boxes[:, 1] - half_h
    out[:, 2] = boxes[:, 0] + half_w
    out[:, 3] = boxes[:, 1] + half_h
    return out


def decode_yolov8(raw: np.ndarray, num_classes: int, conf_floor: float) -> Candidates:
    pred = raw[0]  # (4+C, A)
    scores_all = pred[4:4 + num_classes]
    class_id = scores_all.argmax(axis=0)
    score = scores_all[class_id, np.arange(scores_all.shape[1])]
    keep = score >= conf_floor
    boxes = pred[:4, keep].T
    return Candidates(_cxcywh_to_xyxy(boxes), score[keep].astype(np.float32), class_id[keep].astype(np.int32))


def decode_yolov5(raw: np.ndarray, num_classes: int, conf_floor: float) -> Candidates:
    pred = raw[0]  # (A, 5+C)
    obj = pred[:, 4]
    pre = obj >= conf_floor  # obj × cls ≤ obj, so this drops nothing that could pass
    pred = pred[pre]
    cls_scores = pred[:, 5:5 + num_classes] * pred[:, 4:5]
    class_id = cls_scores.argmax(axis=1)
    score = cls_scores[np.arange(cls_scores.shape[0]), class_id]
    keep = score >= conf_floor
    return Candidates(_cxcywh_to_xyxy(pred[keep, :4]), score[keep].astype(np.float32),
                      class_id[keep].astype(np.int32))


def decode_end2end(raw: np.ndarray, num_classes: int, conf_floor: float) -> Candidates:
    pred = raw[0]  # (K, 6)
    keep = pred[:, 4] >= conf_floor
    pred = pred[keep]
    return Candidates(pred[:, :4].astype(np.float32), pred[:, 4].astype(np.float32),
                      pred[:, 5].astype(np.int32), already_suppressed=True)


DECODERS: dict[str, Callable[[np.ndarray, int, float], Candidates]] = {
    "yolov5": decode_yolov5,
    "yolov8": decode_yolov8,
    "end2end": decode_end2end,
}


def infer_layout(shape: tuple, num_classes: int | None) -> str:
    """Pick the layout from an output shape; `num_classes` (from metadata) breaks ties."""
    if len(shape) != 3:
        raise UnknownOutputLayoutError(
            "the model's output is not a detection tensor",
            expected="3 dims: [N, 4+C, A] (yolov8), [N, A, 5+C] (yolov5) or [N, K, 6] (end2end)",
            found=f"output shape {list(shape)}",
            hint="set 'layout' in the model's sidecar JSON if the shape is right but ambiguous",
        )
    _, d1, d2 = (int(s) if isinstance(s, (int, np.integer)) and s > 0 else -1 for s in shape)
    # [N, K, 6] with K a few hundred is end2end; a one-class YOLOv5 head is [N, thousands, 6].
    if d2 == 6 and (d1 == -1 or d1 < 1000):
        return "end2end"
    if num_classes is not None:
        if d1 == 4 + num_classes:
            return "yolov8"
        if d2 == 5 + num_classes:
            return "yolov5"
    if d1 > 4 and (d2 == -1 or d2 > d1):
        return "yolov8"
    if d2 > 5 and (d1 == -1 or d1 > d2):
        return "yolov5"
    raise UnknownOutputLayoutError(
        "the model's output matches no known detection layout",
        expected=f"one of {', '.join(LAYOUTS)}: [N, 4+C, A], [N, A, 5+C] or [N, K, 6]"
                 + (f" with C={num_classes}" if num_classes is not None else ""),
        found=f"output shape {list(shape)}",
        hint="set 'layout' in the model's sidecar JSON (<model>.json) to override",
    )


def num_classes_for(layout: str, shape: tuple) -> int:
    if layout == "yolov8":
        return int(shape[1]) - 4
    if layout == "yolov5":
        return int(shape[2]) - 5
    return 0


def decode(raw: np.ndarray, layout: str, num_classes: int, conf_floor: float) -> Candidates:
    if layout not in DECODERS:
        raise UnknownOutputLayoutError("unknown decoder layout", expected=" | ".join(LAYOUTS), found=layout)
    if raw.ndim != 3:
        raise InputShapeError("raw output has the wrong rank", expected="3 dims", found=f"shape {raw.shape}")
    return DECODERS[layout](raw, num_classes, conf_floor)
