"""The read stage of a tag: its printed lines found in the upright crop, cut out and recognized,
and the boxes of one row joined into lines.

The detector splits a line at wide gaps (a full-width colon, the groups of an EAN's digits); boxes
on one row are joined after recognition. What a decoded symbol already carries is not read twice.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from difflib import SequenceMatcher

import cv2
import numpy as np

from inference.detections import centre_inside, intersection
from inference.reading.columns import is_column, lying_crop, stacked_columns
from inference.reading.fields import label_only
from inference.reading.lines import (Box, SymbolZone, Wall, group_rows, merge_overlapping, split_print_sizes, split_tall, text_height,
                                     trim_to_neighbours, union)
from inference.reading.normalize import code_key
from inference.reading.ocr.detector import TextDetector
from inference.reading.ocr.recognizer import Recognized, TextRecognizer
from inference.reading.outline import Outline
from inference.reading.reading_order import labels_over_values
from inference.reading.rectify import Upright, level_by_lines, residual_skew
from inference.reading.seals import seal_areas, without_seal_ink
from inference.reading.spotting import Posteriors
from inference.reading.types import OcrLine
from inference.reading.verdict import SMALL_TEXT_PX

# Room left at each end of a line crop, as a share of the line's height.
LINE_END_PAD = 0.3  # 0.1 cost 4 points of OK on 60 independent tags
# Lines shorter than this (pixels) are enlarged 2x for the second read.
REREAD_MIN_HEIGHT = 32
# Lines lower than this (pixels) are resampled from the frame at this height for the first read.
SMALL_PRINT_PX = 32
# A text box is on the tag's paper when its centre lies within its outline grown by this share of its size.
PAPER_SLACK = 0.04
# A tag no barcode orients is read both ways on this many of its longest lines to tell which way is up.
ORIENTATION_LINES = 6
# Where the stock recognizer reads those lines less than this much more surely (mean confidence) one way up than the
# other, the small-print recognizer is asked too (`reads_upside_down`): on 69 tags no code oriented (six sets,
# 2026-12-05) the tags it turned wrong were 0.002-0.072 apart, and where the stock reads were 0.1 or more apart adding
# the small-print recognizer's margin changed no decision. Above it the stock reads decide alone, as they always did.
ORIENTATION_DOUBT = 0.1
# Text boxes this many times longer one way than the other are lines; with at least MIN_STANDING_LINES of
# them taller than wide (two where none lies), STANDING_RATIO times as long in all as those lying, the crop's
# lines stand on end.
LINE_ASPECT = 1.5
MIN_STANDING_LINES = 3
FEW_LINES_ASPECT = 2.0
STANDING_RATIO = 2.0
# The lines the text detector found, still this many degrees aslant measured by their own print alone (nothing
# round the tag, no ruled sheet or receipt under it, can speak there) and clearly sharper level: the crop is
# levelled again by them and its lines found anew. At least this many lines. Below 2.5° a second warp changed
# good reads about as often as it mended them (twelve sets, 2026-12-03: at 1.5-2°, 4 worse and none better;
# at 3-10°, 6 better and 1 worse); a lean that small costs a line little.
FOUND_SKEW_DEG = 2.5
FOUND_SKEW_GAIN = 1.1
MIN_FOUND_LINES = 3
# A tag whose text detector finds fewer lines than this may carry print too faint for it (foil turned from the
# lamp on dark card, print under a polybag's haze): its lines are found again in the crop with its contrast levelled
# tile by tile, and those are kept where they are at least this many (a tag's worth, never a stray line or two).
FAINT_PRINT_LINES = 6


def _ms(start_ns: int) -> float:
    return (time.perf_counter_ns() - start_ns) / 1e6


@dataclass(frozen=True)
class Pieces:
    """What one read of a tag found: text boxes (upright-crop pixels), their crops, their reads."""

    boxes: tuple[Box, ...]
    crops: tuple[np.ndarray, ...]
    recognized: tuple[Recognized, ...]


@dataclass(frozen=True)
class LineCrops:
    """The text boxes of one tag (upright-crop pixels) and their crops, kept for a second read."""

    boxes: tuple[Box, ...]
    crops: tuple[np.ndarray, ...]
    walls: tuple[Wall, ...] = ()  # the rules printed between them: rows are joined as `join_rows` joined them


@dataclass(frozen=True)
class LinesRead:
    """One read of a tag: its lines, the upright crop they were read in (turned if the lines said
    so), and the time text detection and recognition took."""

    pieces: Pieces
    upright: Upright
    det_ms: float
    rec_ms: float
    stood: bool = False  # the lines stood on end in the crop the codes gave: it was turned a quarter


# Given the lines of a read (upright-crop pixels, after what the symbols carry is dropped) and the crop
# they are in, the indices of the lines whose reads will be used (see read_lines' `needed`).
Needed = Callable[[Sequence[Box], Upright], Collection[int]]
# What a line nobody will use is left as: never recognized, and never kept by whoever asked for it.
UNREAD = Recognized("", 0.0, ())


def read_lines(detector: TextDetector, recognizer: TextRecognizer, upright: Upright, zones: Sequence[SymbolZone],
               ambiguous: bool, vocabulary: str = "", read_printed_ean: bool = False, needed: Needed | None = None,
               paper: Outline | None = None, small_print: TextRecognizer | None = None) -> LinesRead:
    """Detect the tag's text lines in its upright crop and recognize them in a few batched calls.
    With top and bottom unknown (`ambiguous`), its longest lines are read both ways first, and the
    crop is turned if they read better upside down (`reads_upside_down`: by `recognizer` and, where given, the print
    stands lower than SMALL_TEXT_PX and the stock reads are within ORIENTATION_DOUBT, the `small_print` recognizer
    too). With the tag's `paper` outline known,
    lines off it (a printed sheet's beside the tag, in the box's corners) are not the tag's, and are not read.

    `needed` (a second read of a tag that only adds to the first) names the lines whose reads will
    be used, from the lines' boxes: the others are not recognized and come back as `UNREAD`. Every
    line that is read reads exactly as it would with all of them read (`recognize_only`)."""
    t = time.perf_counter_ns()
    found = detector.detect(upright.image)
    stood = standing(found)
    if stood:
        # the lines stand on end: the code that turned the tag runs up its side; which end is up, the lines say
        upright, zones, ambiguous = upright.quarter_turned(), [_quarter_zone(z, upright.image.shape[0]) for z in zones], True
        upright, zones = _level_lying(upright, zones, paper)
        found = detector.detect(upright.image)
    again = _level_by_found(upright, zones, [box for box, _score in found])
    if again is not None:
        upright, zones = again
        found = detector.detect(upright.image)
    seals = seal_areas(upright.image)
    if seals:
        # a red seal pressed over the print: its ink lifted, the lines under it are found whole and read without it
        upright = replace(upright, image=without_seal_ink(upright.image))
        found = detector.detect(upright.image)
    found = with_faint_print(detector, upright.image, found)
    boxes = trim_to_neighbours(merge_overlapping([box for box, _score in found]))
    if paper is not None:
        boxes = on_paper(boxes, upright.to_upright_points(paper.corners))
    gray = cv2.cvtColor(upright.image, cv2.COLOR_BGR2GRAY)
    pieces = stacked_columns(split_print_sizes(split_tall(boxes, gray), gray))
    det_ms = _ms(t)

    t = time.perf_counter_ns()
    image = upright.image
    boxes = [_widened(line, image.shape[1], image.shape[0]) for line, _crop in pieces]
    crop_boxes = [_widened(crop, image.shape[1], image.shape[0]) for _line, crop in pieces]
    crops = [_column_crop(upright, b) if is_column(b) else upright.line_crop(b, SMALL_PRINT_PX) for b in crop_boxes]
    if seals:  # small print is resampled from the frame, where the seal still is
        crops = [without_seal_ink(c) if any(intersection(b, seal) > 0 for seal in seals) else c for c, b in zip(crops, crop_boxes)]
    keep = [i for i, c in enumerate(crops) if c.shape[0] >= 4 and c.shape[1] >= 4]
    boxes = [boxes[i] for i in keep]
    crops = [crops[i] for i in keep]
    in_zone = [_zone_of(box, zones, read_printed_ean) for box in boxes]
    if ambiguous and crops:
        # which way up, from the longest lines read both ways; then the rest, that way only
        turned = [np.ascontiguousarray(c[::-1, ::-1]) for c in crops]
        probe = sorted(range(len(crops)), key=lambda i: -crops[i].shape[1])[:ORIENTATION_LINES]
        both = recognizer.recognize([crops[i] for i in probe] + [turned[i] for i in probe], vocabulary=vocabulary)
        as_is, upside_down = both[: len(probe)], both[len(probe) :]
        # a second opinion where the print stands lower than the station reads surely (what the verdict calls too small)
        # and the stock reads hardly tell up from down
        small = small_print if small_print is not None and (text_height(boxes) or 0.0) < SMALL_TEXT_PX else None
        asked = small is not None and abs(_mean_conf(as_is) - _mean_conf(upside_down)) < ORIENTATION_DOUBT
        second = small.recognize([crops[i] for i in probe] + [turned[i] for i in probe]) if asked else ()
        flip = reads_upside_down(as_is, upside_down, second[: len(probe)], second[len(probe) :])
        if flip:
            hh, ww = image.shape[:2]
            upright = upright.flipped()
            boxes = [(ww - b[2], hh - b[3], ww - b[0], hh - b[1]) for b in boxes]
            crops = turned
        done = dict(zip(probe, upside_down if flip else as_is))
    else:
        done = {}
    rest = [i for i in range(len(crops)) if i not in done]
    rest_crops = [crops[i] for i in rest]
    if needed is None:
        done.update(zip(rest, recognizer.recognize(rest_crops, vocabulary=vocabulary)))
    else:
        # the lines over a symbol first: whether they stay depends on what they say
        over_symbols = [k for k, i in enumerate(rest) if in_zone[i] is not None]
        done.update((rest[k], rec) for k, rec in recognizer.recognize_only(rest_crops, over_symbols, vocabulary=vocabulary).items())
    # what a decoded symbol already carries (its digits, a Code128 caption) is not read twice; a
    # price or a name above the bars, inside a loose symbol box, is kept
    kept = [i for i in range(len(crops)) if in_zone[i] is None or not carried(done[i].text, in_zone[i])]
    if needed is not None:
        wanted = {kept[k] for k in needed([boxes[i] for i in kept], upright)}
        later = [k for k, i in enumerate(rest) if i in wanted and i not in done]
        done.update((rest[k], rec) for k, rec in recognizer.recognize_only(rest_crops, later, vocabulary=vocabulary).items())
    recognized = [done.get(i, UNREAD) for i in range(len(crops))]
    pieces = Pieces(tuple(boxes[i] for i in kept), tuple(crops[i] for i in kept), tuple(recognized[i] for i in kept))
    return LinesRead(pieces, upright, det_ms, _ms(t), stood)


def with_faint_print(detector: TextDetector, image: np.ndarray, found: list[tuple[Box, float]]) -> list[tuple[Box, float]]:
    """The lines found in a tag's crop, or, where they are few, those found again with the crop's contrast levelled
    locally (CLAHE on its grey): print only a few levels off its stock, which the detector passes over, stands out
    there as print does elsewhere. Recognition still reads the frame's own pixels; only where lines are changes.
    The levelled lines are kept only where they are a tag's worth and more than were found."""
    if len(found) >= FAINT_PRINT_LINES or image.size == 0:
        return found
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    levelled = cv2.createCLAHE(clipLimit=3.0, tileGridSize=(4, 4)).apply(gray)
    again = detector.detect(cv2.cvtColor(levelled, cv2.COLOR_GRAY2BGR))
    return again if len(again) >= FAINT_PRINT_LINES and len(again) > len(found) else found


