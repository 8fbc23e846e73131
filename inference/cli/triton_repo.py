"""`hangtag-inspect triton-repo OUT`: a Triton model repository for the station's models."""

from __future__ import annotations

import argparse
from pathlib import Path

from inference.resources import default_model_path


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("triton-repo", help="write a Triton Inference Server model repository",
                            description="Writes the detector (onnxruntime backend), the OCR models, a TensorRT "
                                        "plan entry to build on the GPU server, docker-compose.yml and README.md.")
    parser.add_argument("out", type=Path, metavar="OUT", help="folder to write the repository into")
    parser.add_argument("--model", type=Path, default=default_model_path(), help="ONNX detector (default: the shipped one)")
    parser.add_argument("--precision", choices=["fp32", "fp16", "int8"], default="fp32", help="detector precision")
    parser.add_argument("--max-batch", type=int, default=16, help="largest batch the server forms")
    parser.add_argument("--instances", type=int, default=1, help="model instances per device")
    parser.add_argument("--kind", choices=["gpu", "cpu"], default="gpu", help="where the instances run")
    parser.add_argument("--queue-delay-us", type=int, default=2000, help="longest wait to fill a batch")
    parser.add_argument("--max-queue", type=int, default=64, help="queued requests before 503 / UNAVAILABLE")
    parser.add_argument("--no-ocr", action="store_true", help="the detector only")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from inference.engines.triton.repository import Batching, write_repository

    batching = Batching(max_batch=args.max_batch, instances=args.instances, kind=f"KIND_{args.kind.upper()}",
                        max_queue_delay_us=args.queue_delay_us, max_queue_size=args.max_queue)
    written = write_repository(args.out, args.model, precision=args.precision, batching=batching, ocr=not args.no_ocr)
    for folder in written:
        print(f"{folder}/config.pbtxt")
    print(f"serve it: see {args.out / 'README.md'}")
    return 0
