from __future__ import annotations

import cv2
import numpy as np
import pytest

from inference.nms import nms


def random_boxes(rng, n, classes):
    xy = rng.uniform(0, 500, size=(n, 2))
    wh = rng.uniform(5, 120, size=(n, 2))
    xyxy = np.concatenate([xy, xy + wh], axis=1).astype(np.float32)
    return xyxy, rng.uniform(0.3, 1.0, n).astype(np.float32), rng.integers(0, classes, n).astype(np.int32)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("iou", [0.3, 0.5, 0.7])
def test_same_kept_set_as_opencv_batched_nms(seed, iou):
    rng = np.random.default_rng(seed)
    xyxy, scores, cls = random_boxes(rng, int(rng.integers(1, 400)), 3)
    ours = set(nms(xyxy, scores, cls, iou, max_detections=10_000).tolist())
    xywh = np.concatenate([xyxy[:, :2], xyxy[:, 2:] - xyxy[:, :2]], axis=1)
    ref = cv2.dnn.NMSBoxesBatched(xywh.tolist(), scores.tolist(), cls.tolist(), 0.0, iou)
    assert ours == set(np.asarray(ref).ravel().tolist())


def test_other_classes_never_suppress_and_max_detections_caps():
    xyxy = np.array([[0, 0, 10, 10]] * 3, np.float32)
    keep = nms(xyxy, np.array([0.9, 0.8, 0.7], np.float32), np.array([0, 1, 0], np.int32), 0.5)
    assert keep.tolist() == [0, 1]
    assert nms(xyxy, np.array([0.9, 0.8, 0.7], np.float32), np.array([0, 1, 2], np.int32), 0.5,
               max_detections=2).tolist() == [0, 1]


def test_empty_input_keeps_nothing():
    assert nms(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int32), 0.5).size == 0
