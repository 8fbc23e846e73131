"""The order a tag's lines are parsed in, where rows alone do not give it: a label printed over its value.

Fields are parsed from lines top to bottom, and a label alone on its line takes the next line as its
value (`fields`). A grid prints each field in a cell of its own, its label in the cell's corner and the
value under it; a row of cells is then a row of labels over a row of values, and top to bottom reads
label, label, label, value, value, value: each label's next line is another label. Here each label
alone whose next line is not its value is followed by the line printed under it instead, which is
what a reader does. A label whose next line is already a value keeps it.
"""

from __future__ import annotations

from collections.abc import Sequence

from inference.reading.fields import label_only
from inference.reading.labels import line_parts
from inference.reading.types import OcrLine

# The value's line lies under the label's: its middle at most this many of the two lines' heights
# below the label's middle.
MAX_DROP = 2.2
# ... its left end at most this many label heights left or right of the label's (cells align both left).
MAX_SHIFT = 1.5


def labels_over_values(lines: Sequence[OcrLine]) -> list[OcrLine]:
    """`lines` (upright-crop boxes, rows top to bottom) with the line printed under each label alone
    moved to follow it, where the label's next line is not a plain value already."""
    out = list(lines)
    paired: set[int] = set()  # ids of lines moved under a label: a value belongs to one label
    i = 0
    while i < len(out):
        label = out[i]
        if label_only(label.text) is not None and not (i + 1 < len(out) and _plain(out[i + 1].text)):
            j = _under(out, i, paired)
            if j is not None:
                value = out.pop(j)
                out.insert(i + 1, value)
                paired.add(id(value))
                i += 1
        i += 1
    return out


def _plain(text: str) -> bool:
    return not line_parts(text)[0].labelled


def _under(lines: Sequence[OcrLine], i: int, paired: set[int]) -> int | None:
    """The index of the plain line printed under line `i`, later in the order, nearest first."""
    x1, y1, x2, y2 = lines[i].box
    height = y2 - y1
    best: tuple[float, int] | None = None
    for j in range(i + 2, len(lines)):
        line = lines[j]
        a1, b1, a2, b2 = line.box
        drop = (b1 + b2) / 2 - (y1 + y2) / 2
        if id(line) in paired or not _plain(line.text) or b1 < (y1 + y2) / 2:
            continue
        if drop > MAX_DROP * max(height, b2 - b1) or abs(a1 - x1) > MAX_SHIFT * height or min(x2, a2) <= max(x1, a1):
            continue
        score = drop + abs(a1 - x1)
        if best is None or score < best[0]:
            best = (score, j)
    return best[1] if best is not None else None
