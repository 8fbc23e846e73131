"""The frame verdict: OK, NG or REVIEW, with reasons an operator can act on.

NG needs confident evidence that the tag is wrong; anything read with too little confidence, or not
read at all, goes to REVIEW so that doubt is never passed as OK.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum

from inference.detections import Detections, centre_inside, within
from inference.reading import barcodes as bc
from inference.reading.evidence import (
    ANOTHER_PART, MARKED_IN_RUN, MARKED_OPTION, OPTIONS_LISTED, SIZE_RUN, FieldEvidence, gather, other_part,
)
from inference.reading.fields import extract_fields
from inference.reading.label_columns import labels_alone
from inference.reading.matching import Found, compare
from inference.reading.normalize import code_key, ean13_check_ok, field_key, format_price, normalize_ean, parse_price
from inference.reading.recipe import BarcodeRule, CountRule, FieldRule, Recipe
from inference.reading.tag_parts import boxes_without_their_own, one_tag_in_parts
from inference.reading.types import FIELD_LABELS_ZH, BarcodeReading, Box, FieldReading, OcrLine, TagReading

STYLE_CODE_FORMATS = ("Code128", "Code93", "Code39", "Code39Std", "Code39Ext")
# Below this focus (variance of the Laplacian of the barcode area at the reader's fixed scale) bars blur together.
SHARP_FOCUS = 40.0
# Text lines lower than this (the tag's lower-quartile text box, frame pixels) are read unsurely: on set 5150's
# good frames 15 of 29 tags below it were OK, 42 of 47 above (the print's em is about half the box).
SMALL_TEXT_PX = 21.0
# A product name has no grammar and no vocabulary: in small print the recognizer's CJK confusions make words that
# look like names (工装裤 read 工共障 at 8.6 px, a good tag NG on the eighth set). There, a different read is doubt.
FREE_TEXT = ("product_name",)
_PLURALS = {"hangtag": "hangtags", "barcode": "barcodes", "qr_code": "QR codes"}
# What to do when a read value breaks a recipe pattern: the tag may be misprinted, or the pattern (the recipe's
# own rule, written by hand) may not fit a good print; the operator is told which to check.
PATTERN_HINT = "set the tag aside; if the print is right, correct the recipe's pattern for {label}"


# A tag count's reading where boxes over another tag's carried nothing of their own (held for review, not NG).
NOTHING_OF_ITS_OWN = "with nothing of its own"
LABELS_ALONE = "with labels alone"
# The source of a barcode check made on the digits read under bars nothing decoded: OCR, like a field's.
PRINTED_UNDER_BARS = "printed under the bars"


class Verdict(str, Enum):
    OK = "OK"
    NG = "NG"
    REVIEW = "REVIEW"


@dataclass(frozen=True)
class Check:
    """One line of the read-vs-expected report; `reason` is empty when the check passed."""

    subject: str
    tag_index: int | None
    expected: str
    read: str
    confidence: float | None
    source: str
    verdict: Verdict
    reason: str = ""


@dataclass(frozen=True)
class FrameVerdict:
    verdict: Verdict
    reasons: tuple[str, ...]
    checks: tuple[Check, ...] = ()
    # tag indices of detector boxes judged as one tag boxed in two parts (tag_parts.py): what a view shows as one
    parts: tuple[tuple[int, int], ...] = ()

    @property
    def ok(self) -> bool:
        return self.verdict is Verdict.OK


def judge(recipe: Recipe, detections: Detections, readings: Sequence[TagReading]) -> FrameVerdict:
    read = [tag for tag in readings if tag.is_tag]
    tags, joined = one_tag_in_parts(recipe, read)
    ownless = boxes_without_their_own(recipe, tags) if len(tags) > 1 else []
    alone = labels_alone(recipe, tags) if len(tags) > 1 else []
    checks: list[Check] = [_count_check(rule, detections, readings, recipe, joined, ownless, alone) for rule in recipe.counts]
    if any(check.subject == "count:hangtag" and NOTHING_OF_ITS_OWN in check.read for check in checks):
        # the boxes with nothing of their own are held for review as boxes; their print is the tag's they lie over
        dropped = {box for box, _over in ownless}
        tags = [tag for tag in tags if tag.tag_index not in dropped]
    if any(check.subject == "count:hangtag" and LABELS_ALONE in check.read for check in checks):
        tags = [tag for tag in tags if tag.tag_index not in alone]  # labels with no value: nothing to check on them
    many = len(tags) > 1
    for tag in tags:
        prefix = f"tag {tag.tag_index + 1}: " if many else ""
        checks.extend(_tag_checks(recipe, tag, prefix))
    if not tags and _checks_a_tag(recipe) and not any(c.verdict is not Verdict.OK for c in checks):
        # the counts may hold (a box was there), but no field was verified on anything legible: never OK
        checks.append(Check("hangtag", None, "a hangtag", "none legible", None, "reader", Verdict.REVIEW,
                            "no legible hangtag to check the recipe's fields on"))
    parts = (tuple(sorted(tag.tag_index for tag in read)),) if joined else ()
    return replace(summarize(checks), parts=parts)


def _checks_a_tag(recipe: Recipe) -> bool:
    """Whether the recipe asks anything of a tag's print (and expects a tag at all)."""
    if any(rule.class_name == "hangtag" and rule.max == 0 for rule in recipe.counts):
        return False
    barcode = recipe.barcode
    return bool(recipe.fields) or barcode.required or barcode.expected is not None


