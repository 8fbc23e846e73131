"""Real detectors that draw their boxes differently from the shipped one, made by editing its ONNX graph.

A candidate whose tag boxes are cut to a fraction of the tag (same centre) reads less of each tag, so
the station's verdicts change for a reason the Compare step has to show; no training is needed to get it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import helper, numpy_helper


def shrunk_boxes_model(source: Path, target: Path, scale: float) -> Path:
    """`source` with every box's width and height times `scale` (YOLOv8 output: cx, cy, w, h, class scores)."""
    model = onnx.load(str(source))
    output = model.graph.output[0]
    channels = output.type.tensor_type.shape.dim[1].dim_value
    for node in model.graph.node:
        for i, name in enumerate(node.output):
            if name == output.name:
                node.output[i] = "boxes_as_trained"
    factor = np.ones((1, channels, 1), np.float32)
    factor[0, 2:4, 0] = scale
    model.graph.initializer.append(numpy_helper.from_array(factor, "box_size_factor"))
    model.graph.node.append(helper.make_node("Mul", ["boxes_as_trained", "box_size_factor"], [output.name]))
    onnx.checker.check_model(model)
    target.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(target))
    return target
