"""The set on disk: jobs of several images each, a known share with one planted defect, truth per image.

DIR/manifest.json, DIR/images/NNNNNN.jpg, DIR/recipes/JOB.toml, DIR/truth.jsonl (one object per image).
Each image draws from its own generator seeded by (seed, index), so a set is the same on every machine.
"""

from __future__ import annotations

import json
import math
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

import numpy as np

from inference.errors import ConfigError
from training.tagsets.codes import modules
from training.tagsets.designs import BARCODE_OF, DESIGNS, HAS_QR, HUNG_UPSIDE_DOWN, JOB_VALUES
from training.tagsets.recipe_toml import recipe_text
from training.tagsets.scene import HEIGHT, KINDS, WIDTH, Placement, Shot, map_box, photograph, place
from training.tagsets.values import DEFECT_FIELD, DEFECT_KINDS, TagValues, random_values, wrong_value

IMAGES_PER_JOB = 5
BUCKETS = ("nominal", "blurred", "small")
BUCKET_SHARES = (0.6, 0.2, 0.2)
# Card height in the frame, px: the target condition starts at 300 px.
HEIGHT_RANGE = {"nominal": (310.0, 600.0), "blurred": (300.0, 560.0), "small": (150.0, 295.0)}
BLUR_RANGE = {"nominal": (0.0, 1.5), "blurred": (1.5, 4.0), "small": (0.0, 1.5)}
VERSION = 1


class TagsetError(ConfigError):
    """The generator was asked for something it cannot make."""


def _design_names(designs: list[str] | None) -> list[str]:
    names = list(designs or DESIGNS)
    unknown = [n for n in names if n not in DESIGNS]
    if unknown or not names:
        raise TagsetError("unknown tag design", expected=f"some of {', '.join(DESIGNS)}",
                          found=", ".join(unknown) or "none", hint="--designs a,b with names from the list")
    return names


def applicable_defects(design: str) -> tuple[str, ...]:
    """A wrong EAN only where the tag carries an EAN-13; on the others the code is the style number."""
    return tuple(k for k in DEFECT_KINDS if k != "wrong_barcode" or BARCODE_OF[design] == "EAN-13")


@lru_cache(maxsize=64)
def _height_mm(design: str) -> float:
    return DESIGNS[design](0, _job_values(design, np.random.default_rng(0)), 10.0).rgba.shape[0] / 10.0


def _job_values(design: str, rng: np.random.Generator) -> TagValues:
    """A job's values; a design with a size system of its own draws them in that system."""
    values = random_values(rng)
    return JOB_VALUES[design](rng, values) if design in JOB_VALUES else values


def _render(design: str, style_seed: int, values: TagValues, height_px: float):
    """The card drawn at the scale that makes it `height_px` tall."""
    return DESIGNS[design](style_seed, values, height_px / _height_mm(design))


def _shot(rng: np.random.Generator, bucket: str) -> Shot:
    low, high = BLUR_RANGE[bucket]
    kind = "motion" if rng.random() < 0.3 else "gaussian"
    blur = float(rng.uniform(low, high))
    if kind == "motion" and blur < 1.0:
        kind = "gaussian"
    return Shot(round(blur, 2), kind, round(float(rng.uniform(-35, 35)), 1), round(float(rng.uniform(0.0, 0.06)), 3),
                KINDS[int(rng.integers(len(KINDS)))], int(rng.integers(70, 96)))


def _placements(rng: np.random.Generator, design: str, style_seed: int, values: TagValues, bucket: str,
                shot: Shot, n_tags: int):
    """(art, placement) for each card, the card's height in the frame inside the bucket's range."""
    slots = [(0, 0, WIDTH, HEIGHT)] if n_tags == 1 else [(0, 0, WIDTH / 2, HEIGHT), (WIDTH / 2, 0, WIDTH, HEIGHT)]
    low, high = HEIGHT_RANGE[bucket]
    rotation = shot.rotation_deg
    half_turn = 0.0
    if design in HUNG_UPSIDE_DOWN:  # 150-210 degrees in all
        rotation, half_turn = rotation * 30.0 / 35.0, 180.0
    for attempt in range(40):
        target = float(rng.uniform(low, high))
        art = _render(design, style_seed, values, target)
        placed = [place(rng, art, half_turn + (rotation if i == 0 else -rotation), shot.perspective, slot)
                  for i, slot in enumerate(slots)]
        if all(p is not None and low - 10 <= p.tag_height_px <= high + 10 for p in placed):
            return [(art, p) for p in placed], half_turn + rotation
        high = max(low, high * 0.93)
        if attempt > 20:
            rotation *= 0.8
    raise TagsetError("a card does not fit in the frame", expected=f"{bucket} tags of {low:.0f}-{high:.0f} px",
                      found=design, hint="this is a generator bug; report the seed")