def judge_tag(recipe: Recipe, tag: TagReading) -> FrameVerdict:
    """One tag against the recipe's field and barcode rules, counts left out: which tags to
    send to the VLM."""
    return summarize(_tag_checks(recipe, tag, ""))


def _tag_checks(recipe: Recipe, tag: TagReading, prefix: str) -> list[Check]:
    evidence = gather(recipe, tag)
    fields = [_field_check(rule, evidence[rule.name], tag, recipe, prefix) for rule in recipe.fields]
    bars = []
    if recipe.barcode.required or recipe.barcode.expected or recipe.barcode.match_printed or recipe.barcode.match_style_number:
        bars = _barcode_checks(recipe, tag, prefix)
    checks = _doubted_on_an_illegible_tag(fields + bars, evidence, prefix)
    small = _small_print_check(tag, checks[: len(fields)], prefix)
    if small is not None:  # said once for the tag, before the fields it leaves in doubt
        first = next(i for i, c in enumerate(checks) if c.verdict is Verdict.REVIEW)
        checks.insert(first, small)
    return checks


def _doubted_on_an_illegible_tag(checks: list[Check], evidence: dict[str, FieldEvidence], prefix: str) -> list[Check]:
    """A field (or the digits under bars nothing decoded) read as another value is evidence only on a tag whose
    print the reader could read: where fewer than half of the tag's other fields were read surely (as expected,
    or surely as something else: another job's tag reads clearly wrong throughout), the recognizer could not make
    out this print, and a confident misread of this one (a 9 read as 0 in 7-px print; a garbled line whose digits
    happen to pass the EAN check) is as likely as a misprint. It is held for review."""
    out = []
    for check in checks:
        if check.verdict is Verdict.NG and (check.source == "ocr" or check.source.startswith(PRINTED_UNDER_BARS)):
            others = [name for name in evidence if name != check.subject]
            legible = sum(1 for name in others if evidence[name].found in (Found.MATCH, Found.DIFFERENT))
            if others and 2 * legible < len(others):
                label = check.subject.replace("_", " ")
                check = replace(check, verdict=Verdict.REVIEW, reason=(
                    f"{prefix}{label} uncertain: read as {check.read}, expected {check.expected}, but only {legible} of the"
                    f" tag's {len(others)} other fields could be read: the print reads too poorly to call it wrong"))
        out.append(check)
    return out


def small_px(text_px: float) -> str:
    """A line height below SMALL_TEXT_PX as the reasons write it: whole px, except where rounding would reach the
    threshold it falls short of ('21 px lines, needs 21' for 20.6 px read as a contradiction); then cut to 0.1 px."""
    shown = f"{text_px:.0f}"
    return f"{int(text_px * 10) / 10:.1f}" if text_px < SMALL_TEXT_PX <= float(shown) else shown


def _small_print_check(tag: TagReading, field_checks: Sequence[Check], prefix: str) -> Check | None:
    """Why fields were left in doubt when the camera is the cause: the tag's text stands too low to be
    read surely. Only beside a field in doubt, so it never turns a frame from OK or NG."""
    if tag.text_px is None or tag.text_px >= SMALL_TEXT_PX or not any(c.verdict is Verdict.REVIEW for c in field_checks):
        return None
    return Check("print size", tag.tag_index, f">= {SMALL_TEXT_PX:.0f} px lines", f"{small_px(tag.text_px)} px", None, "ocr",
                 Verdict.REVIEW, f"{prefix}print too small to read surely ({small_px(tag.text_px)} px lines, needs {SMALL_TEXT_PX:.0f}):"
                 " bring the camera closer or zoom in")


def _bars_note(tag: TagReading, rule: BarcodeRule) -> str:
    """Whether focus is why the bars did not read: their edge blur against the expected code's bar width."""
    if tag.bars is None:
        return focus_note(tag.focus)
    return f" — {bc.legibility_note(tag.bars, rule.format or '', rule.expected or '')}"


def focus_note(focus: float | None) -> str:
    if focus is None:
        return ""
    if focus < SHARP_FOCUS:
        return f" — too blurred to read (focus {focus:.0f}, needs > {SHARP_FOCUS:.0f})"
    return f" (focus {focus:.0f}, sharp enough)"


def summarize(checks: Sequence[Check]) -> FrameVerdict:
    ng = [c.reason for c in checks if c.verdict is Verdict.NG]
    review = [c.reason for c in checks if c.verdict is Verdict.REVIEW]
    verdict = Verdict.NG if ng else Verdict.REVIEW if review else Verdict.OK
    return FrameVerdict(verdict, tuple(ng + review), tuple(checks))


def _plural(name: str, n: int) -> str:
    return name.replace("_", " ") if n == 1 else _PLURALS.get(name, name + "s")


def _observed_count(class_name: str, detections: Detections, readings: Sequence[TagReading], min_conf: float) -> tuple[int, str]:
    """How many there certainly are. Hangtags: the detector's boxes less those the reader found
    nothing tag-like in; barcodes and QR codes, where tags were read: the symbols decoded on them
    (a box nothing decodes in is not certainly a symbol)."""
    tags = [tag for tag in readings if tag.is_tag]
    if class_name != "hangtag" and readings:
        codes = {(b.format, b.text) for tag in tags for b in tag.barcodes}
        if class_name == "qr_code":
            return sum(1 for fmt, _ in codes if "QR" in fmt), "reader"
        return sum(1 for fmt, _ in codes if "QR" not in fmt), "reader"
    if class_name in detections.class_names:
        kept = detections[detections.confidence >= min_conf] if len(detections) else detections
        n = kept.count(class_name)
        if class_name == "hangtag":
            # a box the reader found nothing tag-like in (a coin, a lamp) is not a hangtag
            n -= sum(1 for tag in readings if not tag.is_tag and _has_box(kept, tag.xyxy))
        return max(0, n), "detector"
    if class_name == "hangtag":
        return len(tags), "reader"
    return 0, "reader"


