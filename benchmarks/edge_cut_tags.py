"""Tags cut by the frame's edge: does a detector still box them? (issue 17 / issue 18's edge-riding tags)

    PYTHONPATH=. python benchmarks/edge_cut_tags.py --models OLD.onnx NEW.onnx [--scenes 30] [--json J]

How the cut frames are made: a scene is drawn by the existing generators (classic `generate_scene`, seeds
20 000 000+, the held-out range; wide `generate_wide_scene`, training designs, seeds 116 000 000+, a range no set
uses), at 640 px on the long side. For up to two tags per scene (the largest, each at least 48 px on both sides)
and each side of the frame, the frame is *cropped*: the window keeps the whole scene except the strip beyond a
line through the tag, placed so that a share f of the tag box's height (top, bottom) or width (left, right) lies
outside it. f = 0 puts the line on the tag's edge (touching, nothing cut): the control for the crop itself. The
truth is the part of the tag still in the window: the card's quad clipped to the window, its bounding box
intersected with the tag box clipped to the window. A window that keeps less than 40 % of the scene's height or
width is skipped (it would magnify the tag more than 2.5x in the letterbox). Each window goes through the
station's own pipeline (`Pipeline.process`: letterbox, ONNX Runtime CPU, one thread, NMS 0.45) at confidence 0.01.

A tag counts as detected at the station's threshold when a hangtag box of confidence >= 0.25 overlaps its clipped
truth at IoU >= 0.5. Also reported: the median of the best hangtag confidence at IoU >= 0.5 (0 when none), and
for cut frames the split by whether the card's punched-hole end (top of an upright card, left end of a landscape
one, as `training/synth/tag.py` and `wide_tag.py` place it) is the end that was cut off.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from inference.detections import iou  # noqa: E402
from inference.pipeline import Pipeline  # noqa: E402
from inference.postprocess import Thresholds  # noqa: E402
from training.synth.edge_cut import clipped_tag_box, window_cutting  # noqa: E402

SIDES = ("top", "bottom", "left", "right")
FRACTIONS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.4)
MIN_KEEP = 0.4


def hole_end(quad: tuple[tuple[float, float], ...]) -> tuple[float, float]:
    """Where the punched hole sits, near enough: 8 % in from the card's top edge (upright) or left end (landscape)."""
    tl, tr, br, bl = (np.float64(p) for p in quad)
    upright = np.linalg.norm(tl - bl) + np.linalg.norm(tr - br) >= np.linalg.norm(tl - tr) + np.linalg.norm(bl - br)
    a, b = ((tl + tr) / 2, (bl + br) / 2) if upright else ((tl + bl) / 2, (tr + br) / 2)
    p = a + 0.08 * (b - a)
    return float(p[0]), float(p[1])


def _tagset_scenes(folder: Path):
    """(seed, BGR image, tags with .xyxy and .quad) of a set written by `python -m training.tagsets`."""
    import cv2
    from types import SimpleNamespace

    for i, line in enumerate((folder / "truth.jsonl").read_text(encoding="utf-8").splitlines()):
        record = json.loads(line)
        image = cv2.imread(str(folder / record["image"]), cv2.IMREAD_COLOR)
        tags = tuple(SimpleNamespace(xyxy=tuple(t["xyxy"]), quad=tuple(tuple(q) for q in t["quad"])) for t in record["tags"])
        yield SimpleNamespace(seed=i, image=image, tags=tags)


def cases(domain: str, scenes: int, per_scene: int = 2, tagset: Path | None = None):
    """(scene id, tag index, image, window, clipped truth in window pixels, hole cut?, side, f) for every case."""
    if domain == "independent":
        source = _tagset_scenes(tagset)
    elif domain == "classic":
        from training.synth.scene import generate_scene as draw
        base = 20_000_000
    else:
        from training.synth.wide_scene import generate_wide_scene as draw
        base = 116_000_000
    if domain != "independent":
        source = (draw(seed, 640) for seed in range(base, base + 100 * scenes))
    used = 0
    for scene in source:
        if used >= scenes:
            break
        h, w = scene.image.shape[:2]
        tags = [(i, t) for i, t in enumerate(scene.tags)
                if t.xyxy[2] - t.xyxy[0] >= 48 and t.xyxy[3] - t.xyxy[1] >= 48]
        tags = sorted(tags, key=lambda it: -(it[1].xyxy[2] - it[1].xyxy[0]) * (it[1].xyxy[3] - it[1].xyxy[1]))[:per_scene]
        if not tags:
            continue
        used += 1
        for index, tag in tags:
            hole = hole_end(tag.quad)
            for side in SIDES:
                for f in FRACTIONS:
                    x0, y0, x1, y1 = window_cutting(tag.xyxy, side, f, w, h)
                    if x1 - x0 < MIN_KEEP * w or y1 - y0 < MIN_KEEP * h:
                        yield scene.seed, index, None, None, None, None, side, f
                        continue
                    truth = clipped_tag_box(tag, (x0, y0, x1, y1))
                    if truth is None:
                        continue
                    truth = (truth[0] - x0, truth[1] - y0, truth[2] - x0, truth[3] - y0)
                    hole_cut = not (x0 <= hole[0] < x1 and y0 <= hole[1] < y1)
                    # the letterbox pads the window's short dimension: a cut there meets the grey pad
                    # (as the line's top-edge tags do), a cut on the long dimension meets the input's edge
                    against_pad = (x1 - x0 != y1 - y0) and ((side in ("top", "bottom")) == (x1 - x0 > y1 - y0))
                    window = np.ascontiguousarray(scene.image[y0:y1, x0:x1])
                    yield scene.seed, index, window, (x0, y0, x1, y1), truth, (hole_cut, against_pad), side, f


