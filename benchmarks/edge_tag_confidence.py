"""Does a detector see a tag the frame's edge cuts? For the conveyor recordings' edge-riding tags, every 6th frame
the tag is in view: the best hangtag confidence at confidence 0.01 and that box's IoU with the truth box, printed
as `conf@iou` (issue 17/18, 2026-12-02 evening).

    python benchmarks/edge_tag_confidence.py MODEL.onnx      # recordings in /tmp/line/sS (training/conveyor.py)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inference.detections import iou  # noqa: E402
from inference.pipeline import Pipeline  # noqa: E402
from inference.postprocess import Thresholds  # noqa: E402

CASES = [("1.25", 1), ("0.6", 23), ("0.45", 1)]  # (spacing, edge-riding tag id)


def main(model: str, folder: Path = Path("/tmp/line")) -> None:
    pipeline = Pipeline.open(model, "onnxruntime-cpu", threads=1)
    pipeline.thresholds = Thresholds(confidence=0.01, iou=0.45, max_detections=100)
    for spacing, tag_id in CASES:
        truth = json.loads((folder / f"s{spacing}" / "truth.json").read_text(encoding="utf-8"))
        tag = next(t for t in truth["tags"] if t["id"] == tag_id)
        boxes = {int(row[0]): row[1:] for row in tag["boxes"]}
        capture = cv2.VideoCapture(str(folder / f"s{spacing}" / "line.avi"))
        out = []
        for frame in sorted(boxes)[::6]:
            capture.set(cv2.CAP_PROP_POS_FRAMES, frame)
            ok, image = capture.read()
            if not ok:
                break
            found = pipeline.process(image).detections
            best = max([(iou(boxes[frame], b), float(c)) for b, c, label in zip(found.xyxy, found.confidence, found.labels)
                        if label == "hangtag"] or [(0.0, 0.0)])
            out.append(f"{best[1]:.2f}@{best[0]:.2f}")
        print(f"s{spacing} tag {tag_id}: {' '.join(out)}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
