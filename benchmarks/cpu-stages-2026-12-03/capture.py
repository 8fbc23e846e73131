"""The inputs the reader's CPU stages see on one-tag frames, saved for `compare.py` (issues 19, 14).

    python3 benchmarks/cpu-stages-2026-12-03/capture.py --data /tmp/sets/third --frames 24 --out third.pkl

The GPU reader's classes run on the CPU provider (`gpu_read.open_inspector(dry_cpu=True)`); the names the
callers look up are wrapped so each call's arguments are kept: the barcode stage (`read_symbols`), the text
detector's CPU halves (`prepare`, `boxes_from_map`), the recognizer's (`fill_lines`, `ctc_from_top`) and the
seal search (`seal_areas`). Frames are kept once and referred to by index."""

from __future__ import annotations

import argparse
import os
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# (module the caller looks the name up in, name)
STAGES = [("inference.reading.reader", "read_symbols"), ("inference.reading.ocr.gpu", "prepare"),
          ("inference.reading.ocr.gpu", "boxes_from_map"), ("inference.reading.ocr.gpu", "fill_lines"),
          ("inference.reading.ocr.gpu", "ctc_from_top"), ("inference.reading.text_lines", "seal_areas")]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--frames", type=int, default=24)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    os.environ.setdefault("HANGTAG_GPU_OCR", "torch")
    import importlib

    from gpu_read import one_tag_frames, open_inspector

    calls: list[tuple[str, tuple, dict]] = []
    frames = [f for f, _ in one_tag_frames(args.data, args.frames)]
    frame_ids = {id(f): k for k, f in enumerate(frames)}

    def keep(name, f):
        def wrapper(*a, **k):
            if name == "read_symbols":
                k = {key: v for key, v in k.items() if key not in ("on_turn", "pool")}
                a = (("frame", frame_ids[id(a[0])]), *a[1:])
            calls.append((name, a, k))
            return f(*a, **k) if name != "read_symbols" else f(frames[a[0][1]], *a[1:], **k)
        return wrapper

    for module, name in STAGES:
        m = importlib.import_module(module)
        setattr(m, name, keep(name, getattr(m, name)))
    inspector = open_inspector(True)
    for frame in frames:
        inspector.inspect_image(frame)
    inspector.close()
    with open(args.out, "wb") as fh:
        pickle.dump({"frames": frames, "calls": calls}, fh)
    counts: dict[str, int] = {}
    for name, _a, _k in calls:
        counts[name] = counts.get(name, 0) + 1
    print(args.data, len(frames), "frames", counts)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