# A frame read whole (no tag box) holds the tag when this many of the recipe's values are on it.
MIN_FIELDS_FOR_A_TAG = 2


def _verified_fields(recipe: Recipe, tag: TagReading) -> int:
    return sum(1 for e in gather(recipe, tag).values() if e.found is Found.MATCH)


def _has_box(detections: Detections, box: tuple[float, float, float, float]) -> bool:
    """Whether the tag read from `box` came from one of these detector boxes: the same box, or one
    the reader grew `box` from (printed lines ran into its edge)."""
    labels = detections.labels
    for xyxy, label in zip(detections.xyxy, labels):
        if label == "hangtag" and within([float(v) for v in xyxy], box):
            return True
    return False


def _unboxed_symbols(detections: Detections, readings: Sequence[TagReading], min_conf: float) -> int:
    """Barcode and QR boxes whose centre lies in no tag box: not the detector's, nor the one the reader grew it to
    where the growth took the symbol in as the tag's own. A frame read whole has no tag box to be outside of."""
    if not len(detections) or any(tag.whole_frame for tag in readings):
        return 0
    tags = [tuple(float(v) for v in box) for box, label in zip(detections.xyxy, detections.labels) if label == "hangtag"]
    out = 0
    for box, label, conf in zip(detections.xyxy, detections.labels, detections.confidence):
        if label not in ("barcode", "qr_code") or float(conf) < min_conf:
            continue
        symbol = tuple(float(v) for v in box)
        if not any(centre_inside(symbol, tag) for tag in tags) and not any(_grown_over_its_own(tag, symbol) for tag in readings):
            out += 1
    return out


def _grown_over_its_own(tag: TagReading, symbol: Box) -> bool:
    """Whether a symbol outside the detector's tag box is the tag's own, its box grown over it: a code the tag's
    read decoded there, or the only symbol of a box that held none. A box that held its own code and was grown over
    another symbol nothing read as the tag's has taken in what lies beside the tag: fifteenth_b 000093, two tags side
    by side, the second not outlined; the first tag's box, grown along the paper of both, hid the second tag's EAN."""
    if not centre_inside(symbol, tag.xyxy):
        return False
    return not tag.symbol_boxes or any(centre_inside(symbol, code.xyxy) or centre_inside(code.xyxy, symbol) for code in tag.barcodes)


def _symbol_boxes(detections: Detections, min_conf: float) -> int:
    if not len(detections):
        return 0
    kept = detections[detections.confidence >= min_conf]
    return sum(kept.count(name) for name in ("barcode", "qr_code") if name in kept.class_names)


# A line the reader read as words, surely: Chinese characters at this confidence are no bars misread.
WORDS_READ_SURELY = 0.9


def _print_not_symbol(box: Box, whole: TagReading) -> bool:
    """Whether a symbol box nothing was decoded in lies within a line the reader read surely as two or more Chinese
    characters: a bold heading (产品合格证) boxed as a barcode is the tag's print, not a second tag's code (p20
    000052: one tag read whole and right held at REVIEW for two barcodes in view)."""
    if any(centre_inside(code.xyxy, box) or centre_inside(box, code.xyxy) for code in whole.barcodes):
        return False
    return any(line.confidence >= WORDS_READ_SURELY and sum("\u4e00" <= ch <= "\u9fff" for ch in line.text) >= 2
               and within(box, line.box, slack=0.1 * (line.box[3] - line.box[1])) for line in whole.ocr_lines)


def _one_tag_in_view(recipe: Recipe, detections: Detections, whole: TagReading) -> bool:
    """Whether a frame read whole shows exactly one of the job's tags: every value the recipe
    names verified on it, no more symbols in view than the recipe's counts allow one tag, and the
    style number printed once. Without a symbol count to hold the frame to, two tags the detector
    both missed could not be told from one: such a frame stays REVIEW. A field the recipe names no
    value for (`brand = { required = false }`) is no value to verify (s6001 000069: its brand, a logo
    set sideways, not read, held a tag read whole and right at REVIEW)."""
    named = {rule.name for rule in recipe.fields if rule.expected is not None}
    if any(e.found is not Found.MATCH for name, e in gather(recipe, whole).items() if name in named):
        return False
    symbols = [c for c in recipe.counts if c.class_name in ("barcode", "qr_code")]
    if not symbols:
        return False
    for count in symbols:
        if count.class_name in detections.class_names and len(detections):
            seen = detections[detections.confidence >= recipe.min_detection_confidence]
            boxes = seen.of_class(count.class_name).xyxy
            if sum(1 for box in boxes if not _print_not_symbol(tuple(map(float, box)), whole)) > count.max:
                return False
    style = next((r for r in recipe.fields if r.name == "style_number" and r.expected), None)
    if style is not None:
        key = code_key(style.expected)
        if sum(1 for line in whole.ocr_lines if key and key in code_key(line.text)) > 1:
            return False
    return True


