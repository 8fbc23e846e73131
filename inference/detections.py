"""The result type of detection: parallel numpy arrays, validated once, immutable afterwards."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from inference.errors import InputShapeError


def intersection(a, b) -> float:
    """The area two (x1, y1, x2, y2) boxes share."""
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def iou(a, b) -> float:
    """Intersection over union of two (x1, y1, x2, y2) boxes; 0 when either is empty."""
    inter = intersection(a, b)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def centre_inside(box, outer) -> bool:
    """Whether `box`'s centre lies in `outer` (a symbol box on a tag box); boxes are (x1, y1, x2, y2)."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return outer[0] <= cx <= outer[2] and outer[1] <= cy <= outer[3]


def within(box, outer, slack: float = 1.0) -> bool:
    """Whether `box` lies in `outer`, `slack` pixels allowed on each side (the detector's tag box in
    the box the reader grew it to)."""
    return (outer[0] - slack <= box[0] and outer[1] - slack <= box[1]
            and box[2] <= outer[2] + slack and box[3] <= outer[3] + slack)


def _frozen(array: np.ndarray, dtype: type) -> np.ndarray:
    out = np.array(array, dtype=dtype, copy=True)
    out.flags.writeable = False
    return out


@dataclass(frozen=True)
class Detections:
    """Boxes in original image pixels (x1, y1, x2, y2), with score and class per box.

    Arrays are private copies marked read-only, so a `Detections` can cross threads safely.
    """

    xyxy: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray
    class_names: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        xyxy = np.asarray(self.xyxy, dtype=np.float32)
        if xyxy.size == 0:
            xyxy = xyxy.reshape(0, 4)
        if xyxy.ndim != 2 or xyxy.shape[1] != 4:
            raise InputShapeError(
                "Detections.xyxy has the wrong shape",
                expected="(N, 4) boxes as x1, y1, x2, y2",
                found=f"shape {tuple(xyxy.shape)}",
            )
        n = xyxy.shape[0]
        for name in ("confidence", "class_id"):
            arr = np.asarray(getattr(self, name))
            if arr.shape != (n,):
                raise InputShapeError(
                    f"Detections.{name} does not match the boxes",
                    expected=f"shape ({n},) — one value per box",
                    found=f"shape {tuple(arr.shape)}",
                )
        object.__setattr__(self, "xyxy", _frozen(xyxy, np.float32))
        object.__setattr__(self, "confidence", _frozen(self.confidence, np.float32))
        object.__setattr__(self, "class_id", _frozen(self.class_id, np.int32))
        object.__setattr__(self, "class_names", tuple(self.class_names))

    @classmethod
    def empty(cls, class_names: tuple[str, ...] = ()) -> Detections:
        return cls(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int32), class_names)

    def __len__(self) -> int:
        return int(self.xyxy.shape[0])

    def __getitem__(self, index: np.ndarray | slice | int) -> Detections:
        if isinstance(index, (int, np.integer)):
            index = slice(int(index), int(index) + 1)
        return Detections(self.xyxy[index], self.confidence[index], self.class_id[index], self.class_names)

    def name_of(self, class_id: int) -> str:
        if 0 <= class_id < len(self.class_names):
            return self.class_names[class_id]
        return f"class_{class_id}"

    @cached_property
    def labels(self) -> tuple[str, ...]:
        return tuple(self.name_of(int(c)) for c in self.class_id)

    def _mask(self, class_name: str) -> np.ndarray:
        if class_name in self.class_names:
            return self.class_id == self.class_names.index(class_name)
        return np.array([label == class_name for label in self.labels], dtype=bool)

    def count(self, class_name: str) -> int:
        return int(np.count_nonzero(self._mask(class_name)))

    def of_class(self, class_name: str) -> Detections:
        return self[self._mask(class_name)]

    def to_records(self) -> list[dict]:
        """Plain dicts for JSON lines, journals and reports."""
        return [
            {
                "class_id": int(c),
                "class_name": self.name_of(int(c)),
                "confidence": round(float(s), 5),
                "xyxy": [round(float(v), 2) for v in box],
            }
            for box, s, c in zip(self.xyxy, self.confidence, self.class_id)
        ]