def standing(found: Sequence[tuple[Box, float]]) -> bool:
    """Whether the text boxes found in an upright crop stand on end: at least MIN_STANDING_LINES boxes a line's
    shape (LINE_ASPECT times longer one way) are taller than wide, and as long in all as STANDING_RATIO times
    the lines lying level. A tag turned upright by a code printed up its side (bars across its short edge) has
    its lines standing; a tag read the right way has none, or a stray narrow glyph."""
    tall = [y2 - y1 for (x1, y1, x2, y2), _score in found if y2 - y1 >= LINE_ASPECT * (x2 - x1)]
    wide = [x2 - x1 for (x1, y1, x2, y2), _score in found if x2 - x1 >= LINE_ASPECT * (y2 - y1)]
    if sum(tall) < STANDING_RATIO * sum(wide):
        return False
    # a tag that prints little (a brand and a slogan on its back) has fewer lines: two standing and none lying,
    # each clearly a line (big square glyphs alone are not)
    lines = [y2 - y1 for (x1, y1, x2, y2), _score in found if y2 - y1 >= FEW_LINES_ASPECT * (x2 - x1)]
    return len(tall) >= MIN_STANDING_LINES or (len(lines) >= 2 and not wide)


def _quarter_zone(zone: SymbolZone, height: int) -> SymbolZone:
    """A symbol zone of an upright crop `height` px tall, in that crop turned a quarter clockwise."""

    def turned(box: Box | None) -> Box | None:
        return None if box is None else (height - box[3], box[0], height - box[1], box[2])

    return replace(zone, bars=turned(zone.bars), text=turned(zone.text))