def best_match(pipeline: Pipeline, image: np.ndarray, truth) -> tuple[float, float]:
    """(best confidence among hangtag boxes at IoU >= 0.5, best IoU among boxes of confidence >= 0.25)."""
    d = pipeline.process(image).detections
    conf, best_iou = 0.0, 0.0
    for b, c, label in zip(d.xyxy, d.confidence, d.labels):
        if label != "hangtag":
            continue
        o = float(iou(truth, b))
        if o >= 0.5:
            conf = max(conf, float(c))
        if c >= 0.25:
            best_iou = max(best_iou, o)
    return conf, best_iou


def summarize(rows: list[dict], names: list[str]) -> dict:
    out: dict = {}
    for name in names:
        per: dict = {}
        for f in FRACTIONS:
            for side in SIDES + ("all",):
                sel = [r for r in rows if r["f"] == f and (side == "all" or r["side"] == side)]
                if sel:
                    hits = [r[name]["conf"] >= 0.25 and r[name]["iou"] >= 0.5 for r in sel]
                    per[f"{f:.2f}/{side}"] = {"n": len(sel), "detected": round(sum(hits) / len(sel), 3),
                                              "conf_p50": round(statistics.median(r[name]["conf"] for r in sel), 3)}
        cut = [r for r in rows if r["f"] >= 0.1]
        for label, sel in (("cut>=0.1/hole cut", [r for r in cut if r["hole_cut"]]),
                           ("cut>=0.1/hole kept", [r for r in cut if not r["hole_cut"]]),
                           ("cut>=0.1/against the pad", [r for r in cut if r["against_pad"]]),
                           ("cut>=0.1/at the input's edge", [r for r in cut if not r["against_pad"]]),
                           ("cut 0.05-0.4/all", [r for r in rows if r["f"] > 0])):
            if sel:
                hits = [r[name]["conf"] >= 0.25 and r[name]["iou"] >= 0.5 for r in sel]
                per[label] = {"n": len(sel), "detected": round(sum(hits) / len(sel), 3),
                              "conf_p50": round(statistics.median(r[name]["conf"] for r in sel), 3)}
        out[name] = per
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", nargs="+", required=True, help="detector ONNX files; NAME=PATH names one")
    parser.add_argument("--domains", nargs="+", default=["classic", "wide"], choices=("classic", "wide", "independent"))
    parser.add_argument("--tagset", type=Path, default=ROOT / "datasets/i17-tagset",
                        help="--domains independent: a set from python -m training.tagsets (its first --scenes frames)")
    parser.add_argument("--scenes", type=int, default=30, help="scenes per domain with at least one usable tag")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)

    named = [m.split("=", 1) if "=" in m else (Path(m).stem if len(args.models) == 1 else m, m) for m in args.models]
    pipelines = {}
    for name, path in named:
        p = Pipeline.open(path, "onnxruntime-cpu", threads=1)
        p.thresholds = Thresholds(confidence=0.01, iou=0.45, max_detections=100)
        pipelines[name] = p
    names = list(pipelines)
    report: dict = {"models": dict(named), "scenes_per_domain": args.scenes, "fractions": FRACTIONS, "domains": {}}
    t0 = time.time()
    for domain in args.domains:
        rows, skipped = [], 0
        for seed, index, image, window, truth, flags, side, f in cases(domain, args.scenes, tagset=args.tagset):
            if image is None:
                skipped += 1
                continue
            row = {"seed": seed, "tag": index, "side": side, "f": f, "hole_cut": flags[0], "against_pad": flags[1]}
            for name, p in pipelines.items():
                conf, best = best_match(p, image, truth)
                row[name] = {"conf": round(conf, 3), "iou": round(best, 3)}
            rows.append(row)
        summary = summarize(rows, names)
        fields = ["seed", "tag", "side", "f", "hole_cut", "against_pad"]
        columns = fields + [f"{name}_{k}" for name in names for k in ("conf", "iou")]
        table = [[r[k] for k in fields] + [r[name][k] for name in names for k in ("conf", "iou")] for r in rows]
        report["domains"][domain] = {"cases": len(rows), "skipped_small_window": skipped, "summary": summary,
                                     "columns": columns, "rows": table}
        print(f"{domain}: {len(rows)} cut frames ({skipped} windows too small, skipped), {time.time() - t0:.0f} s", flush=True)
        for name in names:
            s = summary[name]
            line = "  ".join(f"f{f:.2f} {s[f'{f:.2f}/all']['detected']:.2f}" for f in FRACTIONS if f"{f:.2f}/all" in s)
            print(f"  {name:>12}: detected  {line}", flush=True)
            for side in SIDES:
                cells = "  ".join(f"{s[f'{f:.2f}/{side}']['detected']:.2f}" for f in FRACTIONS if f"{f:.2f}/{side}" in s)
                print(f"  {'':>12}  {side:>6}: {cells}", flush=True)
            for label in ("cut 0.05-0.4/all", "cut>=0.1/hole cut", "cut>=0.1/hole kept", "cut>=0.1/against the pad",
                          "cut>=0.1/at the input's edge"):
                if label in s:
                    print(f"  {'':>12}  {label}: {s[label]['detected']:.2f} of {s[label]['n']}, conf p50 {s[label]['conf_p50']:.2f}", flush=True)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
