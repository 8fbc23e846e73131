"""The match stage of a tag: its reading held against a recipe, and read again where it leaves a
field in doubt, before anyone judges.

The recipe says what must be printed; the reader looks for evidence of it: in the first read's
lines, in the recognizer's posteriors, then in a second read of the lines another way (all but those a
matched field stands on) and of the regions a taught recipe marks; then in looks that can only confirm
it: cents printed small and raised, a value beside a label the text detector boxed alone, and the
small-print recognizer's read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from decimal import Decimal

import cv2
import numpy as np

from inference.reading import hao_xing
from inference.reading.beside_labels import label_alone, read_beside_labels
from inference.reading.evidence import FieldEvidence, gather, run_like, size_run
from inference.reading.expected import spot_fields, spot_printed_ean
from inference.reading.labels import split_labeled
from inference.reading.letter_sizes import letter_sizes, size_tokens
from inference.reading.lines import group_rows, union
from inference.reading.reading_order import labels_over_values
from inference.reading.matching import Found
from inference.reading.normalize import halfwidth, parse_price
from inference.reading.ocr.detector import TextDetector
from inference.reading.ocr.recognizer import TextRecognizer
from inference.reading.raised_cents import has_raised_cents
from inference.reading.recipe import FieldRule, Recipe
from inference.reading.rectify import Upright
from inference.reading.size_marks import marked_size
from inference.reading.struck_prices import amounts_in, strike, struck_amounts
from inference.reading.summary import summarize
from inference.reading.text_lines import LineCrops, enlarged, join_row, join_rows, without_posteriors
from inference.reading.types import OcrLine, TagReading

# The second read of lines a field is in doubt on: unsqueezed, so repeated digits keep their steps.
REREAD_SQUEEZE = 1.0
# A taught region is read with this margin (share of its size) and enlarged towards this height.
REGION_MARGIN = 0.25
REGION_TEXT_HEIGHT = 96
# A row that reads as nothing but sizes, boxes before them and spaces (the recognizer may join 'XXL3XL').
_RUN_TEXT = re.compile(r"^[\sXSMLxsml0-9/ABYaby()□■☑☐✓√口]+$")
# Cents printed small and raised, read at least this surely each, count as read (the yuan carry the price's
# confidence).
RAISED_CENTS_MIN_CONFIDENCE = 0.5
# A matched field's value this long, read inside a line, places the field on that line.
MIN_VALUE_CHARS = 4
# A Latin glyph is about this share of a line's height wide (a CJK glyph the whole of it).
NARROW_GLYPH = 0.55
# A letter size read from glyphs turned back a quarter counts at this confidence or more.
TURNED_SIZE_CONFIDENCE = 0.8
# A line may hold this many characters besides a matched field's label and value and still be that field's alone.
GLUE_SLACK_CHARS = 4


def verify(tag: TagReading, recipe: Recipe, crops: LineCrops, upright: Upright, detector: TextDetector,
           recognizer: TextRecognizer, vocab: str = "", rereader: TextRecognizer | None = None,
           stood: bool = False) -> TagReading:
    """Fields in doubt after the first read are looked for in the lines' own posteriors
    (spotting.py); those still in doubt get a second read of the lines another way (no
    squeeze: a narrowed '399' loses a 9), spotted again; the tag then shows what the evidence
    says. A line a matched field was found on, and no field in doubt, is not read again. The
    posteriors are dropped when done: they serve verification only. Fields still in doubt after that are read once
    more by `rereader` where given (the recognizer fine-tuned for small print): evidence that a field is printed as
    expected, never that it differs, so the fine-tune can settle a doubt but never make a difference (where it reads
    every character of a difference otherwise, the difference is held in doubt: evidence.py).
    On a tag read turned a quarter (`stood`: its lines stood on end), a letter size is also read from its glyphs
    turned back (`_with_turned_sizes`)."""
    tag = _with_marked_size(tag, recipe, crops, upright, recognizer)
    tag = _with_struck_prices(tag, recipe, crops, upright)
    if stood:
        tag = _with_turned_sizes(tag, recipe, crops, upright, recognizer)
    evidence = gather(recipe, tag)
    doubtful = [rule for rule in recipe.fields if evidence[rule.name].found is not Found.MATCH]
    if not any(b.format == "EAN-13" for b in tag.barcodes):
        tag = replace(tag, spotted=spot_printed_ean(recipe, tag.ocr_lines))
    if doubtful:
        tag = replace(tag, spotted=tag.spotted + spot_fields(doubtful, tag.ocr_lines))
        evidence = gather(recipe, tag)
        doubtful = [rule for rule in doubtful if evidence[rule.name].found is not Found.MATCH]
    if doubtful:
        reread = _second_read(crops, tag, upright, detector, recognizer, evidence, doubtful, vocab)
        # a value printed in units (a composition over three lines) may show each unit in either read
        more = spot_fields(doubtful, [*tag.ocr_lines, *reread], rivals_too=True)
        tag = replace(tag, reread_lines=tuple(replace(line, box=upright.to_image_box(line.box)) for line in reread),
                      spotted=tag.spotted + more)
        evidence = gather(recipe, tag)
        doubtful = [rule for rule in doubtful if evidence[rule.name].found is not Found.MATCH]
        price = next((rule for rule in doubtful if rule.name == "price" and rule.expected), None)
        if price is not None and crops.crops:
            tag = _with_raised_cents(tag, price, crops, upright)
            evidence = gather(recipe, tag)
            doubtful = [rule for rule in doubtful if evidence[rule.name].found is not Found.MATCH]
        if doubtful and crops.crops:
            tag = _with_values_beside_labels(tag, [rule.name for rule in doubtful], crops, upright, detector, recognizer, vocab)
            evidence = gather(recipe, tag)
            doubtful = [rule for rule in doubtful if evidence[rule.name].found is not Found.MATCH]
        if doubtful and rereader is not None:
            # the small-print recognizer's read: it may show a doubted field printed as expected (its lines and
            # posteriors), never a difference (no rivals asked; evidence.py leaves its lines out of differences)
            small = _second_read(crops, tag, upright, detector, rereader, evidence, doubtful, vocab)
            tag = replace(tag, small_print_lines=tuple(replace(line, box=upright.to_image_box(line.box)) for line in small),
                          spotted=tag.spotted + spot_fields(doubtful, small))
            evidence = gather(recipe, tag)
    tag = replace(tag, ocr_lines=without_posteriors(tag.ocr_lines), reread_lines=without_posteriors(tag.reread_lines),
                  small_print_lines=without_posteriors(tag.small_print_lines),
                  confirm_only_lines=without_posteriors(tag.confirm_only_lines))
    fields = dict(tag.fields)
    for name, found in evidence.items():
        reading = found.reading()
        if reading is not None:
            fields[name] = reading
    return replace(tag, fields=fields, summary=summarize(fields, tag.barcodes))


def _second_read(crops: LineCrops, tag: TagReading, upright: Upright, detector: TextDetector, recognizer: TextRecognizer,
                 evidence: Mapping[str, FieldEvidence], doubtful: Sequence[FieldRule], vocab: str) -> list[OcrLine]:
    """The tag's lines read again by `recognizer` (all but those a matched field stands on), and the regions a
    taught recipe marks for the fields in doubt."""
    lines: list[OcrLine] = []
    if crops.crops:  # every line but a matched field's: rereading only the unsure or numeric ones cost 4 points of OK on 60 tags
        lines.extend(_read_again(crops, tag.ocr_lines, upright, recognizer, evidence, doubtful, vocab))
    lines.extend(_read_regions(detector, recognizer, upright, [rule.region for rule in doubtful if rule.region is not None], vocab))
    return lines


def _with_values_beside_labels(tag: TagReading, names: Sequence[str], crops: LineCrops, upright: Upright,
                               detector: TextDetector, recognizer: TextRecognizer, vocab: str) -> TagReading:
    """Fields in doubt where the detector boxed their label alone: the strip beside the label searched for a value
    the detector missed (beside_labels.py; 'label alone takes the next line' may have given the field another
    line's text). Evidence of the expected value only."""
    rows = group_rows(crops.boxes, walls=crops.walls)
    first = _first_reads(rows, crops, tag.ocr_lines, upright)
    found = read_beside_labels(upright.image, crops.boxes, rows, first, names, detector, recognizer, vocab)
    if not found:
        return tag
    lines = tuple(replace(line, box=upright.to_image_box(line.box)) for line in found)
    notes = tuple(f"read beside its label, where the text detector had boxed the label alone: {line.text}" for line in found)
    return replace(tag, confirm_only_lines=tag.confirm_only_lines + lines, notes=tag.notes + notes)


def _with_raised_cents(tag: TagReading, rule: FieldRule, crops: LineCrops, upright: Upright) -> TagReading:
    """A price read as the expected yuan run on into its cents ('¥1099.00' read '109900'), where the line's
    print shows the cents small and raised (raised_cents.py): the expected price, evidence one way only."""
    amount = parse_price(rule.expected or "")
    if amount is None:
        return tag
    yuan, cents = f"{amount:.2f}".split(".")
    run_on = re.compile(rf"(?<!\d){yuan}{cents}(?!\d)")
    rows = group_rows(crops.boxes, walls=crops.walls)
    first = _first_reads(rows, crops, tag.ocr_lines, upright)
    for k, line in first.items():
        found = run_on.search(line.text)
        if found is None:
            continue
        if any(has_raised_cents(crops.crops[i]) for i in rows[k]):
            box = upright.to_image_box(union([crops.boxes[i] for i in rows[k]]))
            chars = line.char_confidences[found.start() : found.end()] if len(line.char_confidences) == len(line.text) else ()
            if chars and min(chars[len(yuan):]) < RAISED_CENTS_MIN_CONFIDENCE:
                continue  # small print read as a guess: the cents could be any
            # the yuan are the price's evidence; the cents, small and raised, read less surely
            price = OcrLine(f"¥{yuan}.{cents}", min(chars[: len(yuan)]) if chars else line.confidence, box)
            note = f"price {line.text} read as ¥{yuan}.{cents}: its last two digits are printed small and raised (cents)"
            return replace(tag, confirm_only_lines=tag.confirm_only_lines + (price,), notes=tag.notes + (note,))
    return tag


# A price line is measured for a strike with this share of its height beyond each end of its text box.
STRIKE_SIDE_MARGIN = 0.5
_PRICE_LIKE = re.compile(r"\d[.．]\d{2}(?!\d)|[¥￥]\s*\d|\d\s*元")


def _with_struck_prices(tag: TagReading, recipe: Recipe, crops: LineCrops, upright: Upright) -> TagReading:
    """Where the recipe expects a price and the tag prints two or more, the amounts struck through (struck_prices.py):
    a markdown's old price, never the price charged now."""
    rule = next((r for r in recipe.fields if r.name == "price"), None)
    if rule is None or rule.expected is None or not crops.boxes:
        return tag
    if sum(len(_PRICE_LIKE.findall(line.text)) for line in tag.ocr_lines) < 2:
        return tag
    rows = group_rows(crops.boxes, walls=crops.walls)
    first = _first_reads(rows, crops, tag.ocr_lines, upright)
    gray = upright.image if upright.image.ndim == 2 else cv2.cvtColor(upright.image, cv2.COLOR_BGR2GRAY)
    found: list[Decimal] = []
    struck_lines, unstruck_lines = [], []
    for k, line in first.items():
        if not _PRICE_LIKE.search(line.text):
            continue
        box = union([crops.boxes[i] for i in rows[k]])
        side = max(2, int(STRIKE_SIDE_MARGIN * (box[3] - box[1])))  # a text box may cut the struck amount's end off
        x0, y0 = max(0, int(box[0]) - side), max(0, int(box[1]) - 2)
        x1, y1 = min(gray.shape[1], int(np.ceil(box[2])) + side), min(gray.shape[0], int(np.ceil(box[3])) + 2)
        if x1 - x0 < 12 or y1 - y0 < 6:
            continue
        line_strike = strike(gray[y0:y1, x0:x1])
        amounts = [] if line_strike is None else struck_amounts(line.text, box, [(x0 + line_strike.x0, x0 + line_strike.x1)])
        (struck_lines if amounts else unstruck_lines).append(line)
        found += amounts
    if not found:
        return tag
    # the struck line is struck whatever a read makes of it: where its own posteriors allow the recipe's price and no
    # unstruck line shows that price, the recipe names the struck one ('原价4999.00' read for 原价 ¥999.00, struck)
    expected = parse_price(rule.expected)
    if expected not in found and not any(expected in amounts_in(line.text) for line in unstruck_lines) \
            and any(s.expected == rule.expected for s in spot_fields([rule], struck_lines)):
        found.append(expected)
    note = "struck through, not the price charged: " + ", ".join(f"¥{a:.2f}" for a in found)
    return replace(tag, struck_prices=tuple(found), notes=tag.notes + (note,))


def _with_marked_size(tag: TagReading, recipe: Recipe, crops: LineCrops, upright: Upright,
                      recognizer: TextRecognizer) -> TagReading:
    """Where the recipe expects a size and the tag prints a run of sizes, the entry the run marks, read on its own."""
    rule = next((r for r in recipe.fields if r.name == "size"), None)
    if rule is None or rule.expected is None or not crops.crops or not (size_run(tag.ocr_lines) or run_like(tag.ocr_lines)):
        return tag
    rows = group_rows(crops.boxes, walls=crops.walls)
    first = _first_reads(rows, crops, tag.ocr_lines, upright)
    spans = {k: union([crops.boxes[i] for i in row]) for k, row in enumerate(rows)}
    named = [k for k, line in first.items() if size_tokens(line.text)]
    more = {k for k, line in first.items() if k not in named and _RUN_TEXT.match(line.text) and _continues_run(spans, named, k)}
    run = sorted(set(named) | more)
    expected = size_tokens(rule.expected)
    letter = None if len(expected) != 1 else hao_xing.parse(expected[0]) is None  # the system the recipe names
    found = marked_size(upright.image, [spans[k] for k in run], recognizer, letter, ruled=bool(crops.walls),
                        reads=[first[k].text if k in first else "" for k in run])
    if found is None:
        return tag
    note = f"size run: the marked entry of {found.entries} reads {found.read} ({found.confidence:.0%})"
    return replace(tag, marked_size=found, notes=tag.notes + (note,))


def _with_turned_sizes(tag: TagReading, recipe: Recipe, crops: LineCrops, upright: Upright,
                       recognizer: TextRecognizer) -> TagReading:
    """A tag set in vertical columns (竖排) is read turned a quarter, its characters on their sides, which the
    recognizer reads; but a size of one or two letters is set across the column (纵中横: 'XS' upright among the
    column's characters), so in the turned line it alone lies on its side, and reads as another ('XS' read 'S',
    surely). Where the recipe expects a letter size, the part of each line from its letter size on is read again
    turned back a quarter, each way: what reads as another letter size there, surely and nothing else, is kept for
    the verdict (`TagReading.turned_sizes`). Only the size's own line counts, after its label (fourth 000038: a
    logo's initial M, a letter alone, read M turned too, and made a tag of XL doubt)."""
    rule = next((r for r in recipe.fields if r.name == "size"), None)
    if rule is None or rule.expected is None or not letter_sizes(rule.expected):
        return tag
    rows = group_rows(crops.boxes, walls=crops.walls)
    found: list[str] = []
    for k, line in _first_reads(rows, crops, tag.ocr_lines, upright).items():
        if len(rows[k]) == 1:
            found += other_sizes_turned(crops.crops[rows[k][0]], line.text, recognizer)
    if not found:
        return tag
    sizes = tuple(dict.fromkeys(found))
    note = f"size read from its glyphs turned a quarter (set across a vertical column): {', '.join(sizes)}"
    return replace(tag, turned_sizes=sizes, notes=tag.notes + (note,))


def other_sizes_turned(crop: np.ndarray, text: str, recognizer: TextRecognizer) -> list[str]:
    """The letter sizes a size's own line (after its label: a logo's initial or a run's entry is not it) reads
    turned back a quarter that its read (`text`) does not show."""
    if not any(name == "size" for name, *_ in split_labeled(text)):
        return []
    return [size for size in turned_size_reads(crop, text, recognizer) if size not in letter_sizes(text)]


def turned_size_reads(crop: np.ndarray, text: str, recognizer: TextRecognizer) -> list[str]:
    """The letter sizes read, surely and alone, from the part of a line's `crop` where its one letter size starts
    (`text`: the line's read; a CJK glyph is as wide as the line is high, a Latin one about NARROW_GLYPH of it)
    turned back a quarter, each way."""
    tokens = letter_sizes(text)
    if len(tokens) != 1:
        return []
    h = crop.shape[0]
    before = halfwidth(text).upper().find(tokens[0])
    start = int(sum(h if _wide(ch) else NARROW_GLYPH * h for ch in text[:before]) - 0.1 * h)
    tail = crop[:, max(0, start):]
    if tail.shape[1] < 0.3 * h:
        return []
    pad = max(2, h // 4)
    turned = [cv2.copyMakeBorder(cv2.rotate(tail, turn), pad, pad, pad, pad, cv2.BORDER_REPLICATE)
              for turn in (cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_90_COUNTERCLOCKWISE)]
    return [rec.text.strip().upper() for rec in recognizer.recognize(turned, squeeze=REREAD_SQUEEZE)
            if rec.confidence >= TURNED_SIZE_CONFIDENCE and letter_sizes(rec.text) == [rec.text.strip().upper()]]


def _wide(ch: str) -> bool:
    """A character set a whole em wide: CJK and full-width forms."""
    return ord(ch) >= 0x2E80


def _continues_run(spans: Mapping[int, tuple[float, float, float, float]], named: Sequence[int], k: int) -> bool:
    """A row right under a row of sizes, starting where it starts: the run goes on there (the recognizer may
    have read it as no size, 'XXL3XL')."""
    x1, y1, _x2, y2 = spans[k]
    for j in named:
        a1, b1, _a2, b2 = spans[j]
        h = b2 - b1
        if 0 <= y1 - b2 <= 0.6 * h and abs(x1 - a1) <= 1.5 * h and abs((y2 - y1) - h) <= 0.4 * h:
            return True
    return False


def _read_regions(detector: TextDetector, recognizer: TextRecognizer, upright: Upright,
                  regions: Sequence[tuple[float, float, float, float]], vocabulary: str = "") -> list[OcrLine]:
    """Read where a taught field is printed: its region of the upright tag (with a margin for
    a tag framed a little differently), enlarged, detected and recognized on its own."""
    image = upright.image
    h, w = image.shape[:2]
    lines: list[OcrLine] = []
    for x1, y1, x2, y2 in regions:
        mx, my = REGION_MARGIN * (x2 - x1) + 0.02, REGION_MARGIN * (y2 - y1) + 0.02
        left, top = int(max(0.0, x1 - mx) * w), int(max(0.0, y1 - my) * h)
        right, bottom = int(np.ceil(min(1.0, x2 + mx) * w)), int(np.ceil(min(1.0, y2 + my) * h))
        if right - left < 8 or bottom - top < 8:
            continue
        patch = image[top:bottom, left:right]
        scale = min(3.0, max(1.0, REGION_TEXT_HEIGHT / max(1, bottom - top)))
        big = cv2.resize(patch, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC) if scale > 1 else patch
        boxes = [b for b, _score in detector.detect(big)]
        crops = [big[int(b[1]) : int(np.ceil(b[3])), int(b[0]) : int(np.ceil(b[2]))] for b in boxes]
        keep = [i for i, c in enumerate(crops) if c.shape[0] >= 4 and c.shape[1] >= 4]
        if not keep:
            continue
        recognized = recognizer.recognize([crops[i] for i in keep], squeeze=REREAD_SQUEEZE, vocabulary=vocabulary)
        back = [(left + b[0] / scale, top + b[1] / scale, left + b[2] / scale, top + b[3] / scale) for b in (boxes[i] for i in keep)]
        lines.extend(join_rows(back, recognized))
    return lines


def _read_again(crops: LineCrops, lines: Sequence[OcrLine], upright: Upright, recognizer: TextRecognizer,
                evidence: Mapping[str, FieldEvidence], doubtful: Sequence[FieldRule], vocab: str) -> list[OcrLine]:
    """The second read of the tag's lines, row by row as the first read joined them. A line that
    carries a field already matched, and no field in doubt, stands as first read (its box in the
    crop's pixels): a second read of it cannot settle another field, and keeping it keeps each
    label beside the line under it. Every other line is read again, exactly as a read of them all."""
    rows = group_rows(crops.boxes, walls=crops.walls)
    first = _first_reads(rows, crops, lines, upright)
    settled = _settled(first, evidence, {rule.name for rule in doubtful})
    wanted = [i for k, row in enumerate(rows) if k not in settled for i in row]
    found = recognizer.recognize_only([enlarged(c) for c in crops.crops], wanted, squeeze=REREAD_SQUEEZE, vocabulary=vocab)
    out: list[OcrLine] = []
    for k, row in enumerate(rows):
        line = replace(first[k], box=union([crops.boxes[i] for i in row])) if k in settled else join_row(crops.boxes, found, row)
        if line is not None:
            out.append(line)
    return labels_over_values(out)


def _settled(first: Mapping[int, OcrLine], evidence: Mapping[str, FieldEvidence], doubt: set[str]) -> set[int]:
    """The rows whose first read carries a matched field and nothing else (the line it was found on, a
    line holding its value, or its label alone above the value), and no field in doubt."""
    settled: set[int] = set()
    on_doubt: set[int] = set()
    for name, found in evidence.items():
        raw = found.raw.strip()
        for k, line in first.items():
            if name in doubt:
                if raw and (raw in line.text or line.text in raw):
                    on_doubt.add(k)
            elif (raw == line.text or (len(raw) >= MIN_VALUE_CHARS and raw in line.text) or label_alone(line.text, name)) \
                    and _holds_only(line.text, name, found.value):
                settled.add(k)
    return settled - on_doubt


def _first_reads(rows: Sequence[Sequence[int]], crops: LineCrops, lines: Sequence[OcrLine], upright: Upright) -> dict[int, OcrLine]:
    """The first read's line of each row of boxes (rows as join_rows makes them; a row that read as
    nothing has none): the row around the line's centre, its box mapped back from the image."""
    spans = [union([crops.boxes[i] for i in row]) for row in rows]
    out: dict[int, OcrLine] = {}
    for line in lines:
        x1, y1, x2, y2 = line.box
        (cx, cy), = upright.to_upright_points(np.array([[(x1 + x2) / 2, (y1 + y2) / 2]]))
        around = [k for k, s in enumerate(spans) if s[0] - 1 <= cx <= s[2] + 1 and s[1] - 1 <= cy <= s[3] + 1 and k not in out]
        if around:
            k = min(around, key=lambda k: abs((spans[k][1] + spans[k][3]) / 2 - cy) + abs((spans[k][0] + spans[k][2]) / 2 - cx))
            out[k] = line
    return out


def _holds_only(text: str, name: str, value: str) -> bool:
    """Whether a line holds field `name` and nothing more: its label (if any) first, and after it no
    more than the value and a few signs ('RMB', a thousands comma). A row the detector glued together
    ('委验金：一—：品141-20类 规格 155/84A': safety class and grade misread, then the size) may hide a
    field in doubt and is read again."""
    labels = split_labeled(text)
    if len(labels) > 1 or (labels and (labels[0][0] != name or labels[0][2] != 0)):
        return False
    rest = text[labels[0][1]:] if labels else text
    return len(_compact(rest)) <= len(_compact(value)) + GLUE_SLACK_CHARS


def _compact(text: str) -> str:
    return "".join(ch for ch in text if not ch.isspace() and ch not in ":：/")


