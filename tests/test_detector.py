"""The shipped detector: what its ONNX file promises, and that it still finds what the demo
scenes contain. Runs through the station's own Pipeline at its default thresholds."""

from __future__ import annotations

import ast
import json

import numpy as np
import pytest

from inference.resources import default_model_path, samples_dir

onnx = pytest.importorskip("onnx")

CLASSES = {0: "hangtag", 1: "barcode", 2: "qr_code"}
REQUIRED_RECALL = 0.95


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    iw = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    ih = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = iw * ih
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def _sample_truth() -> dict[str, list[tuple[int, np.ndarray]]]:
    coco = json.loads((samples_dir() / "annotations.json").read_text())
    names = {img["id"]: img["file_name"] for img in coco["images"]}
    truth: dict[str, list[tuple[int, np.ndarray]]] = {name: [] for name in names.values()}
    for a in coco["annotations"]:
        x, y, w, h = a["bbox"]
        truth[names[a["image_id"]]].append((a["category_id"], np.array([x, y, x + w, y + h])))
    return truth


def test_model_file_carries_yolo_style_metadata_and_output() -> None:
    path = default_model_path()
    assert path.stat().st_size <= 12 * 1024 * 1024
    model = onnx.load(str(path))
    meta = {p.key: p.value for p in model.metadata_props}
    assert ast.literal_eval(meta["names"]) == CLASSES
    assert ast.literal_eval(meta["imgsz"]) == [640, 640]
    assert (meta["stride"], meta["task"]) == ("32", "detect")
    assert max(o.version for o in model.opset_import if o.domain in ("", "ai.onnx")) >= 17
    dims = [d.dim_value or d.dim_param for d in model.graph.output[0].type.tensor_type.shape.dim]
    assert dims[1:] == [4 + len(CLASSES), 80 * 80 + 40 * 40 + 20 * 20]


def test_samples_folder_is_small_and_fully_labelled() -> None:
    images = sorted(samples_dir().glob("*.jpg"))
    assert 20 <= len(images) <= 30
    assert sum(p.stat().st_size for p in samples_dir().rglob("*") if p.is_file()) <= 4 * 1024 * 1024
    for image in images:
        assert (samples_dir() / "labels" / f"{image.stem}.txt").is_file()
        assert (samples_dir() / "truth" / f"{image.stem}.json").is_file()
    assert set(_sample_truth()) == {p.name for p in images}


def test_shipped_model_finds_the_sample_hangtags_and_barcodes() -> None:
    cv2 = pytest.importorskip("cv2")
    from inference.pipeline import Pipeline

    truth = _sample_truth()
    found = {c: 0 for c in CLASSES}
    total = {c: 0 for c in CLASSES}
    false_alarms = 0
    with Pipeline.open(default_model_path(), backend="onnxruntime-cpu") as pipeline:
        for name, objects in truth.items():
            image = cv2.imread(str(samples_dir() / name), cv2.IMREAD_COLOR)
            detections = pipeline.process(image, source_name=name).detections
            used: set[int] = set()
            for class_id, box in objects:
                total[class_id] += 1
                candidates = [(_iou(box, detections.xyxy[k]), k) for k in range(len(detections))
                              if detections.class_id[k] == class_id and k not in used]
                best_iou, best = max(candidates, default=(0.0, -1))
                if best_iou >= 0.5:
                    found[class_id] += 1
                    used.add(best)
            false_alarms += len(detections) - len(used)
    for class_id in (0, 1):  # hangtag, barcode
        recall = found[class_id] / total[class_id]
        assert recall >= REQUIRED_RECALL, f"{CLASSES[class_id]}: found {found[class_id]} of {total[class_id]}"
    n_truth = sum(total.values())
    assert false_alarms <= 0.05 * n_truth, f"{false_alarms} detections match no labelled object ({n_truth} labelled)"
