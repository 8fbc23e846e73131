"""Where a one-tag frame's time goes in the GPU reader, function by function (issue 19), with each frame verified
against its job's recipe (`--recipe`), so the second read and the small-print recognizer's last read are timed too.

    python3 benchmarks/gpu-2026-12-03c/where.py --data .gpubench/tagset --out where.json --recipe [--settings 0 0]

benchmarks/gpu-2026-12-03b/where.py with verification's functions added: `verify._second_read` is timed apart by the
recognizer it reads with (the stock one: "second read"; the reader's `rereader`: "small-print read"), and
`TorchSession.run` apart for the small-print recognizer's session.

The reader's stage functions are wrapped with wall-clock timers (perf_counter_ns, a few microseconds a call);
time is summed per frame separately for the reading thread and for the overlap pool's threads. Nested functions
are counted in each (read_lines holds detect, which holds prepare and TorchSession.run)."""

from __future__ import annotations

import argparse
import functools
import importlib
import json
import os
import sys
import threading
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

FUNCTIONS = [  # (module, attribute): the name the caller looks up, so the wrapper is what runs
    ("inference.reading.reader", "read_symbols"), ("inference.reading.reader", "level_tag"), ("inference.reading.reader", "read_lines"),
    ("inference.reading.reader", "extract_fields"), ("inference.reading.reader", "paper_sides"), ("inference.reading.reader", "cut_sides"),
    ("inference.reading.reader", "join_rows"), ("inference.reading.reader", "make_upright"), ("inference.reading.reader", "pieces_of_other_tags"),
    ("inference.reading.barcodes", "decode_symbols"), ("inference.reading.barcodes", "decode_symbol"), ("inference.reading.barcodes", "find_matrix_codes"),
    ("inference.reading.barcodes", "decode"), ("inference.reading.levelling", "make_upright"), ("inference.reading.levelling", "level_by_lines"),
    ("inference.reading.levelling", "symbol_zones"), ("inference.reading.symbols", "_orientation"), ("inference.reading.symbols", "crop_box"),
    ("inference.reading.text_lines", "seal_areas"), ("inference.reading.text_lines", "split_print_sizes"), ("inference.reading.text_lines", "split_tall"),
    ("inference.reading.text_lines", "standing"), ("inference.reading.text_lines", "trim_to_neighbours"), ("inference.reading.text_lines", "merge_overlapping"),
    ("inference.reading.ocr.gpu", "prepare"), ("inference.reading.ocr.gpu", "boxes_from_map"), ("inference.reading.ocr.gpu", "fill_lines"),
    ("inference.reading.ocr.gpu", "ctc_from_top"),
    ("inference.reading.levelling", "find_outline"), ("inference.reading.outline", "_gradient"),
    ("inference.reading.outline", "_search"), ("inference.reading.outline", "_corners"),
    ("inference.reading.reader", "verify"), ("inference.reading.verify", "gather"), ("inference.reading.verify", "spot_fields"),
    ("inference.reading.verify", "_with_marked_size"), ("inference.reading.verify", "_read_again"),
]
METHODS = [("inference.reading.reader", "TagReader", "read_tag"), ("inference.reading.rectify", "Upright", "line_crop"),
           ("inference.reading.ocr.gpu", "BucketedTextDetector", "_detect"), ("inference.reading.ocr.gpu", "BucketedTextDetector", "detect"),
           ("inference.reading.ocr.gpu", "BucketedTextRecognizer", "recognize_only"),
           ("inference.reading.ocr.torch_graph", "TorchSession", "run"), ("inference.inspection", "Inspector", "inspect_image")]

ACC: dict[tuple[str, str], list[float]] = {}


def timed(label, f):
    @functools.wraps(f)
    def wrapper(*a, **k):
        t = time.perf_counter_ns()
        try:
            return f(*a, **k)
        finally:
            side = "main" if threading.current_thread() is threading.main_thread() else "pool"
            entry = ACC.setdefault((label, side), [0, 0.0])
            entry[0] += 1
            entry[1] += (time.perf_counter_ns() - t) / 1e6
    return wrapper