def on_paper(boxes: Sequence[Box], corners: np.ndarray) -> list[Box]:
    """The text boxes whose centres lie on the tag's paper (its outline's `corners` in the same pixels, widened
    by PAPER_SLACK of its size: an outline found a little inside the paper's edge keeps what is printed there)."""
    centre = corners.mean(axis=0)
    polygon = (centre + (corners - centre) * (1.0 + PAPER_SLACK)).astype(np.float32).reshape(-1, 1, 2)
    return [box for box in boxes if cv2.pointPolygonTest(polygon, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), False) >= 0]


def _level_lying(upright: Upright, zones: Sequence[SymbolZone], paper: Outline | None = None) -> tuple[Upright, list[SymbolZone]]:
    """A crop turned a quarter to lay its standing lines down, levelled by those lines now they lie.
    The first levelling saw them standing and measured them across rows, where columns of glyphs give a
    false tilt (6.5° on a tag with its code up the side: the lines then joined their neighbours)."""
    level = level_by_lines(upright, _symbol_areas(zones), None if paper is None else paper.corners)
    if level is upright:
        return upright, list(zones)
    return level, _zones_moved(zones, upright, level)


def _symbol_areas(zones: Sequence[SymbolZone]) -> list[Box]:
    """Where the decoded symbols' bars and captions lie: kept out of a levelling."""
    return [area for z in zones for area in (z.bars, z.text) if area is not None]


