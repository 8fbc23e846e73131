"""Conveyor recordings with per-frame truth: hangtags entering and leaving on a moving belt.

    python -m training.conveyor --out datasets/line-1.25 --seconds 30 --spacing 1.25 --seed 18
    hangtag-inspect line-bench --source camera:datasets/line-1.25/line.avi --recipe datasets/line-1.25/recipe.toml \
        --truth datasets/line-1.25/truth.json

One job (one design, one set of values, its recipe) per recording, as on a line. Tags are drawn by the
independent tag renderer (training.tagsets: designs and fonts the station never trained on), tilted a little,
and carried left to right at the belt's speed, `--spacing` seconds apart (one number, or LOW:HIGH for a
spacing drawn per tag). A share carries one planted field defect (wrong size, price, style number, colour or
EAN), and a share rides so close to the top or bottom that the frame's edge cuts it all the way: the camera
never sees those whole, so the honest verdict is REVIEW.

DIR/line.avi   MJPG, 30 fps, 1280x720 (by default)
DIR/truth.json {"fps", "width", "height", "frames", "spacing_s", "belt_px_per_s", "design", "tags": [{"id",
               "expected_verdict", "defect", "edge", "first_frame", "last_frame" (last frame with any of it in
               view), "whole_frames" (frames it is fully inside), "boxes": [[frame, x1, y1, x2, y2], ...]}]}
DIR/recipe.toml the job's recipe (training.tagsets.recipe_toml), always of the correct tag
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from inference.errors import ConfigError, HangtagError
from training.tagsets.designs import BARCODE_OF, DESIGNS, HAS_QR
from training.tagsets.recipe_toml import recipe_text
from training.tagsets.values import DEFECT_FIELD, random_values, wrong_value

VERSION = 1
FIELD_DEFECTS = tuple(DEFECT_FIELD)  # a missing or doubled tag is no conveyor case: one item, one tag


class ConveyorError(ConfigError):
    """The generator was asked for a recording it cannot make."""


@dataclass(frozen=True)
class Plan:
    seconds: float
    spacing: tuple[float, float]  # (low, high) seconds between tags entering; low == high for a fixed spacing
    seed: int
    design: str = "vertical_classic"
    fps: int = 30
    width: int = 1280
    height: int = 720
    tag_height: float = 0.7  # share of the frame's height a tag's card takes
    belt_px_per_s: float = 0.0  # 0: the frame's width per 1.4 s (a tag is whole in view for about 1 s)
    defect_share: float = 0.25
    edge_share: float = 0.12
    tilt_deg: float = 8.0

    @property
    def speed(self) -> float:
        return self.belt_px_per_s or self.width / 1.4


def parse_spacing(text: str) -> tuple[float, float]:
    try:
        low, _, high = text.partition(":")
        spacing = (float(low), float(high or low))
    except ValueError:
        spacing = (0.0, -1.0)
    if not 0.05 <= spacing[0] <= spacing[1]:
        raise ConveyorError("spacing not understood", expected="seconds between tags, e.g. 1.25, or LOW:HIGH like 0.6:2",
                            found=text, hint="--spacing 1.25")
    return spacing


def _belt(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A rubber belt: dark grey with grain, joints across it, worn lighter along the middle (float32 BGR)."""
    grain = cv2.resize(rng.normal(0, 1, (h // 3 + 1, w // 3 + 1)).astype(np.float32), (w, h))
    rows = np.linspace(-1, 1, h, dtype=np.float32)[:, None]
    belt = 72 + 6 * grain + 10 * (1 - rows**2)
    for x in range(int(rng.integers(0, 300)), w, 420):
        belt[:, x:x + 3] -= 18
    return np.repeat(belt[..., None], 3, axis=2) * np.array([1.0, 1.02, 1.04], np.float32)


def _sprite(art_rgba: np.ndarray, tilt_deg: float) -> tuple[np.ndarray, np.ndarray]:
    """The card turned by `tilt_deg` on its own canvas: BGR float32 and alpha 0..1, cut to its outline."""
    h, w = art_rgba.shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), tilt_deg, 1.0)
    cos, sin = abs(turn[0, 0]), abs(turn[0, 1])
    nw, nh = int(h * sin + w * cos) + 2, int(h * cos + w * sin) + 2
    turn[0, 2] += nw / 2 - w / 2
    turn[1, 2] += nh / 2 - h / 2
    rgba = cv2.warpAffine(art_rgba, turn, (nw, nh), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
    ys, xs = np.nonzero(rgba[..., 3] > 127)
    rgba = rgba[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    bgr = cv2.cvtColor(rgba[..., :3], cv2.COLOR_RGB2BGR).astype(np.float32)
    alpha = rgba[..., 3].astype(np.float32) / 255.0
    # optics: a slight softness, and the belt's motion during a short exposure
    bgr = cv2.GaussianBlur(bgr, (0, 0), 0.6)
    return bgr, alpha[..., None]


@dataclass
class _Tag:
    number: int
    enter_s: float
    y: int
    bgr: np.ndarray
    alpha: np.ndarray
    expected: str
    defect: dict | None
    edge: bool


def _tags(plan: Plan, rng: np.random.Generator) -> tuple[list[_Tag], str]:
    if plan.design not in DESIGNS:
        raise ConveyorError("unknown tag design", expected=", ".join(DESIGNS), found=plan.design,
                            hint="--design vertical_classic")
    values, style_seed = random_values(rng), int(rng.integers(2**31))
    probe = DESIGNS[plan.design](style_seed, values, 4.0)
    recipe = recipe_text("conveyor", plan.design, values, probe.fields, BARCODE_OF[plan.design],
                         plan.design in HAS_QR, len(probe.barcodes))
    px_per_mm = plan.tag_height * plan.height / (probe.rgba.shape[0] / 4.0)
    kinds = [k for k in FIELD_DEFECTS if k != "wrong_barcode" or BARCODE_OF[plan.design] == "EAN-13"]
    tags: list[_Tag] = []
    enter = 0.3
    crossing = (plan.width + plan.tag_height * plan.height) / plan.speed
    while enter + crossing * 1.3 + 0.5 < plan.seconds:
        number = len(tags)
        edge = rng.random() < plan.edge_share
        kind = None if edge or rng.random() >= plan.defect_share else kinds[int(rng.integers(len(kinds)))]
        printed = wrong_value(rng, kind, values) if kind else values
        art = DESIGNS[plan.design](style_seed, printed, px_per_mm)
        bgr, alpha = _sprite(art.rgba, float(rng.uniform(-plan.tilt_deg, plan.tilt_deg)))
        h = bgr.shape[0]
        if edge:  # rides along the top or the bottom, a tenth to a third of it always cut off
            cut = int(h * rng.uniform(0.1, 0.33))
            y = -cut if rng.random() < 0.5 else plan.height - h + cut
        else:
            y = int(rng.uniform(8, max(9, plan.height - h - 8)))
        defect = None
        if kind:
            field = DEFECT_FIELD[kind]
            defect = {"kind": kind, "field": field, "expected": probe.fields.get(field), "printed": art.fields.get(field)}
        tags.append(_Tag(number, enter, y, bgr, alpha, "REVIEW" if edge else "NG" if kind else "OK", defect, edge))
        enter += float(rng.uniform(*plan.spacing))
    return tags, recipe


def generate(out: Path, plan: Plan) -> dict:
    if plan.seconds <= 0 or not 0 <= plan.defect_share <= 1 or not 0 <= plan.edge_share <= 1:
        raise ConveyorError("bad recording plan", expected="--seconds > 0, shares between 0 and 1",
                            found=f"seconds {plan.seconds}, defect share {plan.defect_share}, edge share {plan.edge_share}")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(plan.seed)
    tags, recipe = _tags(plan, rng)
    (out / "recipe.toml").write_text(recipe, encoding="utf-8")
    belt = _belt(rng, plan.height, plan.width)
    n_frames = int(round(plan.seconds * plan.fps))
    video = out / "line.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), plan.fps, (plan.width, plan.height))
    if not writer.isOpened():
        raise ConveyorError("cannot write the recording", expected="OpenCV's MJPG writer", found=str(video),
                            hint="check the folder is writable")
    boxes: dict[int, list[list[float]]] = {t.number: [] for t in tags}
    whole: dict[int, int] = {t.number: 0 for t in tags}
    noise = np.empty((plan.height, plan.width, 3), np.float32)
    try:
        for frame in range(n_frames):
            t = frame / plan.fps
            shift = int(round(plan.speed * t)) % plan.width
            image = np.roll(belt, shift, axis=1).copy()
            for tag in tags:
                h, w = tag.bgr.shape[:2]
                x = int(round(-w + plan.speed * (t - tag.enter_s)))
                x1, y1, x2, y2 = max(0, x), max(0, tag.y), min(plan.width, x + w), min(plan.height, tag.y + h)
                if x2 - x1 < 2 or y2 - y1 < 2:
                    continue
                a = tag.alpha[y1 - tag.y:y2 - tag.y, x1 - x:x2 - x]
                region = image[y1:y2, x1:x2]
                image[y1:y2, x1:x2] = region * (1 - a) + tag.bgr[y1 - tag.y:y2 - tag.y, x1 - x:x2 - x] * a
                boxes[tag.number].append([frame, x1, y1, x2, y2])
                whole[tag.number] += (x >= 0 and tag.y >= 0 and x + w <= plan.width and tag.y + h <= plan.height)
            cv2.randn(noise, 0.0, 2.5)
            image += noise
            writer.write(np.clip(image, 0, 255).astype(np.uint8))
    finally:
        writer.release()
    truth = {
        "generator": "training.conveyor", "version": VERSION, "seed": plan.seed, "fps": plan.fps,
        "width": plan.width, "height": plan.height, "frames": n_frames, "seconds": plan.seconds,
        "spacing_s": list(plan.spacing), "belt_px_per_s": round(plan.speed, 1), "design": plan.design,
        "video": video.name, "recipe": "recipe.toml",
        "tags": [{"id": t.number, "expected_verdict": t.expected, "defect": t.defect, "edge": t.edge,
                  "first_frame": boxes[t.number][0][0], "last_frame": boxes[t.number][-1][0],
                  "whole_frames": whole[t.number], "boxes": boxes[t.number]} for t in tags if boxes[t.number]],
    }
    (out / "truth.json").write_text(json.dumps(truth, ensure_ascii=False) + "\n", encoding="utf-8")
    return truth


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.conveyor",
                                     description="A conveyor recording of hangtags with per-frame truth (line-bench).")
    parser.add_argument("--out", type=Path, required=True, help="folder for line.avi, truth.json, recipe.toml")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--spacing", default="1.25", help="seconds between tags: 1.25, or LOW:HIGH (e.g. 0.6:2)")
    parser.add_argument("--seed", type=int, default=18)
    parser.add_argument("--design", default="vertical_classic", help=f"one of {', '.join(DESIGNS)}")
    parser.add_argument("--size", default="1280x720", help="WIDTHxHEIGHT")
    parser.add_argument("--fps", type=int, default=30)
    parser.add_argument("--defect-share", type=float, default=0.25)
    parser.add_argument("--edge-share", type=float, default=0.12, help="share of tags the frame's edge always cuts")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        width, _, height = args.size.lower().partition("x")
        if not (width.isdigit() and height.isdigit()):
            raise ConveyorError("size not understood", expected="WIDTHxHEIGHT, e.g. 1280x720", found=args.size)
        plan = Plan(args.seconds, parse_spacing(args.spacing), args.seed, args.design, args.fps, int(width),
                    int(height), defect_share=args.defect_share, edge_share=args.edge_share)
        truth = generate(args.out, plan)
    except HangtagError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    kinds = {v: sum(t["expected_verdict"] == v for t in truth["tags"]) for v in ("OK", "NG", "REVIEW")}
    print(f"{truth['frames']} frames, {len(truth['tags'])} tags {kinds} -> {args.out} "
          f"({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
