"""Where each detector's false tag boxes and missed tags are, frame by frame, at the station's thresholds.

    nice .venv/bin/python benchmarks/tag_false_boxes.py --models A.onnx B.onnx --data datasets/i17-tagset [--json out.json]

For every tag box that matches no truth tag (IoU 0.5, each truth once, as training.compare counts): its frame,
design, score, size, and how much of it lies inside a truth tag ("inside 0.93": the tag's own panel drawn as a
second tag, which the verdict counts as a second hangtag); and every truth tag no box found. Issue 17,
2026-12-02 afternoon: to tell split tags from false tags on background before adopting a candidate.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from inference.preprocess import Letterboxer
from training.compare import _iou, _truth
from training.evaluate import decode


def _inside(box: np.ndarray, truth: np.ndarray) -> float:
    """Largest share of `box`'s area inside any truth box."""
    if not len(truth):
        return 0.0
    iw = np.clip(np.minimum(box[2], truth[:, 2]) - np.maximum(box[0], truth[:, 0]), 0, None)
    ih = np.clip(np.minimum(box[3], truth[:, 3]) - np.maximum(box[1], truth[:, 1]), 0, None)
    return float((iw * ih).max() / max((box[2] - box[0]) * (box[3] - box[1]), 1e-9))


def detected(model: Path, items: list[dict]) -> Iterator[tuple[dict, np.ndarray, np.ndarray, np.ndarray]]:
    """Each item of a set with the model's boxes (original pixels), scores and classes at the station's thresholds
    (confidence 0.25, IoU 0.45), on ONNX Runtime's CPU with 2 threads."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 2
    session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
    letterbox = Letterboxer(tuple(session.get_inputs()[0].shape[2:]))
    for item in items:
        image = cv2.imread(str(item["path"]), cv2.IMREAD_COLOR)
        transform = letterbox(image)
        raw = session.run(None, {session.get_inputs()[0].name: letterbox.tensor})[0][0]
        xyxy, scores, classes = decode(raw, 0.25, 0.45, 300)
        yield item, transform.to_original(xyxy), scores, classes


def frames(model: Path, items: list[dict]) -> list[dict]:
    out = []
    for item, xyxy, scores, classes in detected(model, items):
        det, det_s = xyxy[classes == 0], scores[classes == 0]
        truth = item["boxes"][item["classes"] == 0]
        used = np.zeros(len(truth), bool)
        false = []
        iou = _iou(det, truth) if len(det) and len(truth) else np.zeros((len(det), len(truth)))
        for k in range(len(det)):
            row = np.where(used, -1, iou[k]) if len(truth) else np.array([-1.0])
            j = int(row.argmax())
            if len(truth) and row[j] >= 0.5:
                used[j] = True
                continue
            b = det[k]
            false.append({"score": round(float(det_s[k]), 3), "wh": [round(float(b[2] - b[0])), round(float(b[3] - b[1]))],
                          "inside_truth": round(_inside(b, truth), 3),
                          "best_iou": round(float(iou[k].max()), 3) if len(truth) else 0.0})
        if false or not used.all():
            out.append({"image": Path(item["path"]).name, "design": item.get("design", ""), "false": false,
                        "missed": int((~used).sum())})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, nargs="+", required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    items = _truth(args.data)
    report = {}
    for model in args.models:
        rows = frames(model, items)
        report[str(model)] = rows
        n_false = sum(len(r["false"]) for r in rows)
        nested = sum(1 for r in rows for f in r["false"] if f["inside_truth"] >= 0.6)
        print(f"{model}: {n_false} false tag boxes ({nested} mostly inside a truth tag), "
              f"{sum(r['missed'] for r in rows)} tags missed")
        for r in rows:
            print(f"   {r['image']} {r['design']}: missed {r['missed']}, false {r['false']}")
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