def _zones_moved(zones: Sequence[SymbolZone], before: Upright, after: Upright) -> list[SymbolZone]:
    """The symbol zones of crop `before` at the same frame pixels in crop `after`."""
    def moved(box: Box | None) -> Box | None:
        return None if box is None else after.box_from(before, box)

    return [replace(z, bars=moved(z.bars), text=moved(z.text)) for z in zones]


def _level_by_found(upright: Upright, zones: Sequence[SymbolZone], boxes: Sequence[Box]) -> tuple[Upright, list[SymbolZone]] | None:
    """The crop levelled again by the print inside the lines the text detector found, where they still lie
    aslant: the levelling before them measured all the crop's ink, and what lies round a tag (a ruled sheet, a
    receipt's rows) can outweigh a small tag's own lines. None where they lie level (or too few to say)."""
    if len(boxes) < MIN_FOUND_LINES:
        return None
    skew, gain = residual_skew(cv2.cvtColor(upright.image, cv2.COLOR_BGR2GRAY), exclude=_symbol_areas(zones), within=boxes)
    if abs(skew) < FOUND_SKEW_DEG or gain < FOUND_SKEW_GAIN:
        return None
    level = upright.turned_by(skew)
    if level is upright:
        return None
    return level, _zones_moved(zones, upright, level)


