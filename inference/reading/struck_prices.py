"""Prices struck through: the old price of a markdown, printed with a straight line across its figures.

A markdown prints the old price struck through beside the new one (原价 ¥599.00 with a line across it, 折后价 ¥399.00);
the struck price is never the price a shop charges now. A strike is a straight line, level or slightly slanted, that
crosses the figures through their middle band and bridges the gaps between them, over most of the amount's width.
What is not a strike: an underline (under the figures, not through them), a table's rule passing above or below the
line, and the figures' own strokes (an 8's waist, a ¥'s bars), which stop at the gaps between figures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

import cv2
import numpy as np

from inference.reading.types import Box

# A strike may slant this much (rise over run) in the upright crop: a pen's stroke or a printed line a little askew.
MAX_SLOPE = 0.14
SLOPES = 15
# The strike's row lies within this share of the figures' height from their top to their bottom: through the middle.
MIDDLE_BAND = (0.25, 0.78)
# A run of the line may break for this many pixels (a light line's anti-aliasing) and go on.
MAX_BREAK_PX = 1
# The line must bridge at least this many columns where it is the only ink (the gaps between figures): a figure's
# own stroke never does.
MIN_BRIDGES = 3
# ... and, in all, at least this many times its own thickness: a line shows itself alone, paper above and below it,
# over stretches longer than it is thick. Where bold figures blurred together touch (their bottoms or tops in a
# row), each joint is about as long as a stroke is thick, so the "line" along their edge bridges only joints.
MIN_BRIDGED_THICKNESSES = 2.0
# A line is tried where it runs at least this many times the crop's height, and is a strike where it runs at least
# MIN_LENGTH times the figures' height (three figures or more): the crop's height holds margins and rules round them.
CANDIDATE_LENGTH = 1.0
MIN_LENGTH = 1.8
# The line's thickness: this quantile of its runs of ink across its row (the gaps between figures, where it is alone).
THICKNESS_QUANTILE = 0.2
# A line at most this share of the height of the text it runs in: thicker, it is the figures' strokes run together.
MAX_THICKNESS = 0.3
# The rows beyond the line's own by at least (pixels, share of the figures' height) are inked over at most this share
# of its run, on the whole (the figures' strokes crossing them), where the line itself is inked over all of it.
OFF_ROWS = ((1.0, 0.10), (2.0, 0.16))
MAX_OFF_ROW_INK = 0.6
# The figures show ink above the line and below it in at least this share of the columns where they show any.
MIN_ACROSS = 0.25
# Beyond each end of a strike, no ink of the figures within this share of their height: it crosses the amount whole.
END_GAP = 0.25
# The longest lines tried, a line's neighbouring rows and slopes counted once.
MAX_TRIED = 8
# An amount is struck where a strike covers this share of its width.
MIN_COVER = 0.6


@dataclass(frozen=True)
class Strike:
    """A line crossing printed figures: its span across the crop (pixels) and its row at the span's middle."""

    x0: int
    x1: int
    y: float


