"""Cents printed small and raised after the yuan ('¥1099⁰⁰'), told apart by their shape.

The recognizer reads such a price as one run of digits ('¥109900'), which could as well be a price a hundred
times the expected one. The print settles it: raised cents are the line's last
print, small, standing at the yuan digits' top line and ending well above their base. Only that shape, measured
on the line's own ink, lets the run be read as yuan and cents.
"""

from __future__ import annotations

import cv2
import numpy as np

# Ink: darker than the paper by this share of the paper-to-ink contrast (raised cents are often printed thin and
# light; Otsu would lose them).
INK_SHARE = 0.3
# A raised cent's part: at most this share of a yuan digit's height tall, its bottom at least BASE_CLEARANCE of
# that height above their base, its top within TOP_SLACK of theirs; as wide as one to three such cents
# (CENTS_WIDTH, in digit heights), no further than MAX_GAP after the yuan.
CENTS_HEIGHT_SHARE = 0.72
BASE_CLEARANCE = 0.25
TOP_SLACK = 0.25
CENTS_WIDTH = (0.4, 2.2)
MAX_GAP = 1.0


def has_raised_cents(crop: np.ndarray) -> bool:
    """Whether a price's crop ends in print small and raised: the last ink stands at the top of the digits before
    it, well clear of their base, after digits that reach it. The recognizer's read says which characters they are;
    this says only that the last ones are raised."""
    ink = _ink(crop)
    columns = np.flatnonzero(ink.any(axis=0))
    if columns.size < 4:
        return False
    tops = np.array([np.argmax(ink[:, c]) for c in columns])
    bottoms = np.array([ink.shape[0] - 1 - np.argmax(ink[::-1, c]) for c in columns])
    parts = np.split(np.arange(columns.size), np.flatnonzero(np.diff(columns) > 1) + 1)
    base = float(np.percentile(bottoms, 75))
    top = float(np.percentile(tops, 25))
    h = base - top
    if h < 6:
        return False
    # the trailing parts that stand clear of the base: the cents, as the ink ends
    tail: list[np.ndarray] = []
    for part in reversed(parts):
        if bottoms[part].max() > base - BASE_CLEARANCE * h:
            break
        tail.insert(0, part)
    if not tail or len(tail) == len(parts):
        return False
    cents = np.concatenate(tail)
    before = parts[len(parts) - len(tail) - 1]
    width = columns[cents[-1]] - columns[cents[0]] + 1
    gap = columns[cents[0]] - columns[before[-1]]
    tall = bottoms[cents].max() - tops[cents].min() + 1
    lo, hi = CENTS_WIDTH
    return (lo * h <= width <= hi * h and gap <= MAX_GAP * h and tall <= CENTS_HEIGHT_SHARE * h
            and abs(tops[cents].min() - top) <= TOP_SLACK * h)


def _ink(crop: np.ndarray) -> np.ndarray:
    """Where the crop is printed: pixels darker than its paper by INK_SHARE of the contrast (lighter where the
    print is light on dark stock)."""
    gray = (cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop).astype(np.float32)
    if np.median(gray) < gray.mean():  # mostly dark: light print on dark stock
        gray = 255 - gray
    paper, darkest = np.percentile(gray, 90), np.percentile(gray, 2)
    if paper - darkest < 30:
        return np.zeros(gray.shape, bool)
    return gray < paper - INK_SHARE * (paper - darkest)
