"""The reader's CPU stages before and after this session's changes, on the same captured inputs in one process
(issues 19, 14): every output compared for equality, and each call timed old and new in turn.

    python3 benchmarks/cpu-stages-2026-12-03/compare.py --old /tmp/before-tree --inputs third.pkl sixth.pkl \
        [--repeats 5] [--out compare.json]

`--old`: a copy of the tree before the change (`git ls-files ... | tar`); its versions of this session's modules
are loaded beside the current ones (old_tree.py). Inputs: capture.py's pickles. Each call runs old, new, old, new,
... `--repeats` times each; a call's time is its minimum over the repeats (the VM's load from other jobs only ever
adds), summed per stage and divided by the frames."""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from old_tree import load_old  # noqa: E402

# stage -> (module, attribute) in this session's modules
WHERE = {"read_symbols": ("inference.reading.symbols", "read_symbols"), "prepare": ("inference.reading.ocr.detector", "prepare"),
         "boxes_from_map": ("inference.reading.ocr.detector", "boxes_from_map"),
         "fill_lines": ("inference.reading.ocr.buckets", "fill_lines"), "ctc_from_top": ("inference.reading.ocr.buckets", "ctc_from_top"),
         "seal_areas": ("inference.reading.seals", "seal_areas")}


def same(a, b, tol: float = 0.0) -> bool:
    """Equal, arrays by value and dtype, floats by their bits (repr) or within `tol` (relative), dataclasses field
    by field."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape \
            and bool(np.array_equal(a, b))
    if isinstance(a, float) or isinstance(b, float):
        if not (isinstance(b, float) and isinstance(a, float)):
            return False
        return repr(float(a)) == repr(float(b)) if tol == 0 else abs(a - b) <= tol * max(1.0, abs(a))
    if isinstance(a, (list, tuple)):
        return isinstance(b, (list, tuple)) and len(a) == len(b) and all(same(x, y, tol) for x, y in zip(a, b))
    if hasattr(a, "__dataclass_fields__"):
        return type(a).__name__ == type(b).__name__ and all(same(getattr(a, f), getattr(b, f), tol) for f in a.__dataclass_fields__)
    return a == b


# The barcode stage's turn and code corners are not bit-reproducible from one call to the next, old or new
# (cv2.magnitude in rectify.bars_down_angle: last bits that follow its output buffer's alignment; 1e-12
# degrees seen); they are compared to this relative tolerance, every text, format and flag exactly.
STAGE_TOLERANCE = {"read_symbols": 1e-9}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--old", type=Path, required=True)
    parser.add_argument("--inputs", type=Path, nargs="+", required=True)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--stages", nargs="*", default=list(WHERE))
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    import importlib

    old = load_old(args.old)
    report: dict = {}
    for path in args.inputs:
        data = pickle.load(open(path, "rb"))
        frames = data["frames"]
        result: dict = {}
        for stage in args.stages:
            module, name = WHERE[stage]
            f_old, f_new = getattr(old[module], name), getattr(importlib.import_module(module), name)
            calls = [(a, k) for n, a, k in data["calls"] if n == stage]
            if stage == "read_symbols":
                calls = [((frames[a[0][1]], *a[1:]), k) for a, k in calls]
            t_old = t_new = 0.0
            differ = differ_bits = 0
            tol = STAGE_TOLERANCE.get(stage, 0.0)
            for a, k in calls:
                best_old = best_new = float("inf")
                for _ in range(args.repeats):
                    t = time.perf_counter()
                    r_old = f_old(*a, **k)
                    t1 = time.perf_counter()
                    r_new = f_new(*a, **k)
                    t2 = time.perf_counter()
                    best_old, best_new = min(best_old, t1 - t), min(best_new, t2 - t1)
                differ += not same(r_old, r_new, tol)
                differ_bits += not same(r_old, r_new)
                t_old += best_old
                t_new += best_new
            result[stage] = {"calls": len(calls), "differ": differ, "differ_in_last_bits": differ_bits, "tolerance": tol, "old_ms_per_frame": round(t_old * 1000 / len(frames), 3),
                             "new_ms_per_frame": round(t_new * 1000 / len(frames), 3),
                             "ratio": round(t_new / t_old, 3) if t_old else None}
            print(f"{path.stem:8s} {stage:15s} calls {len(calls):4d} differ {differ} (bits {differ_bits})  old {result[stage]['old_ms_per_frame']:7.3f}"
                  f"  new {result[stage]['new_ms_per_frame']:7.3f} ms/frame  new/old {result[stage]['ratio']}", flush=True)
        report[path.stem] = {"frames": len(frames), "stages": result}
    if args.out:
        args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