def _zone_of(box: Box, zones: Sequence[SymbolZone], read_printed_ean: bool = False) -> SymbolZone | None:
    """The decoded symbol whose bars or caption band a line sits in (an EAN's caption is
    read too when the reader is asked to)."""
    for zone in zones:
        for area in (zone.bars, zone.text):
            if area is not None and centre_inside(box, area):
                return None if (zone.kind == "ean" and read_printed_ean) else zone
    return None


_CODE_TEXT = re.compile(r"^[0-9A-Za-z\-\s./*<>|:'\"]*$")


_PRICE_TEXT = re.compile(r"RMB|CNY|\d\.\d{2}\b", re.IGNORECASE)


def _code_like(text: str) -> bool:
    """Text a symbol carries (digits, a code, bar slivers read as letters), not words or a price."""
    return bool(_CODE_TEXT.match(text.strip())) and not _PRICE_TEXT.search(text)


_SLIVERS = re.compile(r"^[\sIl1|!i:;'\".,\-_()\[\]{}/\\]*$")


def carried(text: str, zone: SymbolZone) -> bool:
    """Whether a line read over a decoded symbol is the symbol itself: bars read as slivers, or its
    caption (the digits or code it decoded to, misread a little). Anything on a QR code is. A
    symbol's box drawn loose around a turned tag takes in its neighbours: a size printed in a box
    beside the bars is not the symbol's, and stays."""
    if zone.kind == "matrix":
        return True
    if not _code_like(text):
        return False
    if _SLIVERS.match(text) or not zone.carries:
        return True
    key, carried = code_key(text), code_key(zone.carries)
    digits = "".join(ch for ch in key if ch.isdigit())
    if len(digits) >= 4 and digits in carried:
        return True
    return key in carried or SequenceMatcher(None, key, carried).find_longest_match().size >= max(3, 0.6 * len(key))



def _column_crop(upright: Upright, box: Box) -> np.ndarray:
    """A column's crop (`columns`), lying, its glyphs as wide as a small line is high at least."""
    return lying_crop(upright.line_crop(box, int(np.ceil(SMALL_PRINT_PX * (box[3] - box[1]) / (box[2] - box[0])))))


def _widened(box: Box, width: int, height: int) -> Box:
    """A line box with room at both ends: DB's box can stop at the last stroke, and the
    recognizer drops a character that touches the crop's edge ('160/84Y' read '160/84'). A column's ends are its
    top and bottom (its first glyph was dropped: vertical_name 000072's 男式休闲裤 read 式休闲裤)."""
    x1, y1, x2, y2 = box
    if is_column(box):
        pad = LINE_END_PAD * (x2 - x1)
        return (x1, max(0.0, y1 - pad), x2, min(float(height), y2 + pad))
    pad = LINE_END_PAD * (y2 - y1)
    return (max(0.0, x1 - pad), y1, min(float(width), x2 + pad), y2)


def enlarged(crop: np.ndarray) -> np.ndarray:
    """A line crop for the second read: small print enlarged with a sharp kernel and its edges
    restored (the recognizer's own bilinear scaling smears 8-px strokes)."""
    if crop.shape[0] >= REREAD_MIN_HEIGHT:
        return crop
    big = cv2.resize(crop, None, fx=2.0, fy=2.0, interpolation=cv2.INTER_CUBIC)
    return cv2.addWeighted(big, 1.5, cv2.GaussianBlur(big, (0, 0), 1.6), -0.5, 0)


