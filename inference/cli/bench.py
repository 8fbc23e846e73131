"""`hangtag-inspect bench`: per-stage p50/p95/p99, throughput, host-side share, RSS start→end."""

from __future__ import annotations

import argparse
import json
import platform
import time
from pathlib import Path

from inference.cli.common import add_model_options, pipeline_from
from inference.imageio import list_images, read_image
from inference.telemetry import process_rss_mb


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("bench", help="measure the detection pipeline on a folder of images")
    add_model_options(parser)
    parser.add_argument("--source", type=Path, required=True, help="folder of images (cycled)")
    parser.add_argument("--frames", type=int, default=200, help="frames to time after warm-up")
    parser.add_argument("--warmup", type=int, default=10, help="untimed frames first")
    parser.add_argument("--json", type=Path, default=None, help="write the result here")
    parser.set_defaults(func=bench)


def environment() -> dict:
    import cv2
    import numpy
    import onnxruntime

    return {"python": platform.python_version(), "platform": platform.platform(), "cpu": platform.processor(),
            "cores": __import__("os").cpu_count(), "onnxruntime": onnxruntime.__version__,
            "opencv": cv2.__version__, "numpy": numpy.__version__}


def bench(args: argparse.Namespace) -> int:
    paths = list_images(args.source) if args.source.is_dir() else [args.source]
    rss_start = process_rss_mb()
    with pipeline_from(args) as pipeline:
        # Files are read from disk each frame (decode is a real stage), cycling over the folder.
        for i in range(args.warmup):
            pipeline.process(read_image(paths[i % len(paths)]))
        pipeline.stats = type(pipeline.stats)(window=max(args.frames, 1))
        start = time.perf_counter()
        for i in range(args.frames):
            t0 = time.perf_counter_ns()
            image = read_image(paths[i % len(paths)])
            pipeline.process(image, decode_ms=(time.perf_counter_ns() - t0) / 1e6)
        elapsed = time.perf_counter() - start
        summary = pipeline.stats.summary()
        infer = summary.get("infer", {}).get("p50", 0.0)
        total = summary.get("total", {}).get("p50", 0.0)
        result = {
            "model": str(args.model), "backend": pipeline.backend, "device": pipeline.engine.device_name,
            "input_hw": list(pipeline.input_hw), "frames": args.frames, "source": str(args.source),
            "throughput_fps": round(args.frames / elapsed, 2) if elapsed > 0 else 0.0,
            "stages_ms": summary,
            "host_share_p50": round(1.0 - infer / total, 4) if total > 0 else 0.0,
            "rss_mb": {"start": round(rss_start, 1), "end": round(process_rss_mb(), 1)},
            "environment": environment(),
            "date": time.strftime("%Y-%m-%d"),
        }
    print(f"{'stage':<12} {'p50':>9} {'p95':>9} {'p99':>9}   (ms, {args.frames} frames, {result['backend']})")
    for stage, row in summary.items():
        print(f"{stage:<12} {row['p50']:>9.2f} {row['p95']:>9.2f} {row['p99']:>9.2f}")
    print(f"throughput {result['throughput_fps']} fps; host-side share of latency (p50) "
          f"{result['host_share_p50']:.1%}; RSS {result['rss_mb']['start']} → {result['rss_mb']['end']} MiB")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0
