"""AP50 and FP32 agreement on hand-made boxes, and AP50 cross-checked against pycocotools."""

from __future__ import annotations

import numpy as np
import pytest

from inference.precision.evaluate import AP50Evaluator, agreement, box_iou, label_path_for, read_yolo_labels

GT = np.array([[10, 10, 50, 50], [100, 100, 140, 160]], np.float32)


def boxes(*rows) -> np.ndarray:
    return np.array(rows, np.float32).reshape(-1, 4)


@pytest.mark.parametrize(("dets", "scores", "expected"), [
    (GT, [0.9, 0.8], 1.0),  # both found, nothing else
    (GT[:1], [0.9], 0.5),  # half the recall
    (boxes([200, 200, 240, 240], *GT), [0.95, 0.9, 0.8], 0.67),  # a confident false positive first
    (boxes(*GT, [200, 200, 240, 240]), [0.9, 0.8, 0.1], 1.0),  # a weak false positive last costs nothing
    (boxes([10, 10, 50, 50], [12, 12, 50, 50]), [0.9, 0.8], 0.5),  # a duplicate is a false positive
    (boxes(), [], 0.0),
])
def test_ap50_single_class(dets, scores, expected):
    ev = AP50Evaluator(1)
    ev.add(dets, np.array(scores, np.float32), np.zeros(len(scores), np.int32), GT, np.zeros(2, np.int32))
    assert ev.ap(0) == pytest.approx(expected, abs=0.01)


def test_class_without_ground_truth_is_left_out_of_the_mean():
    ev = AP50Evaluator(2)
    ev.add(GT, np.array([0.9, 0.8]), np.zeros(2, np.int32), GT, np.zeros(2, np.int32))
    result = ev.result()
    assert result == {0: 1.0, 1: None} and AP50Evaluator.mean(result) == 1.0


def test_ap50_matches_pycocotools():
    pytest.importorskip("pycocotools")
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    rng = np.random.default_rng(3)
    images, annotations, results = [], [], []
    ev = AP50Evaluator(2)
    for image_id in range(1, 31):
        n = int(rng.integers(1, 5))
        xy = rng.uniform(0, 300, (n, 2))
        wh = rng.uniform(20, 80, (n, 2))
        gt = np.hstack([xy, xy + wh]).astype(np.float32)
        gt_cls = rng.integers(0, 2, n).astype(np.int32)
        keep = rng.random(n) > 0.2
        det = gt[keep] + rng.normal(0, 4, (int(keep.sum()), 4)).astype(np.float32)
        det_cls = gt_cls[keep].copy()
        extra = int(rng.integers(0, 3))
        det = np.vstack([det, rng.uniform(0, 300, (extra, 2)).repeat(2, axis=1) + [0, 0, 30, 30]]).astype(np.float32)
        det_cls = np.concatenate([det_cls, rng.integers(0, 2, extra)]).astype(np.int32)
        scores = rng.uniform(0.05, 1.0, len(det)).astype(np.float32)
        ev.add(det, scores, det_cls, gt, gt_cls)
        images.append({"id": image_id, "width": 400, "height": 400})
        for box, c in zip(gt, gt_cls):
            annotations.append({"id": len(annotations) + 1, "image_id": image_id, "category_id": int(c),
                                "bbox": [float(box[0]), float(box[1]), float(box[2] - box[0]), float(box[3] - box[1])],
                                "area": float((box[2] - box[0]) * (box[3] - box[1])), "iscrowd": 0})
        for box, c, s in zip(det, det_cls, scores):
            results.append({"image_id": image_id, "category_id": int(c), "score": float(s),
                            "bbox": [float(box[0]), float(box[1]), float(box[2] - box[0]), float(box[3] - box[1])]})
    coco = COCO()
    coco.dataset = {"images": images, "annotations": annotations, "categories": [{"id": 0}, {"id": 1}]}
    coco.createIndex()
    evaluation = COCOeval(coco, coco.loadRes(results), "bbox")
    evaluation.params.iouThrs = np.array([0.5])
    evaluation.params.maxDets = [100, 100, 100]
    evaluation.evaluate()
    evaluation.accumulate()
    for c in (0, 1):
        coco_ap = float(np.mean(evaluation.eval["precision"][0, :, c, 0, -1]))
        assert ev.ap(c) == pytest.approx(coco_ap, abs=1e-6)


@pytest.mark.parametrize(("other", "other_cls", "expected"), [
    (GT, [0, 1], (2, 2, 2)),
    (GT + 1, [0, 1], (2, 2, 2)),  # IoU still ≥ 0.9 after a 1 px shift
    (GT + 6, [0, 1], (0, 2, 2)),  # 6 px is below IoU 0.9 on 40 px boxes
    (GT, [1, 0], (0, 2, 2)),  # same place, wrong class
    (GT[:1], [0], (1, 2, 1)),
])
def test_agreement_at_iou_09(other, other_cls, expected):
    assert agreement(GT, np.array([0, 1]), np.asarray(other, np.float32), np.array(other_cls)) == expected


def test_iou_of_disjoint_and_identical_boxes():
    np.testing.assert_allclose(box_iou(GT, GT), np.eye(2))


def test_yolo_labels_round_trip(tmp_path):
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    image = tmp_path / "images" / "a.jpg"
    image.write_bytes(b"")
    (tmp_path / "labels" / "a.txt").write_text("1 0.5 0.25 0.2 0.1\n\n")
    path = label_path_for(image)
    xyxy, cls = read_yolo_labels(path, (200, 400))
    np.testing.assert_allclose(xyxy, [[160, 40, 240, 60]])
    assert cls.tolist() == [1]
    assert label_path_for(tmp_path / "images" / "b.jpg") is None


def test_tally_counts_found_truth_detections_and_leaves_false_alarms_to_the_difference():
    evaluator = AP50Evaluator(2)
    truth = np.array([[0, 0, 10, 10], [20, 20, 30, 30]], np.float32)
    found = np.array([[0, 0, 10, 10], [1, 1, 10, 10], [50, 50, 60, 60]], np.float32)  # a hit, a duplicate, a stray
    evaluator.add(found, np.array([0.9, 0.8, 0.7], np.float32), np.array([0, 0, 0]), truth, np.array([0, 1]),
                  iou_threshold=0.5)
    assert evaluator.tally(0) == (1, 3, 1)  # one truth box found by three detections: two false alarms
    assert evaluator.tally(1) == (0, 0, 1)  # the class-1 box was missed