def strike(gray: np.ndarray) -> Strike | None:
    """The longest straight line across the figures of `gray` (an upright crop of printed text, dark on light or light
    on dark) through their middle band and bridging the gaps between them; None where there is none."""
    if gray.ndim != 2:
        raise ValueError(f"strike wants a grey crop: expected a 2-D array, found shape {gray.shape}; "
                         "convert with cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)")
    h, w = gray.shape
    if h < 6 or w < 12:
        return None
    _t, ink = cv2.threshold(gray.astype(np.uint8), 0, 1, cv2.THRESH_BINARY_INV + cv2.THRESH_OTSU)
    if ink.mean() > 0.5:  # light print on a dark panel
        ink = 1 - ink
    ink = ink.astype(bool)
    near = ink.copy()  # ink within a row of each pixel: a line one or two pixels thick, stepping as it slants
    near[1:] |= ink[:-1]
    near[:-1] |= ink[1:]
    xs = np.arange(w)
    candidates: list[tuple[int, int, int, float, int]] = []  # length, x0, x1, slope, row at the crop's middle
    for slope in np.linspace(-MAX_SLOPE, MAX_SLOPE, SLOPES):
        dy = np.rint(slope * (xs - w / 2)).astype(int)
        rows = np.arange(h)[:, None] + dy[None, :]
        inside = (rows >= 0) & (rows < h)
        hit = near[np.clip(rows, 0, h - 1), xs[None, :]] & inside
        for r in np.flatnonzero(hit.sum(axis=1) >= CANDIDATE_LENGTH * h):
            x0, x1 = _longest_run(hit[r])
            if x1 - x0 >= CANDIDATE_LENGTH * h:
                candidates.append((x1 - x0, x0, x1, float(slope), int(r)))
    # the longest lines first: a table's rule or an underline, where the crop holds one, is longer than the strike
    tried: list[int] = []
    for _n, x0, x1, slope, row in sorted(candidates, reverse=True):
        if any(abs(row - other) <= 2 for other in tried):
            continue  # the same line, a row or a slope step away
        line_y = row + slope * (np.arange(x0, x1) - w / 2)
        if _through_middle(ink, x0, x1, line_y):
            return Strike(x0, x1, float(line_y[len(line_y) // 2]))
        tried.append(row)
        if len(tried) >= MAX_TRIED:
            break
    return None


def _longest_run(hit: np.ndarray) -> tuple[int, int]:
    """The longest run of True in `hit`, breaks of up to MAX_BREAK_PX bridged: (start, end)."""
    best, start, gap = (0, 0), None, 0
    for x, on in enumerate(hit):
        if on:
            if start is None:
                start = x
            gap = 0
            end = x + 1
            if end - start > best[1] - best[0]:
                best = (start, end)
        elif start is not None:
            gap += 1
            if gap > MAX_BREAK_PX:
                start, gap = None, 0
    return best


def _through_middle(ink: np.ndarray, x0: int, x1: int, line_y: np.ndarray) -> bool:
    """Whether the line (row `line_y` at each column from x0) runs through the figures' middle band and bridges gaps
    between them. Every measure is in the print's own units: the line's own thickness (its run of ink where it is
    the only ink) sets what is the line's and what the figures', the figures' height (in the block of inked rows the
    line runs in, up to the blank rows that part it from a rule or another line) sets how far is near."""
    h = ink.shape[0]
    rows = np.arange(h)[:, None]
    columns = np.arange(x0, x1)
    part = ink[:, x0:x1]
    block = _inked_rows(part, int(np.clip(np.rint(np.median(line_y)), 0, h - 1)))
    if block is None:
        return False
    thickness = _thickness(ink, columns, line_y)
    if thickness > MAX_THICKNESS * (block[1] - block[0] + 1):
        return False  # as thick as the figures: their own strokes run together (bold print blurred), no line
    half = thickness / 2
    band_of_line = np.abs(rows - line_y[None, :]) <= half + 1.0
    figures = part & ~band_of_line
    figures[: block[0]] = False
    figures[block[1] + 1:] = False
    figures[figures.mean(axis=1) > 0.8] = False  # a rule across the whole span: no figure's ink
    ys = np.flatnonzero(figures.any(axis=1))
    if len(ys) < 4:
        return False
    weights = figures.sum(axis=1)[ys]
    cumulative = np.cumsum(weights) / weights.sum()
    top = int(ys[np.searchsorted(cumulative, 0.03)])
    bottom = int(ys[min(np.searchsorted(cumulative, 0.97), len(ys) - 1)])
    height = bottom - top
    if height < 4 or x1 - x0 < MIN_LENGTH * height:
        return False
    middle = float(np.median(line_y))
    if not top + MIDDLE_BAND[0] * height <= middle <= top + MIDDLE_BAND[1] * height:
        return False
    # ink of the figures both above and below the line along it: it crosses them, it does not run beside them
    inked = (figures & (rows >= top) & (rows <= bottom)).any(axis=0)
    above = (figures & (rows < line_y[None, :] - half - 1) & (rows >= top)).any(axis=0).sum()
    below = (figures & (rows > line_y[None, :] + half + 1) & (rows <= bottom)).any(axis=0).sum()
    if min(above, below) < MIN_ACROSS * max(1, int(inked.sum())):
        return False
    # the line stands out of the figures: a little off it, only the figures' strokes are inked (bold figures run
    # together by blur ink the rows round their middle as fully: twentysecond_other 000009, '¥1299元' read struck)
    offsets = [half + max(px, share * height) for px, share in OFF_ROWS]
    off = [ink[np.clip(np.rint(line_y + sign * d).astype(int), 0, h - 1), columns].mean() for d in offsets for sign in (-1, 1)]
    if float(np.mean(off)) > MAX_OFF_ROW_INK:
        return False
    # the line ends where the figures it crosses end: a run that stops inside a word (at a figure's hollow, at the
    # decimal point of bold figures run together: eleventh 000031's '¥259.00' read struck to its first 0) is none
    margin = max(2, int(round(END_GAP * height)))
    for lo, hi in ((max(0, x0 - margin), x0), (x1, min(ink.shape[1], x1 + margin))):
        if ink[top:bottom + 1, lo:hi].any():
            return False
    in_band = (rows >= top) & (rows <= bottom)
    bridges = int((~(figures & in_band).any(axis=0)).sum())
    return bridges >= max(MIN_BRIDGES, MIN_BRIDGED_THICKNESSES * thickness)


def _thickness(ink: np.ndarray, columns: np.ndarray, line_y: np.ndarray) -> float:
    """The line's thickness in pixels: its run of ink across its row, in the columns where that run is shortest (the
    gaps between figures, where the line is the only ink), a low quantile of the runs over its span."""
    h = ink.shape[0]
    runs = _vertical_runs(ink)
    y = np.clip(np.rint(line_y).astype(int), 0, h - 1)
    on, above, below = runs[y, columns], runs[np.maximum(y - 1, 0), columns], runs[np.minimum(y + 1, h - 1), columns]
    through = np.where(on > 0, on, np.where(above > 0, above, below))  # a row off where the line steps as it slants
    through = through[through > 0]
    return float(np.quantile(through, THICKNESS_QUANTILE)) if len(through) else 1.0


def _vertical_runs(ink: np.ndarray) -> np.ndarray:
    """At each inked pixel, the length of the vertical run of ink it lies in; 0 elsewhere."""
    up = np.zeros(ink.shape, np.int32)
    down = np.zeros(ink.shape, np.int32)
    up[0] = ink[0]
    for r in range(1, ink.shape[0]):
        up[r] = (up[r - 1] + 1) * ink[r]
    down[-1] = ink[-1]
    for r in range(ink.shape[0] - 2, -1, -1):
        down[r] = (down[r + 1] + 1) * ink[r]
    return np.where(ink, up + down - 1, 0)


def _inked_rows(part: np.ndarray, row: int) -> tuple[int, int] | None:
    """The rows of the text the line at `row` runs in: the inked rows round it, out to the first blank row each way
    (past it lies another line of print, or a table's rule)."""
    inked = part.any(axis=1)
    if not inked[row]:
        return None
    lo = hi = row
    while lo > 0 and inked[lo - 1]:
        lo -= 1
    while hi + 1 < len(inked) and inked[hi + 1]:
        hi += 1
    return lo, hi


_AMOUNT = re.compile(r"\d[\d,，]*(?:[.．]\d{1,2})?")


def _width(ch: str) -> float:
    """A character's advance as a share of the line's height: a Chinese character is square, a figure about half."""
    return 1.0 if ord(ch) > 0x2E80 else 0.55


def struck_amounts(text: str, box: Box, strikes: list[tuple[float, float]]) -> list[Decimal]:
    """The amounts of a line read as `text` in `box` (upright pixels) that the strikes (x-spans, upright pixels) cover
    over MIN_COVER of their width; each character placed by its advance (a Chinese character wider than a figure)."""
    if not strikes or not text:
        return []
    advances = np.cumsum([0.0] + [_width(ch) for ch in text])
    x0, x1 = box[0], box[2]
    scale = (x1 - x0) / advances[-1]
    struck = []
    for m in _AMOUNT.finditer(text):
        a0, a1 = x0 + advances[m.start()] * scale, x0 + advances[m.end()] * scale
        covered = sum(max(0.0, min(a1, s1) - max(a0, s0)) for s0, s1 in strikes)
        amount = _amount(m.group())
        if covered >= MIN_COVER * (a1 - a0) and amount is not None:
            struck.append(amount)
    return struck


def amounts_in(text: str) -> list[Decimal]:
    """The amounts a line's text shows ('原价 ¥599.00' → 599.00)."""
    return [a for a in map(_amount, (m.group() for m in _AMOUNT.finditer(text))) if a is not None]


def _amount(digits: str) -> Decimal | None:
    try:
        return Decimal(digits.replace(",", "").replace("，", "").replace("．", "."))
    except ArithmeticError:
        return None
