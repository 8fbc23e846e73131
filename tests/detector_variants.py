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


def cut_box_candidate(directory: Path, scale: float = 0.2):
    """A candidate folder as `hangtag-inspect adapt` writes it, holding the shipped detector with cut boxes."""
    import json
    from dataclasses import asdict

    from inference.adapt.finetune import Candidate
    from inference.records.convert import file_hash
    from inference.resources import default_model_path

    model = shrunk_boxes_model(default_model_path(), Path(directory) / "hangtag_det.onnx", scale)
    candidate = Candidate(Path(directory), model, default_model_path(), file_hash(default_model_path()),
                          file_hash(model), 1, 1, "cpu", 0.0)
    record = {k: (str(v) if isinstance(v, Path) else v) for k, v in asdict(candidate).items()}
    (Path(directory) / "training.json").write_text(json.dumps(record, indent=1), encoding="utf-8")
    return candidate


def kept_twice(root: Path, image: Path) -> tuple:
    """An Adapt folder holding `image` (a golden sample) twice with its truth boxes: one copy is held out."""
    import json

    from inference.adapt.folder import HELD_OUT, AdaptFolder, Box

    truth = json.loads((image.parent / "truth" / f"{image.stem}.json").read_text(encoding="utf-8"))
    boxes = []
    for tag in truth["tags"]:
        boxes.append(Box(tuple(tag["xyxy"]), 0))
        boxes += [Box(tuple(s["xyxy"]), s["class_id"]) for s in tag["symbols"]]
    folder = AdaptFolder(root)
    for _ in range(2):
        kept = folder.keep_file(image, origin=str(image))
        folder.set_boxes(kept.id, boxes, corrected=True)
    folder.assign_split(0.5)
    return folder, Path(folder.corrected(HELD_OUT)[0].file_name).name