def _count_check(rule: CountRule, detections: Detections, readings: Sequence[TagReading], recipe: Recipe,
                 joined: int = 0, ownless: Sequence[tuple[int, int]] = (), alone: Sequence[int] = ()) -> Check:
    """`joined`: detector boxes that were parts of a tag outlined in two (tag_parts.py), not tags of their own;
    `ownless`: boxes over another tag's that carry nothing of their own (tag_parts.boxes_without_their_own);
    `alone`: boxes that read only field labels (label_columns.labels_alone)."""
    n, source = _observed_count(rule.class_name, detections, readings, recipe.min_detection_confidence)
    if rule.class_name == "hangtag" and joined:
        n = max(0, n - joined)
    expected = rule.describe()
    subject = f"count:{rule.class_name}"
    if rule.min <= n <= rule.max:
        unboxed = _unboxed_symbols(detections, readings, recipe.min_detection_confidence) if rule.class_name == "hangtag" else 0
        if unboxed and n + 1 > rule.max:
            # a symbol is printed on a tag: one outside every tag box may be a tag the detector missed
            return Check(subject, None, expected, f"{n} + {unboxed} symbol(s) outside", None, source, Verdict.REVIEW,
                         f"{'a barcode or QR code' if unboxed == 1 else f'{unboxed} barcodes or QR codes'} outside every "
                         "hangtag box: another tag the detector did not outline?")
        return Check(subject, None, expected, f"{n} (one tag boxed in two parts)" if joined and rule.class_name == "hangtag"
                     else str(n), None, source, Verdict.OK)
    if rule.class_name == "hangtag":
        whole = next((tag for tag in readings if tag.whole_frame and tag.is_tag), None)
        if n == 0 and whole is not None and _verified_fields(recipe, whole) >= MIN_FIELDS_FOR_A_TAG:
            # no box, but the job's own text is in view: the detector missed the tag, the tag is there
            if rule.min <= 1 <= rule.max and _one_tag_in_view(recipe, detections, whole):
                return Check(subject, None, expected, "1 (read, no box)", None, "reader", Verdict.OK)
            return Check(subject, None, expected, "no box", None, "reader", Verdict.REVIEW,
                         "hangtag not outlined by the detector, but its text is in view")
        unreadable = sum(1 for tag in readings if not tag.is_tag)
        if n < rule.min <= n + unreadable:
            # the detector saw a tag there, but nothing on it could be read: not certainly missing
            return Check(subject, None, expected, f"{n} + {unreadable} unreadable", None, source, Verdict.REVIEW,
                         f"{_plural('hangtag', unreadable)} found but nothing on {'it' if unreadable == 1 else 'them'} legible "
                         "(blurred, covered or not a tag)")
        symbols = _symbol_boxes(detections, recipe.min_detection_confidence)
        if n == 0 and symbols:
            # a barcode or QR code is printed on a tag: with one in view the tag is there, not outlined
            return Check(subject, None, expected, f"no box, {symbols} symbol box(es)", None, "detector", Verdict.REVIEW,
                         f"no hangtag outlined, but {'a barcode or QR code is' if symbols == 1 else f'{symbols} barcodes or QR codes are'}"
                         " in view: a tag the detector missed? Check it by hand")
    elif source == "reader" and n < rule.min:
        # a symbol not found is not proof it is missing (small, on kraft, blurred): REVIEW unless the recipe says NG
        boxes = detections.count(rule.class_name) if rule.class_name in detections.class_names and len(detections) else 0
        if rule.class_name == "barcode" and recipe.barcode.required:
            # the barcode rule says it is unreadable, with the focus; not twice
            return Check(subject, None, expected, _symbols_found(n, boxes), None, source, Verdict.OK)
        verdict = Verdict.NG if recipe.missing_field == "ng" else Verdict.REVIEW
        seen = f"{boxes} seen, {n} readable" if boxes else "none found"
        return Check(subject, None, expected, _symbols_found(n, boxes), None, source, verdict,
                     f"{_plural(rule.class_name, 2)}: {seen}, expected {expected}")
    if rule.class_name == "hangtag" and n > rule.max and ownless and rule.min <= n - len(ownless) <= rule.max:
        # a box over another tag's with nothing of its own: the same tag boxed twice, or one hidden under it
        pairs = ", ".join(f"box {box + 1} over box {over + 1}" for box, over in ownless)
        nothing = "reads nothing of its" if len(ownless) == 1 else "read nothing of their"
        return Check(subject, None, expected, f"{n} ({len(ownless)} {NOTHING_OF_ITS_OWN})", None, source, Verdict.REVIEW,
                     f"{n} hangtags boxed, expected {expected}, but {pairs} {nothing} own (no code, few of a "
                     "tag's fields, none the box under it does not read): the same tag boxed twice, or a second tag hidden under it?"
                     " Check it by hand")
    if rule.class_name == "hangtag" and n > rule.max and alone and rule.min <= n - len(alone) <= rule.max:
        which = ", ".join(f"box {index + 1}" for index in alone)
        return Check(subject, None, expected, f"{n} ({len(alone)} {LABELS_ALONE})", None, source, Verdict.REVIEW,
                     f"{n} hangtags boxed, expected {expected}, but {which} {'reads' if len(alone) == 1 else 'read'} only"
                     " field labels with nothing after them (no value, no code): a tag's label column boxed apart, or a"
                     " second tag's labels showing from under another? Check it by hand")
    found = f"no {_plural(rule.class_name, 1)}" if n == 0 else f"{n} {_plural(rule.class_name, n)}"
    return Check(subject, None, expected, str(n), None, source, Verdict.NG, f"{found}, expected {expected}")


