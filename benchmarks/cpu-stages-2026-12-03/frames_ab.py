"""A tag's whole read before and after this session's changes, in turn on the same frames in one process (issues
19, 14): the reader's fields, lines, boxes and codes compared, and the read timed with and without its OCR networks.

    python3 benchmarks/cpu-stages-2026-12-03/frames_ab.py --old /tmp/before-tree --data /tmp/sets/third \
        [--frames 24] [--passes 3] [--reader gpu-classes|cpu] [--out ab.json]

The GPU reader's classes on the CPU provider (gpu_read.open_inspector(dry_cpu=True)); each frame's detections are
taken once. "Old" puts the old tree's functions (old_tree.py) where the reader's modules look them up: the barcode
stage, the text detector's and recognizer's CPU halves, the seal search. Each frame is read old then new (new then
old on odd passes), `--repeats` times each, the least time kept (the VM's load only ever adds). A read's CPU time:
its wall time less the time inside the OCR sessions' `run`.

`--reader cpu`: the station's CPU reader instead (Inspector.open(..., "onnxruntime-cpu", read=True), whose text
detector looks `prepare` and `boxes_from_map` up in detector.py itself): for comparing reads on every frame; its
"cpu_ms" is the whole read, networks included."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from old_tree import load_old  # noqa: E402

# (module the caller looks the name up in, name, owning module)
SEAMS = [("inference.reading.reader", "read_symbols", "inference.reading.symbols"),
         ("inference.reading.ocr.gpu", "prepare", "inference.reading.ocr.detector"),
         ("inference.reading.ocr.gpu", "boxes_from_map", "inference.reading.ocr.detector"),
         ("inference.reading.ocr.gpu", "fill_lines", "inference.reading.ocr.buckets"),
         ("inference.reading.ocr.gpu", "ctc_from_top", "inference.reading.ocr.buckets"),
         ("inference.reading.text_lines", "seal_areas", "inference.reading.seals"),
         ("inference.reading.text_lines", "without_seal_ink", "inference.reading.seals")]
SEAMS_CPU = [("inference.reading.reader", "read_symbols", "inference.reading.symbols"),
             ("inference.reading.ocr.detector", "prepare", "inference.reading.ocr.detector"),
             ("inference.reading.ocr.detector", "boxes_from_map", "inference.reading.ocr.detector"),
             ("inference.reading.text_lines", "seal_areas", "inference.reading.seals"),
             ("inference.reading.text_lines", "without_seal_ink", "inference.reading.seals")]


def reading_of(readings) -> list:
    return [({k: (f.value if f is not None else None) for k, f in r.fields.items()},
             [(line.text, tuple(round(float(v), 4) for v in line.box)) for line in r.ocr_lines],
             [(b.format, b.text, b.valid_checksum) for b in r.barcodes], round(r.rotation, 6), tuple(r.notes)) for r in readings]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--old", type=Path, required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--frames", type=int, default=24)
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=1, help="reads of a frame per side and pass; the least time kept")
    parser.add_argument("--reader", choices=("gpu-classes", "cpu"), default="gpu-classes")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    os.environ.setdefault("HANGTAG_GPU_OCR", "torch")
    import importlib

    from gpu_read import one_tag_frames, open_inspector

    from inference.reading.ocr.gpu import BucketSession

    old = load_old(args.old)
    versions = {"old": {}, "new": {}}
    for caller, name, owner in (SEAMS_CPU if args.reader == "cpu" else SEAMS):
        versions["old"][(caller, name)] = getattr(old[owner], name)
        versions["new"][(caller, name)] = getattr(importlib.import_module(owner), name)

    def use(which: str) -> None:
        for (caller, name), f in versions[which].items():
            setattr(importlib.import_module(caller), name, f)

    in_network = [0.0]
    run = BucketSession.run

    def timed_run(self, feeds, fetch):
        t = time.perf_counter()
        try:
            return run(self, feeds, fetch)
        finally:
            in_network[0] += time.perf_counter() - t

    BucketSession.run = timed_run
    if args.reader == "cpu":
        from inference.inspection import Inspector
        from inference.resources import default_model_path

        inspector = Inspector.open(default_model_path(), "onnxruntime-cpu", read=True)
    else:
        inspector = open_inspector(True)
    frames = [f for f, _ in one_tag_frames(args.data, args.frames)]
    detections = [inspector.pipeline.process(f).detections for f in frames]
    reader = inspector.reader
    for which in ("old", "new"):  # warm-up
        use(which)
        for f, d in zip(frames[:3], detections[:3]):
            reader.read(f, d)
    wall = {"old": [], "new": []}
    cpu = {"old": [], "new": []}
    differ = []
    for p in range(args.passes):
        for k, (f, d) in enumerate(zip(frames, detections)):
            got = {}
            best = {"old": (float("inf"), float("inf")), "new": (float("inf"), float("inf"))}
            for r in range(args.repeats):
                for which in (("old", "new") if (p + k + r) % 2 == 0 else ("new", "old")):
                    use(which)
                    in_network[0] = 0.0
                    t = time.perf_counter()
                    read = reading_of(reader.read(f, d))
                    ms = (time.perf_counter() - t) * 1000
                    if got.setdefault(which, read) != read:
                        differ.append({"pass": p, "frame": k, "repeat": r, "side": which, "first": repr(got[which]), "now": repr(read)})
                    best[which] = min(best[which], (ms - in_network[0] * 1000, ms))
            for which, (cpu_ms, wall_ms) in best.items():
                cpu[which].append(cpu_ms)
                wall[which].append(wall_ms)
            if got["old"] != got["new"]:
                differ.append({"pass": p, "frame": k, "old": repr(got["old"]), "new": repr(got["new"])})
    use("new")
    inspector.close()

    def stats(v):
        a = np.asarray(v)
        return {"p50": round(float(np.percentile(a, 50)), 2), "mean": round(float(a.mean()), 2)}

    out = {"data": str(args.data), "reader": args.reader, "frames": len(frames), "passes": args.passes, "repeats": args.repeats, "differ": differ,
           "wall_ms": {w: stats(v) for w, v in wall.items()}, "cpu_ms": {w: stats(v) for w, v in cpu.items()},
           "cpu_ratio_of_sums": round(sum(cpu["new"]) / sum(cpu["old"]), 4),
           "cpu_ratio_median_per_read": round(float(np.median(np.asarray(cpu["new"]) / np.asarray(cpu["old"]))), 4)}
    print(json.dumps({k: v for k, v in out.items() if k != "differ"}), "differ:", len(differ))
    for row in differ[:5]:
        print(row)
    if args.out:
        args.out.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
