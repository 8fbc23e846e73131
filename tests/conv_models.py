"""Small YOLOv8-layout convolutional detectors built with onnx.helper, for precision tests.

Random (seeded) weights: the point is a real conv graph whose Q/DQ and FP16 forms can be
compared with FP32, not a detector that finds anything. Output [1, 4 + C, A]: pixel-scale boxes
and 0..1 scores in one tensor, like the shipped model.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def _conv(nodes, inits, rng, name, x, cin, cout, k=3, stride=1, act=True):
    w = rng.normal(0.0, np.sqrt(2.0 / (cin * k * k)), (cout, cin, k, k)).astype(np.float32)
    b = rng.normal(0.0, 0.05, cout).astype(np.float32)
    inits += [numpy_helper.from_array(w, f"{name}.w"), numpy_helper.from_array(b, f"{name}.b")]
    nodes.append(helper.make_node("Conv", [x, f"{name}.w", f"{name}.b"], [f"{name}.conv"], name=f"{name}/Conv",
                                  kernel_shape=[k, k], strides=[stride, stride], pads=[k // 2] * 4))
    if not act:
        return f"{name}.conv"
    nodes.append(helper.make_node("Sigmoid", [f"{name}.conv"], [f"{name}.sig"], name=f"{name}/Sigmoid"))
    nodes.append(helper.make_node("Mul", [f"{name}.conv", f"{name}.sig"], [f"{name}.out"], name=f"{name}/Mul"))
    return f"{name}.out"


def conv_detector(path: Path, size: int = 64, *, classes: int = 3, widths: tuple[int, ...] = (8, 16, 32),
                  seed: int = 0, names: list[str] | None = None, dynamic: bool = False) -> Path:
    """Backbone of stride-2 conv+SiLU blocks, one head at stride 2**len(widths)."""
    rng = np.random.default_rng(seed)
    nodes: list = []
    inits: list = []
    x, cin = "images", 3
    for i, width in enumerate(widths):
        x = _conv(nodes, inits, rng, f"backbone.{i}", x, cin, width, stride=2)
        x = _conv(nodes, inits, rng, f"backbone.{i}.b", x, width, width)
        cin = width
    stride = 2 ** len(widths)
    grid = size // stride
    anchors = grid * grid
    box = _conv(nodes, inits, rng, "head.box", x, cin, 4, k=1, act=False)
    cls = _conv(nodes, inits, rng, "head.cls", x, cin, classes, k=1, act=False)
    gy, gx = np.mgrid[0:grid, 0:grid]
    centers = np.stack([(gx.ravel() + 0.5) * stride, (gy.ravel() + 0.5) * stride,
                        np.full(anchors, 2.0 * stride), np.full(anchors, 2.0 * stride)])[None].astype(np.float32)
    inits += [numpy_helper.from_array(np.array([1, 4, anchors], np.int64), "box_shape"),
              numpy_helper.from_array(np.array([1, classes, anchors], np.int64), "cls_shape"),
              numpy_helper.from_array(centers, "anchors"),
              numpy_helper.from_array(np.array(float(stride), np.float32), "stride")]
    nodes += [
        helper.make_node("Reshape", [box, "box_shape"], ["box_flat"], name="decode/ReshapeBox"),
        helper.make_node("Tanh", ["box_flat"], ["box_t"], name="decode/Tanh"),
        helper.make_node("Mul", ["box_t", "stride"], ["box_off"], name="decode/Mul"),
        helper.make_node("Add", ["box_off", "anchors"], ["boxes"], name="decode/Add"),
        helper.make_node("Reshape", [cls, "cls_shape"], ["cls_flat"], name="decode/ReshapeCls"),
        helper.make_node("Sigmoid", ["cls_flat"], ["scores"], name="decode/Sigmoid"),
        helper.make_node("Concat", ["boxes", "scores"], ["output0"], name="decode/Concat", axis=1),
    ]
    in_dims: list = ["batch", 3, "height", "width"] if dynamic else [1, 3, size, size]
    graph = helper.make_graph(nodes, "conv_detector",
                              [helper.make_tensor_value_info("images", TensorProto.FLOAT, in_dims)],
                              [helper.make_tensor_value_info("output0", TensorProto.FLOAT, [1, 4 + classes, anchors])],
                              inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 9
    names = names or [f"class_{i}" for i in range(classes)]
    for key, value in {"names": repr(dict(enumerate(names))), "imgsz": f"[{size}, {size}]",
                       "stride": str(stride), "task": "detect"}.items():
        entry = model.metadata_props.add()
        entry.key, entry.value = key, value
    onnx.checker.check_model(model)
    onnx.save(model, str(path))
    return path


def random_images(folder: Path, count: int, size: int = 96, seed: int = 0) -> Path:
    """Noisy images with bright rectangles, written as PNG: enough texture to calibrate on."""
    import cv2

    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    for i in range(count):
        image = rng.integers(60, 180, (size, size + 16, 3), dtype=np.uint8)
        x, y = rng.integers(0, size // 2, 2)
        image[y:y + size // 3, x:x + size // 3] = 250
        cv2.imwrite(str(folder / f"calib_{i:03d}.png"), image)
    return folder
