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
from inference.precision.evaluate import AP50Evaluator, label_path_for, read_yolo_labels


def labels_for(image: Path) -> Path | None:
    beside = image.parent / "labels" / f"{image.stem}.txt"  # the demo scenes keep theirs in labels/
    return label_path_for(image) or (beside if beside.is_file() else None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--data", type=Path, required=True, help="images with YOLO labels")
    parser.add_argument("--limit", type=int, help="first N images only")
    args = parser.parse_args(argv)
    pipe = Pipeline.open(args.model, "onnxruntime-cpu")
    scores = AP50Evaluator(len(pipe.class_names))  # its matching: best-scored first, each truth box once
    paths = list_images(args.data)[:args.limit]
    for path in paths:
        image = read_image(path)
        label = labels_for(path)
        truth, truth_class = read_yolo_labels(label, image.shape[:2]) if label else (np.zeros((0, 4)), np.zeros(0, int))
        d = pipe.process(image).detections
        scores.add(d.xyxy, d.confidence, d.class_id, truth, truth_class, iou_threshold=0.5)
    print(f"{len(paths)} images from {args.data}, {args.model.name}, confidence {pipe.thresholds.confidence}, "
          f"NMS IoU {pipe.thresholds.iou}")
    for c, name in enumerate(pipe.class_names):
        found, detections, truth = scores.tally(c)
        share = 100.0 * found / max(truth, 1)
        print(f"  {name:8s} found {found} / {truth} ({share:.1f} %), false alarms {detections - found}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
