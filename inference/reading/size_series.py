"""The 号型 a printed size run puts at one place, from its other entries: a run is printed in order, by equal steps.

A tag that prints its style's whole run of 号型 (155/80Y 160/84Y 165/88Y …, in a chart's column or along a line)
prints them in order, each a step of the series from the last (GB/T 1335: 5 cm in height with 4 or 2 cm in girth;
children's heights 10 cm). So the size at the place a mark picks out is known from its siblings' reads, even where
the marked entry itself is misread: a bold or reversed entry is the run's hardest print to read (its counters fill
in: '175/96Y' read '175/06T'), its plain siblings the easiest. Two readings must agree before the place names the
size: the series (at least MIN_SUPPORT siblings read as it predicts, more than read as another well-formed size),
and the marked entry's own reads, which must lie no nearer any other size of the run than the size at its place,
within the recognizer's slips (at most half its characters apart, look-alikes folded) — a size read whole at its own
place is no rival: a run prints each size once. A run's entries are evenly
spaced down a chart's column: a gap of two spacings is a cell the text detector did not box, and keeps its place.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from inference.reading import hao_xing
from inference.reading.letter_sizes import size_tokens
from inference.reading.matching import fold
from inference.reading.normalize import edit_distance
from inference.reading.types import Box

# A run's step from one entry to the next: its height by 5 cm (children's by 10), its girth by 4 or 2 cm, both
# the same way.
HEIGHT_STEPS = (hao_xing.HEIGHT_STEP, 2 * hao_xing.HEIGHT_STEP)
GIRTH_STEPS = (hao_xing.GIRTH_STEP, hao_xing.GIRTH_STEP // 2)
# Siblings that must read exactly as the series predicts.
MIN_SUPPORT = 2
# A well-formed read girth lies in this range (cm): '170/02' is a misread, not another size of the run.
GIRTHS = (40, 150)
# A column's cells are evenly spaced: a gap between two boxed ones is a whole number of spacings, give or take this.
UNEVEN = 0.3
# A gap of more than this many spacings is no cell the text detector missed but the column's end: what lies past it
# (a size line printed over the chart, '尺码：185/88A' eight rows up) is no place of the run.
MAX_CELL_GAP = 3
# The marked entry's read may differ from its size in at most this share of the size's characters (bold print's
# filled counters: '160/96Y' read '100/00Y', three of seven).
MAX_SLIPS = 1 / 2


@dataclass(frozen=True)
class PlacedSize:
    """The size the run's order puts at the marked place: the size, the share of the siblings read as well-formed
    sizes that read as the series predicts, and the marked entry's read nearest to it."""

    value: str
    support: float
    read: str


def run_places(rows: Sequence[Box], reads: Sequence[str], row: int) -> tuple[list[str | None], int] | None:
    """The run's 号型 in printed order with the place of row `row`'s: each place's read (None where the read names no
    one 号型), and the marked row's index among them. The run lies along a line (its rows side by side, each read
    holding one 号型, or several in a row of one box) or down a column (rows stacked over the marked one, one 号型
    each); None where `row`'s read or place is not one entry (a grid of several columns, a row of several sizes
    holding the marked one)."""
    if not 0 <= row < min(len(rows), len(reads)):
        return None
    count = min(len(rows), len(reads))
    x1, y1, x2, y2 = rows[row]
    middle = (y1 + y2) / 2
    level = [k for k in range(count) if rows[k][1] < middle < rows[k][3]]
    stacked = [k for k in range(count) if _overlap((rows[k][0], rows[k][2]), (x1, x2))]
    if max(len(level), len(stacked)) < 2:
        return None
    down = len(stacked) > len(level)
    order = sorted(stacked, key=lambda k: rows[k][1]) if down else sorted(level, key=lambda k: rows[k][0])
    # a column's cells are evenly spaced (a line's boxes are not: one may hold a label before its size)
    centres = [(rows[k][1] + rows[k][3]) / 2 for k in order]
    spacing = float(np.median(np.diff(centres))) if down else 0.0
    if spacing > 0:
        first, last = _column_around(centres, spacing, order.index(row))
        order, centres = order[first : last + 1], centres[first : last + 1]
        if len(order) < 2:
            return None
    places: list[str | None] = []
    at = -1
    for n, k in enumerate(order):
        if n and spacing > 0:
            steps = (centres[n] - centres[n - 1]) / spacing
            if abs(steps - round(steps)) > UNEVEN or round(steps) < 1:
                return None  # not a run's even spacing (or two boxes in one cell): no place to count
            places.extend([None] * (int(round(steps)) - 1))  # a cell the text detector did not box keeps its place
        sizes = _sizes(reads[k])
        if k == row:
            if len(sizes) > 1:
                return None  # the marked entry is one of several in its row's read: its place is not known
            at = len(places)
            places.append(sizes[0] if sizes else None)
        elif down:
            places.append(sizes[0] if len(sizes) == 1 else None)  # a column's cell holds one size
        else:
            places.extend(sizes or [None])
    return places, at


