"""Score an exported detector on a generated set with pycocotools, and time it on this CPU.

    python -m training.evaluate --model resources/models/hangtag_det.onnx --data datasets/heldout
    python -m training.evaluate --model resources/models/hangtag_det.onnx --bench resources/samples --quiet 0.08

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


def _busy_jiffies() -> tuple[int, int]:
    fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    return sum(fields) - fields[3] - fields[4], sum(fields)


def bench(model: Path, folder: Path, frames: int, threads_list: list[int], *, quiet: float | None = None,
          limit_s: float = 900.0, burst: int = 40) -> dict:
    """End-to-end detection time through the station's Pipeline at its default thresholds.

    Modes are interleaved in bursts of `burst` frames. With `quiet`, a burst counts only if other
    processes used less than that share of the machine's CPU meanwhile (Linux): on a shared VM
    that is what separates our latency from the neighbours'."""
    import onnxruntime as ort

    from inference.imageio import list_images
    from inference.pipeline import Pipeline

    images = [cv2.imread(str(p), cv2.IMREAD_COLOR) for p in list_images(folder)]
    out: dict = {"machine": f"{platform.machine()}, {_cpu_name()}, {_cores()} cores",
                 "onnxruntime": ort.__version__, "opencv": cv2.__version__,
                 "image_sizes": sorted({f"{i.shape[1]}x{i.shape[0]}" for i in images}),
                 "quiet_filter": quiet, "load_average_before": [round(x, 2) for x in os.getloadavg()]}
    tick = os.sysconf("SC_CLK_TCK")
    with contextlib.ExitStack() as stack:
        pipelines = {t: stack.enter_context(Pipeline.open(model, backend="onnxruntime-cpu", threads=t))
                     for t in threads_list}
        for pipeline in pipelines.values():
            for image in images[:5]:
                pipeline.process(image)
        kept = {t: {"total": [], "cpu": [], "stages": {}, "bursts": 0, "run": 0} for t in threads_list}
        deadline, n = time.time() + limit_s, 0
        while time.time() < deadline and min(len(k["total"]) for k in kept.values()) < frames:
            for threads, pipeline in pipelines.items():
                busy0, all0 = _busy_jiffies()
                cpu0 = time.process_time()
                batch = []
                for _ in range(burst):
                    c = time.process_time()
                    result = pipeline.process(images[n % len(images)], source_name=f"bench{n}")
                    batch.append((result.timings, (time.process_time() - c) * 1000))
                    n += 1
                busy1, all1 = _busy_jiffies()
                others = ((busy1 - busy0) - (time.process_time() - cpu0) * tick) / max(1, all1 - all0)
                k = kept[threads]
                k["run"] += 1
                if quiet is not None and others >= quiet:
                    continue
                k["bursts"] += 1
                for timings, cpu_ms in batch:
                    k["total"].append(timings.total_ms)
                    k["cpu"].append(cpu_ms)
                    for stage, ms in timings.stages_ms.items():
                        k["stages"].setdefault(stage, []).append(ms)
            if quiet is not None:
                time.sleep(0.5)
    for threads, k in kept.items():
        entry: dict = {"frames": len(k["total"]), "bursts_kept": k["bursts"], "bursts_run": k["run"]}
        if k["total"]:
            entry.update({
                "p50_ms": round(float(np.percentile(k["total"], 50)), 2),
                "p95_ms": round(float(np.percentile(k["total"], 95)), 2),
                # CPU seconds the process spent per frame: what neighbours' load inflates least
                "cpu_p50_ms": round(float(np.percentile(k["cpu"], 50)), 2),
                "stages_p50_ms": {s: round(float(np.percentile(v, 50)), 2) for s, v in k["stages"].items()},
            })
        out[f"threads={threads}"] = entry
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
    parser.add_argument("--frames", type=int, default=200, help="frames to time per thread count")
    parser.add_argument("--quiet", type=float, help="keep only bursts where other processes used < this CPU share")
    parser.add_argument("--limit-s", type=float, default=900.0, help="give up timing after this long")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--json", type=Path, help="also write the report here")
    args = parser.parse_args(argv)
    report: dict = {"model": str(args.model)}
    if args.data:
        report["accuracy"] = score(args.model, args.data, max(args.threads))
    if args.bench:
        report["latency"] = bench(args.model, args.bench, args.frames, args.threads, quiet=args.quiet,
                                  limit_s=args.limit_s)
    text = json.dumps(report, indent=1, ensure_ascii=False)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
