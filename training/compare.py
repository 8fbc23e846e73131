"""Compare detectors on one labelled set: COCO AP50 per class (and per design), and what an operator
sees at the station's defaults (confidence 0.25, class-wise NMS 0.45, IoU 0.5 matching): tag recall and
precision, false tag boxes per 100 frames with no tag, barcode precision.

    python -m training.compare --models resources/models/hangtag_det.onnx runs/wide/hangtag_det.onnx \\
        --data datasets/wide-heldout [--by-design] [--json out.json]

`--data` is a folder from `python -m training.synth` (annotations.json, images/) or any folder of
images with YOLO labels (labels/NAME.txt beside or under it), or the independent set from
`python -m training.tagsets` (truth.jsonl). `--by-design` groups images by their design (the tagset's
own, or the wide domain's held-out design of each scene: training.synth.wide_scene.held_out_design).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from inference.preprocess import Letterboxer
from training.evaluate import decode

NAMES = ("hangtag", "barcode", "qr_code")


def _truth(data: Path) -> list[dict]:
    """[{id, path, boxes (N,4) xyxy, classes (N,)}] from annotations.json or YOLO labels."""
    coco = data / "annotations.json"
    image_dir = data / "images" if (data / "images").is_dir() else data
    if (data / "truth.jsonl").is_file():  # python -m training.tagsets (the independent set)
        out = []
        for i, line in enumerate((data / "truth.jsonl").read_text().splitlines()):
            row = json.loads(line)
            boxes, classes = [], []
            for tag in row["tags"]:
                boxes.append(tag["xyxy"])
                classes.append(0)
                boxes += [s["xyxy"] for s in tag.get("barcodes", [])]
                classes += [1] * len(tag.get("barcodes", []))
                boxes += [s["xyxy"] for s in tag.get("qr", [])]
                classes += [2] * len(tag.get("qr", []))
            name = Path(row["image"]).name
            out.append({"id": i, "path": image_dir / name, "boxes": np.array(boxes, np.float32).reshape(-1, 4),
                        "classes": np.array(classes, int), "design": row.get("design", "")})
        return out
    if coco.is_file():
        doc = json.loads(coco.read_text())
        per: dict[int, list] = {}
        for a in doc["annotations"]:
            per.setdefault(a["image_id"], []).append(a)
        out = []
        for info in doc["images"]:
            anns = per.get(info["id"], [])
            boxes = np.array([[a["bbox"][0], a["bbox"][1], a["bbox"][0] + a["bbox"][2], a["bbox"][1] + a["bbox"][3]]
                              for a in anns], np.float32).reshape(-1, 4)
            out.append({"id": int(info["id"]), "path": image_dir / info["file_name"], "boxes": boxes,
                        "classes": np.array([a["category_id"] for a in anns], int)})
        return out
    from inference.imageio import list_images

    out = []
    for i, path in enumerate(list_images(image_dir)):
        label = next((p for p in (path.parent / "labels" / f"{path.stem}.txt", data / "labels" / f"{path.stem}.txt",
                                  path.with_suffix(".txt")) if p.is_file()), None)
        rows = np.loadtxt(label, ndmin=2, dtype=np.float32) if label and label.stat().st_size else np.zeros((0, 5), np.float32)
        h, w = cv2.imread(str(path), cv2.IMREAD_COLOR).shape[:2]
        cx, cy, bw, bh = rows[:, 1] * w, rows[:, 2] * h, rows[:, 3] * w, rows[:, 4] * h
        out.append({"id": i, "path": path, "boxes": np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], 1),
                    "classes": rows[:, 0].astype(int)})
    return out


def _iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    iw = np.clip(np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0]), 0, None)
    ih = np.clip(np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1]), 0, None)
    inter = iw * ih
    area = lambda x: (x[:, 2] - x[:, 0]) * (x[:, 3] - x[:, 1])  # noqa: E731
    return inter / (area(a)[:, None] + area(b)[None, :] - inter + 1e-9)


def _match(det: np.ndarray, truth: np.ndarray) -> int:
    """Detections (sorted by score) matched to truth at IoU >= 0.5, each truth once."""
    if not len(det) or not len(truth):
        return 0
    iou = _iou(det, truth)
    used = np.zeros(len(truth), bool)
    found = 0
    for row in iou:
        row = np.where(used, -1, row)
        j = int(row.argmax())
        if row[j] >= 0.5:
            used[j] = True
            found += 1
    return found


def run(model: Path, items: list[dict], threads: int = 2) -> tuple[list[dict], dict]:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    session = ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"])
    letterbox = Letterboxer(tuple(session.get_inputs()[0].shape[2:]))
    coco_results = []
    tally = {n: {"truth": 0, "detections": 0, "found": 0} for n in NAMES}
    no_tag_frames = false_tags_no_tag = 0
    for item in items:
        image = cv2.imread(str(item["path"]), cv2.IMREAD_COLOR)
        transform = letterbox(image)
        raw = session.run(None, {session.get_inputs()[0].name: letterbox.tensor})[0][0]
        xyxy, scores, classes = decode(raw, 0.001, 0.6, 100)
        xyxy = transform.to_original(xyxy)
        for box, s, c in zip(xyxy.tolist(), scores.tolist(), classes.tolist()):
            coco_results.append({"image_id": item["id"], "category_id": int(c), "score": float(s),
                                 "bbox": [box[0], box[1], box[2] - box[0], box[3] - box[1]]})
        oxyxy, oscores, oclasses = decode(raw, 0.25, 0.45, 300)
        oxyxy = transform.to_original(oxyxy)
        for c, name in enumerate(NAMES):
            det = oxyxy[oclasses == c]
            truth = item["boxes"][item["classes"] == c]
            tally[name]["truth"] += len(truth)
            tally[name]["detections"] += len(det)
            tally[name]["found"] += _match(det, truth)
        if not (item["classes"] == 0).any():
            no_tag_frames += 1
            false_tags_no_tag += int((oclasses == 0).sum())
    view = {}
    for name, t in tally.items():
        view[name] = {"recall": round(t["found"] / t["truth"], 4) if t["truth"] else None,
                      "precision": round(t["found"] / t["detections"], 4) if t["detections"] else None, **t}
    view["frames"] = len(items)
    view["frames_without_tag"] = no_tag_frames
    view["false_tags_per_100_frames_without_tag"] = round(100 * false_tags_no_tag / no_tag_frames, 2) if no_tag_frames else None
    return coco_results, view


def ap50(items: list[dict], results: list[dict], image_ids: set[int] | None = None) -> dict:
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    chosen = [i for i in items if image_ids is None or i["id"] in image_ids]
    anns, k = [], 0
    for item in chosen:
        for box, c in zip(item["boxes"].tolist(), item["classes"].tolist()):
            k += 1
            anns.append({"id": k, "image_id": item["id"], "category_id": int(c), "iscrowd": 0,
                         "bbox": [box[0], box[1], box[2] - box[0], box[3] - box[1]], "area": (box[2] - box[0]) * (box[3] - box[1])})
    doc = {"images": [{"id": i["id"]} for i in chosen], "annotations": anns,
           "categories": [{"id": c, "name": n} for c, n in enumerate(NAMES)]}
    with contextlib.redirect_stdout(io.StringIO()):
        gt = COCO()
        gt.dataset = doc
        gt.createIndex()
        mine = [r for r in results if image_ids is None or r["image_id"] in image_ids]
        if not mine:
            return {n: 0.0 for n in NAMES}
        det = gt.loadRes(mine)
        ev = COCOeval(gt, det, "bbox")
        ev.params.imgIds = [i["id"] for i in chosen]
        ev.evaluate()
        ev.accumulate()
    out = {}
    for c, name in enumerate(NAMES):
        p = ev.eval["precision"][0, :, c, 0, -1]
        out[name] = round(float(p[p > -1].mean()), 4) if (p > -1).any() else None
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.compare", description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=Path, nargs="+", required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--by-design", action="store_true", help="AP50 per held-out design of the wide domain")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--operator-only", action="store_true",
                        help="only what an operator sees (no COCO AP50, so no pycocotools needed: a quick check on a GPU lease)")
    args = parser.parse_args(argv)
    items = _truth(args.data)[:args.limit]
    report: dict = {"data": str(args.data), "images": len(items), "models": {}}
    groups: dict[str, set[int]] = {}
    if args.by_design:
        for item in items:
            if "design" not in item:
                from training.synth.wide_scene import held_out_design

                item["design"] = held_out_design(item["id"]).name
            groups.setdefault(item["design"], set()).add(item["id"])
    for model in args.models:
        results, view = run(model, items, args.threads)
        entry = {"AP50": None if args.operator_only else ap50(items, results), "operator": view}
        if groups and not args.operator_only:
            entry["AP50_by_design"] = {g: ap50(items, results, ids) for g, ids in sorted(groups.items())}
        report["models"][str(model)] = entry
        o = view
        print(f"{model}: AP50 {entry['AP50']} | tags R {o['hangtag']['recall']} P {o['hangtag']['precision']} | "
              f"false tags /100 no-tag frames {o['false_tags_per_100_frames_without_tag']} | "
              f"barcode R {o['barcode']['recall']} P {o['barcode']['precision']}", flush=True)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
