"""From text boxes to printed lines: which boxes to recognize, and how to join them into lines.

The detector splits a line at wide gaps (a full-width colon, the groups of an EAN's digits); boxes
on one row are joined after recognition. Boxes inside a decoded barcode's zone (its digits, a
Code128 caption) need no OCR: the barcode already carries that text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

Box = tuple[float, float, float, float]
# A printed rule standing between text (`ruling.vertical_rules`): its x, top and bottom (upright-crop pixels).
Wall = tuple[float, float, float]


@dataclass(frozen=True)
class SymbolZone:
    """Bars of one decoded code, and the band under them where its human-readable text sits."""

    bars: Box
    text: Box | None
    kind: str  # "ean", "code" or "matrix"
    carries: str = ""  # what the symbol decoded to: its caption, if printed, says the same


def symbol_zone(bars: Box, kind: str, below: float = 0.16, carries: str = "") -> SymbolZone:
    """zxing's scan lines cover part of the bar height; the guard bars and digits hang below."""
    x1, y1, x2, y2 = bars
    w = x2 - x1
    if kind == "matrix":
        return SymbolZone((x1 - 0.05 * w, y1 - 0.05 * w, x2 + 0.05 * w, y2 + 0.05 * w), None, kind, carries)
    return SymbolZone((x1, y1, x2, y2), (x1 - 0.12 * w, y1, x2 + 0.12 * w, y2 + below * w), kind, carries)


def group_rows(boxes: Sequence[Box], min_overlap: float = 0.5, max_gap: float = 3.0,
               walls: Sequence[Wall] = ()) -> list[list[int]]:
    """Indices of boxes per row, rows top to bottom, boxes left to right.

    Boxes further apart than `max_gap` line heights stay separate lines: a landscape tag prints a
    second column beside the first. Boxes with a printed rule between them (`walls`) stay separate
    lines too: a grid's cells, fields parted by a bar.
    """
    order = sorted(range(len(boxes)), key=lambda i: (boxes[i][1] + boxes[i][3]) / 2)
    rows: list[list[int]] = []
    for i in order:
        y1, y2 = boxes[i][1], boxes[i][3]
        if rows:
            # against the row's own typical extent, not its union, so slanted lines do not chain
            r1 = median([boxes[j][1] for j in rows[-1]])
            r2 = median([boxes[j][3] for j in rows[-1]])
            overlap = min(y2, r2) - max(y1, r1)
            # one row's pieces sit side by side; a box that overlaps one of them sideways is the
            # next (slanted) line, however much their heights overlap
            beside = all(_side_by_side(boxes[i], boxes[j]) for j in rows[-1])
            similar = 0.6 <= (y2 - y1) / max(r2 - r1, 1e-6) <= 1.6
            if overlap >= min_overlap * min(y2 - y1, r2 - r1) and beside and similar:
                rows[-1].append(i)
                continue
        rows.append([i])
    out: list[list[int]] = []
    for row in rows:
        row.sort(key=lambda i: boxes[i][0])
        height = median([boxes[i][3] - boxes[i][1] for i in row])
        current = [row[0]]
        for i in row[1:]:
            end = max(boxes[j][2] for j in current)
            if boxes[i][0] - end > max_gap * height or _walled(walls, current, i, boxes, end, height):
                out.append(current)
                current = [i]
            else:
                current.append(i)
        out.append(current)
    return out


def _walled(walls: Sequence[Wall], current: Sequence[int], i: int, boxes: Sequence[Box], end: float, height: float) -> bool:
    """A rule stands between the row so far (its right end at `end`) and box `i`: in the gap (a line's
    end room may reach over it) and across the middle of the row's print."""
    if not walls:
        return False
    room = 0.5 * height
    left = max((boxes[j][0] + boxes[j][2]) / 2 for j in current)
    right = (boxes[i][0] + boxes[i][2]) / 2
    cy = median([(boxes[j][1] + boxes[j][3]) / 2 for j in current] + [(boxes[i][1] + boxes[i][3]) / 2])
    return any(max(end - room, left) < x < min(boxes[i][0] + room, right) and top <= cy - 0.3 * height and bottom >= cy + 0.3 * height
               for x, top, bottom in walls)


def median(values: list[float]) -> float:
    """`float(np.median(values))` of a few plain numbers, without its array's overhead (group_rows asks
    thousands of times a frame): the middle value, or the two middle ones' mean, exactly as np.median gives them."""
    if not all(type(v) is float or type(v) is int for v in values) or any(v != v for v in values):
        return float(np.median(values))
    s = sorted(values)
    mid = len(s) // 2
    return float(s[mid]) if len(s) % 2 else (float(s[mid - 1]) + float(s[mid])) / 2


