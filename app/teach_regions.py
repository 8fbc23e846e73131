"""Taught regions fitted to their line of print.

`lesson_from` maps a line's image box (the bounds of the line turned with the tag) onto the upright tag with
rectify's tag-size solve, which refuses a strip as long as a line of print and falls back to those bounds turned
back: on s5150 000000, a tag turned 20°, the 品名 line's region took in the brand line above it and the 货号 line
below. Here the same box is solved as the one rectangle, turned with the tag, whose bounds it is."""

from __future__ import annotations

import math

import numpy as np

from inference.reading.rectify import Upright
from inference.reading.teach import Lesson
from inference.reading.types import TagReading

# below this |cos² − sin²| (within ~35° of 45°) a box's bounds do not tell the line's size: the loose region stands
MIN_DETERMINANT = 0.35


def fitted_regions(lesson: Lesson, tag: TagReading, upright: Upright) -> Lesson:
    """The lesson with each region that `lesson_from` drew round a line of print fitted to that line."""
    h, w = upright.image.shape[:2]
    lines = [*tag.ocr_lines, *tag.reread_lines]
    for taught in lesson.fields:
        if taught.region is None:
            continue
        line = next((line for line in lines if _region(upright.to_upright_box(line.box), w, h) == taught.region), None)
        fitted = _region(line_in_upright(line.box, upright), w, h) if line is not None else None
        if fitted is not None:
            lesson = lesson.with_field(taught.name, region=fitted)
    return lesson


def line_in_upright(box: tuple[float, float, float, float], upright: Upright) -> tuple[float, float, float, float]:
    """A line of print's rectangle on the upright tag, from its box in the image (the bounds of it turned)."""
    x1, y1, x2, y2 = box
    t = math.radians(upright.angle_deg)
    c, s = abs(math.cos(t)), abs(math.sin(t))
    det = c * c - s * s
    bw, bh = x2 - x1, y2 - y1
    if abs(det) < MIN_DETERMINANT:
        return upright.to_upright_box(box)
    width, height = (bw * c - bh * s) / det, (bh * c - bw * s) / det
    if width <= 0 or height <= 0:  # the box is not the bounds of a rectangle at this turn: keep it loose
        return upright.to_upright_box(box)
    (cx, cy), = upright.to_upright_points(np.array([[(x1 + x2) / 2, (y1 + y2) / 2]]))
    return (float(cx - width / 2), float(cy - height / 2), float(cx + width / 2), float(cy + height / 2))


def _region(box: tuple[float, float, float, float], w: int, h: int) -> tuple[float, float, float, float] | None:
    """As `lesson_from` writes a region: fractions of the upright crop, rounded to 0.001."""
    x1, y1, x2, y2 = (min(1.0, max(0.0, v)) for v in (box[0] / w, box[1] / h, box[2] / w, box[3] / h))
    if x2 - x1 < 0.01 or y2 - y1 < 0.005:
        return None
    return (round(x1, 3), round(y1, 3), round(x2, 3), round(y2, 3))
