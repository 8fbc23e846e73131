"""The PyTorch eager baseline of the GPU-pipeline benchmark, with the shipped detector's own weights.

    python -m training.eager_baseline --weights runs/h200/call3_relu/last.pt --json eager.json

What a Python user writes first (cv2 letterbox, torch forward, torchvision NMS), on the frames gpu-bench
uses (the demo scenes as 1920×1080 frames), so its p50 stands beside gpu-bench's end-to-end p50. Lives
here, not in inference/, because the model's PyTorch definition is training code. Needs a CUDA GPU.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import torch

from inference.gpu.bench import sample_frames, torch_eager
from inference.postprocess import Thresholds
from training.model.export import build_model
from training.model.net import ExportWrapper


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", type=Path, required=True, help="a training checkpoint (last.pt)")
    parser.add_argument("--json", type=Path, default=Path("eager-baseline.json"))
    parser.add_argument("--frames", type=int, default=500, help="timed frames")
    args = parser.parse_args(argv)
    if not torch.cuda.is_available():
        print("error: the eager baseline needs a CUDA GPU; found none (torch.cuda.is_available() is False)",
              file=sys.stderr)
        return 2
    checkpoint = torch.load(args.weights, map_location="cpu", weights_only=False)
    imgsz = int(checkpoint.get("imgsz", 640))
    model = ExportWrapper(build_model(checkpoint), imgsz).cuda().eval()
    record = {"date": time.strftime("%Y-%m-%d"), "command": ["python", "-m", "training.eager_baseline", *sys.argv[1:]],
              "weights": str(args.weights), "activation": checkpoint.get("activation", "silu"),
              "gpu": torch.cuda.get_device_name(0),
              "pytorch_eager": torch_eager(sample_frames(8), args.frames, Thresholds(), model)}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(record["pytorch_eager"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