def install() -> list[str]:
    """Wraps what the tree has; returns the names it lacks."""
    missing = []
    for mod, name in FUNCTIONS:
        try:
            m = importlib.import_module(mod)
            setattr(m, name, timed(f"{mod.split('.')[-1]}.{name}", getattr(m, name)))
        except (ImportError, AttributeError):
            missing.append(f"{mod}.{name}")
    for mod, cls, name in METHODS:
        c = getattr(importlib.import_module(mod), cls)
        setattr(c, name, timed(f"{cls}.{name}", getattr(c, name)))
    return missing


def split_second_reads(reader) -> None:
    """verify._second_read and the small-print session's runs timed under their own names."""
    from inference.reading import verify

    second_read = verify._second_read

    def by_recognizer(crops, tag, upright, detector, recognizer, *rest):
        label = "verify._second_read (small-print read)" if recognizer is reader.rereader else "verify._second_read (second read)"
        return timed(label, second_read)(crops, tag, upright, detector, recognizer, *rest)

    verify._second_read = by_recognizer
    session = getattr(reader.rereader, "session", None)
    if session is not None:
        session.run = timed("TorchSession.run of the small-print recognizer", session.run)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--settings", nargs="+", default=["0", "8:ahead", "0", "8:ahead"])
    parser.add_argument("--dry-cpu", action="store_true")
    parser.add_argument("--recipe", action="store_true", help="verify each frame against its job's recipe")
    args = parser.parse_args()
    os.environ["HANGTAG_GPU_OCR"] = "torch"
    from gpu_read import one_tag_frames, open_inspector

    from inference.reading.overlap import parse_setting

    missing = install()
    import inference

    print("timing", inference.__file__, "missing:", missing, flush=True)
    inspector = open_inspector(args.dry_cpu, "torch-cuda")
    reader = inspector.reader
    split_second_reads(reader)
    from inference.reading import load_recipe

    recipes: dict = {}
    frames = [(f, recipes.setdefault(row["recipe"], load_recipe(args.data / row["recipe"])) if args.recipe else None)
              for f, row in one_tag_frames(args.data, args.frames + 8)]
    for f, recipe in frames[:8]:
        inspector.recipe = recipe
        inspector.inspect_image(f)
    frames = frames[8:]
    out: dict = {"tree": str(Path(inference.__file__).parents[1]), "not_in_tree": missing, "recipe": args.recipe,
                 "rereader": type(reader.rereader).__name__ if reader.rereader is not None else None}
    default_interval = sys.getswitchinterval()
    for setting in args.settings:
        # "N:parts@S": the interpreter's GIL switch interval set to S seconds for this setting (default 0.005)
        overlap, _, interval = setting.partition("@")
        sys.setswitchinterval(float(interval) if interval else default_interval)
        reader.overlap_threads, reader.overlap_parts = parse_setting(overlap)
        ACC.clear()
        totals = []
        for _ in range(args.passes):
            for f, recipe in frames:
                inspector.recipe = recipe
                t = time.perf_counter()
                inspector.inspect_image(f)
                totals.append((time.perf_counter() - t) * 1000)
        n = len(totals)
        rows = {f"{label} [{side}]": {"calls_per_frame": round(c / n, 2), "ms_per_frame": round(ms / n, 2)}
                for (label, side), (c, ms) in sorted(ACC.items(), key=lambda kv: -kv[1][1])}
        entry = out.setdefault(setting, [])
        entry.append({"frame_ms_p50": round(float(np.percentile(totals, 50)), 2), "frame_ms_mean": round(float(np.mean(totals)), 2),
                      "functions": rows})
        print(time.strftime("%H:%M:%S"), setting, "frame p50", entry[-1]["frame_ms_p50"], "mean", entry[-1]["frame_ms_mean"], flush=True)
        for label, row in list(rows.items())[:44]:
            print(f"   {label:52s} {row['calls_per_frame']:6.2f} {row['ms_per_frame']:8.2f}", flush=True)
    args.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    inspector.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
