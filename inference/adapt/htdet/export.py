"""HTDet -> ONNX with the metadata the station reads (YOLOv8-style output, names, imgsz, stride)."""

from __future__ import annotations

import warnings
from pathlib import Path

import onnx
import torch

from inference.adapt.htdet.net import ExportWrapper, HTDet


def export_onnx(model: HTDet, imgsz: int, path: Path, *, names: tuple[str, ...], dynamic_batch: bool = True,
                opset: int = 17, description: str = "HTDet hangtag/barcode/qr_code detector (Hangtag Station)") -> Path:
    model = model.float().eval().cpu()
    wrapper = ExportWrapper(model, imgsz).eval()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    dynamic = {"images": {0: "batch"}, "output0": {0: "batch"}} if dynamic_batch else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(wrapper, torch.zeros(1, 3, imgsz, imgsz), str(path), opset_version=opset,
                          input_names=["images"], output_names=["output0"], dynamic_axes=dynamic,
                          do_constant_folding=True, dynamo=False)
    proto = onnx.load(str(path))
    set_output_shape(proto, 4 + len(names), int(wrapper.points.shape[0]))
    meta = {
        "names": repr({i: n for i, n in enumerate(names)}),
        "imgsz": repr([imgsz, imgsz]),
        "stride": "32",
        "task": "detect",
        "description": description,
        "author": "Hangtag Station",
        "license": "Proprietary",
    }
    del proto.metadata_props[:]
    for key, value in meta.items():
        entry = proto.metadata_props.add()
        entry.key, entry.value = key, value
    proto.producer_name = "hangtag-station-training"
    onnx.checker.check_model(proto)
    onnx.save(proto, str(path))
    return path


def set_output_shape(proto: onnx.ModelProto, channels: int, anchors: int) -> None:
    """The tracer leaves the output's channel axis symbolic; tools that size buffers from the
    graph (TensorRT profiles, the station's layout check) want [batch, 4 + C, A] spelled out."""
    dims = proto.graph.output[0].type.tensor_type.shape.dim
    for dim, value in zip(list(dims)[1:], (channels, anchors)):
        dim.ClearField("dim_param")
        dim.dim_value = value