def _symbols_found(read: int, boxes: int) -> str:
    """A symbol count as the operator reads it: '0 read of 0' said nothing of a QR code nobody found."""
    if read >= boxes:
        return f"{read} read" if read else "none found"
    return f"{boxes} found, {'none' if read == 0 else read} readable"


def _shown(name: str, value: str) -> str:
    if name == "price":
        amount = parse_price(value)
        return format_price(amount) if amount is not None else value
    return value


def _field_check(rule: FieldRule, evidence: FieldEvidence, tag: TagReading, recipe: Recipe, prefix: str) -> Check:
    name = rule.name
    label = name.replace("_", " ")
    expected = _shown(name, rule.expected) if rule.expected else (f"/{rule.pattern}/" if rule.pattern else "present")
    idx = tag.tag_index
    if evidence.found is Found.ABSENT:
        if not rule.required:
            return Check(name, idx, expected, "", None, "", Verdict.OK)
        verdict = Verdict.NG if recipe.missing_field == "ng" else Verdict.REVIEW
        return Check(name, idx, expected, "", None, "", verdict, f"{prefix}{label} not found ({FIELD_LABELS_ZH[name]})")
    read = _shown(name, evidence.value)
    conf = evidence.confidence
    turned = _turned_size_check(rule, evidence, tag, expected, prefix)
    if turned is not None:
        return turned
    if evidence.found is Found.MATCH:
        return Check(name, idx, expected, read, conf, evidence.source, Verdict.OK)
    if evidence.found is Found.DIFFERENT and name in tag.unconfirmed:
        return Check(name, idx, expected, read, conf, evidence.source, Verdict.REVIEW,
                     f"{prefix}{label} uncertain: read as {read}, expected {expected}, but a second read from the tag box"
                     " moved a few pixels did not show it")
    if evidence.found is Found.DIFFERENT and evidence.source == "ocr" and rule.expected is not None and name in FREE_TEXT \
            and tag.text_px is not None and tag.text_px < SMALL_TEXT_PX:
        return Check(name, idx, expected, read, conf, evidence.source, Verdict.REVIEW,
                     f"{prefix}{label} uncertain: read as {read}, expected {expected}: free text in print too small to tell a"
                     f" misprint from a misread ({small_px(tag.text_px)} px lines, needs {SMALL_TEXT_PX:.0f})")
    if evidence.found is Found.DIFFERENT and evidence.source == "ocr" and rule.expected is not None \
            and tag.text_px is not None and tag.text_px < SMALL_TEXT_PX and _lookalike_in_small_print(name, rule.expected, evidence.value):
        return Check(name, idx, expected, read, conf, evidence.source, Verdict.REVIEW,
                     f"{prefix}{label} uncertain: read as {read}, expected {expected}: one character apart in print too"
                     f" small to tell them apart ({small_px(tag.text_px)} px lines, needs {SMALL_TEXT_PX:.0f})")
    if evidence.found is Found.DIFFERENT:
        if evidence.how == MARKED_IN_RUN:
            reason = f"{prefix}{label} marked in the printed run is {read}, expected {expected}"
        elif evidence.how == MARKED_OPTION:
            reason = f"{prefix}{label} marked on the tag is {read}, expected {expected}"
        elif rule.expected is not None:
            reason = f"{prefix}{label} {read} ≠ expected {expected}"
        else:  # a pattern is the recipe's own rule: the print or the pattern can be the one at fault
            reason = f"{prefix}{label} {read} does not match {expected} ({PATTERN_HINT.format(label=label)})"
        return Check(name, idx, expected, read, conf, evidence.source, Verdict.NG, reason)
    if not rule.required and rule.expected is None and rule.pattern is None:
        return Check(name, idx, expected, read, conf, evidence.source, Verdict.OK)
    if evidence.how == ANOTHER_PART:
        # the evidence already found the line another part's: name it, a misread 里料成分 ('塑料成分') too
        part = other_part(evidence.raw, rule.expected or "", shell_elsewhere=True) or "another part"
        return Check(name, idx, expected, read, conf, evidence.source, Verdict.REVIEW,
                     f"{prefix}{label} uncertain: {expected} is printed on the {part} line, not as the shell's (面料)"
                     " content, which was not read as it")
    if evidence.how == OPTIONS_LISTED:
        return Check(name, idx, expected, read, conf, evidence.source, Verdict.REVIEW,
                     f"{prefix}{label} uncertain: the tag prints every option ({read}), and which one is marked is not"
                     f" read; expected {expected}")
    if evidence.how == SIZE_RUN:
        return Check(name, idx, expected, read, conf, evidence.source, Verdict.REVIEW,
                     f"{prefix}{label} uncertain: the tag prints a run of sizes ({read}), and which one is marked is not"
                     f" read; expected {expected}")
    if read and read == expected:  # the expected value itself, read less surely than the recipe asks
        return Check(name, idx, expected, read, conf, evidence.source, Verdict.REVIEW,
                     f"{prefix}{label} uncertain: the expected {read}, read only at {conf:.0%} (needs {rule.min_confidence:.0%})")
    doubt = f"read as {read} at {conf:.0%}" if read else "unclear"
    target = f", expected {expected}" if rule.expected is not None or rule.pattern is not None else f", minimum {rule.min_confidence:.0%}"
    return Check(name, idx, expected, read, conf, evidence.source, Verdict.REVIEW, f"{prefix}{label} uncertain: {doubt}{target}")


