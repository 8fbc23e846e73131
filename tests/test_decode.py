from __future__ import annotations

import numpy as np
import pytest

from inference.decode import decode, infer_layout
from inference.errors import UnknownOutputLayoutError


def yolov8_raw(boxes_cxcywh, scores):  # scores: (A, C)
    return np.concatenate([np.asarray(boxes_cxcywh, np.float32).T, np.asarray(scores, np.float32).T])[None]


def test_yolov8_picks_best_class_and_converts_to_corners():
    raw = yolov8_raw([[50, 50, 20, 10], [100, 80, 40, 40]], [[0.1, 0.9], [0.7, 0.2]])
    out = decode(raw, "yolov8", 2, 0.25)
    assert out.class_id.tolist() == [1, 0]
    assert np.allclose(out.score, [0.9, 0.7])
    assert np.allclose(out.xyxy, [[40, 45, 60, 55], [80, 60, 120, 100]])


def test_yolov5_multiplies_objectness_by_class_score():
    raw = np.array([[[10, 10, 4, 4, 0.5, 0.8, 0.2],   # 0.4 for class 0
                     [20, 20, 2, 2, 0.9, 0.1, 0.3],   # 0.27 for class 1
                     [30, 30, 2, 2, 0.2, 0.9, 0.9]]], np.float32)  # 0.18 → below 0.25
    out = decode(raw, "yolov5", 2, 0.25)
    assert out.class_id.tolist() == [0, 1]
    assert np.allclose(out.score, [0.4, 0.27])
    assert np.allclose(out.xyxy[0], [8, 8, 12, 12])


def test_end2end_passes_boxes_through_and_marks_them_suppressed():
    raw = np.array([[[1, 2, 3, 4, 0.9, 2], [5, 6, 7, 8, 0.1, 0]]], np.float32)
    out = decode(raw, "end2end", 0, 0.25)
    assert out.already_suppressed and out.class_id.tolist() == [2]
    assert np.allclose(out.xyxy, [[1, 2, 3, 4]])


@pytest.mark.parametrize(("shape", "classes", "expected"), [
    ((1, 7, 8400), 3, "yolov8"),
    ((1, 84, 8400), None, "yolov8"),
    ((1, 25200, 85), None, "yolov5"),
    ((1, 8400, 8), 3, "yolov5"),
    ((1, 300, 6), None, "end2end"),
    ((1, 300, 6), 1, "end2end"),
    ((1, 25200, 6), 1, "yolov5"),
    ((1, 6, 8400), 2, "yolov8"),
])
def test_layout_is_inferred_from_shape(shape, classes, expected):
    assert infer_layout(shape, classes) == expected


@pytest.mark.parametrize("shape", [(1, 7), (1, 3, 3), (2, 2, 2, 2)])
def test_unknown_layout_names_the_shape_and_the_known_layouts(shape):
    with pytest.raises(UnknownOutputLayoutError) as info:
        infer_layout(shape, None)
    text = str(info.value)
    assert str(list(shape)) in text and "yolov8" in text and "end2end" in text
