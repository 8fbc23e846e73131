"""A size run printed as a form's options: a small ring or box over (or under) every size, the garment's one filled.

Pre-printed 合格证 forms print the style's whole size run with an option mark for each size — a ring or a box in
its own row over or under the sizes, one to a size — and the factory marks the garment's size there: the option
inked in by pen or stamp, or punched out, so that the ground behind the tag shows through it. Whatever marks it,
the marked option is the one whose inside is not the paper. `option_fills` measures how far each entry's option is
from the paper inside and leaves the judging (which one stands out, and how far) to the run's other measures
(size_marks.py). A run prints options only where most of its entries have one on the same side, all of one size,
and most of them empty. An option is one closed outline alone over its entry: a word of the row above is several
glyphs, and a letter with no closed bowl (S, M, L) encloses nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

# Options lie this many glyph heights from the print's edge, at most (past it, another row's print).
OPTION_REACH = 3.5
# An option mark is this tall in glyph heights and about square; its outline, its inside filled, covers at least
# ENCLOSED of its bounding box (a ring ~0.79, a box 1).
OPTION_HEIGHT = (0.6, 2.8)
OPTION_ASPECT = (0.7, 1.45)
ENCLOSED = 0.65
# An option's centre lies over its entry's middle third, or within this many glyph heights of the entry's middle: a
# size of one narrow letter (L, S) is narrower than its option, and its glyph's ink is not centred on its place.
NARROW_REACH = 1 / 3
# Its inside is what lies OPTION_INSIDE in from each side of its bounding box.
OPTION_INSIDE = 0.25
# A pixel this far from the paper (the print is 1) is ink; a hole's ground may be darker or lighter than the paper.
OPTION_INK = 0.45
# Most entries have an option (this share, and at least MIN_OPTIONS), the options within ALIKE of their median
# height, and most of them empty (at most this fill).
OPTION_SHARE = 0.6
MIN_OPTIONS = 3
ALIKE = 0.25
EMPTY_OPTION = 0.15
# The marked option may show another outline than its empty siblings (a hole punched wider than its ring, the hole's
# lit edge lighter than the ring; ink blotted past it): a filled one sitting in the options' row (its middle within
# ALIKE of their height from theirs) is one of them within this share of their height.
MARKED_ALIKE = 0.5


def option_fills(gray: np.ndarray, spans: Sequence[tuple[int, int]], rows: Sequence[tuple[int, int]],
                 glyph_h: Sequence[float], paper: float, printed: float) -> np.ndarray:
    """How far inside each entry's option mark is from the paper (0 empty, ~1 inked in or a dark hole; NaN: no
    option), or all NaN where the run prints no options. `spans`: each entry's columns (x1, x2) in `gray`; `rows`:
    the top and bottom of its print; `glyph_h`: its glyphs' height; `gray`: dark print on light paper, whose grey
    levels are `paper` and `printed`."""
    none = np.full(len(spans), np.nan)
    if len(spans) < MIN_OPTIONS:
        return none
    for side in ("over", "under"):
        marks = [_option(gray, span, row, h, side, paper, printed) for span, row, h in zip(spans, rows, glyph_h)]
        heights = np.array([m[1] for m in marks if m is not None])
        if len(heights) < max(MIN_OPTIONS, OPTION_SHARE * len(spans)):
            continue
        typical, middle = float(np.median(heights)), float(np.median([m[2] for m in marks if m is not None]))
        fills = np.array([m[0] if m is not None and _alike(m, typical, middle) else np.nan for m in marks])
        have = np.isfinite(fills)
        if have.sum() >= max(MIN_OPTIONS, OPTION_SHARE * len(spans)) and np.median(fills[have]) <= EMPTY_OPTION:
            return fills
    return none


def _alike(mark: tuple[float, int, float], typical: float, middle: float) -> bool:
    """Whether an option (fill, height, middle row) is one of the run's, whose options are `typical` high with their
    middles on row `middle`: as high as they are, or filled and in their row (`MARKED_ALIKE`)."""
    fill, height, centre = mark
    off = abs(height - typical)
    return off <= ALIKE * typical or (fill > EMPTY_OPTION and off <= MARKED_ALIKE * typical
                                      and abs(centre - middle) <= ALIKE * typical)


def _option(gray: np.ndarray, span: tuple[int, int], row: tuple[int, int], h: float, side: str, paper: float,
            printed: float) -> tuple[float, int, float] | None:
    """The option over (or under) one entry, as its fill, its height and its middle row: the closed mark nearest the print whose
    centre lies over the entry's middle third (within NARROW_REACH glyph heights of its middle, for an entry as
    narrow as one letter), alone there; None where there is none."""
    x1, x2 = span
    if side == "over":
        top, bottom = max(0, int(row[0] - OPTION_REACH * h)), max(0, int(row[0]))
    else:
        top, bottom = min(gray.shape[0], int(row[1])), min(gray.shape[0], int(row[1] + OPTION_REACH * h))
    width = x2 - x1
    # wide enough for the widest option, over an entry as narrow as one letter too (a cut one is no shape)
    half = max(width, OPTION_HEIGHT[1] * OPTION_ASPECT[1] * h / 2.0)
    left, right = max(0, int((x1 + x2) / 2.0 - half)), min(gray.shape[1], int((x1 + x2) / 2.0 + half))
    if bottom - top < OPTION_HEIGHT[0] * h or right <= left:
        return None
    window = np.clip((paper - gray[top:bottom, left:right].astype(np.float32)) / max(paper - printed, 1.0), -1.0, 1.0)
    ink = (np.abs(window) >= OPTION_INK).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    reach = max(width / 6.0, NARROW_REACH * h)  # a one-letter size may be narrower than its option
    middle = ((x1 + x2) / 2.0 - reach - left, (x1 + x2) / 2.0 + reach - left)
    marks = []
    for c in range(1, count):
        x, y, w, hh = (int(v) for v in stats[c][:4])
        if not (OPTION_HEIGHT[0] * h <= hh <= OPTION_HEIGHT[1] * h and OPTION_ASPECT[0] <= w / hh <= OPTION_ASPECT[1]):
            continue
        far_edge = y == 0 if side == "over" else y + hh >= ink.shape[0]
        if not middle[0] <= x + w / 2.0 <= middle[1] or far_edge:
            continue  # not over this entry, or cut by the window's far edge: part of something larger
        marks.append(((bottom - top) - (y + hh) if side == "over" else y, c))
    if not marks:
        return None
    _distance, mark = min(marks)
    x, y, w, hh = (int(v) for v in stats[mark][:4])
    if enclosed(labels[y : y + hh, x : x + w] == mark) < ENCLOSED or _beside(stats, mark, (x1 - left, x2 - left), h):
        return None
    dx, dy = max(1, int(round(OPTION_INSIDE * w))), max(1, int(round(OPTION_INSIDE * hh)))
    inside = window[y + dy : y + hh - dy, x + dx : x + w - dx]
    return (float(np.abs(inside).mean()), hh, top + y + hh / 2.0) if inside.size else None


def enclosed(shape: np.ndarray) -> float:
    """The share of its bounding box a shape covers with its holes filled (a ring ~0.79, an S ~0.3)."""
    outside = np.zeros((shape.shape[0] + 2, shape.shape[1] + 2), np.uint8)
    outside[1:-1, 1:-1] = shape
    mask = np.zeros((outside.shape[0] + 2, outside.shape[1] + 2), np.uint8)
    cv2.floodFill(outside, mask, (0, 0), 2)
    return float((outside[1:-1, 1:-1] != 2).mean())


def _beside(stats: np.ndarray, mark: int, span: tuple[int, int], h: float) -> bool:
    """Whether other ink of a glyph's size (not a speck, not a table's rule) stands beside the mark over the entry's
    columns: then the mark is a glyph of a word, not an option. Ink inside the mark's outline is no neighbour: it is
    what marks the option (a radio button's dot, a tick, a stamp's blot apart from the ring)."""
    x, y, w, hh = (int(v) for v in stats[mark][:4])
    for c in range(1, len(stats)):
        cx, cy, cw, ch = (int(v) for v in stats[c][:4])
        if c == mark or max(cw, ch) < 0.3 * h or max(cw, ch) > OPTION_HEIGHT[1] * h:
            continue
        if x < cx and cx + cw < x + w and y < cy and cy + ch < y + hh:
            continue  # inside the option: its mark
        if cy < y + hh and cy + ch > y and cx <= span[1] and cx + cw >= span[0]:
            return True
    return False