def _turned_size_check(rule: FieldRule, evidence: FieldEvidence, tag: TagReading, expected: str, prefix: str) -> Check | None:
    """A size read again from its glyphs turned back a quarter (a tag set in vertical columns, the size across its
    column: `TagReading.turned_sizes`) says what the turned line could not: the expected size read so, and nothing
    else, verifies it; another size read so, where the line's read matches, is doubt ('XS' read 'S' on its side
    passed a recipe of S). None where the turned read says nothing the line's read does not."""
    if rule.name != "size" or rule.expected is None or not tag.turned_sizes:
        return None
    wanted = field_key("size", rule.expected)
    turned = {field_key("size", size) for size in tag.turned_sizes}
    read = _shown(rule.name, evidence.value) if evidence.found is not Found.ABSENT else ""
    if turned == {wanted}:
        return Check(rule.name, tag.tag_index, expected, rule.expected, None, "ocr (turned)", Verdict.OK)
    if wanted in turned or evidence.found is Found.MATCH:
        sizes = " and ".join(sorted(tag.turned_sizes))
        return Check(rule.name, tag.tag_index, expected, read, evidence.confidence, evidence.source, Verdict.REVIEW,
                     f"{prefix}size uncertain: read as {read or 'nothing'}, but as {sizes} from its glyphs turned a quarter"
                     f" (a size set across a vertical column); expected {expected}")
    return None


# Characters the recognizer takes for one another, surely, in print under SMALL_TEXT_PX (round digits and letters
# close up; stems lose their bars; letters one stroke apart lose it): T read 1 in a 6-px dot-matrix style number, 0
# read 8 in a 9-px size, M read N three times in a 17-px thermal-printed style number.
SMALL_PRINT_LOOKALIKES = ("0368B9DOQ", "17ITLJ", "56S", "2Z", "MNH", "EF", "PR", "CG", "UV")
# Free words (no vocabulary says which words exist): one character apart in small print is doubt whatever the two are.
# A grade (优等品/一等品/合格品) and a fibre content keep their own vocabularies, so their differences stay evidence.
SMALL_PRINT_WORDS = ("product_name", "color", "brand")
# A code's separators read as one another ('D9606-05' read 'D9606.85') are the recognizer's slip, no difference.
_SEPARATORS = str.maketrans({ch: "-" for ch in "._·/—–"})


def _lookalike_in_small_print(name: str, expected: str, read: str) -> bool:
    """Whether a read differs from the expected value in one character only (as the field compares them), the two
    characters look-alikes of small print, or any two in a free word: doubt there, not evidence. A value further
    off, or one character that no small print turns into the other (a 4 read 3), stays evidence."""
    a, b = (field_key(name, value).translate(_SEPARATORS) for value in (expected, read))  # '-' read '.': a slip
    if len(a) != len(b):
        return False
    differing = [(x.upper(), y.upper()) for x, y in zip(a, b) if x != y]
    if len(differing) != 1:
        return False
    if name in SMALL_PRINT_WORDS:  # a CJK glyph loses its inner strokes: 阔 read 同, a frame with a stroke in it
        return True
    return any(x in group and y in group for group in SMALL_PRINT_LOOKALIKES for x, y in differing)


def _unread_code_checks(recipe: Recipe, tag: TagReading, prefix: str, expected: str, reason: str) -> list[Check]:
    """The recipe's code where no symbol of its kind decoded: what its bars or printed digits still verify, else
    unreadable, which is not wrong: NG only where the recipe says a missing field is NG."""
    verified = _bars_verified_checks(recipe, tag, prefix)
    if verified:
        return verified
    printed = _printed_digits_check(recipe, tag, prefix)
    if printed is not None:
        return [printed]
    verdict = Verdict.NG if recipe.missing_field == "ng" else Verdict.REVIEW
    return [Check("barcode", tag.tag_index, expected, "", None, "barcode", verdict, reason)]


def _barcode_checks(recipe: Recipe, tag: TagReading, prefix: str) -> list[Check]:
    rule = recipe.barcode
    idx = tag.tag_index
    codes = [b for b in tag.barcodes if "QR" not in b.format]
    if not codes:
        if not rule.required:
            return [Check("barcode", idx, rule.expected or "a barcode", "", None, "barcode", Verdict.OK)]
        return _unread_code_checks(recipe, tag, prefix, rule.expected or "a barcode",
                                   f"{prefix}barcode unreadable{_bars_note(tag, rule)}")
    checks: list[Check] = []
    wanted = [b for b in codes if _same_format(b.format, rule.format)] if rule.format else codes
    if rule.format and not wanted and len(tag.symbol_boxes) > len(codes):
        # another symbol decoded (a style number's Code128) and a box of bars nothing read: the recipe's code
        # is there unread, not absent or of the wrong kind
        return _unread_code_checks(recipe, tag, prefix, rule.expected or rule.format,
                                   f"{prefix}{rule.format} unreadable (a {codes[0].format} beside it decoded){_bars_note(tag, rule)}")
    main = compared_code(rule, codes)
    if rule.format and not _same_format(main.format, rule.format):
        checks.append(Check("barcode.format", idx, rule.format, main.format, None, "barcode", Verdict.NG, f"{prefix}barcode is {main.format}, expected {rule.format}"))
    if main.valid_checksum is False:
        checks.append(Check("barcode.checksum", idx, "valid check digit", main.text, None, "barcode", Verdict.NG, f"{prefix}{main.format} {main.text} has a wrong check digit"))
    coded = main.text
    if rule.expected is not None:
        ok = any(b.text == rule.expected for b in codes)
        read = main.text if not ok else rule.expected
        misread = "" if ok else _misread(rule, main, tag)
        if misread:  # the bars show the recipe's code; the decoder misread them
            checks.append(Check("barcode", idx, rule.expected, rule.expected, None, misread, Verdict.OK))
            coded = rule.expected
        elif not ok and main.module_px is not None and main.module_px < bc.FINE_BARS_PX:
            checks.append(Check("barcode", idx, rule.expected, read, None, "barcode", Verdict.REVIEW,
                                f"{prefix}barcode uncertain: read as {read}, expected {rule.expected}, from bars {main.module_px:.2f} px wide"
                                f" (needs {bc.FINE_BARS_PX:.2f} to be sure of a difference): bring the camera closer or zoom in"))
        else:
            checks.append(Check("barcode", idx, rule.expected, read, None, "barcode", Verdict.OK if ok else Verdict.NG,
                                "" if ok else f"{prefix}barcode {read} ≠ expected {rule.expected}"))
    if rule.match_printed:
        checks.append(_printed_ean_check(recipe, tag, coded, prefix))
    if rule.match_style_number:
        checks.append(_style_code_check(recipe, tag, codes, prefix))
    return checks


