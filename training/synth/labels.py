"""Ground truth on disk: YOLO txt per image, one COCO json per folder, tag fields per image.

COCO category ids equal the YOLO class ids (0 = hangtag), so one table serves both.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import cv2
import numpy as np

from training.synth.scene import Scene
from training.synth.tag import CLASS_NAMES


def yolo_lines(scene: Scene) -> str:
    h, w = scene.image.shape[:2]
    lines = []
    for (x1, y1, x2, y2), c in zip(scene.xyxy.tolist(), scene.class_id.tolist()):
        lines.append(f"{c} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} {(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}")
    return "".join(line + "\n" for line in lines)


def truth_json(scene: Scene, file_name: str) -> dict:
    h, w = scene.image.shape[:2]
    return {"file_name": file_name, "seed": int(scene.seed), "width": w, "height": h,
            "tags": [t.to_json() for t in scene.tags]}


def coco_records(scene: Scene, file_name: str) -> tuple[dict, list[dict]]:
    h, w = scene.image.shape[:2]
    image = {"id": int(scene.seed), "file_name": file_name, "width": w, "height": h}
    annotations = []
    for (x1, y1, x2, y2), c in zip(scene.xyxy.tolist(), scene.class_id.tolist()):
        annotations.append({"image_id": int(scene.seed), "category_id": int(c),
                            "bbox": [round(x1, 2), round(y1, 2), round(x2 - x1, 2), round(y2 - y1, 2)],
                            "area": round((x2 - x1) * (y2 - y1), 2), "iscrowd": 0})
    return image, annotations


def coco_document(images: list[dict], annotations: list[list[dict]]) -> dict:
    flat = [a for per_image in annotations for a in per_image]
    for i, a in enumerate(flat, start=1):
        a["id"] = i
    return {
        "info": {"description": "Hangtag Station synthetic scenes; category_id equals the YOLO class id"},
        "images": images,
        "annotations": flat,
        "categories": [{"id": i, "name": n} for i, n in enumerate(CLASS_NAMES)],
    }


def _atomic_write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def encode_jpeg(image: np.ndarray, quality: int) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return data.tobytes()


def write_scene(out: Path, scene: Scene, stem: str, quality: int, *, flat: bool = False) -> tuple[dict, list[dict]]:
    """Image first, label last: a reader that sees the label can trust the image is complete.
    `flat` puts images in `out` itself (a folder the station opens) instead of `out/images`."""
    file_name = f"{stem}.jpg"
    _atomic_write((out if flat else out / "images") / file_name, encode_jpeg(scene.image, quality))
    _atomic_write(out / "truth" / f"{stem}.json",
                  json.dumps(truth_json(scene, file_name), ensure_ascii=False, indent=1).encode())
    _atomic_write(out / "labels" / f"{stem}.txt", yolo_lines(scene).encode())
    return coco_records(scene, file_name)


def read_scene_records(out: Path, stem: str) -> tuple[dict, list[dict]]:
    """COCO records of an image written earlier, rebuilt from its truth file (resumed runs)."""
    truth = json.loads((out / "truth" / f"{stem}.json").read_text())
    image = {"id": truth["seed"], "file_name": truth["file_name"], "width": truth["width"], "height": truth["height"]}
    # From the YOLO file, which also holds boxes that belong to no tag (barcodes on packaging, wide domain).
    w, h = truth["width"], truth["height"]
    boxes = []
    for line in (out / "labels" / f"{stem}.txt").read_text().splitlines():
        c, cx, cy, bw, bh = line.split()
        cx, cy, bw, bh = float(cx) * w, float(cy) * h, float(bw) * w, float(bh) * h
        boxes.append(((cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2), int(c)))
    annotations = [{"image_id": truth["seed"], "category_id": int(c),
                    "bbox": [round(x1, 2), round(y1, 2), round(x2 - x1, 2), round(y2 - y1, 2)],
                    "area": round((x2 - x1) * (y2 - y1), 2), "iscrowd": 0} for (x1, y1, x2, y2), c in boxes]
    return image, annotations


def write_dataset_files(out: Path, images: list[dict], annotations: list[list[dict]], *, flat: bool = False) -> None:
    (out / "annotations.json").write_text(json.dumps(coco_document(images, annotations), indent=None if len(images) > 100 else 1))
    if not flat:
        names = "".join(f"  {i}: {n}\n" for i, n in enumerate(CLASS_NAMES))
        (out / "data.yaml").write_text(f"path: {out.resolve()}\ntrain: images\nval: images\nnames:\n{names}")
