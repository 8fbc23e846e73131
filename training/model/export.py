"""Checkpoint -> ONNX with the metadata YOLO tooling and the station read.

    python -m training.model.export --weights runs/h200/last.pt --out resources/models/hangtag_det.onnx
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import torch

from training.model.net import ExportWrapper, HTDet
from training.synth.tag import CLASS_NAMES


def build_model(checkpoint: dict) -> HTDet:
    model = HTDet(len(checkpoint["names"]), tuple(checkpoint["widths"]), tuple(checkpoint["depths"]),
                  checkpoint.get("activation", "silu"))  # checkpoints before the option were SiLU
    model.load_state_dict(checkpoint["ema"] if "ema" in checkpoint else checkpoint["model"])
    return model.float().eval()


def export_onnx(model: HTDet, imgsz: int, path: Path, *, dynamic_batch: bool = True,
                names: tuple[str, ...] = CLASS_NAMES, opset: int = 17) -> Path:
    import onnx

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
        "description": "HTDet hangtag/barcode/qr_code detector (Hangtag Station, trained on synthetic scenes)",
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


def set_output_shape(proto: "onnx.ModelProto", channels: int, anchors: int) -> None:
    """The tracer leaves the output's channel axis symbolic; tools that size buffers from the
    graph (TensorRT profiles, the station's layout check) want [batch, 4 + C, A] spelled out."""
    dims = proto.graph.output[0].type.tensor_type.shape.dim
    for dim, value in zip(list(dims)[1:], (channels, anchors)):
        dim.ClearField("dim_param")
        dim.dim_value = value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.model.export")
    parser.add_argument("--weights", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--static-batch", action="store_true")
    args = parser.parse_args(argv)
    checkpoint = torch.load(args.weights, map_location="cpu", weights_only=False)
    model = build_model(checkpoint)
    out = export_onnx(model, int(checkpoint["imgsz"]), args.out, dynamic_batch=not args.static_batch,
                      names=tuple(checkpoint["names"]))
    print(f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
