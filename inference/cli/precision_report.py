"""`hangtag-inspect precision-report`: FP32 / FP16 / INT8 side by side on the best available backend."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from inference.engines.registry import BACKENDS
from inference.resources import default_model_path


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("precision-report", help="compare FP32, FP16 and INT8: mAP50, agreement, latency, size",
                            description="Converts the model to each precision (cached), runs it over DIR, and "
                                        "reports per-class AP50 against YOLO labels (labels/<name>.txt), box "
                                        "agreement with FP32 at IoU 0.9, inference latency p50 and file size.")
    parser.add_argument("--model", type=Path, default=default_model_path(), help="FP32 ONNX detector")
    parser.add_argument("--data", type=Path, required=True, help="images (and YOLO labels) to evaluate on")
    parser.add_argument("--calib", type=Path, default=None, help="INT8 calibration images (default: bundled samples)")
    parser.add_argument("--method", choices=["minmax", "entropy", "percentile"], default="minmax",
                        help="INT8 calibration method")
    parser.add_argument("--precisions", default="fp32,fp16,int8", help="comma-separated subset")
    parser.add_argument("--backend", choices=[b.name for b in BACKENDS], default=None,
                        help="engine backend (default: the best available)")
    parser.add_argument("--limit", type=int, default=0, help="evaluate on the first N images only")
    parser.add_argument("--rounds", type=int, default=30,
                        help="round-robin timing rounds on one frame (every precision under the same load)")
    parser.add_argument("--threads", type=int, default=None, help="CPU threads for ONNX Runtime")
    parser.add_argument("--recipe", type=Path, default=None,
                        help="also read and judge the images at every precision against this job recipe and "
                             "report verdict agreement with FP32")
    parser.add_argument("--verdict-images", type=int, default=24, help="images read and judged per precision with --recipe")
    parser.add_argument("--json", type=Path, default=None, help="write the full report here")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from inference.precision.report import format_table, precision_report

    from inference.reading import load_recipe

    precisions = [p.strip().lower() for p in args.precisions.split(",") if p.strip()]
    recipe = load_recipe(args.recipe) if args.recipe else None
    report = precision_report(args.model, args.data, precisions=precisions, backend=args.backend,
                              calibration_dir=args.calib, method=args.method, limit=args.limit, threads=args.threads,
                              latency_rounds=args.rounds, recipe=recipe, verdict_images=args.verdict_images)
    print(format_table(report))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0
