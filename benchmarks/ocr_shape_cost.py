"""What a new input shape costs the OCR networks on ONNX Runtime's CUDA provider, per provider setting.

    python benchmarks/ocr_shape_cost.py --out shape_cost.json [--shapes 8]

On the H200 (2026-12-01) the recognizer's first run at a new shape took 2.6 s with cuDNN's heuristic search
and 0.19 s with DEFAULT, whose repeated calls then took 0.12 s against 7.9 ms (BENCHMARKS.md, issue 19). The
GPU reader is only worth using once that first run is cheap; this script compares provider settings, each in
its own process (ONNX Runtime's "Fallback mode" warnings are counted per setting), on both networks, so one
device call says which, if any, makes a shape change cheap without slowing the repeated call.
Needs onnxruntime-gpu and the OCR models where `find_ocr_models` finds them.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

VARIANTS = {
    "heuristic": {"cudnn_conv_algo_search": "HEURISTIC"},
    "heuristic_small_workspace": {"cudnn_conv_algo_search": "HEURISTIC", "cudnn_conv_use_max_workspace": "0"},
    "default": {"cudnn_conv_algo_search": "DEFAULT"},
    "default_small_workspace": {"cudnn_conv_algo_search": "DEFAULT", "cudnn_conv_use_max_workspace": "0"},
    "heuristic_nhwc": {"cudnn_conv_algo_search": "HEURISTIC", "prefer_nhwc": "1"},
    "exhaustive": {"cudnn_conv_algo_search": "EXHAUSTIVE"},
}


def measure(variant: str, shapes: int) -> dict:
    import numpy as np
    import onnxruntime as ort

    from inference.reading.ocr.models import find_ocr_models
    from inference.reading.ocr.topk import TOP_I, TOP_P, recognizer_with_top_classes

    models = find_ocr_models()
    if hasattr(ort, "preload_dlls"):
        ort.preload_dlls()
    options = {"device_id": "0", "use_tf32": "0", **VARIANTS[variant]}
    rng = np.random.default_rng(1)
    out = {}
    for net, path in (("rec", recognizer_with_top_classes(models.rec)), ("det", models.det)):
        so = ort.SessionOptions()
        so.log_severity_level = 2
        start = time.perf_counter()
        session = ort.InferenceSession(str(path), so, providers=[("CUDAExecutionProvider", options)])
        load_s = time.perf_counter() - start
        name = session.get_inputs()[0].name
        fetch = [TOP_P, TOP_I] if net == "rec" else None

        def run(x):
            t = time.perf_counter()
            session.run(fetch, {name: x})
            return (time.perf_counter() - t) * 1000

        first_shape = (1, 3, 48, 320) if net == "rec" else (1, 3, 448, 256)
        run(rng.uniform(-1, 1, first_shape).astype(np.float32))
        first, again = [], []
        count = shapes if variant != "exhaustive" else max(2, shapes // 4)
        for _ in range(count):
            if net == "rec":
                shape = (int(rng.choice([1, 2, 4, 8, 16, 32])), 3, 48, int(rng.integers(2, 200)) * 8)
            else:
                shape = (1, 3, int(rng.integers(1, 15)) * 32, int(rng.integers(1, 15)) * 32)
            x = rng.uniform(-1, 1, shape).astype(np.float32)
            first.append(run(x))
            again.append(min(run(x) for _ in range(3)))
        out[net] = {"load_s": round(load_s, 2), "shapes": count, "providers": session.get_providers(),
                    "first_run_ms": [round(v, 1) for v in first], "again_ms": [round(v, 2) for v in again],
                    "first_p50": round(float(np.median(first)), 1), "again_p50": round(float(np.median(again)), 2)}
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--shapes", type=int, default=8)
    parser.add_argument("--variants", nargs="+", default=list(VARIANTS))
    parser.add_argument("--one", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args.one, args.shapes)))
        return 0
    result = {"date": time.strftime("%Y-%m-%d %H:%M:%S"), "variants": {}}
    for variant in args.variants:
        proc = subprocess.run([sys.executable, __file__, "--out", str(args.out), "--shapes", str(args.shapes), "--one", variant],
                              capture_output=True, text=True, timeout=900)
        row: dict = {"settings": VARIANTS[variant], "fallback_warnings": proc.stderr.count("Fallback mode")}
        try:
            row.update(json.loads(proc.stdout.strip().splitlines()[-1]))
        except (ValueError, IndexError):
            row["error"] = (proc.stderr or proc.stdout)[-1500:]
        result["variants"][variant] = row
        summary = {net: (row[net]["first_p50"], row[net]["again_p50"]) for net in ("rec", "det") if net in row}
        print(f"{variant:<26} first/again p50 ms {summary} fallback warnings {row['fallback_warnings']}", flush=True)
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
