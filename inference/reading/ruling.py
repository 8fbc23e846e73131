"""Ruled lines that part a tag's print into cells: the vertical rules of a grid or a bar between fields.

The text detector may find a cell's value and the next cell's as two boxes on one row, and rows are
joined at gaps of a few line heights: across a ruled border that makes one line of three fields
('风衣 W30040A 花灰'), and a label in the cell's corner no longer has a value of its own under it. A
printed rule is a straight dark stroke standing taller than the lines of text beside it; no glyph
of the text between the rules is that tall, so a stroke that long in the gap between two boxes
parts them (`lines.group_rows`).
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

from inference.reading.lines import Box, Wall, group_rows, median

# A rule stands at least this many times the height of the tag's typical text box (after each box is
# trimmed to the midlines towards its neighbours, a line's box is about its line pitch, so no glyph
# of a line reaches it).
MIN_RULE_HEIGHT = 1.4
# A rule is thin: at most this share of the typical text box's height wide.
MAX_RULE_WIDTH = 0.3
# Ink: darker than the mean of its neighbourhood (a window about one text box high) by this much.
INK_CONTRAST = 12


def vertical_rules(gray: np.ndarray, boxes: Sequence[Box]) -> tuple[Wall, ...]:
    """The vertical rules printed on the upright crop `gray`, as (x, top, bottom) in its pixels,
    measured against the height of its text `boxes`; none looked for where no row holds two boxes (a rule
    only ever parts boxes of one row: `lines.group_rows`)."""
    if gray.size == 0 or not any(len(row) > 1 for row in group_rows(boxes)):
        return ()
    height = median([b[3] - b[1] for b in boxes])
    if height < 4:
        return ()
    tall = int(round(MIN_RULE_HEIGHT * height))
    if tall >= gray.shape[0]:
        return ()
    block = int(height) | 1
    ink = cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, max(block, 3), INK_CONTRAST)
    # a levelled rule can still lean a pixel in a hundred: widen strokes by one pixel each way before
    # keeping only the vertical runs at least `tall` long
    ink = cv2.dilate(ink, np.ones((1, 3), np.uint8))
    runs = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((tall, 1), np.uint8))
    count, _labels, stats, _centroids = cv2.connectedComponentsWithStats(runs, connectivity=8)
    walls = []
    for x, y, w, h, _area in stats[1:count]:
        if h >= tall and w <= max(3.0, MAX_RULE_WIDTH * height) + 2:
            walls.append((float(x + w / 2), float(y), float(y + h)))
    return tuple(walls)