def compared_code(rule: BarcodeRule, codes: Sequence):
    """Of a tag's decoded linear codes (anything with `format` and `text`), the one the barcode rule compares:
    the first of the recipe's format, else the first retail code (EAN/UPC), else the first."""
    wanted = [b for b in codes if _same_format(b.format, rule.format)] if rule.format else codes
    return wanted[0] if wanted else next((b for b in codes if b.format.startswith(("EAN", "UPC"))), codes[0])


BARS_MISREAD = "the bars verify as the recipe's code"


def _misread(rule: BarcodeRule, decoded: BarcodeReading, tag: TagReading) -> str:
    """Where the decoder read another code than the recipe's from bars that show the recipe's code: the expected
    code verified against the decoded box's bars (bar_verify.py: every character told apart from every other
    pattern) and the decoded one not (a check digit passes one misread in ten). The check's source saying so;
    '' where the bars bear the decode out or settle nothing (a wrong code stays NG)."""
    if tag.decoded_bars is None or rule.expected is None:
        return ""
    shown = bc.verify_bars(tag.decoded_bars.profiles, rule.format, rule.expected)
    if shown is None or not shown.verified:
        return ""
    other = bc.verify_bars(tag.decoded_bars.profiles, decoded.format, decoded.text)
    if other is None or other.verified:
        return ""
    return (f"{BARS_MISREAD}: the decoder's {decoded.text} is a misread ({other.why});"
            f" blur σ {shown.blur_px:.1f} px on bars {shown.module_px:.1f} px wide")


def _bars_verified_checks(recipe: Recipe, tag: TagReading, prefix: str) -> list[Check]:
    """The recipe's code verified against bars nothing decoded (bar_verify.py): OK for the barcode rule, as a
    decode would be (and the printed EAN compared with it where the recipe asks). Never NG: bars that do not
    verify are only unread. Empty where they did not verify."""
    rule = recipe.barcode
    if rule.expected is None or tag.bars is None:
        return []
    found = bc.verify_bars(tag.bars.profiles, rule.format, rule.expected)
    if found is None or not found.verified:
        return []
    source = (f"{bc.BARS_VERIFIED}: blur σ {found.blur_px:.1f} px on bars {found.module_px:.1f} px wide"
              f" ({found.blur_modules:.2f} modules)")
    checks = [Check("barcode", tag.tag_index, rule.expected, rule.expected, None, source, Verdict.OK)]
    if rule.match_printed:
        checks.append(_printed_ean_check(recipe, tag, rule.expected, prefix))
    return checks


def _same_format(found: str, wanted: str | None) -> bool:
    return wanted is not None and found.replace("-", "").lower() == wanted.replace("-", "").lower()


def _printed_fields(tag: TagReading) -> dict[str, FieldReading]:
    """Fields as printed, from the first read and the re-read (the surer of the two per field)."""
    fields = extract_fields(tag.ocr_lines)
    for name, reading in extract_fields(tag.reread_lines).items():
        if name not in fields or reading.confidence > fields[name].confidence:
            fields[name] = reading
    return fields


def _min_confidence(recipe: Recipe, name: str) -> float:
    rule = recipe.field(name)
    return rule.min_confidence if rule else min((r.min_confidence for r in recipe.fields), default=0.8)


