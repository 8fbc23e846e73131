"""Why two detectors lead to different verdicts on the same good frames: per frame, each model's tag box
(and how far its edges moved), its verdict and reasons, and every field read that differs between them.

    nice .venv/bin/python benchmarks/verdict_diff.py --data SET --models A.onnx B.onnx --bucket nominal \
        --good-only --out /tmp/diff.json [--limit N] [--images images/000012.jpg ...]

SET is a `python -m training.tagsets` folder (its recipes judge each frame, as in verdict-bench). Both
models run in one process, frame by frame, so load from other jobs hits both alike.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from inference.cli.verdict_bench import _verdict_text, load_truth, match
from inference.imageio import read_image
from inference.inspection import Inspector
from inference.reading.recipe import load_recipe


def tag_record(result, truth_box) -> dict:
    found = [tuple(map(float, b)) for b in result.detections.of_class("hangtag").xyxy]
    hit = match([truth_box], found)
    box = found[hit[0]] if 0 in hit else None
    reading = None
    if box is not None:
        near = match([box], [r.xyxy for r in result.readings])
        reading = result.readings[near[0]] if 0 in near else None
    scores = result.detections.of_class("hangtag").confidence
    return {
        "verdict": _verdict_text(result.verdict) if result.ok else "ERROR",
        "reasons": list(getattr(result.verdict, "reasons", ()) or ()),
        "boxes": [list(map(lambda v: round(v, 1), b)) for b in found],
        "box": [round(v, 1) for v in box] if box else None,
        "score": round(float(scores[hit[0]]), 3) if box is not None else None,
        "fields": {k: [f.value, round(f.confidence, 3), f.source] for k, f in (reading.fields.items() if reading else [])},
        "barcodes": sorted(b.text for b in reading.barcodes) if reading else [],
    }


def compare_frame(a: dict, b: dict, truth: dict) -> dict:
    out: dict = {}
    if a["box"] and b["box"]:
        delta = [round(y - x, 1) for x, y in zip(a["box"], b["box"])]
        wa, ha = a["box"][2] - a["box"][0], a["box"][3] - a["box"][1]
        wb, hb = b["box"][2] - b["box"][0], b["box"][3] - b["box"][1]
        out["edge_delta_px"] = delta  # x1, y1, x2, y2: candidate minus current
        out["size_delta_px"] = [round(wb - wa, 1), round(hb - ha, 1)]
        t = truth["xyxy"]
        out["edge_vs_truth_px"] = {"current": [round(v - w, 1) for v, w in zip(a["box"], t)],
                                   "candidate": [round(v - w, 1) for v, w in zip(b["box"], t)]}
    printed = {**truth.get("fields", {}), **truth.get("values", {})}
    changed = {}
    for name in sorted(set(a["fields"]) | set(b["fields"])):
        va, vb = a["fields"].get(name), b["fields"].get(name)
        if (va or [None])[0] != (vb or [None])[0]:
            changed[name] = {"printed": printed.get(name), "current": va, "candidate": vb}
    out["fields_changed"] = changed
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--models", type=Path, nargs=2, required=True, metavar=("CURRENT", "CANDIDATE"))
    parser.add_argument("--bucket", default=None)
    parser.add_argument("--good-only", action="store_true", help="only frames whose expected verdict is OK")
    parser.add_argument("--images", nargs="*", default=None, help="only these images (as named in truth.jsonl)")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)

    _, rows = load_truth(args.data)
    rows = [r for r in rows if (args.bucket is None or r["bucket"] == args.bucket)
            and (not args.good_only or r["expected_verdict"] == "OK")
            and (args.images is None or r["image"] in args.images) and len(r["tags"]) == 1]
    if args.limit:
        rows = rows[: args.limit]
    inspectors = [Inspector.open(m, "onnxruntime-cpu", read=True) for m in args.models]
    recipes: dict[str, object] = {}
    frames = []
    start = time.perf_counter()
    try:
        for n, row in enumerate(rows, 1):
            recipe = recipes.setdefault(row["job"], load_recipe(args.data / row["recipe"]))
            image = read_image(args.data / row["image"])
            per_model = []
            for inspector in inspectors:
                inspector.recipe = recipe
                result = inspector.inspect_image(image, source_name=row["image"])
                per_model.append(tag_record(result, row["tags"][0]["xyxy"]))
            frames.append({"image": row["image"], "design": row.get("design", ""), "expected": row["expected_verdict"],
                           "truth_box": row["tags"][0]["xyxy"], "current": per_model[0], "candidate": per_model[1],
                           **compare_frame(per_model[0], per_model[1], row["tags"][0])})
            a, b = per_model[0]["verdict"], per_model[1]["verdict"]
            print(f"{n}/{len(rows)} {row['image']} {row.get('design', '')}: {a} -> {b}  "
                  f"{time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
            args.out.write_text(json.dumps({"models": [str(m) for m in args.models], "data": str(args.data),
                                            "frames": frames}, ensure_ascii=False, indent=1), encoding="utf-8")
    finally:
        for inspector in inspectors:
            inspector.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
