"""Checkpoint -> ONNX with the metadata YOLO tooling and the station read.

    python -m training.model.export --weights runs/h200/last.pt --out resources/models/hangtag_det.onnx
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch

from inference.adapt.htdet.export import export_onnx as _export_onnx
from inference.adapt.htdet.export import set_output_shape  # noqa: F401
from training.model.net import HTDet
from training.synth.tag import CLASS_NAMES


def build_model(checkpoint: dict) -> HTDet:
    model = HTDet(len(checkpoint["names"]), tuple(checkpoint["widths"]), tuple(checkpoint["depths"]),
                  checkpoint.get("activation", "silu"))  # checkpoints before the option were SiLU
    model.load_state_dict(checkpoint["ema"] if "ema" in checkpoint else checkpoint["model"])
    return model.float().eval()


def export_onnx(model: HTDet, imgsz: int, path: Path, *, dynamic_batch: bool = True,
                names: tuple[str, ...] = CLASS_NAMES, opset: int = 17) -> Path:
    return _export_onnx(model, imgsz, path, names=names, dynamic_batch=dynamic_batch, opset=opset,
                        description="HTDet hangtag/barcode/qr_code detector (Hangtag Station, trained on synthetic scenes)")


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
