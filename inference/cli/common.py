"""Options shared by the subcommands that run the detector."""

from __future__ import annotations

import argparse
from pathlib import Path

from inference.engines.registry import BACKENDS
from inference.postprocess import Thresholds
from inference.resources import default_model_path


def add_model_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", type=Path, default=default_model_path(), help="ONNX detector (default: the shipped one)")
    parser.add_argument("--backend", choices=[b.name for b in BACKENDS], default=None,
                        help="engine backend (default: the best available)")
    parser.add_argument("--conf", type=float, default=0.25, help="confidence threshold (0..1)")
    parser.add_argument("--iou", type=float, default=0.45, help="NMS IoU threshold (0..1)")
    parser.add_argument("--max-det", type=int, default=100, help="max detections per frame")
    parser.add_argument("--imgsz", type=int, nargs="+", default=None,
                        help="input size for dynamic-shape models: one value or H W")
    parser.add_argument("--threads", type=int, default=None, help="CPU threads for ONNX Runtime")
    parser.add_argument("--triton-url", action=_TritonUrl, default=None, metavar="URL[,URL…]",
                        help="Triton server(s) for --backend triton: http://host:8000 or grpc://host:8001, "
                             "comma-separated (default: $HANGTAG_TRITON_URL)")


class _TritonUrl(argparse.Action):
    """Sets HANGTAG_TRITON_URL for this process, where the triton backend looks, so every command that
    opens engines (the detector, and the OCR models when they run on Triton) reaches the same servers."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        import os

        from inference.engines.triton.engine import URL_ENV

        os.environ[URL_ENV] = str(values)
        setattr(namespace, self.dest, values)


def thresholds_from(args: argparse.Namespace) -> Thresholds:
    return Thresholds(confidence=args.conf, iou=args.iou, max_detections=args.max_det)


def input_hw_from(args: argparse.Namespace) -> tuple[int, int] | None:
    if not args.imgsz:
        return None
    return (args.imgsz[0], args.imgsz[-1])


def pipeline_from(args: argparse.Namespace):
    from inference.pipeline import Pipeline

    options = {"thresholds": thresholds_from(args), "input_hw": input_hw_from(args)}
    if args.threads:
        options["threads"] = args.threads
    return Pipeline.open(args.model, args.backend, **options)