def merge_overlapping(boxes: Sequence[Box], share: float = 0.3) -> list[Box]:
    """Boxes covering much of one another are one thing: DB cuts big bold brand characters into
    overlapping pieces, while boxes of neighbouring lines only touch."""
    merged = [tuple(b) for b in boxes]
    changed = True
    while changed:
        changed = False
        for i in range(len(merged)):
            for j in range(i + 1, len(merged)):
                a, b = merged[i], merged[j]
                iw = min(a[2], b[2]) - max(a[0], b[0])
                ih = min(a[3], b[3]) - max(a[1], b[1])
                smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
                shorter = min(a[3] - a[1], b[3] - b[1])
                # a piece of one line lies within the other's height; boxes of tightly set
                # neighbouring lines overlap by half a line at most (DB's margins)
                if iw > 0 and ih >= 0.8 * shorter and iw * ih > share * smaller:
                    merged[i] = union([a, b])
                    del merged[j]
                    changed = True
                    break
            if changed:
                break
    return merged


def trim_to_neighbours(boxes: Sequence[Box]) -> list[Box]:
    """Clip each box's top and bottom at the midline towards the line above and below it.

    DB's margins (unclip 1.6) make a box 2.6 text-heights tall, while tags set lines 1.35 apart:
    uncut, every crop carries slivers of its neighbours, which the recognizer then reads too.
    """
    out = []
    for i, (x1, y1, x2, y2) in enumerate(boxes):
        cy = (y1 + y2) / 2
        top, bottom = y1, y2
        for j, (a1, b1, a2, b2) in enumerate(boxes):
            if j == i or min(x2, a2) - max(x1, a1) <= 0.3 * min(x2 - x1, a2 - a1):
                continue
            other = (b1 + b2) / 2
            if other < cy:
                top = max(top, (cy + other) / 2)
            elif other > cy:
                bottom = min(bottom, (cy + other) / 2)
        out.append((x1, top, x2, bottom) if bottom - top >= 4 else (x1, y1, x2, y2))
    return out


def _side_by_side(a: Box, b: Box) -> bool:
    """Neither box's middle lies over the other: their margins may touch, they do not stack."""
    ca, cb = (a[0] + a[2]) / 2, (b[0] + b[2]) / 2
    return not (b[0] <= ca <= b[2] or a[0] <= cb <= a[2])


def union(boxes: Sequence[Box]) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def text_height(boxes: Sequence[Box]) -> float | None:
    """How high a tag's smaller print stands: the lower quartile of its text boxes' heights (pixels).
    A quartile, not the least, so that one caption or a speck does not speak for the tag."""
    heights = sorted(b[3] - b[1] for b in boxes if b[3] > b[1])
    if not heights:
        return None
    return round(float(np.percentile(heights, 25)), 1)


def split_tall(boxes: Sequence[Box], gray: np.ndarray, ratio: float = 1.7) -> list[Box]:
    """A box much taller than the tag's typical line holds two lines (DB joins tightly set rows
    under perspective): cut it at the faintest row of ink between them."""
    if len(boxes) < 3:
        return list(boxes)
    typical = float(np.median([b[3] - b[1] for b in boxes]))
    out: list[Box] = []
    for box in boxes:
        x1, y1, x2, y2 = box
        if y2 - y1 < ratio * typical or x2 - x1 < 2 * typical:
            out.append(box)
            continue
        top, bottom = int(max(0, y1)), int(min(gray.shape[0], np.ceil(y2)))
        patch = gray[top:bottom, int(max(0, x1)) : int(np.ceil(x2))]
        if patch.size == 0:
            out.append(box)
            continue
        rows = patch.astype(np.float32).mean(axis=1)
        background = float(np.concatenate([rows[:2], rows[-2:]]).mean())  # DB's margins hold paper, light or dark
        ink = np.abs(rows - background) + patch.astype(np.float32).std(axis=1)
        margin = max(1, int(0.3 * typical))
        inner = ink[margin : len(ink) - margin]
        if len(inner) < 3:
            out.append(box)
            continue
        cut = margin + int(np.argmin(inner))
        if inner.min() > 0.35 * float(ink.max()):  # no gap between two lines: one tall line (a big price)
            out.append(box)
            continue
        if min(ink[:cut].max(), ink[cut:].max()) < 0.5 * float(ink.max()):
            # one side of the cut holds no print: the gap found is the paper in DB's margin of one big
            # line (its margin grows with its type, past the typical line's), not a gap between two
            out.append(box)
            continue
        out.extend([(x1, y1, x2, top + cut), (x1, top + cut, x2, y2)])
    return out


