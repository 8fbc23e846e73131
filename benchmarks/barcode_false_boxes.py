"""What each unmatched barcode box sits on, at the station's thresholds, on a labelled set.

    nice .venv/bin/python benchmarks/barcode_false_boxes.py --model resources/models/hangtag_det.onnx \\
        --data /tmp/i17/tagset [--crops DIR] [--json out.json]

Every barcode box that matches no truth barcode (confidence 0.25, class-wise NMS 0.45, IoU 0.5, each truth
once, in score order: training.compare's count) gets a kind from its overlap with the truth:

- `duplicate`: IoU >= 0.5 with a truth barcode another box already took (two boxes on one code);
- `extent`: IoU 0.3-0.5 with a truth barcode (`wider` when the box holds >= 90 % of the code: bars plus
  digits or quiet zone; `narrower` when the box lies >= 90 % inside it; else `shifted`);
- `part`: IoU < 0.3 but >= 60 % inside a truth barcode (a code cut in pieces);
- `qr`: on a truth QR code (IoU >= 0.3 or >= 50 % inside it);
- `on_tag`: inside a truth tag (>= 50 %), none of the above: print, a panel, digits away from the bars;
- `background`: outside every tag.

With `--crops`, each box is saved with its surroundings (box in red, truth barcodes in green, QR in blue),
to look at. Issue 17, 2026-12-02: why barcode precision on the independent set is 0.85.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from benchmarks.tag_false_boxes import detected
from training.compare import _iou, _truth


def _share_inside(box: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Share of `box`'s area inside each of `others`."""
    if not len(others):
        return np.zeros(0)
    iw = np.clip(np.minimum(box[2], others[:, 2]) - np.maximum(box[0], others[:, 0]), 0, None)
    ih = np.clip(np.minimum(box[3], others[:, 3]) - np.maximum(box[1], others[:, 1]), 0, None)
    return iw * ih / max(float((box[2] - box[0]) * (box[3] - box[1])), 1e-9)


def _held(box: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Share of each of `others` inside `box`."""
    if not len(others):
        return np.zeros(0)
    iw = np.clip(np.minimum(box[2], others[:, 2]) - np.maximum(box[0], others[:, 0]), 0, None)
    ih = np.clip(np.minimum(box[3], others[:, 3]) - np.maximum(box[1], others[:, 1]), 0, None)
    return iw * ih / np.maximum((others[:, 2] - others[:, 0]) * (others[:, 3] - others[:, 1]), 1e-9)


def kind_of(box: np.ndarray, barcodes: np.ndarray, taken: np.ndarray, qr: np.ndarray, tags: np.ndarray) -> tuple[str, dict]:
    iou = _iou(box[None], barcodes)[0] if len(barcodes) else np.zeros(0)
    inside = _share_inside(box, barcodes)
    held = _held(box, barcodes)
    facts = {"best_iou": round(float(iou.max()), 3) if len(iou) else 0.0,
             "inside_barcode": round(float(inside.max()), 3) if len(inside) else 0.0,
             "holds_barcode": round(float(held.max()), 3) if len(held) else 0.0,
             "inside_qr": round(float(_share_inside(box, qr).max()), 3) if len(qr) else 0.0,
             "qr_iou": round(float(_iou(box[None], qr)[0].max()), 3) if len(qr) else 0.0,
             "inside_tag": round(float(_share_inside(box, tags).max()), 3) if len(tags) else 0.0}
    if len(iou):
        j = int(iou.argmax())
        if iou[j] >= 0.5 and taken[j]:
            return "duplicate", facts
        if iou[j] >= 0.3:
            sub = "wider" if held[j] >= 0.9 else "narrower" if inside[j] >= 0.9 else "shifted"
            return f"extent/{sub}", facts
        if inside.max() >= 0.6:
            return "part", facts
    if facts["qr_iou"] >= 0.3 or facts["inside_qr"] >= 0.5:
        return "qr", facts
    if facts["inside_tag"] >= 0.5:
        return "on_tag", facts
    return "background", facts


def _crop(image: np.ndarray, box: np.ndarray, barcodes: np.ndarray, qr: np.ndarray, path: Path) -> None:
    view = image.copy()
    for b in barcodes:
        cv2.rectangle(view, (int(b[0]), int(b[1])), (int(b[2]), int(b[3])), (0, 200, 0), 1)
    for b in qr:
        cv2.rectangle(view, (int(b[0]), int(b[1])), (int(b[2]), int(b[3])), (255, 120, 0), 1)
    cv2.rectangle(view, (int(box[0]), int(box[1])), (int(box[2]), int(box[3])), (0, 0, 255), 1)
    w, h = box[2] - box[0], box[3] - box[1]
    pad = max(w, h) * 0.8 + 20
    x1, y1 = max(0, int(box[0] - pad)), max(0, int(box[1] - pad))
    x2, y2 = min(view.shape[1], int(box[2] + pad)), min(view.shape[0], int(box[3] + pad))
    part = view[y1:y2, x1:x2]
    scale = 400 / max(part.shape[:2])
    if scale > 1:
        part = cv2.resize(part, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
    cv2.imwrite(str(path), part)


def unmatched(model: Path, items: list[dict], crops: Path | None = None) -> list[dict]:
    out = []
    for item, xyxy, scores, classes in detected(model, items):
        det, det_s = xyxy[classes == 1], scores[classes == 1]
        truth = item["boxes"][item["classes"] == 1]
        qr = item["boxes"][item["classes"] == 2]
        tags = item["boxes"][item["classes"] == 0]
        taken = np.zeros(len(truth), bool)
        iou = _iou(det, truth) if len(det) and len(truth) else np.zeros((len(det), len(truth)))
        misses = []
        for k in range(len(det)):
            if len(truth):
                row = np.where(taken, -1, iou[k])
                j = int(row.argmax())
                if row[j] >= 0.5:
                    taken[j] = True
                    continue
            misses.append(k)
        for k in misses:
            kind, facts = kind_of(det[k], truth, taken, qr, tags)
            b = det[k]
            entry = {"image": Path(item["path"]).name, "design": item.get("design", ""), "kind": kind,
                     "score": round(float(det_s[k]), 3), "xyxy": [round(float(v), 1) for v in b],
                     "wh": [round(float(b[2] - b[0])), round(float(b[3] - b[1]))], **facts}
            if crops is not None:
                crops.mkdir(parents=True, exist_ok=True)
                name = f"{kind.replace('/', '-')}_{Path(item['path']).stem}_{k}.png"
                _crop(cv2.imread(str(item["path"]), cv2.IMREAD_COLOR), b, truth, qr, crops / name)
                entry["crop"] = name
            out.append(entry)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--crops", type=Path)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    items = _truth(args.data)
    rows = unmatched(args.model, items, args.crops)
    print(f"{args.model}: {len(rows)} unmatched barcode boxes on {len(items)} frames")
    for (kind, count) in Counter(r["kind"] for r in rows).most_common():
        designs = Counter(r["design"] for r in rows if r["kind"] == kind)
        print(f"  {kind:18s} {count:3d}  {dict(designs)}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(rows, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
