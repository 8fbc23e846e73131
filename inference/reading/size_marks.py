"""Which size of a printed size run is the garment's: the one that is marked.

A tag that prints its style's whole size run (XS S M L XL, or 155/80A 160/84A …) marks the garment's size — a
ring round it, reverse print in a filled box, a filled or ticked check box before it, a line under it. Whatever
the mark, the marked entry is the one that does not look like its siblings: the mark adds ink that the others do
not have, either in the print's own band (a filled box, a filled check box, a tick) or above and below it (a ring,
a line under it). So the run's rows are cut into entries at the wide gaps between them, each entry is measured,
and an entry that stands far out from the others in one of those measures — robustly, against their median and
spread, and far ahead of the next one — is read on its own. What the recognizer reads there, if it is a size, is
the marked size; no mark that stands out, or an entry that reads as no size or as two, is no answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
import re

import cv2
import numpy as np

from inference.reading import hao_xing
from inference.reading.labels import split_labeled
from inference.reading.letter_sizes import size_rank, size_tokens
from inference.reading.normalize import halfwidth
from inference.reading.option_marks import enclosed, option_fills
from inference.reading.size_series import placed_size, well_formed
from inference.reading.ocr.recognizer import TextRecognizer
from inference.reading.types import Box, MarkedSize

# Entries of a run are apart by at least this share of the print's height (its box's); strokes of one entry are
# closer, and a gap this wide (a plain space) always parts two entries.
ENTRY_GAP = 0.2
CLEAR_GAP = 0.6
# An entry narrower than this share of the print's height is a speck, not an entry.
MIN_ENTRY_WIDTH = 0.3
# Above and below the print, this share of its height is looked at for a ring or a line under it.
MARGIN_BAND = 0.35
# The print's own band: its box without this share of its height at the top and at the bottom.
CORE_INSET = 0.15
# A marked entry stands this many robust spreads above its siblings' median, and at least this many times as far
# out as the next most outstanding entry.
MIN_STANDOUT = 4.0
MIN_LEAD = 2.0
# Spreads smaller than these (ink shares) are the same print, not a real spread: floors for the robust scale.
SOLID_FLOOR = 0.06
FILLED_FLOOR = 0.05
MARGIN_FLOOR = 0.05
GROUND_FLOOR = 0.04
BOX_FLOOR = 0.06
# A ring round an entry is at least this many times as tall as the print's glyphs and covers less than this share of
# its bounding box; a line under an entry is at least this wide (share of the glyphs' height) and 3 times as wide as
# high.
RING_HEIGHT = 1.6
SOLID = 0.6
RULE_WIDTH = 0.6
# A part of the print this thick (share of the row box's height) each way is solid: a filled box, reverse print.
SOLID_PART = 0.35
# A check box is this tall against the glyphs (shares), about square, with ink along this share of each of its
# sides; a filled one covers at least FULL_BOX of its bounding box (a box with a size reversed out of it, less).
# Its inside is what lies BOX_INSIDE in from each side.
BOX_SIDES = (0.7, 1.4)
FRAMED = 0.75
FULL_BOX = 0.9
BOX_INSIDE = 0.25
# A solid part this many times as wide as high is a box a size is reversed out of (its letters blurred shut).
REVERSED_WIDTH = 1.5
# Check boxes are a run's own when a box's shape is found at most entries' starts and most of them are empty inside
# (ink crosses at most this share of the inside's lines): a glyph is not.
EMPTY_BOX = 0.15
# An entry is read with this share of the print's height round it; one darker than this on the whole is reversed
# out of a filled box and read turned over.
ENTRY_PAD = 0.3
REVERSED = 0.6
# A run has at least this many entries.
MIN_ENTRIES = 3
# No 号型 girth (chest or waist, cm) is wider than this: a figure past it, or of four digits, ends in the body type's
# letter read as the digit of its shape ('180/1048': 180/104B).
MAX_GIRTH = 150
_BODY_READ_AS_DIGIT = {"8": "B", "4": "A"}
_GIRTH_RUN_ON = re.compile(r"(?<![\d/])(\d{2,3})/(\d{2,3})([84])(?![\dA-Z/])")
# A chart may mark its column with a frame: the two rules either side of it drawn heavier than the grid's. Down the
# chart's rows, a rule is where the columns' darkness (above the chart's paper) reaches FRAME_PEAK, taken out to
# where it falls under FRAME_EDGE, at most MAX_FRAME_RULE print heights wide; its weight is the ink it holds (its
# columns' darkness summed: a blurred hairline as much as a sharp one). A rule FRAME_HEAVIER times the grid's weight
# (the lower quartile of the rules': a chart's outer border and the frame itself may be heavy too) is heavy; the one column between two neighbouring heavy rules that holds the run's print is framed. A chart
# has at least MIN_RULES rules (two columns of sizes and their walls).
FRAME_PEAK = 0.35
FRAME_EDGE = 0.1
MAX_FRAME_RULE = 0.5
FRAME_HEAVIER = 1.6
MIN_RULES = 4
# A horizontal rule of a table runs at least this many print heights (and along most of the row's band).
RULE_SPAN = 4.0
# A level line at least this many print heights long that runs out of the band's side is a rule too.
MIN_SIDE_RULE = 2.0
# A rule's breaks (a hairline thresholded) up to this share of the print's height are bridged.
RULE_GAP = 0.15
# A rule is at most this share of the print's height thick (a filled box is thicker).
MAX_RULE_THICKNESS = 0.3
# A rule has paper right above and below it in at least this share of its columns (glyphs or walls crossing it aside).
RULE_CLEAR = 0.5
# A cell's wall may stop at its row's own rules, short of the band's margins: a thin upright stroke across the print's
# own band that goes on, up and down its column, to the band's edge or into a level stroke this many print heights
# wide (a rule) is a wall too. A glyph's stroke ends in paper or a serif.
WALL_RULE_WIDTH = 2.0

@dataclass(frozen=True)
class _Entry:
    row: int
    x1: int
    x2: int
    solid: float  # how dark it is on the whole (print ~0.3-0.5; a filled box, reverse print: ~0.8)
    filled: float  # share of its print's band that is a filled box (a filled check box ~0.3, reverse print ~0.8)
    box: float  # how full the check box before it is (NaN where it has none)
    margins: float  # share of its columns a ring or a line marks above and below the print (ring ~0.8, line under ~0.5)
    ground: float  # how dark the paper between its strokes is (plain paper ~0; a tinted cell of a chart ~0.2-0.3)
    option: float = float("nan")  # how full the form's option mark over or under it is (option_marks.py; NaN: none)
    box_found: bool = False  # a box's shape was found at its start (not only placed where the run's boxes sit)


@dataclass(frozen=True)
class _RunBox:
    """The check box a run prints before each size: its size, its top below the print's band, its outline's
    thickness (pixels)."""

    w: int
    h: int
    dy: int
    outline: int


@dataclass(frozen=True)
class _Band:
    """One row of the run with its margins: the ink (True), each pixel's darkness between the paper (0) and the ink
    (1), the print's own rows, the row box's height and the band's place in the image."""

    gray: np.ndarray  # the band's grey levels, dark print on light paper (a dark tag's turned over)
    ink: np.ndarray
    solid: np.ndarray  # solid parts of the ink (filled boxes), kept apart from the print round them
    dark: np.ndarray
    core: tuple[int, int]
    h: float
    left: int
    top: int
    paper: float  # the grey of its paper and of its print (the run's, once all rows are measured)
    printed: float
    walls: tuple[tuple[int, int], ...] = ()  # columns (first, last) of the table's vertical rules taken out of it