def _printed_digits_check(recipe: Recipe, tag: TagReading, prefix: str) -> Check | None:
    """Bars too fine for the camera to resolve, but the text printed under them read: an EAN
    with a valid check digit anywhere on the tag, any other code only from the line right under
    the symbol's box (the style number printed elsewhere says nothing about the bars). A misprint
    where bars and their own caption disagree is far rarer than a camera that cannot resolve
    1.5-px modules."""
    rule = recipe.barcode
    if rule.expected is None:
        return None
    seen = f"{PRINTED_UNDER_BARS} (bars unreadable{focus_note(tag.focus)})"
    if len(rule.expected) == 13 and rule.expected.isdigit():
        spotted = next((s for s in tag.spotted if s.name == "barcode" and s.expected == rule.expected), None)
        if spotted is not None:  # the caption read unsurely, but its posteriors allow the expected digits
            return Check("barcode", tag.tag_index, rule.expected, rule.expected, spotted.confidence, seen, Verdict.OK)
        printed = _printed_fields(tag).get("ean13")
        if printed is None or not ean13_check_ok(normalize_ean(printed.value)):
            return None
        value, confidence = normalize_ean(printed.value), printed.confidence
        same = value == rule.expected
    else:
        caption = _caption(tag)
        if caption is None:
            return None
        value = caption.text.strip()
        chars = [c for ch, c in zip(caption.text, caption.char_confidences) if not ch.isspace()]
        confidence = min(chars) if len(caption.char_confidences) == len(caption.text) and chars else caption.confidence
        found = compare(code_key(rule.expected), code_key(value), confidence, _min_confidence(recipe, "style_number"),
                        caption.confidence)
        if found is not Found.MATCH:
            return None  # a small caption read otherwise proves nothing about bars nobody could decode
        same = True
    if same:
        return Check("barcode", tag.tag_index, rule.expected, value, confidence, seen, Verdict.OK)
    if tag.text_px is not None and tag.text_px < SMALL_TEXT_PX and not _another_ean(rule.expected, value):
        # the bars were too fine for the camera, and the digits under them are print as small: a misread of two digits
        # passes the check digit one time in ten (a good tag of set 9606 was NG on 6900839751712 for 6990939751712)
        return Check("barcode", tag.tag_index, rule.expected, value, confidence, seen, Verdict.REVIEW,
                     f"{prefix}barcode caption read as {value}, expected {rule.expected} (bars unreadable), in print too small"
                     f" to be sure ({small_px(tag.text_px)} px lines, needs {SMALL_TEXT_PX:.0f})")
    verdict = Verdict.NG if confidence >= _min_confidence(recipe, "ean13") else Verdict.REVIEW
    return Check("barcode", tag.tag_index, rule.expected, value, confidence, seen, verdict,
                 f"{prefix}barcode caption {value} ≠ expected {rule.expected} (bars unreadable)")


# An EAN-13 caption that differs from the expected one in this many digits, its check digit valid, is another article's
# number, not a misread: a slip the check digit lets through changes two digits (a swap, or two look-alikes), not four.
ANOTHER_EAN_DIGITS = 4


def _another_ean(expected: str, read: str) -> bool:
    return len(expected) == len(read) == 13 and sum(a != b for a, b in zip(expected, read)) >= ANOTHER_EAN_DIGITS


def _caption(tag: TagReading) -> OcrLine | None:
    """The text line right under a symbol box: its human-readable caption."""
    best = None
    for x1, y1, x2, y2 in tag.symbol_boxes:
        h, w = y2 - y1, x2 - x1
        for line in (*tag.reread_lines, *tag.ocr_lines):
            lx1, ly1, lx2, ly2 = line.box
            cx, cy = (lx1 + lx2) / 2, (ly1 + ly2) / 2
            if x1 - 0.1 * w <= cx <= x2 + 0.1 * w and y1 + 0.5 * h <= cy <= y2 + 0.6 * h and len(code_key(line.text)) >= 4:
                if best is None or line.confidence > best.confidence:
                    best = line
    return best


def _printed_ean_check(recipe: Recipe, tag: TagReading, decoded: str, prefix: str) -> Check:
    printed = _printed_fields(tag).get("ean13")
    if printed is None:
        return Check("barcode.printed", tag.tag_index, decoded, "", None, "ocr", Verdict.REVIEW, f"{prefix}EAN printed under the barcode not read")
    value = normalize_ean(printed.value)
    confident = printed.confidence >= _min_confidence(recipe, "ean13")
    if value == decoded:
        verdict = Verdict.OK if confident else Verdict.REVIEW
        reason = "" if confident else f"{prefix}printed EAN {value} read at {printed.confidence:.0%} confidence"
        return Check("barcode.printed", tag.tag_index, decoded, value, printed.confidence, "ocr", verdict, reason)
    verdict = Verdict.NG if confident else Verdict.REVIEW
    return Check("barcode.printed", tag.tag_index, decoded, value, printed.confidence, "ocr", verdict, f"{prefix}barcode {decoded} ≠ printed EAN {value}")


def _style_code_check(recipe: Recipe, tag: TagReading, codes: Sequence, prefix: str) -> Check:
    style_codes = [b for b in codes if b.format.replace("-", "") in STYLE_CODE_FORMATS]
    if not style_codes:
        return Check("barcode.style", tag.tag_index, "a Code128/93/39 with the 货号", "", None, "barcode", Verdict.REVIEW, f"{prefix}no style-number barcode (Code128/93/39) read")
    printed = _printed_fields(tag).get("style_number")
    code = style_codes[0].text
    if printed is None:
        return Check("barcode.style", tag.tag_index, code, "", None, "ocr", Verdict.REVIEW, f"{prefix}printed style number (货号) not read")
    if any(code_key(b.text) == code_key(printed.value) for b in style_codes):
        return Check("barcode.style", tag.tag_index, code, printed.value, printed.confidence, "ocr", Verdict.OK)
    confident = printed.confidence >= _min_confidence(recipe, "style_number")
    verdict = Verdict.NG if confident else Verdict.REVIEW
    return Check("barcode.style", tag.tag_index, code, printed.value, printed.confidence, "ocr", verdict, f"{prefix}style number {printed.value} ≠ barcode {code}")
