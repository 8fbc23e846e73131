"""Text lines at full resolution, guided by a low-resolution text probability map.

DB on a small copy of the tag knows *where* text is but not where one line ends and the next
begins once lines sit 4 px apart. The ink itself, at full resolution and only inside the text
mask, does: its row profile drops to nothing between lines, its column profile between columns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class LayoutParams:
    mask_thresh: float = 0.2  # DB probability that counts as text
    grow_y: int = 1  # low-res rows the text rows are grown by
    row_gap: float = 0.04  # a row with less ink than this share of the band's peak is a gap
    min_height: int = 5  # px: thinner bands are rules, underlines or noise
    col_gap: float = 1.6  # a blank run this many line heights wide splits a line in two
    pad_y: float = 0.30  # recognizer margin above and below the text, in text heights
    pad_x: float = 0.40  # and left and right


def ink_mask(gray: np.ndarray) -> np.ndarray:
    """Ink by local contrast; on a dark card the ink is the light part."""
    dark_card = float(np.median(gray)) < 110
    src = 255 - gray if dark_card else gray
    return cv2.adaptiveThreshold(src, 1, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 31, 12)


def text_rows(prob: np.ndarray, height: int, params: LayoutParams) -> np.ndarray:
    """Rows (full resolution) where DB saw text anywhere: (height, 1) for broadcasting.

    Only the rows are trusted: on a small copy DB finds part of a small line, not all of it, so
    the line's extent is left to the ink.
    """
    rows = (prob > params.mask_thresh).any(axis=1).astype(np.uint8)[:, None]
    if params.grow_y:
        rows = cv2.dilate(rows, np.ones((2 * params.grow_y + 1, 1), np.uint8))
    return cv2.resize(rows, (1, height), interpolation=cv2.INTER_NEAREST).reshape(height, 1)


def _runs(on: np.ndarray) -> list[tuple[int, int]]:
    padded = np.concatenate(([0], on.astype(np.int8), [0]))
    edges = np.flatnonzero(np.diff(padded))
    return list(zip(edges[::2].tolist(), edges[1::2].tolist()))


def find_lines(gray: np.ndarray, prob: np.ndarray, skip: Sequence[Box] = (), params: LayoutParams = LayoutParams()) -> list[Box]:
    """Line boxes (with recognizer margins) in `gray`'s pixels, top to bottom, left to right."""
    h, w = gray.shape[:2]
    ink = ink_mask(gray) & text_rows(prob, h, params)
    for x1, y1, x2, y2 in skip:
        ink[int(max(0, y1)) : int(min(h, y2 + 1)), int(max(0, x1)) : int(min(w, x2 + 1))] = 0
    boxes: list[Box] = []
    _xy_cut(ink, 0, 0, params, boxes, depth=0)
    return [
        (
            max(0.0, x1 - params.pad_x * (y2 - y1)),
            max(0.0, y1 - params.pad_y * (y2 - y1)),
            min(float(w), x2 + params.pad_x * (y2 - y1)),
            min(float(h), y2 + params.pad_y * (y2 - y1)),
        )
        for x1, y1, x2, y2 in sorted(boxes, key=lambda b: ((b[1] + b[3]) / 2, b[0]))
    ]


def _xy_cut(ink: np.ndarray, ox: int, oy: int, params: LayoutParams, out: list[Box], depth: int) -> None:
    """Rows, then columns within each row, again while a piece still splits: a landscape tag's
    two columns have lines at different heights."""
    for top, bottom in _bands(ink.sum(axis=1), params):
        band = ink[top:bottom]
        for left, right in _segments(band.any(axis=0), max(3, int(params.col_gap * (bottom - top)))):
            piece = band[:, left:right]
            nz = np.flatnonzero(piece.any(axis=1))
            t, b = int(nz[0]), int(nz[-1]) + 1
            piece = piece[t:b]
            if depth < 3 and len(_bands(piece.sum(axis=1), params)) > 1:
                _xy_cut(piece, ox + left, oy + top + t, params, out, depth + 1)
                continue
            if b - t >= params.min_height and right - left >= 0.5 * (b - t):
                out.append((float(ox + left), float(oy + top + t), float(ox + right), float(oy + top + b)))


def _bands(profile: np.ndarray, params: LayoutParams) -> list[tuple[int, int]]:
    """Row runs with ink, split where the ink falls below a share of the local peak."""
    runs = [(a, b) for a, b in _runs(profile > 0) if b - a >= 2]
    out: list[tuple[int, int]] = []
    for a, b in runs:
        seg = profile[a:b].astype(np.float32)
        low = seg <= params.row_gap * seg.max()
        pieces = [(a + s, a + e) for s, e in _runs(~low)]
        out.extend(p for p in pieces if p[1] - p[0] >= 2)
    return _merge_thin(out, params.min_height)


def _merge_thin(bands: list[tuple[int, int]], min_height: int) -> list[tuple[int, int]]:
    """A thin band right next to a line (a dot, the top stroke of 三) belongs to it."""
    out: list[tuple[int, int]] = []
    for top, bottom in bands:
        if out:
            ptop, pbottom = out[-1]
            thin = min(bottom - top, pbottom - ptop) < max(min_height, 0.4 * max(bottom - top, pbottom - ptop))
            if thin and top - pbottom <= 2:
                out[-1] = (ptop, bottom)
                continue
        out.append((top, bottom))
    return out


def _segments(cols: np.ndarray, max_gap: int) -> list[tuple[int, int]]:
    runs = _runs(cols)
    merged: list[tuple[int, int]] = []
    for a, b in runs:
        if merged and a - merged[-1][1] <= max_gap:
            merged[-1] = (merged[-1][0], b)
        else:
            merged.append((a, b))
    return merged
