"""Score an exported detector on a generated set with pycocotools, and time it on this CPU.

    python -m training.evaluate --model resources/models/hangtag_det.onnx --data datasets/heldout
    python -m training.evaluate --model resources/models/hangtag_det.onnx --bench resources/samples

Scoring uses onnxruntime and the station's own letterbox, the COCO protocol (confidence floor
0.001, class-wise NMS at IoU 0.6, 100 detections per image). Timing goes through the station's
Pipeline, so it measures what an operator waits for: letterbox, inference, decode and NMS.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import platform
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from inference.preprocess import Letterboxer


def nms(xyxy: np.ndarray, scores: np.ndarray, iou: float, max_keep: int = 100) -> np.ndarray:
    order = scores.argsort()[::-1]
    keep = []
    while order.size and len(keep) < max_keep:
        i = order[0]
        keep.append(i)
        rest = order[1:]
        iw = np.clip(np.minimum(xyxy[i, 2], xyxy[rest, 2]) - np.maximum(xyxy[i, 0], xyxy[rest, 0]), 0, None)
        ih = np.clip(np.minimum(xyxy[i, 3], xyxy[rest, 3]) - np.maximum(xyxy[i, 1], xyxy[rest, 1]), 0, None)
        inter = iw * ih
        area = (xyxy[:, 2] - xyxy[:, 0]) * (xyxy[:, 3] - xyxy[:, 1])
        order = rest[inter / (area[i] + area[rest] - inter + 1e-9) <= iou]
    return np.array(keep, dtype=np.int64)


def decode(raw: np.ndarray, conf: float, iou: float, max_det: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(4 + C, A) YOLOv8-style output -> boxes (input pixels), scores, classes after class-wise NMS."""
    boxes, cls_scores = raw[:4].T, raw[4:].T
    classes = cls_scores.argmax(1)
    scores = cls_scores[np.arange(len(classes)), classes]
    keep = scores > conf
    boxes, scores, classes = boxes[keep], scores[keep], classes[keep]
    top = scores.argsort()[::-1][:1000]
    boxes, scores, classes = boxes[top], scores[top], classes[top]
    xyxy = np.concatenate((boxes[:, :2] - boxes[:, 2:] / 2, boxes[:, :2] + boxes[:, 2:] / 2), 1)
    out = []
    for c in np.unique(classes):
        idx = np.flatnonzero(classes == c)
        out.extend(idx[nms(xyxy[idx], scores[idx], iou)])
    out = np.array(sorted(out, key=lambda i: -scores[i])[:max_det], dtype=np.int64)
    return xyxy[out], scores[out], classes[out]


def score(model: Path, data: Path, threads: int) -> dict:
    import onnxruntime as ort
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
    size = tuple(session.get_inputs()[0].shape[2:])
    letterbox = Letterboxer(size)
    with contextlib.redirect_stdout(io.StringIO()):
        gt = COCO(str(data / "annotations.json"))
    image_dir = data / "images" if (data / "images").is_dir() else data
    results = []
    started = time.perf_counter()
    for image_id in gt.getImgIds():
        info = gt.loadImgs(image_id)[0]
        image = cv2.imread(str(image_dir / info["file_name"]), cv2.IMREAD_COLOR)
        transform = letterbox(image)
        raw = session.run(None, {session.get_inputs()[0].name: letterbox.tensor})[0][0]
        xyxy, scores, classes = decode(raw, 0.001, 0.6, 100)
        xyxy = transform.to_original(xyxy)
        for box, s, c in zip(xyxy.tolist(), scores.tolist(), classes.tolist()):
            results.append({"image_id": image_id, "category_id": int(c), "score": float(s),
                            "bbox": [box[0], box[1], box[2] - box[0], box[3] - box[1]]})
    seconds = time.perf_counter() - started
    with contextlib.redirect_stdout(io.StringIO()) as summary:
        det = gt.loadRes(results)
        evaluator = COCOeval(gt, det, "bbox")
        evaluator.evaluate()
        evaluator.accumulate()
        evaluator.summarize()
    precision = evaluator.eval["precision"]  # [iou threshold, recall, class, area range, max dets]
    report = {"images": len(gt.getImgIds()), "annotations": len(gt.getAnnIds()), "seconds": round(seconds, 1),
              "mAP50": round(float(evaluator.stats[1]), 4), "mAP50-95": round(float(evaluator.stats[0]), 4),
              "per_class": {}}
    for k, cat in enumerate(evaluator.params.catIds):
        name = gt.loadCats(int(cat))[0]["name"]
        p = precision[:, :, k, 0, -1]
        ap = [float(np.mean(row[row > -1])) if (row > -1).any() else float("nan") for row in p]
        report["per_class"][name] = {"instances": len(gt.getAnnIds(catIds=[int(cat)])), "AP50": round(ap[0], 4),
                                     "AP75": round(ap[5], 4), "AP50-95": round(float(np.mean(ap)), 4)}
    report["coco_summary"] = summary.getvalue().strip().splitlines()
    return report


def bench(model: Path, folder: Path, frames: int, threads_list: list[int]) -> dict:
    """End-to-end detection time through the station's Pipeline at its default thresholds."""
    import onnxruntime as ort

    from inference.imageio import list_images
    from inference.pipeline import Pipeline

    images = [cv2.imread(str(p), cv2.IMREAD_COLOR) for p in list_images(folder)]
    out = {"machine": f"{platform.machine()}, {_cpu_name()}, {_cores()} cores",
           "onnxruntime": ort.__version__, "opencv": cv2.__version__, "frames": frames,
           "image_sizes": sorted({f"{i.shape[1]}x{i.shape[0]}" for i in images})}
    out["load_average_before"] = [round(x, 2) for x in os.getloadavg()]
    for threads in threads_list:
        with Pipeline.open(model, backend="onnxruntime-cpu", threads=threads) as pipeline:
            for image in images[:5]:
                pipeline.process(image)
            total, cpu, stages = [], [], {}
            for n in range(frames):
                cpu_start = time.process_time()
                result = pipeline.process(images[n % len(images)], source_name=f"bench{n}")
                cpu.append((time.process_time() - cpu_start) * 1000)
                total.append(result.timings.total_ms)
                for stage, ms in result.timings.stages_ms.items():
                    stages.setdefault(stage, []).append(ms)
        out[f"threads={threads}"] = {
            "p50_ms": round(float(np.percentile(total, 50)), 2), "p95_ms": round(float(np.percentile(total, 95)), 2),
            "min_ms": round(float(np.min(total)), 2),
            # CPU seconds the process spent per frame: what neighbours' load cannot inflate
            "cpu_p50_ms": round(float(np.percentile(cpu, 50)), 2),
            "stages_p50_ms": {k: round(float(np.percentile(v, 50)), 2) for k, v in stages.items()},
        }
    out["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    return out


def _cpu_name() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "unknown CPU"


def _cores() -> int:
    return os.cpu_count() or 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.evaluate", description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--data", type=Path, help="generated set (annotations.json + images) to score")
    parser.add_argument("--bench", type=Path, help="image folder to time the station pipeline on")
    parser.add_argument("--frames", type=int, default=200)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--json", type=Path, help="also write the report here")
    args = parser.parse_args(argv)
    report: dict = {"model": str(args.model)}
    if args.data:
        report["accuracy"] = score(args.model, args.data, max(args.threads))
    if args.bench:
        report["latency"] = bench(args.model, args.bench, args.frames, args.threads)
    text = json.dumps(report, indent=1, ensure_ascii=False)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