def marked_size(image: np.ndarray, rows: Sequence[Box], recognizer: TextRecognizer,
                letter: bool | None = None, ruled: bool = False, reads: Sequence[str] = ()) -> MarkedSize | None:
    """The marked size among the run printed on `rows` (boxes of the run's lines in `image`, the upright crop).

    A size chart marks a whole column (its letter, its 号型, its measures, each in its own row): the entries that
    stand out stacked in one column are one mark (or, where none stands out, the column heavier rules frame), and the one read in the system the recipe names (`letter`: a
    letter size, or a 号型; None: either) is the marked size; where the mark shows only in the column's lines of the
    other system, the column's cell in the recipe's system is read on its own (`_column_cell`). In a table (`ruled`: vertical rules part the tag's
    print; or a rule crosses a row) the rules are taken out of each row before its marks are measured. `reads`:
    each row's own read, where known: a marked entry read on its own as another size than its cell's own read (a
    cell boxed alone, one size) is no answer — the same print read two ways; so is a size the rows read twice (a run
    prints each size once: one of the two is misread, and it may be the marked one), and a size no tag prints
    ('175/06T'). There, a 号型 marked is the one its place in the run's order names, where its reads bear it out
    (size_series.py); where no entry stands out, a chart's row framed by heavier rules is marked (`_framed_row`)."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    turned = _light_on_dark(gray, rows)
    entries: list[_Entry] = []
    bands: dict[int, tuple[_Band, np.ndarray]] = {}
    measured = {k: band for k, row in enumerate(rows) if (band := _band(gray, row, turned)) is not None}
    if ruled or any(_crossed(band) for band in measured.values()):
        measured = {k: _unruled(band) for k, band in measured.items()}
    glyphs: dict[int, float] = {}
    sorted_out = [(k, band, _parts(band)) for k, band in zip(measured, _on_the_tags_paper(list(measured.values())))]
    run_box = _run_box([(band, parts) for _k, band, parts in sorted_out])
    for k, band, parts in sorted_out:
        found = _entries(band, k, parts, run_box)
        entries.extend(dict.fromkeys(found))  # an entry marked whole is also a run of print: once
        bands[k], glyphs[k] = (band, parts.mark_mask), parts.text_h
    if len(entries) < MIN_ENTRIES:
        return None
    entries = _with_options(gray, entries, bands, glyphs, turned)
    spans = [(bands[e.row][0].left + e.x1, bands[e.row][0].left + e.x2) for e in entries]
    scores = _scores(entries)
    best = int(np.argmax(scores))
    column = _column(spans, scores, best)
    others = [float(scores[i]) for i in range(len(entries)) if i not in column]
    standout = float(scores[best])
    lead = standout / max(max(others, default=0.0), 1e-6)
    in_rows: dict[int, list[_Entry]] = {}  # the column's entries in each row (its outstanding ones: a filled box and
    framed = None                          # the slivers its edges cut off, or a row's print overlapping it, are one)
    if ruled or any(_crossed(band) for band, _marks in bands.values()):  # a column framed by heavier rules: its foot
        framed = _framed_column(gray, [band for band, _marks in bands.values()], turned, spans)  # is no line under
    if framed is not None:                                                                        # its last entry
        left, right, standout = framed[0], framed[1], float(framed[2])
        for e, (a, b) in zip(entries, spans):
            if left < (a + b) / 2 < right:
                in_rows.setdefault(e.row, []).append(e)
        lead = 0.0
    elif standout >= MIN_STANDOUT and lead >= MIN_LEAD:
        for i in column:
            if scores[i] >= MIN_STANDOUT:
                in_rows.setdefault(entries[i].row, []).append(entries[i])
    elif (ruled or any(_crossed(band) for band, _marks in bands.values())) \
            and (row_framed := _framed_row(gray, {k: band for k, (band, _marks) in bands.items()}, turned)) is not None:
        in_rows[row_framed[0]] = [e for e in entries if e.row == row_framed[0]]  # a chart's row framed by heavier rules
        standout, lead = row_framed[1], 0.0
    else:
        return None
    marked = [replace(parts[0], x1=min(e.x1 for e in parts), x2=max(e.x2 for e in parts), solid=max(e.solid for e in parts))
              for _row, parts in sorted(in_rows.items())]
    found: list[tuple[str, str, float, float]] = []  # (size, as read, weakest character, mean character)
    for entry in marked:
        read = _read_entry(*bands[entry.row], entry, recognizer)
        text = size_read_mended(read[0]) if read is not None else ""
        tokens = size_tokens(text)
        if len(tokens) == 1 and letter is not None and (hao_xing.parse(tokens[0]) is None) != letter:
            continue  # the column's size in the other system (its 号型 under a letter): not the recipe's answer
        if len(tokens) == 1 and well_formed(tokens[0]) and not _cell_reads_other(reads, entry.row, tokens[0]) \
                and not _read_twice(reads, tokens[0]):
            found.append((tokens[0], text, *_token_confidence(text, read[1], tokens[0])))
            continue
        # misread (a bold or reversed entry, its counters filled in: '175/96Y' read '175/06T', no size printed so, or
        # another than its line's read): the size its place in the run's order names, where its reads bear that out
        # (size_series.py)
        own = [text] + ([size_read_mended(reads[entry.row])] if entry.row < len(reads) else [])
        placed = None if letter else placed_size(rows, [size_read_mended(r) for r in reads], entry.row, own)
        if placed is not None:
            found.append((placed.value, f"{placed.read} (at {placed.value}'s place in the run's order)", placed.support,
                          placed.support))
        elif len(tokens) == 1:
            return None  # read as another size than its cell's own read, or as one the run prints twice
    if not found and letter is not None and marked:  # the column's mark shows only in its other system's lines
        lo = min(bands[e.row][0].left + e.x1 for e in marked)
        hi = max(bands[e.row][0].left + e.x2 for e in marked)
        cell = _column_cell(gray, rows, reads, turned, (lo, hi), set(in_rows), letter, recognizer)
        found = [(cell[0], cell[1], *_token_confidence(cell[1], cell[2], cell[0]))] if cell is not None else []
    if len({r[0] for r in found}) != 1:
        return None  # no size read in the column, or two of one system: no answer
    token, text, weakest, typical = found[0]
    return MarkedSize(token, weakest, typical, standout, lead, len(entries), text)


def _framed_column(gray: np.ndarray, bands: Sequence[_Band], turned: bool,
                   spans: Sequence[tuple[int, int]]) -> tuple[int, int, float] | None:
    """The one column of a ruled chart that heavier rules than the grid's frame: its image columns between the two
    rules and how much heavier the lighter of them is than the grid; None where the chart shows no such pair, or more
    than one holding entries of the run (`spans`, image columns)."""
    h = float(np.median([b.h for b in bands]))
    reach = int(round(2 * h))
    x0 = max(0, min(b.left for b in bands) - reach)
    x1 = min(gray.shape[1], max(b.left + b.gray.shape[1] for b in bands) + reach)
    y0, y1 = min(b.top + b.core[0] for b in bands), max(b.top + b.core[1] for b in bands)
    strip = gray[y0:y1, x0:x1].astype(np.float32)
    if turned:
        strip = 255.0 - strip
    profile = _darkness(strip, bands[0].paper, bands[0].printed).mean(axis=0)
    profile = profile - np.median(profile)
    rules = _rules_across(profile, h)
    if len(rules) < MIN_RULES:
        return None
    weight = np.array([w for _a, _b, w in rules])
    heavy = weight >= FRAME_HEAVIER * float(np.percentile(weight, 25))
    at = [(x0 + a, x0 + b) for a, b, _w in rules]
    grid = float(np.percentile(weight, 25))
    held = [(at[i][1], at[i + 1][0], min(weight[i], weight[i + 1]) / grid) for i in range(len(rules) - 1)
            if heavy[i] and heavy[i + 1] and any(at[i][1] < (a + b) / 2 < at[i + 1][0] for a, b in spans)]
    return held[0] if len(held) == 1 else None


def _framed_row(gray: np.ndarray, bands: dict[int, _Band], turned: bool) -> tuple[int, float] | None:
    """The one row of a ruled chart's column of sizes that heavier rules than the grid's frame, above and below it (a
    chart marks the garment's row so, as it may a column): its row's key in `bands` and how much heavier the lighter
    of its two rules is than the grid's; None where the column shows no such pair holding exactly one of its rows.
    Down the chart, a rule is measured as across it (`_rules_across`), over the column's width (a rule crosses it
    whole; a line of print is wider down the chart than any rule is thick)."""
    if len(bands) < MIN_ENTRIES:
        return None
    h = float(np.median([b.h for b in bands.values()]))
    x0 = max(0, min(b.left for b in bands.values()))
    x1 = min(gray.shape[1], max(b.left + b.gray.shape[1] for b in bands.values()))
    y0 = max(0, min(b.top + b.core[0] for b in bands.values()) - int(round(h)))
    y1 = min(gray.shape[0], max(b.top + b.core[1] for b in bands.values()) + int(round(h)))
    strip = gray[y0:y1, x0:x1].astype(np.float32)
    if turned:
        strip = 255.0 - strip
    first = next(iter(bands.values()))
    profile = _darkness(strip, first.paper, first.printed).mean(axis=1)
    profile = profile - np.median(profile)
    prints = [(b.top + b.core[0] - y0, b.top + b.core[1] - y0) for b in bands.values()]
    # a narrow dark band across a row's own print is its print (bold glyphs' strokes run together), not a rule
    rules = [r for r in _rules_across(profile, h) if not any(r[0] < bottom and r[1] > top for top, bottom in prints)]
    if len(rules) < MIN_RULES:
        return None
    weight = np.array([w for _a, _b, w in rules])
    grid = float(np.percentile(weight, 25))
    heavy = weight >= FRAME_HEAVIER * grid
    middles = {k: b.top + (b.core[0] + b.core[1]) / 2 - y0 for k, b in bands.items()}
    held = []
    for i in range(len(rules) - 1):
        inside = [k for k, m in middles.items() if rules[i][1] < m < rules[i + 1][0]]
        if heavy[i] and heavy[i + 1] and len(inside) == 1:
            held.append((inside[0], float(min(weight[i], weight[i + 1]) / grid)))
    return held[0] if len(held) == 1 else None


def _rules_across(profile: np.ndarray, h: float) -> list[tuple[int, int, float]]:
    """The rules in a darkness profile across a chart: (first column, last column, ink), left to right."""
    out: list[tuple[int, int, float]] = []
    x = 0
    while x < len(profile):
        if profile[x] < FRAME_PEAK:
            x += 1
            continue
        start = stop = x
        while start > 0 and profile[start - 1] >= FRAME_EDGE:
            start -= 1
        while stop + 1 < len(profile) and profile[stop + 1] >= FRAME_EDGE:
            stop += 1
        if stop - start + 1 <= MAX_FRAME_RULE * h:
            out.append((start, stop, float(profile[start : stop + 1].sum())))
        x = stop + 1
    return out


def _column_cell(gray: np.ndarray, rows: Sequence[Box], reads: Sequence[str], turned: bool, span: tuple[int, int],
                 marked_rows: set[int], letter: bool, recognizer: TextRecognizer) -> tuple[str, str, tuple[float, ...]] | None:
    """The marked column's cell in the recipe's size system, where only the column's other lines show the mark: a
    chart's line of cells naming one size each (XS S M L XL) under a column whose 号型 and measures are tinted. The
    cell under the column is read on its own — where the text detector boxed no line there (fifteenth_b 000005: the
    tinted column's bold S), the gap between its neighbours' print; where it did, but its tint did not stand out in
    that line (fifteenth_b 000073), its box. What it reads counts only as one size of that system that falls in the
    line's order (XS < S < M), named nowhere else in the line: a misread that breaks the series is no answer."""
    lo, hi = span
    cells = [k for k in range(min(len(rows), len(reads))) if k not in marked_rows
             and len(named := size_tokens(reads[k])) == 1 and (hao_xing.parse(named[0]) is None) == letter]
    for line in _lines_of(cells, rows):
        under = [k for k in line if min(rows[k][2], hi) > max(rows[k][0], lo)]
        if len(line) < 2 or len(under) > 1:
            continue  # a line of one cell is no series; two cells under the column are not one column's
        h = float(np.median([rows[k][3] - rows[k][1] for k in line]))
        if under:
            x1, y1, x2, y2 = rows[under[0]]
        else:
            pad = ENTRY_PAD * h
            x1 = max([lo - pad] + [rows[k][2] for k in line if rows[k][2] <= lo])
            x2 = min([hi + pad] + [rows[k][0] for k in line if rows[k][0] >= hi])
            y1, y2 = float(np.median([rows[k][1] for k in line])), float(np.median([rows[k][3] for k in line]))
        crop = gray[max(0, int(y1)) : int(np.ceil(y2)), max(0, int(x1)) : int(np.ceil(x2))]
        if crop.size == 0:
            return None
        if turned:
            crop = 255 - crop
        recognized = recognizer.recognize([cv2.cvtColor(np.ascontiguousarray(crop), cv2.COLOR_GRAY2BGR)], squeeze=1.0)
        if not recognized or not recognized[0].text:
            return None
        text = size_read_mended(recognized[0].text)
        named = size_tokens(text)
        if len(named) != 1 or (hao_xing.parse(named[0]) is None) != letter:
            return None
        token = named[0]
        series = sorted([((rows[k][0] + rows[k][2]) / 2, size_rank(size_tokens(reads[k])[0])) for k in line if k not in under]
                        + [((x1 + x2) / 2, size_rank(token))], key=lambda placed: placed[0])
        ranks = [rank for _x, rank in series]
        if None in ranks or not (_rising(ranks) or _rising(ranks[::-1])):
            return None  # named by the line already, or out of its order: a misread
        found = recognized[0]
        chars = found.char_confidences if len(found.char_confidences) == len(found.text) else (found.confidence,) * len(found.text)
        return token, text, tuple(chars)
    return None


def _lines_of(cells: Sequence[int], rows: Sequence[Box]) -> list[list[int]]:
    """`cells` (indices of `rows`) grouped into the chart's lines: boxes whose middles lie within each other's height."""
    lines: list[list[int]] = []
    for k in sorted(cells, key=lambda i: rows[i][1] + rows[i][3]):
        middle = (rows[k][1] + rows[k][3]) / 2
        line = next((line for line in lines if rows[line[0]][1] < middle < rows[line[0]][3]), None)
        if line is None:
            lines.append([k])
        else:
            line.append(k)
    return lines


def _rising(ranks: Sequence[object]) -> bool:
    return all(a < b for a, b in zip(ranks, ranks[1:]))


def _cell_reads_other(reads: Sequence[str], row: int, token: str) -> bool:
    """Whether row `row`, read as a line, is one cell naming one size of `token`'s system, another than `token`
    (fifteenth_b 000132: a bold serif XXL on a chart's tinted column, its Xs run together, read XL on its own while
    its cell read XXL)."""
    if row >= len(reads):
        return False
    named = size_tokens(size_read_mended(reads[row]))  # mended as the marked entry's own read is ('170/968': 170/96B)
    return len(named) == 1 and named[0] != token and (hao_xing.parse(named[0]) is None) == (hao_xing.parse(token) is None)


def _read_twice(reads: Sequence[str], token: str) -> bool:
    """Whether the run's rows (a size's labelled line left out: it names the garment's size, not the run's) read
    `token` twice (fifteenth_b 000132: its cells read L, XL, XL, 3XL; the bold XXL, its Xs run together, read XL)."""
    unlabelled = [text for text in reads if not any(name == "size" for name, *_ in split_labeled(text))]
    return sum(size_tokens(size_read_mended(text)).count(token) for text in unlabelled) >= 2


def _light_on_dark(gray: np.ndarray, rows: Sequence[Box]) -> bool:
    """Whether the run is light print on a dark tag, from all its rows together: one row of a chart whose marked
    column is reversed out (half of it dark) is not a dark tag."""
    cores = []
    for row in rows:
        x1, y1, x2, y2 = (int(round(v)) for v in row)
        h = y2 - y1
        inset = int(CORE_INSET * h)
        core = gray[max(0, y1 + inset) : max(0, y2 - inset), max(0, x1) : max(0, x2)]
        if core.size:
            cores.append(core.reshape(-1))
    if not cores:
        return False
    pixels = np.concatenate(cores).astype(np.uint8).reshape(1, -1)
    threshold, _ = cv2.threshold(pixels, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return bool((pixels < threshold).mean() > 0.5)


def _column(spans: Sequence[tuple[int, int]], scores: np.ndarray, best: int) -> set[int]:
    """The entries in the most outstanding entry's column: those over most of its span, and outstanding ones
    beside or over it, which widen it (a filled box and the slivers its edges were cut into)."""
    members, (lo, hi) = {best}, spans[best]
    grown = True
    while grown:
        grown = False
        for i, (a, b) in enumerate(spans):
            if i in members:
                continue
            if scores[i] >= MIN_STANDOUT and min(b, hi) - max(a, lo) >= -2:
                members.add(i)
                lo, hi, grown = min(lo, a), max(hi, b), True
            elif _stacked((a, b), (lo, hi)):
                members.add(i)
    return members


def _stacked(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two entries of different rows stand in one column: they overlap over most of the narrower."""
    overlap = min(a[1], b[1]) - max(a[0], b[0])
    return overlap >= 0.5 * min(a[1] - a[0], b[1] - b[0])


def _band(gray: np.ndarray, row: Box, turned: bool) -> _Band | None:
    h_img, w_img = gray.shape
    x1, y1, x2, y2 = (int(round(v)) for v in row)
    h = y2 - y1
    if h < 4 or x2 - x1 < MIN_ENTRY_WIDTH * h:  # a row may be one cell of a chart, one entry wide
        return None
    pad = int(round(MARGIN_BAND * h))
    top, bottom = max(0, y1 - pad), min(h_img, y2 + pad)
    left, right = max(0, x1), min(w_img, x2)
    band = gray[top:bottom, left:right].astype(np.float32)
    core = (y1 - top + int(CORE_INSET * h), y2 - top - int(CORE_INSET * h))
    threshold, _ = cv2.threshold(band[core[0] : core[1]].astype(np.uint8), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if turned:  # light print on a dark tag
        band = 255.0 - band
        threshold = 255.0 - threshold
    ink, solid = _ink(band, band < threshold, core, h)
    plain = band[core[0] : core[1]][~ink[core[0] : core[1]]]
    paper = float(np.percentile(plain, 90)) if plain.size else float(band.max())
    printed = float(np.percentile(band[ink], 50)) if ink.any() else 0.0
    return _Band(band, ink, solid, _darkness(band, paper, printed), core, float(h), left, top, paper, printed)


def _darkness(band: np.ndarray, paper: float, printed: float) -> np.ndarray:
    return np.clip((paper - band) / max(paper - printed, 1.0), 0.0, 1.0)


def _on_the_tags_paper(bands: Sequence[_Band]) -> list[_Band]:
    """Each row's darkness measured from the paper and the print of all the run's rows together: a row that is one
    tinted cell of a chart has the tint for its own paper, and would show no tint at all."""
    if len(bands) < 2:
        return list(bands)
    paper, printed = float(np.median([b.paper for b in bands])), float(np.median([b.printed for b in bands]))
    return [replace(b, dark=_darkness(b.gray, paper, printed), paper=paper, printed=printed) for b in bands]


def _ink(band: np.ndarray, first: np.ndarray, core: tuple[int, int], h: float) -> tuple[np.ndarray, np.ndarray]:
    """The print's ink and its solid parts. A filled box is far darker than thin print and can take the threshold
    to itself, leaving the print round it as paper: the solid parts are set apart (a pixel's moat keeps them their
    own shapes) and the rest is thresholded again without them."""
    side = max(3, int(round(SOLID_PART * h)))
    solid = cv2.morphologyEx(first.astype(np.uint8), cv2.MORPH_OPEN, np.ones((side, side), np.uint8)).astype(bool)
    if not solid.any():
        return first, solid
    moat = cv2.dilate(solid.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    rest = band[core[0] : core[1]][~moat[core[0] : core[1]]]
    if rest.size < 16:
        return first, solid
    threshold, _ = cv2.threshold(rest.astype(np.uint8).reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return solid | ((band < threshold) & ~moat), solid


def _unruled(band: _Band) -> _Band:
    """The row without its table's ruling (a size chart's grid): a thin straight stroke across the band's whole
    height, or a thin level one at least RULE_SPAN print heights long, or one that runs out of the band's side (a
    grid's line goes on past the text box; a line under an entry stops at the entry's ends, inside its row's box), and
    the pieces of a level line that touch such a rule (a rule a little slanted, broken where it steps a row). Rules
    part cells, they mark none (a ring's sides bow; a filled box is thick)."""
    wide = band.ink.shape[1]
    rules = _vertical_rules(band)
    walls = _runs(rules.any(axis=0))
    level = _level_lines(band)
    ruled = [w >= RULE_SPAN * band.h or x == 0 or x + w >= wide for x, w, _line in level]
    grown = True
    while grown:  # a rule slanting across the band breaks where it steps: its pieces touching a rule are the rule
        grown = False
        across = np.zeros(band.ink.shape, np.uint8)
        for (_x, _w, line), is_rule in zip(level, ruled):
            if is_rule:
                across[line] = 1
        near = cv2.dilate(across, np.ones((3, 3), np.uint8)).astype(bool)
        for i, (_x, _w, line) in enumerate(level):
            if not ruled[i] and (line & near).any():
                ruled[i] = grown = True
    for (_x, _w, line), is_rule in zip(level, ruled):
        if is_rule:
            rules |= line
    return replace(band, ink=band.ink & ~rules, solid=band.solid & ~rules, walls=walls)


def _runs(columns: np.ndarray) -> tuple[tuple[int, int], ...]:
    """The runs of True in a row of columns, as (first, last)."""
    edges = np.flatnonzero(np.diff(np.r_[0, columns.astype(np.int8), 0]))
    return tuple((int(a), int(b) - 1) for a, b in zip(edges[::2], edges[1::2]))


def _crossed(band: _Band) -> bool:
    """Whether a table's rule crosses the row: a thin stroke across its whole height, or a level one across its
    whole width (a cell's own row, boxed inside the cell)."""
    wide = band.ink.shape[1]
    return bool(_vertical_rules(band).any()) or any(x == 0 and x + w >= wide for x, w, _line in _level_lines(band))


def _level_lines(band: _Band) -> list[tuple[int, int, np.ndarray]]:
    """Thin level strokes at least MIN_SIDE_RULE print heights long (or the band's width), as (left, width, ink).
    A hairline breaks up under the threshold and steps a pixel where the row is not quite level: bridged first."""
    ink, h = band.ink, band.h
    wide = ink.shape[1]
    thick = max(3, int(round(MAX_RULE_THICKNESS * h)))
    gap = _rule_gap(h)
    bridged = cv2.morphologyEx(cv2.dilate(ink.astype(np.uint8), np.ones((3, 1), np.uint8)), cv2.MORPH_CLOSE, np.ones((1, gap), np.uint8))
    # thin in the ink itself, column by column: a rule a little slanted spans more rows across the band than it is
    # thick, and the bridging above makes every stroke two rows thicker
    level = _thin(_opened(bridged, (1, max(3, min(int(MIN_SIDE_RULE * h), wide)))) & ink, (thick, 1))
    joined = cv2.morphologyEx(cv2.dilate(level.astype(np.uint8), np.ones((3, 1), np.uint8)), cv2.MORPH_CLOSE, np.ones((1, gap), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    lines = [(int(stats[c][0]), int(stats[c][2]), (labels == c) & level) for c in range(1, count)]
    return [line for line in lines if _clear_both_sides(ink, line[2], thick)]


def _clear_both_sides(ink: np.ndarray, line: np.ndarray, thick: int) -> bool:
    """Whether a level stroke is one thin stroke (at most `thick` rows in each column) with paper right above and
    right below it, along most of its length: a rule is, the tops or the feet of bold glyphs run together along a line
    of text are not (their strokes go on down or up from them)."""
    columns = np.flatnonzero(line.any(axis=0))
    if len(columns) == 0:
        return False
    rows = np.arange(line.shape[0])[:, None]
    top = np.where(line[:, columns], rows, line.shape[0]).min(axis=0)
    bottom = np.where(line[:, columns], rows, -1).max(axis=0)
    above = (top == 0) | ~ink[np.maximum(top - 1, 0), columns]
    below = (bottom == line.shape[0] - 1) | ~ink[np.minimum(bottom + 1, line.shape[0] - 1), columns]
    return float((above & below & (bottom - top < thick)).mean()) >= RULE_CLEAR


def _rule_gap(h: float) -> int:
    """The longest break in a rule (px) that is bridged, for print `h` high."""
    return max(3, int(round(RULE_GAP * h)))


def _vertical_rules(band: _Band) -> np.ndarray:
    """Thin upright strokes across the band's whole height, or across the print's band and on to rules at both ends (a
    cell's wall that stops at its row's rules: p20 000069, a punched run's walls read as entries '1' between its
    sizes): a table's vertical rules."""
    tall = band.ink.shape[0]
    if tall < 3:
        return np.zeros(band.ink.shape, bool)
    thick = max(3, int(round(MAX_RULE_THICKNESS * band.h)))
    whole = _thin(_opened(band.ink, (tall, 1)), (1, thick))
    top, bottom = band.core
    if bottom - top < 3:
        return whole
    across = np.zeros_like(band.ink)
    across[top:bottom] = _thin(_opened(band.ink[top:bottom], (bottom - top, 1)), (1, thick))
    wide = max(3, int(round(WALL_RULE_WIDTH * band.h)))
    for x in np.flatnonzero(across.any(axis=0) & ~whole.any(axis=0)):
        up, down = _to_a_rule(band.ink, x, top - 1, -1, wide, thick), _to_a_rule(band.ink, x, bottom, 1, wide, thick)
        if up is not None and down is not None:  # the wall's columns, from the rule over the row to the one under it
            lo, hi = max(0, x - 1), min(band.ink.shape[1], x + 2)
            whole[up : down + 1, lo:hi] |= _thin(band.ink[up : down + 1, lo:hi], (1, thick))
    return whole


def _to_a_rule(ink: np.ndarray, x: int, y: int, step: int, wide: int, thick: int) -> int | None:
    """Following the stroke in column `x` from row `y` (the print band's edge) out of the band one way (`step`), a
    column aside at most per row (a wall printed a little slanted): the row where, after running thin with paper
    beside it, it meets the band's edge or a level stroke `wide` px long (a rule); None where it ends in paper or in a
    solid part first (a filled box's edge is no rule: its inside is no wall)."""
    beside_paper = False
    while 0 <= y < ink.shape[0]:
        row = ink[y]
        x = next((c for c in (x, x - 1, x + 1) if 0 <= c < len(row) and row[c]), -1)
        if x < 0:
            return None
        left = x - (np.flatnonzero(~row[:x][::-1])[:1].tolist() or [x])[0]
        right = x + (np.flatnonzero(~row[x:])[:1].tolist() or [len(row) - x])[0]
        if right - left >= wide:
            return y if beside_paper else None
        beside_paper = beside_paper or right - left < thick
        y += step
    return y - step if beside_paper else None


def _opened(mask: np.ndarray, kernel: tuple[int, int]) -> np.ndarray:
    return cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, np.ones(kernel, np.uint8)).astype(bool)


def _thin(mask: np.ndarray, across: tuple[int, int]) -> np.ndarray:
    """The parts of `mask` thinner than `across` (what an opening with it takes away), as far as they show: a rule cut
    by the band's edge is as thin as the part of it inside (an opening takes what lies past the edge for ink, and
    would keep a hairline along the edge as a thick stroke)."""
    dy, dx = across
    padded = np.pad(mask, ((dy, dy), (dx, dx)))
    return mask & ~_opened(padded, across)[dy : dy + mask.shape[0], dx : dx + mask.shape[1]]


@dataclass
class _Parts:
    """A row's ink sorted by what it is: print, marks round entries (rings, lines under), filled boxes (a filled check
    box, a box a size is reversed out of), entries marked whole (their columns), check boxes, the glyphs' height."""

    print_mask: np.ndarray
    mark_mask: np.ndarray
    filled_mask: np.ndarray
    whole: list[tuple[int, int]]
    boxes: list[tuple[int, int, int, int]]
    text_h: float


def _run_box(rows: Sequence[tuple[_Band, _Parts]]) -> _RunBox | None:
    """The check box the run prints before each size, from all its rows: its width, its height, its top below the
    print's band and its outline's thickness (medians over the hollow boxes found: bold print's counters blurred
    shut are box-shaped blots); None where the run prints none. A row
    whose only box is the marked one (a tick run out of it, the box no longer a box's shape) still has its box where
    the run's are."""
    found = [(w, hh, y - band.core[0], _outline(band.ink[y : y + hh, x : x + w]))
             for band, parts in rows for x, y, w, hh in parts.boxes]
    hollow = [box for box in found if 2 * box[3] < min(box[0], box[1])]  # an empty box, not a glyph's blot
    found = hollow or found
    if not found:
        return None
    w, hh, dy, outline = np.median(np.array(found, np.float64), axis=0)
    return _RunBox(int(round(w)), int(round(hh)), int(round(dy)), max(1, int(round(outline))))


def _outline(shape: np.ndarray) -> float:
    """How thick a box's outline is: the longest ink run in from a side across its middle (blur and the pixel grid
    thicken its sides unequally, and round its inside corners; a tick run into a side lengthens that one, which the
    run's median over its boxes leaves out). Blur thickens a thin outline to a third of a small box."""
    h, w = shape.shape
    if h < 3 or w < 3:
        return 1.0
    middle_row, middle_col = shape[h // 2], shape[:, w // 2]

    def run_in(line: np.ndarray) -> int:
        paper = np.flatnonzero(~line)
        return int(paper[0]) if len(paper) else len(line)

    return float(max(run_in(middle_row), run_in(middle_row[::-1]), run_in(middle_col), run_in(middle_col[::-1])))


def _entries(band: _Band, k: int, parts: _Parts, run_box: _RunBox | None = None) -> list[_Entry]:
    """The row's entries: runs of the print's columns apart by an entry gap (`parts`: its ink sorted, the marks
    round them among it), each with what marks it; the check box before each is where the row's boxes sit, or, in a
    row with none of its own, where the run's (`run_box`) sit."""
    placed = [] if run_box is None else [(-run_box.w, band.core[0] + run_box.dy, run_box.w, run_box.h)]
    boxes = parts.boxes or placed  # at no entry's start
    core, h = band.core, band.h
    slack = CORE_INSET * h
    dark, filled = band.dark[core[0] : core[1]], parts.filled_mask[core[0] : core[1]]
    above = parts.mark_mask[: max(0, core[0] - int(slack))].any(axis=0)
    below = parts.mark_mask[min(band.ink.shape[0], core[1] + int(slack)) :].any(axis=0)
    spans = [piece for span in _print_spans(parts.print_mask[core[0] : core[1]], h)
             for piece in _outside(span, list(parts.whole) + list(band.walls), MIN_ENTRY_WIDTH * h)] + parts.whole
    out = []
    for a, b in sorted(spans):
        if b - a + 1 < MIN_ENTRY_WIDTH * h:
            continue
        paper = ~band.ink[core[0] : core[1], a : b + 1]
        ground = float(dark[:, a : b + 1][paper].mean()) if paper.any() else 0.0
        box, box_found = _box_fill(band.ink, boxes, a, parts.text_h, run_box, band.core[0])
        out.append(_Entry(k, a, b + 1, float(dark[:, a : b + 1].mean()), float(filled[:, a : b + 1].mean()), box,
                          float(above[a : b + 1].mean() + below[a : b + 1].mean()) / 2, ground, box_found=box_found))
    return out


def _with_options(gray: np.ndarray, entries: list[_Entry], bands: dict[int, tuple[_Band, np.ndarray]],
                  glyphs: dict[int, float], turned: bool) -> list[_Entry]:
    """Each entry with the fill of the form's option mark over or under it, where the run prints them."""
    paper, printed = bands[entries[0].row][0].paper, bands[entries[0].row][0].printed
    spans, rows = [], []
    for e in entries:
        band = bands[e.row][0]
        spans.append((band.left + e.x1, band.left + e.x2))
        top, bottom = _print_rows(band, e)
        rows.append((band.top + top, band.top + bottom))
    fills = option_fills(255 - gray if turned else gray, spans, rows, [glyphs[e.row] for e in entries], paper, printed)
    return [replace(e, option=float(f)) for e, f in zip(entries, fills)]


def _print_rows(band: _Band, entry: _Entry) -> tuple[int, int]:
    """The top and the bottom of an entry's own print (band rows): the ink in its columns, from the print's middle up
    and down to the first row of paper. A text detector's box round a form's run may reach into the row of options
    over (or under) the sizes; the options lie past the print, not past the box. The print lies within its box (ink
    climbing past it is an option or a rule touching the print), and where the entry's columns show no ink in the
    print's band, it is its box (without the slack the detector leaves)."""
    inset = int(CORE_INSET * band.h)
    fallback = (band.core[0] - inset, band.core[1] + inset)
    inked = band.ink[:, entry.x1 : entry.x2].any(axis=1)
    middle = [y for y in range(band.core[0], band.core[1]) if inked[y]]
    if not middle:
        return fallback
    y0 = y1 = middle[len(middle) // 2]
    while y0 > 0 and inked[y0 - 1]:
        y0 -= 1
    while y1 + 1 < len(inked) and inked[y1 + 1]:
        y1 += 1
    return max(y0, fallback[0]), min(y1 + 1, fallback[1])


def _parts(band: _Band) -> _Parts:
    """Only ink that reaches into the print's band is print (a neighbouring row's strokes in the margins are not); a
    ring round an entry (taller than the print, past the row's box, not solid) is the entry's mark and the columns it
    spans are that entry, whatever print touches it; a solid part with print on both sides is a blot where blurred
    glyphs ran together, not a box a size is reversed out of."""
    ink, core, h = band.ink, band.core, band.h
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    slack = CORE_INSET * h
    crossing = {c for c in range(1, count) if stats[c][1] < core[1] and stats[c][1] + stats[c][3] > core[0]}
    glyphs = [stats[c][3] for c in crossing if MIN_ENTRY_WIDTH * h <= stats[c][3] <= h and stats[c][2] <= 2 * h
              and not band.solid[labels == c].any()]  # not specks, rings or filled boxes
    text_h = float(np.median(glyphs)) if glyphs else 0.6 * h
    parts = _Parts(np.zeros(ink.shape, bool), np.zeros(ink.shape, bool), np.zeros(ink.shape, bool), [], [], text_h)
    closed = cv2.morphologyEx(ink.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)).astype(bool)  # thin box lines
    moat = cv2.dilate(band.solid.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)  # solid parts _ink set apart
    reversed_out: list[tuple[int, int, int]] = []  # solid parts that may be boxes a size is reversed out of
    for c in range(1, count):
        x, y, w, hh, area = (int(v) for v in stats[c])
        shape = labels == c
        if c not in crossing:
            under = y >= core[1] and y + hh < ink.shape[0]  # below the print, whole inside the band
            if under and w >= RULE_WIDTH * text_h and w >= 3 * hh:  # a line under an entry
                parts.mark_mask |= shape
            continue
        past_box = y < core[0] - slack or y + hh > core[1] + slack
        squarish = BOX_SIDES[0] * text_h <= hh <= BOX_SIDES[1] * text_h and 0.75 <= w / hh <= 1.33
        # a box a size is reversed out of may be too thin round its letters to survive the opening: its outline
        # filled in is still a rectangle, which a glyph as wide is not
        solid = band.solid[shape].mean() > 0.5 or (w >= REVERSED_WIDTH * hh and _rectangular((shape | moat)[y : y + hh, x : x + w]))
        holed_or_wide = area < FULL_BOX * w * hh or w >= REVERSED_WIDTH * hh  # a filled check box is a full square
        if solid and holed_or_wide and hh >= 0.8 * text_h:  # a size reversed out of a filled box (or a blot)
            parts.print_mask |= shape
            reversed_out.append((x, x + w - 1, c))
        elif past_box and hh >= RING_HEIGHT * text_h and area < SOLID * w * hh:  # a ring round an entry
            parts.mark_mask |= shape
            parts.whole.append((x, x + w - 1))
        else:
            parts.print_mask |= shape
            if squarish and solid:  # a filled check box
                parts.filled_mask |= shape
            if squarish and _framed(closed[y : y + hh, x : x + w]):
                parts.boxes.append((x, y, w, hh))
    spans = _print_spans(parts.print_mask[core[0] : core[1]], h)
    inset = ENTRY_GAP * h
    for r0, r1, c in reversed_out:
        if not any(a < r0 - inset and r1 + inset < b for a, b in spans):
            parts.filled_mask |= labels == c
            parts.whole.append((r0, r1))
    return parts


def _rectangular(shape: np.ndarray) -> bool:
    """Whether a shape, its holes filled (the letters reversed out of a box), covers its bounding box."""
    return enclosed(shape) >= FULL_BOX


def _outside(span: tuple[int, int], whole: Sequence[tuple[int, int]], narrow: float) -> list[tuple[int, int]]:
    """The parts of a run of print that lie outside the entries marked whole (print touching a ring or running up to
    a filled box belongs to the marked entry or to the entry beside it) and the walls of a table's cells (sizes
    printed close in a ruled row are parted by the rules, not by gaps), dropping slivers."""
    pieces = [span]
    for r0, r1 in whole:
        pieces = [p for a, b in pieces for p in ((a, min(b, r0 - 1)), (max(a, r1 + 1), b)) if p[1] >= p[0]]
    return [(a, b) for a, b in pieces if b - a + 1 >= narrow]


def _framed(shape: np.ndarray) -> bool:
    """Whether a shape is a box: ink along most of each of its four sides (a glyph such as M or S is not)."""
    sides = (shape[:2].any(axis=0), shape[-2:].any(axis=0), shape[:, :2].any(axis=1), shape[:, -2:].any(axis=1))
    return all(side.mean() >= FRAMED for side in sides)


def _box_fill(ink: np.ndarray, boxes: Sequence[tuple[int, int, int, int]], start: int, text_h: float,
              run_box: _RunBox | None = None, core_top: int = 0) -> tuple[float, bool]:
    """How far ink crosses the inside of the check box at an entry's start: the share of the inside's columns, or
    of its rows where fewer, that hold ink (empty: ~0; ticked or crossed: most, however thin the stroke is printed
    (a tick inks a quarter of a small box's inside, yet crosses it side to side); filled: 1; a speck or a stroke
    along one side: a few).
    Where a row prints boxes, each entry's is where the row's boxes sit, so a tick that runs out of its box (and
    makes the box another shape) is still looked for inside it; where the run's box is known, a box not found at the
    entry's start is the run's size at the run's height. The inside is what lies within the run's outline (a small
    box's blurred outline fills a third of it each side: measured so, an empty box would read a third full), at
    least BOX_INSIDE in from each side. Also whether a box's shape was found at the entry's start."""
    if not boxes:
        return float("nan"), False
    lead = [b for b in boxes if abs(b[0] - start) <= 0.3 * text_h]
    if lead:
        x, y, w, hh = lead[0]
    elif run_box is not None:
        x, y, w, hh = start, core_top + run_box.dy, run_box.w, run_box.h
    else:
        side, y = int(np.median([b[2] for b in boxes])), int(np.median([b[1] for b in boxes]))
        x, w, hh = start, side, side
    x, y = max(0, x), max(0, y)
    outline = run_box.outline if run_box is not None else 0
    dx = max(1, int(round(BOX_INSIDE * w)), outline)
    dy = max(1, int(round(BOX_INSIDE * hh)), outline)
    inside = ink[y + dy : y + hh - dy, x + dx : x + w - dx]
    if not inside.size:
        return float("nan"), False
    return float(min(inside.any(axis=0).mean(), inside.any(axis=1).mean())), bool(lead)


def _print_spans(band: np.ndarray, h: float) -> list[tuple[int, int]]:
    """Runs of the print's columns (first, last), parted where a gap is an entry gap."""
    columns = np.flatnonzero(band.any(axis=0))
    if len(columns) == 0:
        return []
    gaps = np.diff(columns) - 1
    cut = gaps >= _entry_gap(gaps[gaps > 0], h)
    return list(zip(np.r_[columns[0], columns[1:][cut]].tolist(), np.r_[columns[:-1][cut], columns[-1]].tolist()))


def _entry_gap(gaps: np.ndarray, h: float) -> float:
    """The narrowest gap between two entries of a row: the gaps fall in two kinds, inside an entry (between its
    characters, a check box and its size) and between entries; split where the two kinds are furthest apart
    (Otsu on the widths). A row whose gaps are all of one kind is one entry, unless a gap is plainly a space."""
    plain = CLEAR_GAP * h
    if len(gaps) < 2:
        return plain
    values = np.sort(gaps.astype(np.float64))
    best, threshold = -1.0, plain
    for i in range(1, len(values)):
        low, high = values[:i], values[i:]
        between = len(low) * len(high) * (high.mean() - low.mean()) ** 2
        if between > best:
            best, threshold = between, (low.max() + high.min()) / 2
            apart = high.mean() >= 2.0 * max(low.mean(), 1.0) and high.min() >= ENTRY_GAP * h
    return threshold if apart else plain


def _scores(entries: Sequence[_Entry]) -> np.ndarray:
    """How far each entry stands out: its robust z in the measure it stands out most in. Check boxes count only
    where most entries have one (a run printed with a box before every size). Where the run prints an option over
    (or under) its sizes, the ink past the print is the options', not a ring or a line under one entry: an empty
    option inside one entry's taller text box (p20 000057: '规格 165/76Y' boxed with the ring over it) is no mark."""
    scores = np.zeros(len(entries))
    boxed = np.array([e.box for e in entries])
    options = np.array([e.option for e in entries])
    printed_options = bool(np.isfinite(options).any())  # option_fills measured them only where the run prints options
    measures = [(np.array([e.solid for e in entries]), SOLID_FLOOR), (np.array([e.filled for e in entries]), FILLED_FLOOR),
                (np.array([e.ground for e in entries]), GROUND_FLOOR)]
    if not printed_options:
        measures.append((np.array([e.margins for e in entries]), MARGIN_FLOOR))
    found = np.array([e.box_found for e in entries])
    if found.sum() >= max(MIN_ENTRIES, 0.6 * len(entries)) and np.median(boxed[found]) <= EMPTY_BOX:
        measures.append((np.where(np.isfinite(boxed), boxed, np.nanmedian(boxed)), BOX_FLOOR))
    if printed_options:
        measures.append((np.where(np.isfinite(options), options, np.nanmedian(options)), BOX_FLOOR))
    for v, floor in measures:
        spread = max(1.4826 * float(np.median(np.abs(v - np.median(v)))), floor)
        scores = np.maximum(scores, (v - np.median(v)) / spread)
    return scores


def _read_entry(band: _Band, marks: np.ndarray, entry: _Entry, recognizer: TextRecognizer) -> tuple[str, tuple[float, ...]] | None:
    """The entry's print read on its own: the mark above and below it painted over with paper (a ring read whole
    with its letter is a circled letter to the recognizer: 'L' in a ring reads 'O'; its sides read as brackets),
    reverse print turned dark on light. In a table's row the entry is read within its cell's walls (the print beside
    them is the next size's), with paper for the margin the walls leave it short of."""
    pad, slack = int(ENTRY_PAD * band.h), int(CORE_INSET * band.h)
    rows = slice(max(0, band.core[0] - slack), min(band.gray.shape[0], band.core[1] + slack))
    left = max([0, entry.x1 - pad] + [b + 1 for a, b in band.walls if b < entry.x1])
    right = min([band.gray.shape[1], entry.x2 + pad] + [a for a, b in band.walls if a >= entry.x2])
    cols = slice(left, right)
    crop = band.gray[rows, cols].copy()
    erase = cv2.dilate(marks.astype(np.uint8), np.ones((3, 3), np.uint8)).astype(bool)
    erase[band.core[0] : band.core[1]] = False  # what crosses the print (a ring's sides, glyphs touching it) stays
    erase = erase[rows, cols]
    paper = np.percentile(band.gray, 90)
    crop[erase] = paper
    short = (max(0, min(pad, entry.x1) - (entry.x1 - left)), max(0, min(pad, band.gray.shape[1] - entry.x2) - (right - entry.x2)))
    if any(short):
        crop = cv2.copyMakeBorder(crop, 0, 0, short[0], short[1], cv2.BORDER_CONSTANT, value=float(paper))
    if entry.solid > REVERSED:
        crop = 255.0 - crop
    if crop.size == 0:
        return None
    image = cv2.cvtColor(np.clip(crop, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    recognized = recognizer.recognize([image], squeeze=1.0)
    if not recognized or not recognized[0].text:
        return None
    found = recognized[0]
    chars = found.char_confidences if len(found.char_confidences) == len(found.text) else (found.confidence,) * len(found.text)
    return found.text, tuple(chars)


def size_read_mended(text: str) -> str:
    """A 号型 read with a letter where its height or chest figure has a digit of that shape ('175/B4A': 8 read as
    B) mended there only, and one whose girth runs on into a figure no girth has ('180/1048', '165/888': the body
    type B read as 8, A as 4) ending in that letter; the same length, so character confidences still line up."""
    def body(match: re.Match) -> str:
        height, girth, last = match.groups()
        if len(girth + last) <= 3 and int(girth + last) <= MAX_GIRTH:
            return match.group(0)  # a girth that may be printed so: its last figure is a digit
        return f"{height}/{girth}{_BODY_READ_AS_DIGIT[last]}"

    return _GIRTH_RUN_ON.sub(body, hao_xing.digits_mended(halfwidth(text).upper()))


def _token_confidence(text: str, chars: Sequence[float], token: str) -> tuple[float, float]:
    """The recognizer's weakest and mean character of the size itself (a check box read beside it is not the size)."""
    start = halfwidth(text).upper().find(token)
    span = chars[start : start + len(token)] if start >= 0 else chars
    return (float(min(span)), float(np.mean(span))) if len(span) else (0.0, 0.0)