def join_rows(boxes: Sequence[Box], recognized: Sequence[Recognized], walls: Sequence[Wall] = ()) -> list[OcrLine]:
    """Boxes on one row become one line (the detector splits at wide gaps), unless a printed rule
    stands between them (`walls`); upright-crop pixels. A label alone is followed by the line printed
    under it (`reading_order`). A column (`columns`) is a line of its own, before the rows: standing beside
    them, it would part a row it overlaps (its middle falls between a label's and its value's) and take a
    label's place as the line after it; a column that reads as a label alone says nothing of its own."""
    lying = [i for i, box in enumerate(boxes) if not is_column(box)]
    rows = [[lying[k] for k in row] for row in group_rows([boxes[i] for i in lying], walls=walls)]
    columns = [join_row(boxes, recognized, [i]) for i, box in enumerate(boxes) if is_column(box)]
    lines = (join_row(boxes, recognized, row) for row in rows)
    return ([line for line in columns if line is not None and label_only(line.text) is None]
            + labels_over_values([line for line in lines if line is not None]))


def join_row(boxes: Sequence[Box], recognized: Sequence[Recognized], row: Sequence[int]) -> OcrLine | None:
    """One row of `group_rows(boxes)` as a line, or None where none of its boxes read as anything."""
    parts = [recognized[i] for i in row if _worth_keeping(recognized[i])]
    if not parts:
        return None
    text = " ".join(p.text for p in parts)
    chars: list[float] = []
    alternatives: list[str] = []
    for k, p in enumerate(parts):
        if k:
            chars.append(1.0)
            alternatives.append("")
        chars.extend(p.char_confidences or [p.confidence] * len(p.text))
        alternatives.extend(p.alternatives or [""] * len(p.text))
    confidence = float(np.mean([p.confidence for p in parts]))
    return OcrLine(
        text,
        confidence,
        union([boxes[i] for i in row]),
        tuple(chars) if len(chars) == len(text) else (),
        tuple(alternatives) if len(alternatives) == len(text) else (),
        Posteriors.concat([p.posteriors for p in parts]),
    )


def without_posteriors(lines: Sequence[OcrLine]) -> tuple[OcrLine, ...]:
    return tuple(replace(line, posteriors=None) if line.posteriors is not None else line for line in lines)


def _worth_keeping(rec: Recognized) -> bool:
    """A punched hole or a speck reads as 'o' or '.' at almost no confidence."""
    text = rec.text.strip()
    return bool(text) and not (len(text) <= 2 and rec.confidence < 0.5)


def reads_upside_down(as_is: Sequence[Recognized], turned: Sequence[Recognized],
                      small_as_is: Sequence[Recognized] = (), small_turned: Sequence[Recognized] = ()) -> bool:
    """Whether a tag's longest lines read better turned half a turn: by how much more surely the stock recognizer
    reads them one way than the other, plus the same for the small-print recognizer where it read them too. Print
    of 6-9 px is below what the stock recognizer resolves: it reads garbage either way up, nearly as surely (0.00-0.07
    apart on the tags it turned upside down), while the small-print recognizer, trained on such lines, reads them
    upright 0.13-0.38 more surely (69 tags no code oriented, six sets: the two together turned the four read upside
    down right and none of the others wrong; BENCHMARKS.md, twenty-ninth session). Where it did not read them (no
    small-print recognizer), the stock recognizer decides alone."""
    margin = _mean_conf(as_is) - _mean_conf(turned)
    if small_as_is and small_turned:
        margin += _mean_conf(small_as_is) - _mean_conf(small_turned)
    return margin < 0


def _mean_conf(results: Sequence[Recognized]) -> float:
    total = sum(max(1, len(r.text)) for r in results)
    return sum(r.confidence * max(1, len(r.text)) for r in results) / total if total else 0.0
