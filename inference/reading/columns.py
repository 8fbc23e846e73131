"""A column of print set top to bottom (竖排) among lines that lie: a product name or a brand down a tag's edge.

The text detector boxes such a column as a box much taller than wide, often cut at the gaps between its glyphs
into a stack of pieces one glyph wide. The recognizer reads lines lying down: a column's crop, scaled to the
line height it expects, shrinks its glyphs to specks. Turned a quarter counter-clockwise (its top to the left),
a column reads in its own order, top to bottom becoming left to right: CJK glyphs then lie on their sides,
which the recognizer reads, and Latin turned a quarter clockwise to run down a column (纵中横 or a spine's brand)
stands upright again. A tag whose lines all stand is turned whole before this (`text_lines.standing`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from inference.reading.lines import Box

# A box this many times taller than wide is a column (a lying line of two glyphs is twice as wide as tall).
COLUMN_ASPECT = 1.8
# Narrower than this (pixels) is a rule or a speck, not a glyph.
MIN_COLUMN_PX = 6.0
# Pieces of one column: each at least this tall for its width (a glyph, or a column already) ...
GLYPH_ASPECT = 0.8
# ... overlapping sideways by this share of the narrower, widths within this ratio (a column's small label over
# its value: vertical_name 000072's 品名 over 男式休闲裤, the detector's box of the label holding half of 男), ...
STACK_OVERLAP = 0.6
STACK_WIDTH_RATIO = 2.5
# ... and apart at most this share of their width (the gap between two glyphs of one column).
STACK_GAP = 0.6


def is_column(box: Box) -> bool:
    width, height = box[2] - box[0], box[3] - box[1]
    return width >= MIN_COLUMN_PX and height >= COLUMN_ASPECT * width


def stacked_columns(pieces: Sequence[tuple[Box, Box]]) -> list[tuple[Box, Box]]:
    """`pieces` ((line box, crop box), as `lines.split_print_sizes` gives them) with each stack of glyph-shaped
    pieces one under another at one width joined into one column piece, where the stack is a column
    (`is_column`); every other piece as it was."""
    order = sorted(range(len(pieces)), key=lambda i: pieces[i][0][1])
    stacks: list[list[int]] = []
    for i in order:
        box = pieces[i][0]
        if not _glyph_shaped(box):
            continue
        below = next((s for s in stacks if _stacks_on(pieces[s[-1]][0], box)), None)
        if below is None:
            stacks.append([i])
        else:
            below.append(i)
    joined: dict[int, tuple[Box, Box]] = {}
    dropped: set[int] = set()
    for stack in stacks:
        if len(stack) < 2:
            continue
        box = _union([pieces[i][0] for i in stack])
        if is_column(box):
            joined[stack[0]] = (box, _union([pieces[i][1] for i in stack]))
            dropped.update(stack[1:])
    return [joined.get(i, piece) for i, piece in enumerate(pieces) if i not in dropped]


def lying_crop(crop: np.ndarray) -> np.ndarray:
    """A column's crop turned a quarter counter-clockwise, for the recognizer: its top glyph first."""
    return np.ascontiguousarray(np.rot90(crop, 1))


def _glyph_shaped(box: Box) -> bool:
    width, height = box[2] - box[0], box[3] - box[1]
    return width >= MIN_COLUMN_PX and height >= GLYPH_ASPECT * width


def _stacks_on(upper: Box, lower: Box) -> bool:
    wu, wl = upper[2] - upper[0], lower[2] - lower[0]
    overlap = min(upper[2], lower[2]) - max(upper[0], lower[0])
    gap = lower[1] - upper[3]
    return (overlap >= STACK_OVERLAP * min(wu, wl) and max(wu, wl) <= STACK_WIDTH_RATIO * min(wu, wl)
            and -0.3 * (lower[3] - lower[1]) <= gap <= STACK_GAP * max(wu, wl))


def _union(boxes: Sequence[Box]) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