# Print this many times taller than the rest of its line is a different size of type.
PRINT_SIZE_RATIO = 1.7
# A piece of print this many times the line's tallest ink wide, at least: several glyphs.
MIN_PIECE_EMS = 2.5


def split_print_sizes(boxes: Sequence[Box], gray: np.ndarray, ratio: float = PRINT_SIZE_RATIO) -> list[tuple[Box, Box]]:
    """(line box, crop box) per piece of print: a label in large type with its value in small type
    on one line (a composition or a safety class shrunk to fit the tag) becomes two pieces.

    The recognizer scales a whole line to one height, where small type beside large shrinks to a
    few pixels and is misread; each piece is cropped to its own ink instead. The line box stays the
    line's height so the pieces still join into one line; only the crop is tight."""
    out: list[tuple[Box, Box]] = []
    for box in boxes:
        pieces = _print_pieces(box, gray, ratio)
        out.extend((piece[0], piece[1]) for piece in pieces)
    return out


def _print_pieces(box: Box, gray: np.ndarray, ratio: float) -> list[tuple[Box, Box]]:
    x1, y1, x2, y2 = box
    height = y2 - y1
    left, top = int(max(0, x1)), int(max(0, y1))
    patch = gray[top : int(min(gray.shape[0], np.ceil(y2))), left : int(min(gray.shape[1], np.ceil(x2)))]
    if x2 - x1 < 3 * height or patch.shape[0] < 8 or patch.shape[1] < 8:
        return [(box, box)]
    ink = _ink_mask(patch)
    if ink is None:
        return [(box, box)]
    segments = _segments(ink.any(axis=0), max(2, int(0.25 * height)))
    sized = []
    for a, b in segments:
        rows = np.flatnonzero(ink[:, a:b].any(axis=1))
        if rows.size:
            sized.append((a, b, int(rows[0]), int(rows[-1]) + 1))
    # punctuation and specks (narrow and short) take no part in telling sizes apart
    marks = [(b - a) >= 0.3 * height or (bottom - top_) >= 0.35 * height for a, b, top_, bottom in sized]
    heights = [bottom - top_ for (a, b, top_, bottom), m in zip(sized, marks) if m]
    if len(heights) < 2 or max(heights) < ratio * min(heights):
        return [(box, box)]
    groups: list[list[tuple[int, int, int, int]]] = []
    current_height = 0.0
    for seg, mark in zip(sized, marks):
        seg_height = seg[3] - seg[2]
        if groups and (not mark or max(seg_height, current_height) < ratio * min(seg_height, current_height)):
            groups[-1].append(seg)
            if mark:
                current_height = max(current_height, seg_height)
            continue
        groups.append([seg])
        current_height = seg_height if mark else 0.0
    # a piece is a run of several glyphs: a lone short glyph (the stroke of 一, a dash) stays with its neighbour
    tallest = max(heights)
    kept: list[list[tuple[int, int, int, int]]] = []
    for group in groups:
        if kept and group[-1][1] - group[0][0] < MIN_PIECE_EMS * tallest:
            kept[-1].extend(group)
        elif kept and kept[-1][-1][1] - kept[-1][0][0] < MIN_PIECE_EMS * tallest:
            kept[-1].extend(group)
        else:
            kept.append(group)
    groups = kept
    if len(groups) < 2:
        return [(box, box)]
    pieces = []
    for k, group in enumerate(groups):
        a = group[0][0] if k else 0
        b = group[-1][1] if k < len(groups) - 1 else patch.shape[1]
        ink_top, ink_bottom = min(s[2] for s in group), max(s[3] for s in group)
        pad = 0.3 * (ink_bottom - ink_top)
        crop = (left + a, max(y1, top + ink_top - pad), left + b, min(y2, top + ink_bottom + pad))
        pieces.append(((left + a, y1, left + b, y2), crop))
    return pieces


def _ink_mask(patch: np.ndarray) -> np.ndarray | None:
    """Print against its background, light or dark (Otsu; the background is the majority)."""
    _t, mask = cv2.threshold(patch, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    ink = mask > 0
    if ink.mean() > 0.5:
        ink = ~ink
    share = float(ink.mean())
    return ink if 0.01 <= share <= 0.45 else None


def _segments(columns: np.ndarray, min_gap: int) -> list[tuple[int, int]]:
    """Runs of inked columns, joined across gaps narrower than `min_gap`."""
    idx = np.flatnonzero(columns)
    if idx.size == 0:
        return []
    runs = []
    start = prev = int(idx[0])
    for i in idx[1:]:
        i = int(i)
        if i - prev > min_gap:
            runs.append((start, prev + 1))
            start = i
        prev = i
    runs.append((start, prev + 1))
    return runs