def _module_px(card) -> float:
    """Width of one barcode module in the frame: below ~1.5 px no reader decodes it. A code runs along the
    longer side of its box (a code turned 90°, as hairline_rows prints it, runs down the card). A tag whose only
    code is a QR code (logo_face): the QR module."""
    art, placement = card
    code = (art.barcodes or art.qr)[0]
    scale = placement.tag_height_px / art.rgba.shape[0]
    length = max(code.box[2] - code.box[0], code.box[3] - code.box[1])
    return round(length / modules(code.text, code.format).shape[1] * scale, 2)


def _smallest_print_px(card) -> float:
    """The em of the smallest text on the card in the frame (its card pixels at the placement's scale)."""
    art, placement = card
    return round(art.smallest_print_px * placement.tag_height_px / art.rgba.shape[0], 1)


def _tag_truth(art, placement: Placement, box, values: TagValues) -> dict:
    """`fields` as printed ("RMB 1,099.00"); `values` the same in the recipe's form ("¥1099.00"), so a
    scorer need not parse every printed number format to compare."""
    h = placement.homography
    return {
        "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in placement.quad],
        "xyxy": [round(v, 1) for v in box],
        "fields": dict(art.fields),
        "values": {name: _recipe_form(name, printed, values) for name, printed in art.fields.items()},
        "barcodes": [{"format": s.format, "text": s.text, "xyxy": map_box(h, s.box)} for s in art.barcodes],
        "qr": [{"format": s.format, "text": s.text, "xyxy": map_box(h, s.box)} for s in art.qr],
    }


def _recipe_form(name: str, printed: str, values: TagValues) -> str:
    """The price as the recipe writes it; a size printed with more than the recipe's ('L (170/92A)') as the
    recipe's; a value printed full-width ('ＧＢ／Ｔ　２６６４－２０１７') as its NFKC form where that is the recipe's;
    every other field as printed."""
    if name == "price":
        return f"¥{values.price}"
    if name == "size":
        return values.size
    recipes = getattr(values, name, None)
    if name == "color" and recipes and recipes in printed:  # the maker's colour code beside the name: 'C09 藏青'
        return recipes
    if name == "style_number" and printed.replace(" ", "") == recipes:  # grouped by spaces: '1035 02 18'
        return recipes
    if name == "composition" and recipes and _fibre_shares(printed) == _fibre_shares(recipes) != []:  # '65%棉 …'
        return recipes
    folded = unicodedata.normalize("NFKC", printed)
    return folded if folded != printed and folded == getattr(values, name, None) else printed


def _fibre_shares(text: str) -> list[tuple[str, str]]:
    """(fibre, share) pairs of a fibre content in any print order: '棉 65%', '棉65%', '65%棉', '棉65%/氨纶5%'."""
    pairs = re.findall(r"(\d+(?:\.\d+)?)%\s*([^\d\s%/、，,]+)|([^\d\s%/、，,]+)\s*(\d+(?:\.\d+)?)%", text)
    first = text.strip()[:1].isdigit()
    return [(a[1], a[0]) if first else (a[2], a[3]) for a in pairs]


