"""Teaching a job from one golden tag: what the reader found becomes a draft recipe the engineer
confirms or corrects, field by field, with where on the tag each field is printed.

A taught region is stored as fractions of the upright tag, so the same design at another distance
or angle maps onto it; the verifier reads there first when a field is in doubt.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from inference.reading.normalize import format_price, parse_price
from inference.reading.rectify import make_upright
from inference.reading.recipe import DEFAULT_MIN_FIELD_CONFIDENCE, Recipe, parse_recipe
from inference.reading.types import FIELD_LABELS_ZH, FIELD_NAMES, OcrLine, TagReading

Region = tuple[float, float, float, float]

# Fields a job usually pins down; the rest are taught unchecked until the engineer ticks them. A value read
# less surely than a recipe's default limit is taught unchecked too: ticked, a misread ('691' for 男式休闲裤
# at 29 %) would become what every tag of the job must say.
CHECKED_BY_DEFAULT = ("product_name", "style_number", "color", "size", "price", "standard", "safety_category", "grade")


@dataclass(frozen=True)
class TaughtField:
    """One field of the draft: the value to expect, how surely it was read, where it is printed."""

    name: str
    value: str = ""
    confidence: float = 0.0
    region: Region | None = None
    use: bool = False

    @property
    def label(self) -> str:
        return f"{FIELD_LABELS_ZH[self.name]} {self.name.replace('_', ' ')}"


@dataclass(frozen=True)
class Lesson:
    """A draft job recipe taught from one tag."""

    name: str
    fields: tuple[TaughtField, ...]
    barcode_format: str = ""
    barcode_text: str = ""
    counts: Mapping[str, int] = field(default_factory=dict)

    def field(self, name: str) -> TaughtField:
        return next(f for f in self.fields if f.name == name)

    def with_field(self, name: str, **changes: object) -> Lesson:
        return replace(self, fields=tuple(replace(f, **changes) if f.name == name else f for f in self.fields))

    def recipe_text(self, description: str = "") -> str:
        """The recipe as TOML an engineer can read and edit; it always parses (checked)."""
        out = ["# Taught from a golden tag with Teach job…; edit freely (resources/recipes/example.toml explains every key).",
               "", "[recipe]", f"name = {_quote(self.name)}"]
        if description:
            out.append(f"description = {_quote(description)}")
        if self.counts:
            out += ["", "[counts]"] + [f"{name} = {n}" for name, n in self.counts.items()]
        used = [f for f in self.fields if f.use and f.value]
        if used:
            out += ["", "[fields]"]
            for f in used:
                parts = [f"expected = {_quote(f.value)}"]
                if f.region is not None:
                    parts.append("region = [" + ", ".join(f"{v:.3f}" for v in f.region) + "]")
                out.append(f"{f.name} = {{ {', '.join(parts)} }}")
        if self.barcode_text:
            out += ["", "[barcode]", f"expected = {_quote(self.barcode_text)}"]
            if self.barcode_format:
                out.append(f"format = {_quote(self.barcode_format)}")
            out.append("required = true")
        return "\n".join(out) + "\n"

    def recipe(self, source: str = "<taught>") -> Recipe:
        return parse_recipe(self.recipe_text(), source)


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a TOML basic string


def lesson_from(image_bgr: np.ndarray, tag: TagReading, *, tags_in_frame: int = 1, name: str = "") -> Lesson:
    """The draft recipe for the tag as read: every field found, with its region on the tag."""
    upright = make_upright(image_bgr, tag.xyxy, tag.rotation)
    h, w = upright.image.shape[:2]
    lines = [*tag.ocr_lines, *tag.reread_lines]
    taught = []
    for name_ in FIELD_NAMES:
        reading = tag.fields.get(name_)
        if reading is None:
            taught.append(TaughtField(name_))
            continue
        value = format_price(parse_price(reading.value)) if name_ == "price" and parse_price(reading.value) is not None else reading.value
        line = _line_of(reading.raw, reading.value, lines)
        region = None
        if line is not None:
            region = _fraction(upright.to_upright_box(line.box), w, h)
        sure = reading.confidence >= DEFAULT_MIN_FIELD_CONFIDENCE
        taught.append(TaughtField(name_, value, reading.confidence, region,
                                  use=sure and (name_ in CHECKED_BY_DEFAULT or name_ == "brand")))
    linear = [b for b in tag.barcodes if "QR" not in b.format]
    main = next((b for b in linear if b.format.startswith(("EAN", "UPC"))), linear[0] if linear else None)
    counts = {"hangtag": tags_in_frame}
    if linear:
        counts["barcode"] = len({(b.format, b.text) for b in linear})
    qr = [b for b in tag.barcodes if "QR" in b.format]
    if qr:
        counts["qr_code"] = len({b.text for b in qr})
    sure = [f for f in taught if f.use]  # a job is not named after a misread
    title = name or " ".join(v for v in (_value(sure, "style_number"), _value(sure, "product_name"), _value(sure, "color"),
                                        _value(sure, "size")) if v) or "taught job"
    return Lesson(title, tuple(taught), main.format if main else "", main.text if main else "", counts)


def _value(fields: Iterable[TaughtField], name: str) -> str:
    return next((f.value for f in fields if f.name == name), "")


def _line_of(raw: str, value: str, lines: Sequence[OcrLine]) -> OcrLine | None:
    """The recognized line a field came from: its raw text, else the line holding its value."""
    for line in lines:
        if raw and line.text == raw:
            return line
    key = value.replace(" ", "")
    return next((line for line in lines if key and key in line.text.replace(" ", "")), None)


def _fraction(box: tuple[float, float, float, float], w: int, h: int) -> Region | None:
    x1, y1, x2, y2 = (min(1.0, max(0.0, v)) for v in (box[0] / w, box[1] / h, box[2] / w, box[3] / h))
    if x2 - x1 < 0.01 or y2 - y1 < 0.005:
        return None
    return (round(x1, 3), round(y1, 3), round(x2, 3), round(y2, 3))


def region_in_pixels(region: Region, size_wh: tuple[int, int]) -> tuple[int, int, int, int]:
    """A taught region on an upright tag crop of this size (for drawing it)."""
    w, h = size_wh
    return (int(region[0] * w), int(region[1] * h), int(np.ceil(region[2] * w)), int(np.ceil(region[3] * h)))


def region_from_pixels(box: tuple[float, float, float, float], size_wh: tuple[int, int]) -> Region | None:
    """A rectangle the engineer dragged on the upright crop, as a region (None if too small)."""
    x1, y1, x2, y2 = box
    return _fraction((min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2)), size_wh[0], size_wh[1])
