"""Edge-riding tags the H200 line missed: does the detector see them at all, in the MJPG recordings and in their
H.264 copies? Every 2nd frame a tag is in view, a hangtag box at IoU >= 0.3 with its truth box counts.

    python benchmarks/line-h200-2026-12-02/edge_det.py [MODEL.onnx]   # default: the shipped detector

Recordings in /tmp/line/sS (prepare.sh), their H.264 copies in .line18/rec/sS. Output: edge_det.txt.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from inference.detections import iou  # noqa: E402
from inference.pipeline import Pipeline  # noqa: E402
from inference.resources import default_model_path  # noqa: E402

CASES = [("1.25", 1), ("0.6", 23), ("0.45", 1), ("0.45", 23), ("0.45", 34), ("0.6", 1)]  # (spacing, tag id)


def seen(pipeline, video: str, boxes: dict[int, list[float]], frames: list[int]) -> str:
    capture = cv2.VideoCapture(video)
    capture.set(cv2.CAP_PROP_POS_FRAMES, frames[0])
    hits, index = [], frames[0]
    while index <= frames[-1]:
        ok, image = capture.read()
        if not ok:
            break
        if index in frames:
            found = pipeline.process(image).detections
            best = max([iou(boxes[index], b) for b, label in zip(found.xyxy, found.labels) if label == "hangtag"] or [0])
            hits.append(best >= 0.3)
        index += 1
    return f"{sum(hits)}/{len(hits)}"


def main() -> None:
    pipeline = Pipeline.open(sys.argv[1] if len(sys.argv) > 1 else default_model_path(), "onnxruntime-cpu", threads=1)
    for spacing, tag_id in CASES:
        truth = json.loads(Path(f"/tmp/line/s{spacing}/truth.json").read_text(encoding="utf-8"))
        tag = next(t for t in truth["tags"] if t["id"] == tag_id)
        boxes = {int(row[0]): row[1:] for row in tag["boxes"]}
        frames = sorted(boxes)[::2]
        mjpg = seen(pipeline, f"/tmp/line/s{spacing}/line.avi", boxes, frames)
        h264 = seen(pipeline, str(ROOT / f".line18/rec/s{spacing}/line.mp4"), boxes, frames)
        print(f"s{spacing} tag {tag_id} edge={tag.get('edge')} frames {frames[0]}-{frames[-1]} (every 2nd): "
              f"seen in mjpg {mjpg}, h264 {h264}", flush=True)


if __name__ == "__main__":
    main()