def generate(out: Path, count: int, seed: int, defect_share: float = 0.2, designs: list[str] | None = None) -> dict:
    if count < 1 or not 0.0 <= defect_share <= 1.0:
        raise TagsetError("bad set size or defect share", expected="--count >= 1 and 0 <= --defect-share <= 1",
                          found=f"count {count}, defect share {defect_share}")
    names = _design_names(designs)
    out = Path(out)
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "recipes").mkdir(exist_ok=True)
    rng = np.random.default_rng(seed)
    defective = set(int(i) for i in rng.choice(count, size=round(count * defect_share), replace=False))
    order = {image: k for k, image in enumerate(sorted(defective))}  # kinds taken in turn, so all appear
    n_jobs = math.ceil(count / IMAGES_PER_JOB)
    jobs = []
    # every design in turn, shuffled per round, so each has the same number of jobs (±1)
    rounds = [names[k] for _ in range(math.ceil(n_jobs / len(names))) for k in rng.permutation(len(names))]
    for j in range(n_jobs):
        design = rounds[j]
        job_rng = np.random.default_rng([seed, 1_000_000 + j])
        values, style_seed = random_values(job_rng), int(job_rng.integers(2**31))
        if design in JOB_VALUES:  # drawn after the style seed, so every other design's jobs stay as they were
            values = JOB_VALUES[design](job_rng, values)
        name = f"job{j:03d}"
        art = DESIGNS[design](style_seed, values, 4.0)
        (out / "recipes" / f"{name}.toml").write_text(
            recipe_text(name, design, values, art.fields, BARCODE_OF[design], design in HAS_QR, len(art.barcodes)),
            encoding="utf-8")
        jobs.append((name, design, values, style_seed, art.fields))
    rows = []
    with (out / "truth.jsonl").open("w", encoding="utf-8") as truth:
        for i in range(count):
            kind_index = order[i] + seed if i in defective else None
            row, jpeg = _image(i, seed, jobs[i // IMAGES_PER_JOB], kind_index)
            (out / row["image"]).write_bytes(jpeg)
            truth.write(json.dumps(row, ensure_ascii=False) + "\n")
            rows.append(row)
    manifest = {"generator": "training.tagsets", "version": VERSION, "seed": seed, "count": count, "designs": names,
                "defect_share": defect_share, "jobs": n_jobs, "images_per_job": IMAGES_PER_JOB,
                "defective_images": len(defective), "buckets": {b: sum(r["bucket"] == b for r in rows) for b in BUCKETS}}
    (out / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return manifest


def _image(i: int, seed: int, job: tuple, kind_index: int | None) -> tuple[dict, bytes]:
    """Image `i` of the set and its truth row; `kind_index` picks its defect kind (None: a correct tag)."""
    name, design, values, style_seed, right = job
    image_rng = np.random.default_rng([seed, i])
    bucket = BUCKETS[int(image_rng.choice(len(BUCKETS), p=BUCKET_SHARES))]
    kinds = applicable_defects(design)
    kind = kinds[kind_index % len(kinds)] if kind_index is not None else None
    printed_values = wrong_value(image_rng, kind, values) if kind in DEFECT_FIELD else values
    shot = _shot(image_rng, bucket)
    n_tags = {"missing_tag": 0, "two_tags": 2}.get(kind, 1)
    cards, rotation = _placements(image_rng, design, style_seed, printed_values, bucket, shot, max(n_tags, 1))
    shot = Shot(shot.blur_px, shot.blur_kind, round(rotation, 1), shot.perspective, shot.background, shot.jpeg_quality)
    cards = cards[:n_tags]
    jpeg, boxes = photograph(image_rng, cards, shot)
    row = {
        "image": f"images/{i:06d}.jpg", "job": name, "recipe": f"recipes/{name}.toml", "design": design, "bucket": bucket,
        "condition": {"blur_px": shot.blur_px, "blur_kind": shot.blur_kind,
                      "tag_height_px": round(cards[0][1].tag_height_px if cards else 0.0, 1),
                      "barcode_module_px": _module_px(cards[0]) if cards else 0.0,
                      "smallest_print_px": min((_smallest_print_px(c) for c in cards), default=0.0),
                      "rotation_deg": shot.rotation_deg, "perspective": shot.perspective,
                      "background": shot.background, "jpeg_quality": shot.jpeg_quality},
        "defect": _defect(kind, right, cards),
        "expected_verdict": "NG" if kind else "OK",
        "tags": [_tag_truth(art, p, box, printed_values) for (art, p), box in zip(cards, boxes)],
    }
    return row, jpeg


def _defect(kind: str | None, right: dict[str, str], cards) -> dict | None:
    if kind is None:
        return None
    if kind in DEFECT_FIELD:
        field = DEFECT_FIELD[kind]
        return {"kind": kind, "field": field, "expected": right.get(field), "printed": cards[0][0].fields.get(field)}
    return {"kind": kind, "field": None, "expected": "1 hangtag",
            "printed": "no hangtag" if kind == "missing_tag" else "2 hangtags"}