def size_in_order(places: Sequence[str | None], at: int) -> tuple[str, float, list[str]] | None:
    """The 号型 the run's series puts at place `at`, the share of the other places read as well-formed sizes that
    read as it predicts, and the series' size at every place; None where no series has MIN_SUPPORT places read as it
    predicts and more than read as another size, or two such series put different sizes there."""
    parsed = {i: p for i, v in enumerate(places) if i != at and v is not None and (p := hao_xing.parse(v)) is not None}
    formed = {i: p for i, p in parsed.items() if well_formed(places[i])}
    steps = {(s * dh, s * dg) for dh in HEIGHT_STEPS for dg in GIRTH_STEPS for s in (1, -1)}
    series: dict[tuple[int, int, int, int], list[int]] = {}  # (height, girth at place 0, steps) -> places read so
    for i, (h, g, _body) in formed.items():
        for dh, dg in steps:
            support = [j for j, (hj, gj, _b) in formed.items() if (hj, gj) == (h + dh * (j - i), g + dg * (j - i))]
            if len(support) >= MIN_SUPPORT and len(support) > len(formed) - len(support):
                series[(h - dh * i, g - dg * i, dh, dg)] = support
    if len({(h0 + dh * at, g0 + dg * at) for h0, g0, dh, dg in series}) != 1:
        return None  # no series, or two putting different sizes at the place
    (h0, g0, dh, dg), support = max(series.items(), key=lambda item: len(item[1]))
    bodies = Counter(formed[j][2] for j in support if formed[j][2])  # a body type dropped or misread ('175/100E')
    body = bodies.most_common(1)[0][0] if bodies else ""
    if (bodies and 2 * bodies[body] <= sum(bodies.values())) or min(h0 + dh * at, g0 + dg * at) <= 0:
        return None  # the series' own reads disagree on the body type
    every = [f"{h0 + dh * p}/{g0 + dg * p}{body}" for p in range(len(places))]
    return every[at], len(support) / len(formed), every


def placed_size(rows: Sequence[Box], reads: Sequence[str], row: int, entry_reads: Sequence[str]) -> PlacedSize | None:
    """The size at the marked row's place in the run's order, where the marked entry's reads (`entry_reads`: its
    own, its row's) lie nearer it than any other size of the series, within the recognizer's slips; None otherwise.
    `reads`: each row's read, 号型 misreads mended (size_marks.size_read_mended), as `entry_reads` are."""
    placed = run_places(rows, reads, row)
    if placed is None or placed[1] < 0:
        return None
    places, at = placed
    series = size_in_order(places, at)
    if series is None:
        return None
    value, support, every = series
    # a run prints each size once: one read whole at its own place is that entry's, no rival of the marked one's
    rivals = [size for p, size in enumerate(every)
              if p == at or places[p] is None or fold("".join(places[p].split())) != fold(size)]
    nearest: list[tuple[int, str, str]] = []  # (slips, size, read) over every read and every rival size of the run
    for read in entry_reads:
        text = "".join(read.split())
        tokens = size_tokens(text)
        text = tokens[0] if len(tokens) == 1 else text
        if text:
            nearest += [(edit_distance(fold(text), fold(size)), size, read) for size in rivals]
    if not nearest:
        return None
    least = min(n[0] for n in nearest)
    if least > MAX_SLIPS * len(value) or not any(slips == least and size == value for slips, size, _read in nearest):
        return None  # its reads lie nearer another size of the run, or far from every one
    read = next(r for slips, size, r in nearest if slips == least and size == value)
    return PlacedSize(value, support, read)


def well_formed(token: str) -> bool:
    """Whether a size read could be printed so: a letter size, or a 号型 of a girth GIRTHS allows and a body type of
    GB/T 1335 (or none). '175/06T' is a misread, whatever reads it twice."""
    parts = hao_xing.parse(token)
    return parts is None or (GIRTHS[0] <= parts[1] <= GIRTHS[1] and parts[2] in ("",) + hao_xing.BODY_TYPES)


def _column_around(centres: Sequence[float], spacing: float, at: int) -> tuple[int, int]:
    """The first and last of the stacked rows (centres top to bottom) that are one column with row `at`: no gap
    between neighbours wider than MAX_CELL_GAP spacings."""
    first = last = at
    while first > 0 and centres[first] - centres[first - 1] <= MAX_CELL_GAP * spacing:
        first -= 1
    while last + 1 < len(centres) and centres[last + 1] - centres[last] <= MAX_CELL_GAP * spacing:
        last += 1
    return first, last


def _sizes(read: str) -> list[str]:
    return [t for t in size_tokens(read) if hao_xing.parse(t) is not None]


def _overlap(a: tuple[float, float], b: tuple[float, float]) -> bool:
    """Whether two spans overlap over most of the narrower (entries of one column)."""
    return min(a[1], b[1]) - max(a[0], b[0]) >= 0.5 * min(a[1] - a[0], b[1] - b[0])
