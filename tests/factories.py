"""Small real ONNX detectors built with onnx.helper, and images to feed them.

`blob_detector` is a genuine (if simple) detector: it scores every 8×8 cell of the input by
brightness (class "bright") or darkness (class "dark") and emits YOLOv8-layout boxes, so the
pipeline runs end to end on a model whose right answers we know.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

CELL = 8
BOX = 16


def _anchor_boxes(h: int, w: int) -> np.ndarray:
    gy, gx = np.mgrid[0:h // CELL, 0:w // CELL]
    cx = (gx.ravel() + 0.5) * CELL
    cy = (gy.ravel() + 0.5) * CELL
    size = np.full_like(cx, BOX, dtype=np.float64)
    return np.stack([cx, cy, size, size])[None].astype(np.float32)  # (1, 4, A)


def blob_detector(path: Path, size: int = 64, *, layout: str = "yolov8", names: dict | None = None,
                  dynamic: bool = False, metadata: bool = True) -> Path:
    names = names if names is not None else {0: "bright", 1: "dark"}
    h = w = size
    in_dims: list = ["batch", 3, "height", "width"] if dynamic else [1, 3, h, w]
    nodes = [
        helper.make_node("ReduceMean", ["images", "axes1"], ["gray"], keepdims=1),
        helper.make_node("AveragePool", ["gray"], ["pooled"], kernel_shape=[CELL, CELL], strides=[CELL, CELL]),
        helper.make_node("Reshape", ["pooled", "flat_shape"], ["flat"]),
        helper.make_node("Sub", ["flat", "half"], ["centered"]),
        helper.make_node("Neg", ["centered"], ["neg_centered"]),
        helper.make_node("Relu", ["centered"], ["bright_raw"]),
        helper.make_node("Relu", ["neg_centered"], ["dark_raw"]),
        helper.make_node("Mul", ["bright_raw", "two"], ["bright"]),
        helper.make_node("Mul", ["dark_raw", "two"], ["dark"]),
        helper.make_node("Concat", ["boxes", "bright", "dark"], ["output0"], axis=1),
    ]
    inits = [
        numpy_helper.from_array(np.array([1], np.int64), "axes1"),
        numpy_helper.from_array(np.array([1, 1, -1], np.int64), "flat_shape"),
        numpy_helper.from_array(np.array(0.5, np.float32), "half"),
        numpy_helper.from_array(np.array(2.0, np.float32), "two"),
        numpy_helper.from_array(_anchor_boxes(h, w), "boxes"),
    ]
    out_name = "output0"
    if layout == "yolov5":  # [1, A, 5+C]: objectness 1, then class scores
        nodes[-1] = helper.make_node("Concat", ["boxes", "ones", "bright", "dark"], ["cat"], axis=1)
        nodes.append(helper.make_node("Transpose", ["cat"], [out_name], perm=[0, 2, 1]))
        inits.append(numpy_helper.from_array(np.ones((1, 1, (h // CELL) * (w // CELL)), np.float32), "ones"))
    a = (h // CELL) * (w // CELL)
    out_shape = [1, 4 + 2, a] if layout == "yolov8" else [1, a, 5 + 2]
    graph = helper.make_graph(nodes, "blob_detector",
                              [helper.make_tensor_value_info("images", TensorProto.FLOAT, in_dims)],
                              [helper.make_tensor_value_info(out_name, TensorProto.FLOAT, out_shape)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 9
    if metadata:
        for key, value in {"names": repr(names), "imgsz": f"[{h}, {w}]", "stride": "8", "task": "detect"}.items():
            entry = model.metadata_props.add()
            entry.key, entry.value = key, value
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return path


def flat_output_model(path: Path, size: int = 64) -> Path:
    """A model whose output is [1, 7]: matches no detection layout."""
    nodes = [helper.make_node("ReduceMean", ["images", "axes"], ["m"], keepdims=0),
             helper.make_node("Tile", ["m", "reps"], ["output0"])]
    inits = [numpy_helper.from_array(np.array([2, 3], np.int64), "axes"),
             numpy_helper.from_array(np.array([1, 7 // 3 + 1], np.int64), "reps")]
    graph = helper.make_graph(nodes, "flat", [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, size, size])],
                              [helper.make_tensor_value_info("output0", TensorProto.FLOAT, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 9
    onnx.save(model, str(path))
    return path


def scene_with_squares(h: int, w: int, squares: list[tuple[int, int, int]], background: int = 114) -> np.ndarray:
    """A gray BGR image with white squares (x, y, side): what blob_detector calls 'bright'."""
    image = np.full((h, w, 3), background, np.uint8)
    for x, y, side in squares:
        image[y:y + side, x:x + side] = 255
    return image


def write_image(path: Path, image: np.ndarray) -> Path:
    ok, data = cv2.imencode(path.suffix or ".png", image)
    assert ok
    data.tofile(str(path))
    return path


def skip_without_tag_scenes() -> None:
    """Synthetic hangtag scenes need training.tagsets' CJK fonts, and inspecting them the shipped detector:
    a skip naming which is missing."""
    import pytest

    from inference.resources import default_model_path

    fonts = pytest.importorskip("training.tagsets.fonts")
    try:
        fonts.font_files()
    except fonts.FontsMissingError:
        pytest.skip("CJK fonts for training.tagsets are not installed (make system-deps)")
    if not default_model_path().is_file():
        pytest.skip(f"the shipped detector is absent: {default_model_path()}")


def conveyor_recording(out: Path) -> dict:
    """4.8 s of two good tags passing a 640×360 camera (line.avi, recipe.toml in `out`); returns the truth."""
    skip_without_tag_scenes()
    from training.conveyor import Plan, generate

    return generate(out, Plan(seconds=4.8, spacing=(1.1, 1.1), seed=7, width=640, height=360,
                              defect_share=0.0, edge_share=0.0))


def tagset_card(design: str, seed: int, px_per_mm: float, names: tuple[str, ...]):
    """One card of training.tagsets' `design` on a grey ground, its true tag and code boxes as detections, and a
    recipe of its printed `names`: (frame, detections, recipe). Call skip_without_tag_scenes() first."""
    from inference.detections import Detections
    from inference.reading.recipe import parse_recipe
    from training.tagsets.designs import DESIGNS
    from training.tagsets.values import random_values

    art = DESIGNS[design](seed, random_values(np.random.default_rng(seed)), px_per_mm)
    h, w = art.rgba.shape[:2]
    frame = np.full((h + 80, w + 80, 3), 96, np.uint8)
    alpha = art.rgba[:, :, 3:4].astype(np.float32) / 255.0
    frame[40:40 + h, 40:40 + w] = (art.rgba[:, :, :3][:, :, ::-1] * alpha + 96 * (1 - alpha)).astype(np.uint8)
    boxes = [[40, 40, 40 + w, 40 + h]] + [[40 + c.box[0], 40 + c.box[1], 40 + c.box[2], 40 + c.box[3]] for c in art.barcodes]
    detections = Detections(np.array(boxes, np.float32), np.ones(len(boxes), np.float32),
                            np.array([0] + [1] * len(art.barcodes)), ("hangtag", "barcode", "qr_code"))
    recipe = parse_recipe("[counts]\nhangtag = 1\n[fields]\n" + "".join(f'{n} = "{art.fields[n]}"\n' for n in names))
    return frame, detections, recipe
