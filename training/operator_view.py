"""What an operator sees at the station's default thresholds: per class, labelled objects found (IoU ≥ 0.5,
each detection matched once, best-scored first) and false alarms, through the station's own Pipeline.

    python -m training.operator_view --model resources/models/hangtag_det.onnx --data resources/samples
    python -m training.operator_view --model resources/models/hangtag_det.onnx --data datasets/heldout/images --limit 400
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from inference.imageio import list_images, read_image
from inference.pipeline import Pipeline
from inference.precision.evaluate import box_iou, label_path_for, read_yolo_labels


def labels_for(image: Path) -> Path | None:
    beside = image.parent / "labels" / f"{image.stem}.txt"  # the demo scenes keep theirs in labels/
    return label_path_for(image) or (beside if beside.is_file() else None)


def match(truth: np.ndarray, found: np.ndarray, scores: np.ndarray, iou_min: float = 0.5) -> int:
    """How many truth boxes a detection claims, detections taken best first, each truth box once."""
    if len(truth) == 0 or len(found) == 0:
        return 0
    iou = box_iou(found, truth)
    free = np.ones(len(truth), bool)
    for d in np.argsort(-scores):
        candidates = np.where(free, iou[d], -1.0)
        best = int(np.argmax(candidates))
        if candidates[best] >= iou_min:
            free[best] = False
    return int((~free).sum())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--data", type=Path, required=True, help="images with YOLO labels")
    parser.add_argument("--limit", type=int, help="first N images only")
    args = parser.parse_args(argv)
    pipe = Pipeline.open(args.model, "onnxruntime-cpu")
    classes = len(pipe.class_names)
    truth_total, found_total, false_total = np.zeros(classes, int), np.zeros(classes, int), np.zeros(classes, int)
    paths = list_images(args.data)[:args.limit]
    for path in paths:
        image = read_image(path)
        label = labels_for(path)
        truth, truth_class = read_yolo_labels(label, image.shape[:2]) if label else (np.zeros((0, 4)), np.zeros(0, int))
        detections = pipe.process(image).detections
        for c in range(classes):
            mine = detections.class_id == c
            hits = match(truth[truth_class == c], detections.xyxy[mine], detections.confidence[mine])
            truth_total[c] += int((truth_class == c).sum())
            found_total[c] += hits
            false_total[c] += int(mine.sum()) - hits
    print(f"{len(paths)} images from {args.data}, {args.model.name}, confidence {pipe.thresholds.confidence}, "
          f"NMS IoU {pipe.thresholds.iou}")
    for c, name in enumerate(pipe.class_names):
        share = 100.0 * found_total[c] / max(truth_total[c], 1)
        print(f"  {name:8s} found {found_total[c]} / {truth_total[c]} ({share:.1f} %), false alarms {false_total[c]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
