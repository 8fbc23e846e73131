"""Prices a tag prints under an offer's label: a member's, an event's or a promotion's price beside the retail one.

A tag may print two prices, neither struck through: the retail price (吊牌价, 零售价) and a lower one that holds for
members or during an event (会员价 ¥319.00, 活动价, 专柜特惠价, a discount such as 8折). The recipe's price is the tag's
retail price, so an amount under an offer's label is neither the recipe's price printed (a job whose price is the
old tag's member price would pass) nor evidence that the retail price differs (a retail price read badly beside a
member's price read well would fail a good tag). The offer's label stands before the amount on its line, or, where
nothing but the amount is on its line (a price panel, a cell of a price table), on the line just above it, over the
amount or beside it. A discounted price (折后价) beside a retail price neither struck is an offer too; but where the tag
strikes a price through (a markdown's old price, struck_prices.py), the price left unstruck is the one charged whatever
its label, and the evidence (evidence._price) leaves the offer's label aside.

Over, above and beside are the tag's own: on a tag turned in the frame (a 40° turn lays a heading row's frame box over
both cells under it) the lines are placed in the tag's frame, turned back by the reader's turn (`turn_deg`, the
counter-clockwise turn that stood the tag upright: TagReading.rotation).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import replace

from inference.reading.types import Box, OcrLine

# Member, event and promotion prices, and a discount written as tenths ('8折', '7.5折').
OFFER_WORDS = re.compile(r"会员|VIP|活动|促销|特惠|专享|优惠|折[后後]|\d(?:\.\d)?\s*折", re.IGNORECASE)
_AMOUNT_AT = re.compile(r"\d[\d,，.．]*")
# What may stand before an amount on its own line without labelling it: a currency, a sign, spaces.
_BARE_PREFIX = re.compile(r"^\s*(?:RMB|CNY|[¥￥Y:：])?\s*$", re.IGNORECASE)
# The line that labels a bare amount lies no further above it than this share of the amount's line height.
MAX_GAP_LINES = 1.2
# A frame box is turned back into the tag's frame where the turn is this far from the diagonals (|cos 2θ|): at 45° a
# line's box in the frame no longer tells its width from its height.
MIN_TURN_CONDITION = 0.05


def offered(line: OcrLine, start: int, lines: Sequence[OcrLine], turn_deg: float = 0.0) -> bool:
    """Whether the amount starting at `start` in `line.text` is printed under an offer's label, on its line (after the
    amount before it, if any) or, standing bare on its line, on the line of `lines` that labels it from above (boxes
    in frame pixels, of a tag the reader turned `turn_deg` counter-clockwise to stand it upright)."""
    text = line.text
    before = text[_previous_amount_end(text, start):start]
    if OFFER_WORDS.search(before):
        return True
    if not _BARE_PREFIX.match(before) or start < 0:
        return False
    placed = in_tag_frame([line, *lines], turn_deg)
    line, lines = placed[0], placed[1:]
    header = _line_above(line, lines)
    return header is not None and bool(OFFER_WORDS.search(_word_over(header, line)))


def in_tag_frame(lines: Sequence[OcrLine], turn_deg: float) -> list[OcrLine]:
    """`lines` with their boxes in the tag's own frame (turned `turn_deg` counter-clockwise about the frame's origin,
    as the reader stood the tag upright): each line's centre turned, its width and height recovered from its frame box
    (the bounds of its box turned). As they were where the turn is nil or too near a diagonal to recover them."""
    theta = math.radians(turn_deg)
    c, s = math.cos(theta), math.sin(theta)
    condition = c * c - s * s
    if abs(s) < 1e-6 or abs(condition) < MIN_TURN_CONDITION:
        return list(lines)
    placed = [_turned_back(line.box, c, s, condition) for line in lines]
    if any(box is None for box in placed):
        return list(lines)
    return [replace(line, box=box) for line, box in zip(lines, placed)]


def _turned_back(box: Box, c: float, s: float, condition: float) -> Box | None:
    """The box in the tag's frame of the line whose frame box is `box` (the bounds of its box turned by the angle of
    cosine `c` and sine `s`, cv2's counter-clockwise turn): W = w|c| + h|s|, H = w|s| + h|c| solved for w and h."""
    x0, y0, x1, y1 = box
    big_w, big_h = x1 - x0, y1 - y0
    ac, as_ = abs(c), abs(s)
    w = (big_w * ac - big_h * as_) / condition
    h = (big_h * ac - big_w * as_) / condition
    if w <= 0 or h <= 0:
        return None
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    ux, uy = c * cx + s * cy, -s * cx + c * cy
    return (ux - w / 2, uy - h / 2, ux + w / 2, uy + h / 2)


def _previous_amount_end(text: str, start: int) -> int:
    ends = [m.end() for m in _AMOUNT_AT.finditer(text[:start])]
    return ends[-1] if ends else 0


def _line_above(line: OcrLine, lines: Sequence[OcrLine]) -> OcrLine | None:
    """The nearest line above `line` that ends within MAX_GAP_LINES of its top, holds no amount, and lies over it (or,
    where none does, beside its span: a panel's heading at its left, the amount set flush right)."""
    x0, y0, x1, y1 = line.box
    height = y1 - y0
    if height <= 0:
        return None
    above = [other for other in lines if other is not line and other.box[3] > other.box[1]
             and other.box[1] < y0 and y0 - height * MAX_GAP_LINES <= other.box[3] <= y0 + height * 0.5
             and not _AMOUNT_AT.search(re.sub(r"\d(?:\.\d)?\s*折", "", other.text))]
    if not above:
        return None
    over = [other for other in above if min(x1, other.box[2]) > max(x0, other.box[0])]
    pool = over or [other for other in above if _horizontal_gap(line, other) <= (x1 - x0)]
    return max(pool, key=lambda other: other.box[3], default=None)


def _horizontal_gap(a: OcrLine, b: OcrLine) -> float:
    return max(0.0, max(a.box[0], b.box[0]) - min(a.box[2], b.box[2]))


def _word_over(header: OcrLine, line: OcrLine) -> str:
    """The word of `header` nearest the middle of `line` (a table's heading row read as one line holds a label for
    each cell under it), each word placed by its share of the header's characters; the whole header where it is one
    word, or where the words lie to one side of the line (a panel's heading and its discount)."""
    words = [(m.start(), m.end(), m.group()) for m in re.finditer(r"\S+", header.text)]
    if len(words) < 2:
        return header.text
    x0, x1 = header.box[0], header.box[2]
    per_char = (x1 - x0) / max(len(header.text), 1)
    middle = (line.box[0] + line.box[2]) / 2
    if not x0 <= middle <= x1:
        return header.text
    return min(words, key=lambda w: abs(x0 + per_char * (w[0] + w[1]) / 2 - middle))[2]
