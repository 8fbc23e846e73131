"""How much a verdict depends on where the tag box lies: one detector's detections, its tag box moved a
few pixels (each edge in turn, grown, shrunk) or replaced by another detector's box, read and judged again.

    nice .venv/bin/python benchmarks/box_jitter.py --data SET --model M.onnx --diff DIFF.json --out OUT.json \
        [--images images/000026.jpg ...] [--step 4]
    nice .venv/bin/python benchmarks/box_jitter.py --data SET --model M.onnx --random PX --seed S --bucket nominal \
        --out OUT.json        # every good frame once, each tag box edge moved by a uniform draw in [-PX, PX]

DIFF.json is benchmarks/verdict_diff.py's output: its frames whose verdict changed are taken (or --images),
and its candidate's tag box is tried inside this model's detections (every other box as this model drew it),
which separates the tag box from the rest of what the detector changed. The first case is repeated, so a
read that differs run to run shows itself.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from inference.cli.verdict_bench import _verdict_text, load_truth, match
from inference.detections import Detections
from inference.imageio import read_image
from inference.inspection import Inspector, judge_frame
from inference.reading.recipe import load_recipe


def cases(step: float, other_box) -> list[tuple[str, np.ndarray | None]]:
    out: list[tuple[str, np.ndarray | None]] = [("as found", np.zeros(4)), ("as found, again", np.zeros(4))]
    for i, edge in enumerate(("left", "top", "right", "bottom")):
        for sign in (-1, 1):
            d = np.zeros(4)
            d[i] = sign * step
            out.append((f"{edge} {'+' if sign > 0 else '-'}{step:g} px", d))
    out.append((f"grown {step:g} px", np.array([-step, -step, step, step])))
    out.append((f"shrunk {step:g} px", np.array([step, step, -step, -step])))
    if other_box is not None:
        out.append(("the other model's tag box", None))
    return out


def with_tag_box(det: Detections, index: int, box) -> Detections:
    xyxy = np.array(det.xyxy, np.float32).copy()
    xyxy[index] = box
    return Detections(xyxy, det.confidence, det.class_id, det.class_names)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--model", type=Path, required=True)
    parser.add_argument("--diff", type=Path, default=None, help="verdict_diff.py output: the other model's boxes")
    parser.add_argument("--random", type=float, default=0.0, help="instead: every good frame once, edges moved at random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--bucket", default=None)
    parser.add_argument("--images", nargs="*", default=None)
    parser.add_argument("--step", type=float, default=4.0)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)

    _, rows = load_truth(args.data)
    if args.random:
        return random_jitter(args, [r for r in rows if r["expected_verdict"] == "OK" and len(r["tags"]) == 1
                                    and (args.bucket is None or r["bucket"] == args.bucket)])
    diff = {f["image"]: f for f in json.loads(args.diff.read_text(encoding="utf-8"))["frames"]}
    wanted = args.images or [n for n, f in diff.items() if f["current"]["verdict"] != f["candidate"]["verdict"]]
    rows = [r for r in rows if r["image"] in wanted]
    out = []
    start = time.perf_counter()
    with Inspector.open(args.model, "onnxruntime-cpu", read=True) as inspector:
        for row in rows:
            recipe = load_recipe(args.data / row["recipe"])
            image = read_image(args.data / row["image"])
            det = inspector.pipeline.process(image, source_name=row["image"]).detections
            tags = [i for i, c in enumerate(det.class_id) if det.class_names[c] == "hangtag"]
            hit = match([row["tags"][0]["xyxy"]], [tuple(map(float, det.xyxy[i])) for i in tags])
            other = diff.get(row["image"], {}).get("candidate", {}).get("box")
            if 0 not in hit:
                out.append({"image": row["image"], "note": "this model found no tag box"})
                continue
            index = tags[hit[0]]
            base = np.array(det.xyxy[index], np.float64)
            printed = {**row["tags"][0]["fields"], **row["tags"][0].get("values", {})}
            results = []
            for name, delta in cases(args.step, other):
                box = np.array(other, np.float64) if delta is None else base + delta
                moved = with_tag_box(det, index, box)
                readings = tuple(inspector.reader.read(image, moved, recipe=recipe))
                verdict = judge_frame(recipe, moved, readings)
                near = match([tuple(box)], [r.xyxy for r in readings])
                reading = readings[near[0]] if 0 in near else None
                wrong = {k: [f.value, round(f.confidence, 3)] for k, f in (reading.fields.items() if reading else [])
                         if k in printed and f.value != printed[k]}
                results.append({"case": name, "box": [round(v, 1) for v in box], "verdict": _verdict_text(verdict),
                                "reasons": list(verdict.reasons)[:3], "reads_unlike_print": wrong})
            out.append({"image": row["image"], "design": row.get("design", ""), "cases": results})
            flips = sum(r["verdict"] != results[0]["verdict"] for r in results[1:])
            print(f"{row['image']}: {results[0]['verdict']}, {flips} of {len(results) - 1} moved boxes judged otherwise "
                  f"({time.perf_counter() - start:.0f} s)", file=sys.stderr, flush=True)
            args.out.write_text(json.dumps({"model": str(args.model), "step": args.step, "frames": out},
                                           ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


def random_jitter(args: argparse.Namespace, rows: list[dict]) -> int:
    """The verdicts of one detector when its tag boxes lie a little elsewhere, as another detector's would."""
    rng = np.random.default_rng(args.seed)
    out, tally = [], {}
    start = time.perf_counter()
    with Inspector.open(args.model, "onnxruntime-cpu", read=True) as inspector:
        for n, row in enumerate(rows, 1):
            recipe = load_recipe(args.data / row["recipe"])
            image = read_image(args.data / row["image"])
            det = inspector.pipeline.process(image, source_name=row["image"]).detections
            offset = rng.uniform(-args.random, args.random, 4)  # drawn for every frame, so frames keep their draw
            tags = [i for i, c in enumerate(det.class_id) if det.class_names[c] == "hangtag"]
            hit = match([row["tags"][0]["xyxy"]], [tuple(map(float, det.xyxy[i])) for i in tags])
            if 0 in hit:
                det = with_tag_box(det, tags[hit[0]], np.array(det.xyxy[tags[hit[0]]], np.float64) + offset)
            readings = tuple(inspector.reader.read(image, det, recipe=recipe))
            verdict = _verdict_text(judge_frame(recipe, det, readings))
            tally[verdict] = tally.get(verdict, 0) + 1
            out.append({"image": row["image"], "offset": [round(v, 3) for v in offset], "verdict": verdict})
            print(f"{n}/{len(rows)} {row['image']}: {verdict} ({time.perf_counter() - start:.0f} s)", file=sys.stderr,
                  flush=True)
            args.out.write_text(json.dumps({"model": str(args.model), "random_px": args.random, "seed": args.seed,
                                            "tally": tally, "frames": out}, indent=1), encoding="utf-8")
    print(json.dumps({"model": str(args.model), "random_px": args.random, "seed": args.seed, "tally": tally}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
