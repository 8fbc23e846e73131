"""Evidence for or against each field of a recipe, gathered from everything the reader saw.

The recipe says what must be printed; this module looks for it. First the expected value itself,
anywhere on the tag, label or no label (matching.search). Only where it is not found does it
locate what the tag says instead: the text after the field's label, or a token of the field's
grammar (a 号型 such as 175/96A, a price with its currency, a colour word on its own line). A
different value is NG evidence only when every read of it (the first and the re-read) agrees.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal, InvalidOperation

from inference.reading import hao_xing
from inference.reading.barcodes import product_ean
from inference.reading.fibre_table import matching_part
from inference.reading.fields import extract_fields
from inference.reading.labels import LABELS, label_exactness, line_parts, split_labeled
from inference.reading.letter_sizes import IN_TEXT as LETTER_SIZE_IN_TEXT
from inference.reading.letter_sizes import is_letter_size, size_tokens
from inference.reading.matching import SURE_SINGLE, Found, Glyphs, compare, fold, haystacks, mixed_case, search
from inference.reading.normalize import (code_key, edit_distance, field_key, foreign_amount, halfwidth, normalize_ean,
                                         normalize_field, normalize_standard, parse_price, squash)
from inference.reading.offer_prices import offered
from inference.reading.options import PrintedOptions, marked_option
from inference.reading.recipe import FieldRule, Recipe
from inference.reading.repairs import FIBRES, GRADES, PARTS
from inference.reading.rival_reads import rival_size_read_surely
from inference.reading.size_rows import SIZE_ROW, named_sizes
from inference.reading.types import FieldReading, OcrLine, TagReading

BARCODE_CONFIDENCE = 0.995
# A code's differing characters read at least this surely prove it is another code.
SURE_DIFFERENCE = 0.95
# Another word of a field's words that no slip of the recognizer makes of the expected one (a colour sharing no
# character with it, a grade two characters off), each character read at least this surely: a difference.
OTHER_WORD_CONFIDENCE = 0.6
# Fields printed as words, where one look-alike character read wrong is not yet a different value.
WORD_FIELDS = ("product_name", "color", "composition", "brand", "grade")
STYLE_CODE_FORMATS = ("Code128", "Code93", "Code39", "Code39Std", "Code39Ext")


@dataclass(frozen=True)
class FieldEvidence:
    """What the tag says about one field of the recipe. `value` is what was read (normalized), or
    the expected value where it was found as expected."""

    name: str
    found: Found
    value: str = ""
    confidence: float = 0.0
    source: str = "ocr"
    how: str = ""  # "printed as expected", "after its label", "a 号型 token" …
    raw: str = ""

    def reading(self) -> FieldReading | None:
        if self.found is Found.ABSENT or not self.value:
            return None
        return FieldReading(self.name, self.value, self.confidence, self.source if self.source in ("ocr", "barcode", "vlm") else "ocr", self.raw)


@dataclass(frozen=True)
class _Candidate:
    """A value located on the tag; `confidence` is its weakest character, `typical` its mean."""

    value: str
    confidence: float
    how: str
    raw: str
    typical: float = -1.0
    # each character's confidence, aligned with `value`, where the line gives them
    chars: tuple[float, ...] = ()

    @property
    def mean(self) -> float:
        return self.confidence if self.typical < 0 else self.typical


def gather(recipe: Recipe, tag: TagReading) -> dict[str, FieldEvidence]:
    """Evidence for every field rule of the recipe, from the tag's lines, re-reads and barcodes.
    The verdict asks twice for the same tag and recipe; the last answer is kept for that."""
    global _last
    last = _last  # one read of it: another tag's thread may replace it between a check and a use
    if last is not None and last[0] is recipe and last[1] is tag:
        return dict(last[2])
    found = _gather(recipe, tag)
    _last = (recipe, tag, found)
    return dict(found)


_last: tuple[Recipe, TagReading, dict[str, FieldEvidence]] | None = None


def _gather(recipe: Recipe, tag: TagReading) -> dict[str, FieldEvidence]:
    reads = [tuple(tag.ocr_lines)] + ([tuple(tag.reread_lines)] if tag.reread_lines else [])
    # the small-print recognizer's lines, and values read beside a label boxed alone, are searched for the expected
    # values only: never a read of the field that could differ from them, nor one whose doubt holds back a
    # difference the other reads show
    texts = haystacks([line for read in reads for line in read] + list(tag.small_print_lines) + list(tag.confirm_only_lines))
    labelled = [extract_fields(read) for read in reads]
    line_reads = sum(1 for read in reads if read)  # a reading with no lines (the VLM's) has fields only
    if tag.fields:  # what the reader (or the VLM) reported counts as a read of its own
        reads.append(())
        labelled.append(dict(tag.fields))
    labelled = forgiven_labels_yield(labelled)
    return {rule.name: field_evidence(rule, tag, texts, reads, labelled, line_reads) for rule in recipe.fields}


def forgiven_labels_yield(labelled: Sequence[Mapping[str, FieldReading]]) -> list[dict[str, FieldReading]]:
    """Each read's fields, less those read after a label matched only with one character forgiven where another read
    of the tag found the field, with another value, after one of its labels read exactly: the forgiven label is
    another line's misread (a lining's 里料 read 塑料, one character off 面料, where another read has the upper's 帮面
    line). The same value after both is one line whose label one read misread (资号 and 款号 before one code): it stays,
    a read of that line as good as the other."""
    exact: dict[str, set[str]] = {}
    for fields in labelled:
        for name, reading in fields.items():
            if label_exactness(name, reading.raw):
                exact.setdefault(name, set()).add(_value_key(reading.value))
    return [{name: reading for name, reading in fields.items()
             if name not in exact or label_exactness(name, reading.raw) is not False
             or _value_key(reading.value) in exact[name]} for fields in labelled]


def _value_key(value: str) -> str:
    return squash(halfwidth(value)).upper()


def field_evidence(rule: FieldRule, tag: TagReading, texts: Sequence[Glyphs], reads: Sequence[Sequence[OcrLine]],
                   labelled: Sequence[Mapping[str, FieldReading]], line_reads: int | None = None) -> FieldEvidence:
    """`line_reads`: how many of `reads` are reads of the tag's lines (the first read and the
    re-read); a different value is NG evidence only when each of them shows it."""
    name = rule.name
    if name == "size" and rule.expected is not None:
        run = size_run([line for read in reads for line in read])
        if run:  # the expected size is found among them whether or not it is the one marked
            return _marked_in_run(rule, tag) or _named_in_size_row(rule, reads) or FieldEvidence(
                name, Found.NEAR, " ".join(run), 0.0, "ocr", SIZE_RUN, " ".join(run))
    if name in ("grade", "safety_category") and rule.expected is not None:
        options = marked_option(name, reads[:line_reads] if line_reads is not None else reads)
        if options:  # the expected option is printed whether or not it is the one marked
            return _marked_option(rule, options, marked_option(name, (tag.small_print_lines, tag.confirm_only_lines)))
    coded = _from_barcodes(rule, tag)
    if rule.expected is not None:
        printed = _expected(rule, texts, reads, labelled, len(reads) if line_reads is None else line_reads,
                            tag.small_print_lines, tag.confirm_only_lines, tag.struck_prices, tag.rotation)
        if printed.found in (Found.NEAR, Found.ABSENT):
            spotted = _spotted(rule, tag)
            if spotted is not None and spotted.confidence < rule.min_confidence \
                    and (_small_print_shows_another(rule, tag, spotted.raw)
                         or name == "size" and rival_size_read_surely(rule.expected, rule.min_confidence,
                                                                      (*tag.ocr_lines, *tag.reread_lines))):
                # the stock reads' doubts barely allow the expected value, the small-print read (or, for a size, a
                # read where it differs: rival_reads.py) shows another: doubt (neither a pass nor, while the
                # posteriors allow the expected value, a rival's difference)
                return printed
            printed = spotted or _rival_spotted(rule, tag) or printed
        if name == "safety_category" and printed.found is Found.MATCH:
            printed = _class_under_printed_standard(rule, printed, texts)
        if coded is not None and coded.found is Found.MATCH and printed.found is not Found.DIFFERENT:
            return coded  # the bars carry the expected value and the print does not contradict them
        if coded is not None and printed.found is Found.ABSENT:
            return coded
        return printed
    candidates = [c for read, fields in zip(reads, labelled) for c in _candidates(name, read, fields)]
    if coded is not None:
        candidates.append(_Candidate(coded.value, coded.confidence, coded.how, coded.raw))
    if not candidates:
        return FieldEvidence(name, Found.ABSENT)
    best = max(candidates, key=lambda c: c.confidence)
    if rule.pattern is not None:
        passing = [c for c in candidates if _pattern_ok(rule, c.value)]
        if passing:
            best = max(passing, key=lambda c: c.confidence)
            found = Found.MATCH if best.confidence >= rule.min_confidence else Found.NEAR
        else:
            found = Found.DIFFERENT if best.confidence >= rule.min_confidence else Found.NEAR
    else:
        found = Found.MATCH if best.confidence >= rule.min_confidence else Found.NEAR
    return FieldEvidence(name, found, best.value, best.confidence, "ocr", best.how, best.raw)


OPTIONS_LISTED = "every option printed, the marked one not read"
MARKED_OPTION = "the option marked"


def _marked_option(rule: FieldRule, options: Sequence[PrintedOptions], confirming: Sequence[PrintedOptions] = ()
                   ) -> FieldEvidence:
    """The option the tag marks against the expected one. A different option is evidence only where every read
    that lists the options shows the same one marked; the expected one, where one read shows it and none another.
    The small-print recognizer's reads (`confirming`) can show the expected option marked, never another."""
    name = rule.name
    want = _safety_class(rule.expected or "") if name == "safety_category" else field_key(name, rule.expected or "")
    marks = {found.marked for found in options}
    shown = marks - {None}
    confirmed = [found for found in confirming if found.marked == want and found.confidence >= rule.min_confidence]
    if confirmed and shown <= {want}:
        best = max(confirmed, key=lambda found: found.confidence)
        return FieldEvidence(name, Found.MATCH, rule.expected or "", best.confidence, "ocr", MARKED_OPTION, best.raw)
    listed = " ".join(dict.fromkeys(value for found in options for value in found.listed))
    if len(shown) != 1:
        return FieldEvidence(name, Found.NEAR, listed, 0.0, "ocr", OPTIONS_LISTED, options[0].raw)
    marked = next(iter(shown))
    best = max((found for found in options if found.marked == marked), key=lambda found: found.confidence)
    sure = best.confidence >= rule.min_confidence
    if marked == want:
        return FieldEvidence(name, Found.MATCH if sure else Found.NEAR, rule.expected or "", best.confidence, "ocr",
                             MARKED_OPTION, best.raw)
    found = Found.DIFFERENT if sure and None not in marks else Found.NEAR
    return FieldEvidence(name, found, marked, best.confidence, "ocr", MARKED_OPTION, best.raw)


ANOTHER_PART = "printed as another part's fibre content (里料, 填充物 …), not the shell's"
# A part's label: one of PARTS, or a lining's 里料/里布 with its second character misread ('里朴：'). The shell (面料,
# 面布, and 材料/原料 as some tags name the whole content) is the garment's own content; the others' are not.
_PART_LABEL = re.compile("|".join(sorted(PARTS, key=len, reverse=True)) + r"|里[\u4e00-\u9fff](?=[:：])")
_SHELL_LABELS = ("面料", "面布", "材料", "原料")
# A part's 成分 label with its first character misread (里料成分 read '塑料成分'): another part's only where the tag
# reads the shell's label on another line, since the shell's own 面料成分 is misread so too ('图料成分').
_MISREAD_PART_LABEL = re.compile(r"[\u4e00-\u9fff]料(?=成分)")
_SHELL_LINE = re.compile(r"^\s*(?:面料|面布)")


def other_part(line: str, expected: str, shell_elsewhere: bool = False) -> str:
    """The part (里料, 填充物 …) a line labels where it prints the recipe's composition, or '' where that is the
    shell's, no part is named before it, or the recipe itself names its parts (then a table part is matched by
    name: fibre_table.matching_part). `shell_elsewhere`: the tag reads the shell's label on another line."""
    if any(part in expected for part in PARTS):
        return ""
    text, want = (squash(halfwidth(t)).replace("％", "%") for t in (line, expected))
    at = text.find(want)
    if at < 0:  # read with a slip: where its first fibre stands, else the line's end (its one part named)
        fibre = min((f for f in FIBRES if f in want), key=lambda f: (want.find(f), -len(f)), default="")
        at = text.find(fibre) if fibre else -1
        at = len(text) if at < 0 else at
    before = text[:at]
    named = max(((m.start(), m.group(0)) for m in _PART_LABEL.finditer(before)), default=(-1, ""))
    if not named[1] and shell_elsewhere:
        named = max(((m.start(), m.group(0)) for m in _MISREAD_PART_LABEL.finditer(before)), default=(-1, ""))
    return named[1] if named[1] and named[1] not in _SHELL_LABELS else ""


def _shell_elsewhere(reads: Sequence[Sequence[OcrLine]]) -> bool:
    return any(_SHELL_LINE.match(halfwidth(line.text)) for read in reads for line in read)


def _spotted(rule: FieldRule, tag: TagReading) -> FieldEvidence | None:
    """The expected value, supported by a line's own posteriors where its best string differed."""
    # a lining's line that allows the recipe's fibre content is no evidence of the garment's own
    hit = next((s for s in tag.spotted if s.name == rule.name and s.expected == rule.expected
                and not (rule.name == "composition"
                         and other_part(s.line, rule.expected or "", _shell_elsewhere([tag.ocr_lines, tag.reread_lines])))), None)
    if hit is None or rule.name == "price" and _not_charged(hit.line, parse_price(rule.expected or ""), tag.struck_prices):
        return None
    if rule.name == "size" and _x_may_be_merged(field_key("size", rule.expected or "")) and hit.confidence < rule.min_confidence:
        return None  # the posteriors allow XL where XXL is printed and its two Xs merged: as sure as the recipe asks
    return FieldEvidence(rule.name, Found.MATCH, rule.expected or "", hit.confidence, "ocr",
                         "printed as expected (the recognizer's doubts allow it)", hit.line)


def _not_charged(text: str, amount: Decimal | None, struck: Sequence[Decimal]) -> bool:
    """Whether `amount`, where the line `text` shows it, is no price charged: struck through on the tag, or, where the
    tag strikes none, under an offer's label on its line (twentysecond_other 000035: the posteriors of '折后价￥149.00
    吊牌价￥199.00' allowed ¥149.00, the offer, for a recipe naming it)."""
    if amount is None:
        return False
    if amount in struck:
        return True
    line = OcrLine(text, 0.0, (0.0, 0.0, 0.0, 0.0))
    shown = [a for a in _amounts(line) if a.amount == amount]
    return bool(shown) and not struck and all(offered(line, a.start, (line,)) for a in shown)


def _small_print_shows_another(rule: FieldRule, tag: TagReading, spotted_on: str = "") -> bool:
    """Whether the small-print recognizer read the field after its label whole, as sure as the recipe asks on the
    whole, and not as the expected value (9515 000074: 款号：MT83326C at 84 % for MT83329C). That read is never
    evidence against the expected value; it keeps posteriors that barely allow it (the stock reads' 数号：MT8302NC, the
    expected code at 12 %) from passing it: doubt, not a pass. Where the posteriors that allow it are that small-print
    line's own (`spotted_on`: '颜色 樱色' allowing 橙色, s5150 000061), the line itself allows it: no doubt added."""
    lines = tuple(line for line in tag.small_print_lines if line.text != spotted_on)
    if not lines or rule.expected is None:
        return False
    expected = rule.expected
    return any(cand.mean >= rule.min_confidence and fits_grammar(rule.name, cand.value)
               and len(field_key(rule.name, cand.value)) == len(field_key(rule.name, expected))
               and _compare(rule.name, expected, cand, rule.min_confidence) is not Found.MATCH
               for cand in _candidates(rule.name, lines, extract_fields(lines), expected) if cand.how == "after its label")


def _rival_spotted(rule: FieldRule, tag: TagReading) -> FieldEvidence | None:
    """Another value of the field's series that a line shows surely where the expected one is not shown
    (expected.py: a size printed 155/76Y on a tag that should say 160/80Y)."""
    hit = next((s for s in tag.spotted if s.name == rule.name and s.expected != rule.expected), None)
    if hit is None:
        return None
    return FieldEvidence(rule.name, Found.DIFFERENT, hit.expected, hit.confidence, "ocr", RIVAL_SHOWN, hit.line)


def _pattern_ok(rule: FieldRule, value: str) -> bool:
    matcher = getattr(rule, "matcher", None)
    if matcher is not None:
        return bool(matcher.fullmatch(value))
    return re.fullmatch(rule.pattern or "", value) is not None


# A value this short (a letter size, 'F') turns up by chance in any garbled line ('MADE IN CHINA' read '轻m CH4'):
# found there while the field's own label says another value surely, it is no evidence for the expected one.
SHORT_VALUE_CHARS = 2
LABELLED_OTHERWISE = "read after its label as another value, the expected one only elsewhere"


def _labelled_otherwise(rule: FieldRule, hit, reads: Sequence[Sequence[OcrLine]],
                        labelled: Sequence[Mapping[str, FieldReading]]) -> _Candidate | None:
    """The candidate read after the field's own label, where it surely differs from the expected value and the
    expected value was found on another line."""
    for read, fields in zip(reads, labelled):
        for cand in _candidates(rule.name, read, fields, rule.expected or ""):
            if cand.how == "after its label" and (hit.line is None or cand.raw != hit.line.text) \
                    and _compare(rule.name, rule.expected or "", cand, rule.min_confidence) is Found.DIFFERENT:
                return cand
    return None


def _expected(rule: FieldRule, texts: Sequence[Glyphs], reads: Sequence[Sequence[OcrLine]],
              labelled: Sequence[Mapping[str, FieldReading]], line_reads: int,
              small_print: Sequence[OcrLine] = (), confirming: Sequence[OcrLine] = (),
              struck: Sequence[Decimal] = (), turn_deg: float = 0.0) -> FieldEvidence:
    name, expected = rule.name, rule.expected or ""
    if name == "price":
        return _price(rule, reads, labelled, line_reads, small_print, confirming, struck, turn_deg)
    hit = search(_searchable(name, expected), texts, rule.min_confidence)
    if hit.found is Found.MATCH and name == "composition" and hit.line is not None \
            and other_part(hit.line.text, expected, _shell_elsewhere(reads)):
        # the lining's (or the filling's) content printed as the recipe's: the garment's own content is the shell's
        return FieldEvidence(name, Found.NEAR, expected, hit.confidence, "ocr", ANOTHER_PART, hit.line.text)
    if hit.found is Found.MATCH and name == "size" and _x_may_be_merged(field_key(name, expected)) \
            and _x_in_doubt(fold(expected), hit.text, texts, rule.min_confidence):
        hit = replace(hit, found=Found.NEAR)  # judged by what each read shows instead (_compare_value)
    if hit.found is Found.MATCH:
        against = _labelled_otherwise(rule, hit, reads, labelled) if len(fold(expected)) <= SHORT_VALUE_CHARS else None
        if against is not None:
            return FieldEvidence(name, Found.NEAR, against.value, against.confidence, "ocr", LABELLED_OTHERWISE, against.raw)
        return FieldEvidence(name, Found.MATCH, expected, hit.confidence, "ocr", "printed as expected", hit.line.text if hit.line else "")
    partial = _by_parts(rule, texts)
    if partial is not None:
        return partial
    # not printed as expected: what does the tag say instead, in each read?
    verdicts: list[tuple[Found, _Candidate]] = []
    read_of: list[int] = []  # the read each verdict came from
    for index, (read, fields) in enumerate(zip(reads, labelled)):
        found_here: list[tuple[Found, _Candidate, float]] = []
        for cand in _candidates(name, read, fields, expected):
            if not any(ch.isalnum() for ch in cand.value):
                continue  # '*' after 尺码: a speck, no read of any value, neither for the expected one nor against it
            found = _compare(name, expected, cand, rule.min_confidence)
            if found is Found.DIFFERENT and name == "size" and _another_size_system(expected, cand.value):
                # the garment's size in another system names no size of the recipe's: doubt, and the weakest word
                # of a read (a size of the recipe's own system read otherwise beside it still says NG)
                found_here.append((Found.NEAR, cand, _OTHER_SYSTEM_RANK))
            else:
                found_here.append((found, cand, _RANK[found]))
        if found_here:
            found, cand, _rank = min(found_here, key=lambda fcr: (fcr[2], -fcr[1].confidence))
            verdicts.append((found, cand))
            read_of.append(index)
    if any(found is Found.MATCH for found, _ in verdicts):
        found, cand = next(fc for fc in verdicts if fc[0] is Found.MATCH)
        if name == "composition" and other_part(cand.raw, expected, _shell_elsewhere(reads)):  # a lining's line
            return FieldEvidence(name, Found.NEAR, expected, cand.mean, "ocr", ANOTHER_PART, cand.raw)
        return FieldEvidence(name, Found.MATCH, expected, cand.mean, "ocr", cand.how, cand.raw)
    different = [fc for fc in verdicts if fc[0] is Found.DIFFERENT]
    # A read that shows the same different value less surely (one character of 160/88A at 68 %, read at 100 %
    # from another scale) bears the difference out too where another read is sure of every character: it holds
    # no evidence for the expected value. Reads of one crop err alike, so a weak read overruled by a read only
    # fairly sure (女士…针织衫 read 文士…针识衫 at 63 % and at 89 % in 8 px print) still leaves doubt.
    shown = {_difference_key(name, cand.value) for _, cand in different if _sure_of_difference(name, expected, cand)}
    bearing = [index for index, (found, cand) in zip(read_of, verdicts)
               if found is Found.DIFFERENT or (found is Found.NEAR and _difference_key(name, cand.value) in shown)]
    confirmed = sum(1 for index in bearing if index < line_reads)  # line reads that show a different value
    # Reads that each show another value, none of them surely, show a line read poorly, not a misprint: what was
    # printed instead of the expected value is not known (standards_line s6001 000034: GB/T 2664-2017 read
    # 'OB/T 2004-2017' at 84 % once and 'OE/T 2504-2017' at 83 % again, in 15-px print).
    agreed = bool(shown) or len({_difference_key(name, cand.value) for _, cand in different}) <= 1
    if different and agreed and len(bearing) == len(verdicts) and confirmed >= line_reads:
        _found, cand = max(different, key=lambda fc: fc[1].confidence)
        if not _second_recognizer_disputes(name, expected, cand, small_print):
            return FieldEvidence(name, Found.DIFFERENT, cand.value, cand.confidence, "barcode" if "barcode" in cand.how else "ocr", cand.how, cand.raw)
    if verdicts:
        _found, cand = max(verdicts, key=lambda fc: fc[1].confidence)
        return FieldEvidence(name, Found.NEAR, cand.value, cand.confidence, "ocr", cand.how, cand.raw)
    if hit.found is Found.NEAR:
        return FieldEvidence(name, Found.NEAR, hit.text, hit.confidence, "ocr", "close to the expected text", hit.line.text if hit.line else "")
    return FieldEvidence(name, Found.ABSENT)


def _second_recognizer_disputes(name: str, expected: str, cand: _Candidate, small_print: Sequence[OcrLine]) -> bool:
    """Whether the small-print recognizer, reading the field whole after its label, shows another character where
    the stock reads' value departs from the expected one — at every such place. Two reads of one crop by one network
    err alike; a second network that reads the same line whole and shows none of the misprinted characters leaves
    them unknown, not others (twentyfourth_b 000010: FS-39937 in a thin face read FS-39987 at 96 % and 97 % by the
    stock recognizer, its runner-ups 3 and 6, and F8-39967 by the small-print one): doubt, not a misprint. A misprint
    it reads as the stock reads do at one place at least (another code differs in several), or a line it did not
    read whole, leaves the difference standing. So the small-print read may hold a difference in doubt, never make
    one, and never pass a value."""
    if not small_print or "barcode" in cand.how:
        return False
    want, got = field_key(name, expected), field_key(name, cand.value)
    if len(want) != len(got):
        return False
    departs = [i for i, (a, b) in enumerate(zip(want, got)) if a != b]
    if not departs:
        return False
    for other in _candidates(name, small_print, extract_fields(small_print), expected):
        key = field_key(name, other.value)
        if other.how == "after its label" and len(key) == len(got) and all(key[i] != got[i] for i in departs):
            return True
    return False


def _difference_key(name: str, value: str) -> str:
    """What a read says of a field where it differs: for a safety class its class, whether the read took the class
    alone ('B类', read surely) or the whole value ('GB 18401-2010 B类', one character of it faint) — the same B
    (s6001 000105: B类 printed, C类 asked, one read's whole value at 76 % held the sure B类 beside it in doubt)."""
    if name == "safety_category":
        return _safety_class(value) or field_key(name, value)
    if name == "standard":  # its code alone: what a line holds after the year (the safety standard beside it) is not it
        code = _STANDARD_CODE.search(field_key(name, value))
        return code.group(0) if code else field_key(name, value)
    return field_key(name, value)


# A standard's code as normalize_standard writes it: body, number, year ('GB/T 2664-2017', 'FZ/T 73020-2019').
_STANDARD_CODE = re.compile(r"[A-Z0-9]{2}(?:/[A-Z])? ?\d{3,6}(?:\.\d{1,2})?(?:-\d{4})?")


def _sure_of_difference(name: str, expected: str, cand: _Candidate) -> bool:
    """Whether a different value was read surely enough to overrule a weaker read of it: every character
    at SURE_DIFFERENCE, or for a code the characters that differ (the rest may be faint)."""
    if name == "style_number" and _surely_other_code(code_key(expected), code_key(cand.value), cand.chars):
        return True
    if name == "size" and _surely_other_hao_xing(field_key(name, expected), "".join(cand.value.split()), cand.chars):
        return True  # a girth read surely other than the expected one, though the height beside it is faint
    if _another_word(name, field_key(name, expected), field_key(name, cand.value)):
        return True  # read at OTHER_WORD_CONFIDENCE once, the same word read less surely elsewhere bears it out
    if name == "composition" and _surely_other_composition(expected, cand):
        return True  # another fibre read surely where it differs, though a character of it is faint
    return cand.confidence >= SURE_DIFFERENCE


def _x_may_be_merged(size: str) -> bool:
    """Whether a letter size is one a CTC recognizer makes of a larger one or the larger one's reading of it: it writes
    a letter printed twice once where it misses the step between them, so XXL reads 'XL' with its one X at 46 %
    (twentieth 000028, slash_pairs, against an XL recipe, passed as XL on the mean of its characters, 98 % over two
    reads), and an XL recipe's 'XL' read so is no more XL than XXL. Such a size is printed as expected only where some
    read shows every character of it surely."""
    return is_letter_size(size) and "X" in size


def _x_in_doubt(pattern: str, matched: str, texts: Sequence[Glyphs], floor: float) -> bool:
    """Whether a letter size matched as `matched` may be another by its Xs: a match forgiving an X dropped or added
    (XXL matched on 'XL'), or the size read exactly but not every character of it surely in any read. A match
    forgiving another slip with the Xs in place ('X8' for XS: S read 8) keeps its match."""
    if matched.count("X") != pattern.count("X"):
        return True
    return matched == pattern and not _read_surely(pattern, texts, floor)


def _read_surely(pattern: str, texts: Sequence[Glyphs], floor: float) -> bool:
    """Whether some line shows `pattern` with every character of it read at `floor` or more."""
    for glyphs in texts:
        at = glyphs.chars.find(pattern)
        while at >= 0:
            if glyphs.weakest(at, at + len(pattern)) >= floor:
                return True
            at = glyphs.chars.find(pattern, at + 1)
    return False


def _searchable(name: str, expected: str) -> str:
    if name == "style_number":
        return code_key(expected)
    return expected


def _compare(name: str, expected: str, cand: _Candidate, min_conf: float) -> Found:
    found = _compare_value(name, expected, cand, min_conf)
    fits = fits_grammar(name, cand.value) or (name == "size" and size_of_expected_shape(expected, cand.value))
    if found is Found.DIFFERENT and (not fits or another_fields_value(name, cand.value)):
        return Found.NEAR  # not a value of the field at all (a label's remnant, a glued neighbour): a misread, not a misprint
    return found


# Within one read, the candidate that speaks for the field: a match, else doubt, else a difference; a size in another
# system than the recipe's is doubt that ranks after a difference of the recipe's own system.
_RANK = {Found.MATCH: 0, Found.NEAR: 1, Found.DIFFERENT: 2, Found.ABSENT: 3}
_OTHER_SYSTEM_RANK = 2.5


def _another_size_system(expected: str, value: str) -> bool:
    """Whether a size read is written in another system than the recipe's (a 号型 170/74A for a jeans waist of 29,
    170/92A for a letter L, 160/84B for a bra's 75B): a tag printing the size in two systems whose recipe's row was not
    read shows only the other, which is no evidence against the recipe's size. A value neither system names (a size
    with its letter and 号型 together) is judged as before."""
    systems = [_size_system(field_key("size", v)) for v in (expected, value)]
    return None not in systems and systems[0] != systems[1]


def _size_system(key: str) -> str | None:
    if is_letter_size(key):
        return "letter"
    if hao_xing.parse(key) is not None:
        return "号型"
    return f"shape {_shape(key)}" if any(ch.isdigit() for ch in key) and "/" not in key else None


def size_of_expected_shape(expected: str, value: str) -> bool:
    """Whether a size read is written as the recipe's size is, digit for digit and letter for letter ('30' for a
    jeans waist of 29, '80C' for a bra's 75B, 'W30 L32' for W29 L32, '120' for a child's height of 110). The size
    grammar knows letter sizes and 号型; the recipe names the system its tag prints, so a read of the recipe's own
    shape is a size of that system, whichever it is. A letter size keeps its own grammar ('N' or '3XS' is no size)."""
    want, got = field_key("size", expected), field_key("size", value)
    return any(ch.isdigit() for ch in want) and not is_letter_size(want) and _shape(want) == _shape(got)


# Fields of free words (a colour, a product name) whose value can never be written in another field's grammar.
_WORDS_ONLY = ("color", "product_name")


def another_fields_value(name: str, value: str) -> bool:
    """Whether `value`, read where a colour or product name should be, is written as a size (号型), a standard, an
    EAN-13 or a fibre content (a share in %): the next line's value under a label whose own value was not read
    (色号 over 175/88A), or a neighbouring row's tail where the colour's own value is hidden (a thumb over 焦糖色
    leaves '面 5%氨纶 15%' beside 色号：)."""
    if name not in _WORDS_ONLY:
        return False
    text = halfwidth(value).strip().upper()
    return (hao_xing.parse(text) is not None or bool(_GRAMMARS["standard"].match(text))
            or bool(_GRAMMARS["ean13"].match(text)) or bool(_GRAMMARS["composition"].search(text)))


# What a value of a field with a grammar looks like, loosely: enough to tell a misprinted value from a read of
# something else in the field's place ('执行' for a standard: the label's own first characters).
_GRAMMARS = {
    "standard": re.compile(r"[A-Z]{2}\s*(?:/\s*[A-Z])?\s*\d{3,6}", re.IGNORECASE),
    "safety_category": re.compile(r"[ABC]\s*类|18401", re.IGNORECASE),
    "size": re.compile(r"\d{2,3}\s*/\s*\d{2,3}"),  # a 号型; a letter size alone is letter_sizes.is_letter_size
    # a fibre content gives each fibre its share (GB/T 29862): fibre names alone are a table's first row ('面布 锦纶',
    # its shares set apart at the tag's edge), not another content
    "composition": re.compile(r"\d\s*[%％]"),
    "ean13": re.compile(r"^\D*(?:\d\D?){12,13}$"),
}


def fits_grammar(name: str, value: str) -> bool:
    """Whether `value` looks like a value of field `name` (fields without a grammar: always)."""
    grammar = _GRAMMARS.get(name)
    # a standard's code read with a slip ('F2/T', '68/T') is still a standard's code
    text = halfwidth(normalize_standard(value) if name == "standard" else value)
    if name == "size" and is_letter_size(text.strip().upper()):
        return True
    return grammar is None or bool(grammar.search(text))


def _compare_value(name: str, expected: str, cand: _Candidate, min_conf: float) -> Found:
    if name == "style_number":
        want, got = code_key(expected), code_key(cand.value)
        found = compare(want, got, cand.confidence, min_conf, cand.mean)
        if found is Found.NEAR and _surely_other_code(want, got, cand.chars):
            found = Found.DIFFERENT
        if found is Found.DIFFERENT and (_letters_and_digits_swapped(want, got) or _look_alike_letters_swapped(want, got)):
            return Found.NEAR  # the recognizer's confusion, not another code
        return found
    if name == "safety_category":
        want, got = _safety_class(expected), _safety_class(cand.value)
        if want and got:
            if want == got and _another_safety_standard(expected, [cand.raw]):
                return Found.DIFFERENT if cand.confidence >= min_conf else Found.NEAR
            if want == got:
                return Found.MATCH if cand.mean >= min_conf else Found.NEAR
            return Found.DIFFERENT if cand.confidence >= min_conf else Found.NEAR
    if name == "size":
        want, got = field_key(name, expected), field_key(name, cand.value)
        if want == got and is_letter_size(want) and _read_in_two_cases(got, cand.raw):
            return Found.NEAR  # 'xXL' on the line: the lowercase x is no X printed (matching.mixed_case)
        if want == got and _x_may_be_merged(want) and cand.confidence < min_conf:
            return Found.NEAR  # its X faint: XXL read 'XL' (_x_may_be_merged)
        if want != got and is_letter_size(want) and is_letter_size(got):
            # two letter sizes, each a value of the field: a merged or lost X is a slip only until every read (the
            # unsqueezed re-read too, which keeps repeated letters apart) shows the other size surely
            return Found.DIFFERENT if cand.confidence >= SURE_DIFFERENCE else Found.NEAR
        if body_type_read_as_digit(want, "".join(got.split())):
            return Found.NEAR  # '160/884' for 160/88A: the expected size, its body type read as a digit
        if _surely_other_hao_xing(want, "".join(cand.value.split()), cand.chars):
            return Found.DIFFERENT
    if name == "grade":
        want, got = field_key(name, expected), field_key(name, cand.value)
        if want != got and want in GRADES and got in GRADES:
            # two of the three grades: the characters that tell them apart (优/一/合格) look nothing alike, so the
            # one-character rule for words (a look-alike slip) does not apply; read at the recipe's confidence, and
            # where two characters differ (合格品 for 优等品: two slips landing on another grade) at OTHER_WORD_CONFIDENCE
            sure = min(min_conf, OTHER_WORD_CONFIDENCE) if _another_grade(want, got) else min_conf
            return Found.DIFFERENT if cand.confidence >= sure else Found.NEAR
    if name == "color" and _another_colour(field_key(name, expected), field_key(name, cand.value)):
        # another colour word, not one character of it printed as expected: no slip of the recognizer turns 宝蓝
        # into 焦糖色, so it is read at OTHER_WORD_CONFIDENCE, not the recipe's (a misread keeps some characters)
        return Found.DIFFERENT if cand.confidence >= min(min_conf, OTHER_WORD_CONFIDENCE) else Found.NEAR
    if name == "ean13":
        if normalize_ean(cand.value) == normalize_ean(expected):
            return Found.MATCH if cand.mean >= min_conf else Found.NEAR
    if name == "color" and field_key(name, _colour_name(expected, cand.value)) == field_key(name, expected) != "":
        return Found.MATCH if cand.mean >= min_conf else Found.NEAR
    if field_key(name, cand.value) == field_key(name, expected) or (name == "composition" and _same_components(expected, cand.value)):
        return Found.MATCH if cand.mean >= min_conf else Found.NEAR
    if name == "composition" and _surely_other_composition(expected, cand):
        return Found.DIFFERENT
    return compare(normalize_field(name, expected) or expected, cand.value, cand.confidence, min_conf, cand.mean,
                   words=name in WORD_FIELDS)


# A component of a fibre content: the fibre, then its share.
_COMPONENT = re.compile(r"([\u4e00-\u9fff]+)\s*(\d+(?:\.\d+)?)\s*%")
_SHARE_FIRST = re.compile(r"(\d+(?:\.\d+)?)\s*%\s*([\u4e00-\u9fff]+)")
_SHARE = re.compile(r"\d+(?:\.\d+)?\s*%")
_LEADING_LABEL = re.compile(r"^\s*[\u4e00-\u9fff]{1,6}\s*[:：]\s*")


def _read_in_two_cases(size: str, raw: str) -> bool:
    """Whether the line a letter size was taken from shows it only with letters of both cases ('规箱：xXL' for XXL)."""
    tokens = [m.group(0) for m in re.finditer(r"[A-Za-z0-9]+", halfwidth(raw)) if m.group(0).upper() == size]
    return bool(tokens) and all(mixed_case(token) for token in tokens)


# A maker's colour code beside the name: before it ('C09 藏青', '09#藏青', '12号 藏青') or after it ('藏青（C09）', '藏青 C09').
_CODE_BEFORE = re.compile(r"^\s*[A-Z]{0,2}\d{1,4}\s*[#号]?\s*(?=[\u4e00-\u9fff])")
_CODE_AFTER = re.compile(r"(?<=[\u4e00-\u9fff])\s*(?:[(（]\s*[A-Z]{0,2}\d{1,4}\s*[)）]|[A-Z]{0,2}\d{1,4})\s*$")


def _colour_name(expected: str, read: str) -> str:
    """`read` without a colour code printed beside the name, where the recipe names the colour alone (no digit in it):
    the code is the maker's number for the same colour, not part of its name. A recipe holding the code keeps it."""
    if re.search(r"\d", expected):
        return read
    text = halfwidth(read).upper()
    return _CODE_AFTER.sub("", _CODE_BEFORE.sub("", text))


def _another_colour(want: str, got: str) -> bool:
    """Whether `got` is a colour word of at least two characters sharing none with the expected colour `want`."""
    return len(got) >= 2 and bool(_COLOUR_WORD.match(got)) and not set(got) & set(want)


def _another_grade(want: str, got: str) -> bool:
    """Whether `got` is another of the three grades, two characters away from the expected `want`."""
    return want in GRADES and got in GRADES and sum(a != b for a, b in zip(want, got)) >= 2


def _another_word(name: str, want: str, got: str) -> bool:
    """Whether `got` is another colour or grade that no slip of the recognizer makes of the expected `want`."""
    return (name == "color" and _another_colour(want, got)) or (name == "grade" and _another_grade(want, got))


def _components(text: str) -> list[tuple[str, Decimal]]:
    """(fibre, share) of each component, in the print's order: the fibre before its share ('棉65%') or the share
    before its fibre ('65%棉 30%聚酯纤维'), as FZ/T 01053 allows both. Read fibre-first, '65%棉 30%聚酯纤维 5%氨纶'
    pairs each share with the next fibre."""
    text = halfwidth(text)
    if _share_first(text):
        return [(m.group(2), Decimal(m.group(1))) for m in _SHARE_FIRST.finditer(text)]
    return [(m.group(1), Decimal(m.group(2))) for m in _COMPONENT.finditer(text)]


def _share_first(text: str) -> bool:
    """Whether the first share comes before any fibre (a label and its colon aside)."""
    first = _SHARE.search(text)
    return bool(first) and not re.search(r"[\u4e00-\u9fff]", _LEADING_LABEL.sub("", text[: first.start()]))


def _same_components(expected: str, read: str) -> bool:
    """Whether two fibre contents list the same fibres with the same shares in the same order, each wholly made of
    components and separators, whichever order each prints fibre and share in and however they are parted."""
    return _only_components(expected) and _only_components(read) and _components(expected) == _components(read)


def _only_components(text: str) -> bool:
    text = _LEADING_LABEL.sub("", halfwidth(text))
    pattern = _SHARE_FIRST if _share_first(text) else _COMPONENT
    return bool(pattern.search(text)) and not pattern.sub("", text).strip(" ,，、;；/")


def _surely_other_composition(expected: str, cand: _Candidate) -> bool:
    """A fibre content read surely (every character at SURE_SINGLE) whose components line up one by one with
    the expected ones and name another fibre of the vocabulary, printed as such (not mended into one), or
    another share. Compared as a whole line, one fibre in three (桑蚕丝 for 绵羊毛) was under a quarter of the
    text and so only "near"; a look-alike slip gives no fibre (锦纶 read 能纶), so it stays near."""
    want, got = _components(expected), _components(cand.value)
    if not want or len(want) != len(got):
        return False
    if cand.confidence < SURE_SINGLE:
        return _surely_another_fibre(want, got, cand)
    raw = halfwidth(cand.raw)
    differs = False
    for (want_fibre, want_share), (got_fibre, got_share) in zip(want, got):
        if want_fibre != got_fibre:
            if got_fibre not in FIBRES or got_fibre not in raw:
                return False
            differs = True
        elif want_share != got_share:
            differs = True
    return differs


def _surely_another_fibre(want: list[tuple[str, Decimal]], got: list[tuple[str, Decimal]], cand: _Candidate) -> bool:
    """A fibre content read with a faint character, whose components line up with the expected ones, one of them
    another fibre of the vocabulary with two characters the expected fibre lacks, each read surely: no slip of the
    recognizer makes 绵羊毛 into 桑?丝 (thirteenth 9314, 000095: 桑蚕丝 95% 棉 5% read with 蚕 at 38 % on a job of
    绵羊毛 95% 棉 5%). Where the characters are not known one by one, or the faint one tells the fibres apart, near."""
    text = squash(halfwidth(cand.value))
    if len(cand.chars) != len(text):
        return False
    at = 0
    for (want_fibre, _), (got_fibre, _) in zip(want, got):
        at = text.find(got_fibre, at)
        if at < 0:
            return False
        sure_others = [ch for ch, c in zip(got_fibre, cand.chars[at : at + len(got_fibre)]) if c >= SURE_SINGLE and ch not in want_fibre]
        if want_fibre != got_fibre and got_fibre in FIBRES and len(sure_others) >= 2:
            return True
        at += len(got_fibre)
    return False


def _by_parts(rule: FieldRule, texts: Sequence[Glyphs]) -> FieldEvidence | None:
    """Values printed in pieces: '175/92A(XL)' as '175/92A' and a big 'XL'; 'GB 18401-2010 B类' as
    its class alone."""
    name, expected = rule.name, rule.expected or ""
    if name == "size":
        parts = [p for p in re.split(r"[()（）\s]+", halfwidth(expected)) if p]
        if len(parts) > 1:
            hits = [search(part, texts, rule.min_confidence) for part in parts]
            if all(h.found is Found.MATCH for h in hits):
                conf = min(h.confidence for h in hits)
                return FieldEvidence(name, Found.MATCH, expected, conf, "ocr", "printed in parts", " / ".join(h.text for h in hits))
    if name == "safety_category":
        letter = _safety_class(expected)
        if letter:
            hit = search(letter, texts, rule.min_confidence)
            if hit.found is Found.MATCH:
                line = hit.line.text if hit.line else ""
                # every read of the class's line: one may have lost a digit of the standard's number ('GB T8401')
                reads = [g.source.text for g in texts if _safety_class(g.source.text) == letter]
                other = _another_safety_standard(expected, reads)
                if other:  # the class is the recipe's, under the other safety standard: another product's tag
                    return FieldEvidence(name, Found.DIFFERENT, f"{other} {letter}", hit.confidence, "ocr",
                                         "its class under another safety standard", line)
                return FieldEvidence(name, Found.MATCH, expected, hit.confidence, "ocr", "its class printed", line)
    return None


# The mandatory safety standards a tag's class is given under: GB 18401 (textiles) and GB 31701 (infants' and
# children's textiles). Four of five digits differ, so no misread turns one into the other.
SAFETY_STANDARDS = ("18401", "31701")


def _another_safety_standard(expected: str, lines: Sequence[str]) -> str:
    """The other safety standard ('GB 18401') where the reads of the line the class was read on name it, and none
    names the one the recipe names (a children's GB 31701 B类 asked, GB 18401-2010 B类 printed); '' otherwise: lines
    without a standard's number, or a recipe naming none, match by the class."""
    digits = [re.sub(r"\D", "", halfwidth(line)) for line in lines]  # a speck read inside the number: 'GB 18.401'
    wanted = next((number for number in SAFETY_STANDARDS if number in re.sub(r"\D", "", halfwidth(expected))), "")
    named = [number for number in SAFETY_STANDARDS if any(number in line for line in digits)]
    return f"GB {named[0]}" if wanted and named and wanted not in named else ""


def _class_under_printed_standard(rule: FieldRule, printed: FieldEvidence, texts: Sequence[Glyphs]) -> FieldEvidence:
    """A class matched on a line naming no safety standard (wrapped onto a line of its own under 'GB 18401-2010', or
    printed apart from it) is given under the standard the tag's other lines name: the recipe's class under the other
    safety standard, the recipe's named nowhere, is another product's tag (twentythird 000001, letterpress: a
    children's GB 31701-2015 B类 asked, 'GB18401-2010' then 'B类' under it, was OK on the class alone). A class
    whose own line names a standard was judged there; a tag naming no safety standard is judged by its class."""
    if any(number in re.sub(r"\D", "", halfwidth(printed.raw)) for number in SAFETY_STANDARDS):
        return printed
    expected = rule.expected or ""
    other = _another_safety_standard(expected, [g.source.text for g in texts])
    if not other:
        return printed
    found = Found.DIFFERENT if printed.confidence >= rule.min_confidence else Found.NEAR
    return FieldEvidence(rule.name, found, f"{other} {_safety_class(expected)}", printed.confidence, "ocr",
                         "its class under another safety standard, printed apart", printed.raw)


# GB 18401's class: a letter before 类 (read as a look-alike or not), or the letter printed right after the
# standard's year ('GB 18401-2010 C类' read 'GB 184012010C表': the class is C whatever 类 became)
_CLASS_BEFORE_LEI = re.compile(r"([ABC])\s*[类頬突美米]")
_CLASS_AFTER_YEAR = re.compile(r"18401\D{0,2}\d{4}\s*([ABC])(?![A-Z0-9])")


def _safety_class(text: str) -> str:
    text = squash(text).upper()
    match = _CLASS_BEFORE_LEI.search(text) or _CLASS_AFTER_YEAR.search(text)
    return f"{match.group(1)}类" if match else ""


# -- where a field's value sits when it is not the expected one -------------------------------------
_COLOUR_WORD = re.compile(r"^[\u4e00-\u9fff]{1,3}色$|^(?:藏青|卡其|米白|酒红|墨绿|杏|驼|咖啡|军绿|宝蓝|浅灰|深灰|花灰|黑|白|红|蓝|灰|绿|黄|紫|粉|棕)$")


# Fields a recipe names in words. An export tag prints them again in European languages under their own labels
# ('COLOUR / COULEUR / FARBE' over 'NAVY / MARINE / MARINEBLAU', 'COMPOSITION' over '95% COTTON 5% ELASTANE'): a
# translation of the value the recipe names in Chinese characters, never a read of it, for it or against it.
_TRANSLATED = ("product_name", "color", "composition")
_CJK = re.compile(r"[\u4e00-\u9fff]")
_LATIN_WORD = re.compile(r"[^\W\d_]{2,}")


def in_another_language(name: str, expected: str, value: str) -> bool:
    """Whether `value`, read after a label of field `name`, is that field in another language than the recipe's: Latin
    words without a Chinese character, where the recipe names the field in Chinese characters."""
    return (name in _TRANSLATED and bool(_CJK.search(expected)) and not _CJK.search(value)
            and bool(_LATIN_WORD.search(value)))


def _in_recipes_language(name: str, expected: str, lines: Sequence[OcrLine], reading: FieldReading | None) -> FieldReading | None:
    """The field read after its label, in the recipe's language: where the labelled value is a translation (an export
    tag's European lines read more surely than its Chinese row), the field as the read's other lines give it."""
    if reading is None or not expected or not in_another_language(name, expected, reading.value):
        return reading
    own = [line for line in lines if not _gave(line.text, reading.raw) and not _gave(halfwidth(line.text), reading.raw)]
    if len(own) == len(lines):
        return None
    other = extract_fields(tuple(own)).get(name)
    return None if other is None or in_another_language(name, expected, other.value) else other


def _gave(text: str, raw: str) -> bool:
    """Whether a line is the one a field was read from, or one of the two a label over its value joins ('L / V')."""
    return raw == text or raw.startswith(f"{text} / ") or raw.endswith(f" / {text}")


def _candidates(name: str, lines: Sequence[OcrLine], labelled: Mapping[str, FieldReading], expected: str = "") -> list[_Candidate]:
    out: list[_Candidate] = []
    reading = _in_recipes_language(name, expected, lines, labelled.get(name))
    if reading is not None and reading.source != "barcode":  # what bars carry is weighed apart from the print
        line = next((line for line in lines if reading.raw in (line.text, halfwidth(line.text))), None)
        typical = float(line.confidence) if line is not None else reading.confidence
        value = size_part(expected, reading.value) if name == "size" else reading.value
        # a fibre content's characters are kept without its spaces (_surely_other_composition finds its fibres in them)
        chars = _value_confidences(line, squash(value) if name == "composition" else value) if line is not None else ()
        confidence = min(chars) if value != reading.value and chars else reading.confidence  # the part's own weakest
        out.append(_Candidate(value, confidence, "after its label", reading.raw, max(typical, confidence), chars))
    if name == "size":  # a 号型 token with its letter ('170/88B(L)') as the part the recipe names
        out.extend(replace(token, value=size_part(expected, token.value)) for token in _size_tokens(lines))
    elif name == "color":
        out.extend(_colour_lines(lines))
    elif name == "composition":
        # a line the labelled value ran on to ('成分：桑蚕丝 92%' over '亚麻 6% 粘纤 2%') is part of it, not a fibre
        # content of its own: alone it is the expected one's tail, which left a difference in the first fibre NEAR
        joined = squash(halfwidth(out[0].value)) if out else ""
        out.extend(cand for cand in _composition_lines(lines)
                   if not joined or (part := squash(cand.value)) == joined or part not in joined)
        out.extend(_composition_table(expected, lines))
    elif name == "safety_category":
        for line in lines:
            letter = _safety_class(line.text)
            if letter:
                out.append(_Candidate(letter, _weakest(line, line.text.find(letter[0]), line.text.find(letter[0]) + 2), "a safety class", line.text))
    elif name == "grade":
        out.extend(_grade_words(lines))
    elif name == "style_number" and expected and reading is None:  # no label led to it: printed bare, perhaps
        out.extend(_codes_shaped_like(expected, lines))
    elif name == "standard" and expected and reading is None:  # no label read before it (boxed alone, reversed out)
        out.extend(_standard_numbers_like(expected, lines))
    return out


def _shape(key: str) -> str:
    return "".join("9" if ch.isdigit() else "A" if ch.isalpha() else ch for ch in key)


def _codes_shaped_like(expected: str, lines: Sequence[OcrLine]) -> list[_Candidate]:
    """Words printed without a label that have the expected code's shape (its letters, digits and signs in the
    same places: `KX-16190-01` for `KX-16191-01`) and share at least half its characters: where a tag prints its
    style number bare, the recipe's own code is the grammar that finds it."""
    want = code_key(expected)
    if len(want) < MIN_CODE_CHARS or not any(ch.isdigit() for ch in want):
        return []
    out = []
    for line in lines:
        for word in re.finditer(r"[^\s:：]+", line.text):
            key = code_key(word.group(0))
            if len(key) != len(want) or _shape(key) != _shape(want) or key == want:
                continue
            if sum(a == b for a, b in zip(key, want)) * 2 < len(want):
                continue
            value = word.group(0)
            out.append(_Candidate(value, _weakest(line, word.start(), word.end()), "a code of the expected's shape", line.text,
                                  chars=_value_confidences(line, value)))
    return out


# A standard's code, number and year as a line prints it ('GB/T 22849-2014', 'FZ/T73020-2019', '68/T 22849-2014').
_STANDARD_NUMBER = re.compile(r"(?<![A-Z0-9])[A-Z0-9]{2}\s*/?\s*T?\s*(\d{3,5}(?:\.\d+)?\s*-\s*(?:19|20)\d\d)(?!\d)")


def _standard_numbers_like(expected: str, lines: Sequence[OcrLine]) -> list[_Candidate]:
    """Standards printed where no label was read before them (s6001 000066: each label reversed out of a tiny black
    box, unread) whose number and year are the expected one's but for one or two digits: the recipe's own standard
    is the grammar that finds them. Another standard the tag prints (GB 18401-2010 beside a product standard, a
    second product standard) differs in more, or in length, and is left alone."""
    want = _STANDARD_NUMBER.search(halfwidth(normalize_field("standard", expected)).upper())
    if want is None:
        return []
    number = re.sub(r"\s", "", want.group(1))
    out = []
    for line in lines:
        for found in _STANDARD_NUMBER.finditer(halfwidth(line.text).upper()):
            got = re.sub(r"\s", "", found.group(1))
            if len(got) != len(number) or not 0 < sum(a != b for a, b in zip(got, number)) <= 2:
                continue
            value = line.text[found.start() : found.end()]
            out.append(_Candidate(value, _weakest(line, found.start(), found.end()), "a standard's number", line.text))
    return out


def _grade_words(lines: Sequence[OcrLine]) -> list[_Candidate]:
    """The grades a tag can print (优等品, 一等品, 合格品) wherever a line shows one: a read whose label came out
    garbled ('等吸 一等品') still shows which grade is printed."""
    out = []
    for line in lines:
        for grade in GRADES:
            at = line.text.find(grade)
            if at >= 0:
                out.append(_Candidate(grade, _weakest(line, at, at + len(grade)), "a grade word", line.text, float(line.confidence)))
    return out


def _value_confidences(line: OcrLine, value: str) -> tuple[float, ...]:
    """Each character's confidence of `value` (a code, upper case, no spaces) where the line prints
    it; () where it is not found character for character."""
    if len(line.char_confidences) != len(line.text):
        return ()
    half = halfwidth(line.text)
    text = half if len(half) == len(line.text) else line.text  # aligned with the confidences
    kept = [(ch.upper(), c) for ch, c in zip(text, line.char_confidences) if not ch.isspace()]
    at = "".join(ch for ch, _ in kept).rfind(value.upper())
    if at < 0:  # a stray point the value was cleaned of ('160/8.4Y' read for 160/84Y)
        kept = [(ch, c) for ch, c in kept if ch not in _STRAY_POINTS or ch in value]
        at = "".join(ch for ch, _ in kept).rfind(value.upper())
    return tuple(c for _, c in kept[at : at + len(value)]) if at >= 0 else ()


_STRAY_POINTS = ".,·、"


def _surely_other_hao_xing(expected: str, read: str, chars: Sequence[float]) -> bool:
    """Two 号型 sizes of one length ('160/84Y' read for 165/84Y) whose differing characters were read surely, all of
    them or two (`_surely_differs`): another size printed, not a slip. '168/84Y' at [1, 1, 0.39, 1, 1, 1, 1] for
    155/80Y shows a 6 and a girth of 84 at 100 % however its height's last digit reads; every other read must still
    bear the difference out (`_expected`)."""
    if len(chars) != len(read):
        return False
    kept = [(ch, c) for ch, c in zip(read.upper(), chars) if ch not in _STRAY_POINTS]  # '160/8.4Y': a stray point
    read, chars = "".join(ch for ch, _ in kept), [c for _, c in kept]
    if read == expected or hao_xing.parse(expected) is None:
        return False
    if len(read) == len(expected) and hao_xing.parse(read) is not None:
        return _surely_differs(expected, read, chars)
    # the body type lost or read as a digit ('175/1048' for 180/104B): height and girth alone, where they differ surely
    want, got = _HEIGHT_GIRTH.match(expected), _HEIGHT_GIRTH.match(read)
    if want is None or got is None or len(want.group(0)) != len(got.group(0)) or want.group(0) == got.group(0):
        return False
    return _surely_differs(want.group(0), got.group(0), chars)


def body_type_read_as_digit(expected: str, read: str) -> bool:
    """Whether a 号型 read is the expected one's height and girth with a digit where its body type letter is
    ('160/884' for 160/88A, '180/1048' for 180/104B): an A's apex and bar read as a 4 (slanted or small print), a B
    as an 8. No chest or waist girth runs to a third digit past the expected's two (nor a fourth past three), so the
    read is the expected size with its letter misread: doubt, never another size. A size printed with another body
    type read as a letter ('160/88B'), or another height or girth, is judged as before."""
    parsed = hao_xing.parse(expected)
    if parsed is None or not parsed[2] or len(read) != len(expected):
        return False
    return read[:-1] == expected[:-1] and read[-1].isdigit()


def _surely_differs(expected: str, read: str, chars: Sequence[float]) -> bool:
    """Whether a read of the expected value's length shows another value: every character that differs read surely,
    or two of them, whatever the others are. One sure slip beside a faint one is a slip still (9516 000080, a good
    160/104A tag in 13-px print: '100/101', its 0 at 99 % and its 1 at 74 %); two sure slips are not ('168/84Y', its
    6 and 4 at 100 %, for 155/80Y)."""
    differing = [c for a, b, c in zip(expected, read, chars) if a != b]
    return bool(differing) and (min(differing) >= SURE_DIFFERENCE or sum(c >= SURE_DIFFERENCE for c in differing) >= 2)


_HEIGHT_GIRTH = re.compile(r"^\d{2,3}/\d{2,3}")


def _surely_other_code(expected: str, read: str, chars: Sequence[float]) -> bool:
    """A code of the expected length whose differing characters were each read surely: the rest
    of it read unsurely (a faint first letter) does not make '6' against an expected '9' doubtful.
    Look-alikes are already folded (code_key), so what differs is not a confusion."""
    if len(chars) != len(read) or len(read) != len(expected) or read == expected:
        return False
    differing = [c for want, got, c in zip(expected, read, chars) if want != got]
    return 0 < len(differing) and min(differing) >= SURE_DIFFERENCE


def _letters_and_digits_swapped(expected: str, read: str) -> bool:
    """A code read with letters where the expected has digits, or digits where it has letters, and no other
    difference: `29010409B` for `ZS010409B`. A recognizer turns a thin-stroked letter prefix into digits surely (Z
    into 2, S into 9 on a 20-px line read at 100 %); a tag printed with another style's number differs in the
    digits, or in the letters for letters."""
    if len(expected) != len(read) or expected == read:
        return False
    return all(a.isdigit() != b.isdigit() and a.isalnum() and b.isalnum() for a, b in zip(expected, read) if a != b)


# Capital letters whose glyphs differ only in a small part that dot-matrix, woven or worn print does not keep
# apart: a 5×7 matrix draws U and V alike but for the bottom two rows (a V's point is a U's bowl), and the
# recognizer reads either surely.
_LOOK_ALIKE_LETTERS = frozenset({frozenset("UV")})


def _look_alike_letters_swapped(expected: str, read: str) -> bool:
    """A code read with a look-alike letter where the expected has its twin, and no other difference: `U38181147`
    for `V38181147` on a CIJ coder's 5×7 print. Neither is evidence for a tag printed with another style's number,
    whose digits differ."""
    if len(expected) != len(read) or expected == read:
        return False
    return all(frozenset((a, b)) in _LOOK_ALIKE_LETTERS for a, b in zip(expected, read) if a != b)


def _weakest(line: OcrLine, start: int, end: int) -> float:
    """The least sure character of a span (spaces aside); the line's mean where characters are unknown."""
    chars = line.char_confidences
    if len(chars) == len(line.text) and 0 <= start < end <= len(chars):
        weighed = [c for ch, c in zip(line.text[start:end], chars[start:end]) if not ch.isspace()]
        return float(min(weighed)) if weighed else float(line.confidence)
    return float(line.confidence)


# A bare code shorter than this is not told from the tag's other numbers by its shape.
MIN_CODE_CHARS = 6
# A tag printing the style's whole size run (S M L XL XXL, or 155/80A 160/84A 165/88A) marks the garment's size
# with a box, a ring or a tick, which the reader does not see: it shows this many sizes of one kind.
SIZE_RUN = "a run of sizes, the marked one not read"
MIN_RUN_SIZES = 3
MARKED_IN_RUN = "the entry a run of sizes marks"
RIVAL_SHOWN = "another size of the series, shown surely where the expected one is not"


def size_run(lines: Sequence[OcrLine]) -> tuple[str, ...]:
    """The sizes a tag prints as a run (MIN_RUN_SIZES or more different letter sizes, or 号型), in reading order;
    () where it prints one size (a 号型 with its letter size is one). A 号型 of a run stands whole (run_entries)."""
    letters: dict[str, None] = {}
    numeric: dict[str, None] = {}
    for line in lines:
        text = halfwidth(line.text).upper()
        letters.update((token, None) for token in LETTER_SIZE_IN_TEXT.findall(text))
        numeric.update((token, None) for token in run_entries(text))
    numeric = dict.fromkeys(_apart(tuple(numeric)))
    for found in (letters, numeric):
        if len(found) >= MIN_RUN_SIZES:
            return tuple(found)
    return ()


def run_entries(text: str) -> list[str]:
    """The 号型 a line (half-width, upper case) prints as entries a run could hold: each standing whole. A 号型's
    girth may be followed by one digit, its body type read as one ('175/1008': a B read as an 8, as a run's small
    cells often are), or by a space and whatever the run prints next ('155/8481 8160/88': rings or boxes read as
    digits between the entries); two digits or more running on past it, with no space between, make a longer number,
    no size ('执行标准 108/1 2853-3': a standard's number whose spaces fell out, 108/128 and 53 after it). A 号型 is
    looked for with the line's spaces dropped ('1 65/88A') and with those around its slash alone ('110/56 120/60',
    whose squashed '110/56120/60' reads no entry whole)."""
    kept = [k for k, ch in enumerate(text) if not ch.isspace()]
    squashed = "".join(text[k] for k in kept)
    slashed = _AROUND_SLASH.sub("/", text)
    found = _whole_entries(squashed, lambda end: text[kept[end - 1] + 1 :]) + _whole_entries(slashed, lambda end: slashed[end:])
    return list(dict.fromkeys(found))


_AROUND_SLASH = re.compile(r"\s*/\s*")


def _whole_entries(form: str, printed_after: Callable[[int], str]) -> list[str]:
    """The 号型 of one form of a line that stand whole; `printed_after(end)`: the line as printed after a token that
    ends at `end` in the form."""
    out = []
    for match in hao_xing.IN_TEXT.finditer(form):
        token = match.group(1)
        after = printed_after(match.end(1))[:2]
        if token[-1].isdigit() and len(after) == 2 and after.isdigit():
            continue
        out.append(token)
    return out


def run_like(lines: Sequence[OcrLine]) -> bool:
    """Whether the lines look like a printed size run, even read too poorly for size_run to name three sizes: a
    line with two or more check boxes, or two letter sizes ('xS Os M 1 xI ■XxX')."""
    for line in lines:
        text = halfwidth(line.text).upper()
        if sum(text.count(box) for box in _BOXES) >= 2 or sum("/" not in token for token in size_tokens(text)) >= 2:
            return True
    return False


_BOXES = "□■☑☐▢"


def _apart(tokens: Sequence[str]) -> list[str]:
    """号型 tokens that are different sizes: two a single character apart are one size read two ways (a tear-off
    stub repeating the slip's 165/84Y read 105/84Y); neighbours in a series differ in height and chest, two
    characters at least (160/84A, 165/88A)."""
    kept: list[str] = []
    for token in tokens:
        if not any(edit_distance(token, other) <= 1 for other in kept):
            kept.append(token)
    return kept


def _marked_in_run(rule: FieldRule, tag: TagReading) -> FieldEvidence | None:
    """The size a run marks (read on its own while verifying, size_marks.py) against the expected one."""
    marked = tag.marked_size
    if marked is None or rule.expected is None:
        return None
    if _letter_size(field_key("size", rule.expected)) != _letter_size(field_key("size", marked.value)):
        # a chart's column marked: its letter (XXL) and its 号型 (180/100A) one size in two systems, read in the other
        return None
    found = compare(field_key("size", rule.expected), field_key("size", marked.value), marked.confidence, rule.min_confidence,
                    marked.typical)
    if found is Found.ABSENT:
        return None
    value = rule.expected if found is Found.MATCH else marked.value
    raw = f"{marked.read} (the marked entry of {marked.entries})"
    return FieldEvidence(rule.name, found, value, marked.typical if found is Found.MATCH else marked.confidence, "ocr",
                         MARKED_IN_RUN, raw)


def _named_in_size_row(rule: FieldRule, reads: Sequence[Sequence[OcrLine]]) -> FieldEvidence | None:
    """The recipe's size where size rows name it alone and none names another (size_rows.py); None otherwise."""
    named = named_sizes(reads)
    if not named or rule.expected is None:
        return None
    expected = field_key("size", rule.expected)
    found = [compare(expected, field_key("size", size), confidence, rule.min_confidence) for size, confidence in named]
    if Found.MATCH not in found or any(f is not Found.MATCH for f in found):
        return None
    confidence = max(c for _, c in named)
    return FieldEvidence(rule.name, Found.MATCH, rule.expected, confidence, "ocr", SIZE_ROW, named[0][0])


# A size printed as its letter and its 号型 together: 'S(160/84A)', '170/88B(L)', 'M 165/88A'.
_LETTER_WITH_HAO_XING = re.compile(r"^([^()\s]+)\s*(?:\(([^()\s]+)\)|\s([^()\s]+))$")


def _letter_size(key: str) -> bool:
    return is_letter_size(key)


def size_part(expected: str, value: str) -> str:
    """Of a size read as its letter and its 号型 together, the part the recipe names alone: the letter of
    'S(160/84A)' for a job of S, the 号型 of '170/88B(L)' for a job of 175/88B (whose difference then shows); the
    value as read where it is one size, or the recipe names both."""
    found = _LETTER_WITH_HAO_XING.match(squash(halfwidth(value)).upper()) or _LETTER_WITH_HAO_XING.match(halfwidth(value).strip().upper())
    if found is None:
        return value
    first, second = found.group(1), found.group(2) or found.group(3)
    if is_letter_size(first) and hao_xing.parse(second) is not None:
        letter, body = first, second
    elif is_letter_size(second) and hao_xing.parse(first) is not None:
        letter, body = second, first
    else:
        return value
    wanted = squash(halfwidth(expected)).upper()
    if is_letter_size(wanted):
        return letter
    return body if hao_xing.parse(wanted) is not None else value


def _size_tokens(lines: Sequence[OcrLine]) -> list[_Candidate]:
    out = []
    for line in lines:
        text = halfwidth(line.text).upper()
        aligned = len(text) == len(line.text)
        scored = aligned and len(line.char_confidences) == len(line.text)
        for match in hao_xing.IN_TEXT.finditer(text):
            weakest = _weakest(line, match.start(), match.end()) if aligned else _weakest(line, 0, 0)
            # each character's confidence, as for a labelled value: a girth read surely beside a faint height digit
            chars = tuple(c for ch, c in zip(match.group(0), line.char_confidences[match.start():match.end()])
                          if not ch.isspace()) if scored else ()
            out.append(_Candidate(match.group(0), weakest, "a 号型 token", line.text, float(line.confidence), chars))
        bare = squash(text)
        if is_letter_size(bare):
            out.append(_Candidate(bare, _weakest(line, 0, len(line.text)), "a size on its own line", line.text, float(line.confidence)))
    return out


_LABEL_WORDS = frozenset(squash(label).upper() for label in LABELS)


def _colour_lines(lines: Sequence[OcrLine]) -> list[_Candidate]:
    """Lines that read as a colour on their own; never a label alone (颜色, 色号: a column of labels whose
    values the box cut off is no colour), nor a label with its value ('颜色紫色' fits '…色' too: its value is the
    one read after the label, and the whole line taken for a colour left a misprinted 紫色 in doubt)."""
    return [_Candidate(squash(line.text), _weakest(line, 0, len(line.text)), "a colour on its own line", line.text, float(line.confidence))
            for line in lines if _COLOUR_WORD.match(word := squash(line.text)) and word.upper() not in _LABEL_WORDS
            and not _starts_with_label(word)]


def _starts_with_label(word: str) -> bool:
    labels = split_labeled(word)
    return bool(labels) and labels[0][2] == 0 and labels[0][0] is not None


def _composition_lines(lines: Sequence[OcrLine]) -> list[_Candidate]:
    """Lines that are a fibre content and nothing else ('锦纶 100%', '棉 60% 氨纶 40%'; tags that print values
    without labels): each part a fibre of the vocabulary with its share."""
    out = []
    for line in lines:
        text = halfwidth(line.text)
        components = _components(text)
        if components and all(fibre in FIBRES for fibre, _share in components) \
                and not _COMPONENT.sub("", text).strip(" ,，、;；/"):
            out.append(_Candidate(text.strip(), _weakest(line, 0, len(line.text)), "a fibre content on its own line", line.text,
                                  float(line.confidence)))
    return out


def _composition_table(expected: str, lines: Sequence[OcrLine]) -> list[_Candidate]:
    """The expected composition as a part of a table of parts (fibre_table.py): evidence for it only."""
    part = matching_part(expected, lines) if expected else None
    if part is None:
        return []
    weakest = min(_weakest(line, 0, len(line.text)) for line in part.lines)
    typical = min(float(line.confidence) for line in part.lines)
    return [_Candidate(expected, weakest, "a part of a fibre table", " / ".join(line.text for line in part.lines), typical)]


# -- prices: compared as amounts, whatever their format ---------------------------------------------
_AMOUNT = re.compile(r"(?<![\d.,])(\d{1,3}(?:[,，]\d{3})+|\d{1,6})(?:[.．·](\d{0,2}))?(?![\d])")
_PRICE_CONTEXT = re.compile(r"[¥￥元]|RMB|CNY|价|PRICE", re.IGNORECASE)


@dataclass(frozen=True)
class _Amount:
    amount: Decimal
    digits: str
    confidence: float
    context: bool
    line: OcrLine
    # each of `digits`' confidences where the line gives them, else ()
    digit_confidences: tuple[float, ...] = ()
    # where the amount starts in its line's text; -1 for an amount no line holds (a labelled field's value)
    start: int = -1


def _amounts(line: OcrLine) -> list[_Amount]:
    """`_line_amounts(line)`, kept for the line object itself: the verdict gathers a tag's evidence several times
    a frame over the same lines. The line is held with its amounts, so its id is not another line's."""
    seen = _amounts_seen.get(id(line))
    if seen is not None and seen[0] is line:
        return list(seen[1])
    found = _line_amounts(line)
    if len(_amounts_seen) >= _AMOUNTS_KEPT:
        _amounts_seen.clear()
    _amounts_seen[id(line)] = (line, tuple(found))
    return found


_AMOUNTS_KEPT = 256  # a frame's lines a few times over; each holds its posteriors while kept
_amounts_seen: dict[int, tuple[OcrLine, tuple[_Amount, ...]]] = {}


def _line_amounts(line: OcrLine) -> list[_Amount]:
    """Every number of a line, and whether it reads as a price: two decimals, or price context
    within its own part of the line. A line holding two fields (a row of two columns read as one:
    '安全类别：GB 18401-2010 B类 零售价：¥329.00') gives its price context to the price's part only,
    so the standard's 18401 is no price."""
    text = line.text
    same_length = halfwidth(text)
    if len(same_length) == len(text):
        text = same_length
    parts = line_parts(text)
    cleaned = re.sub(r"(?<=\d)[Oo]|[Oo](?=\d)", "0", text)
    out = []
    for match in _AMOUNT.finditer(cleaned):
        if foreign_amount(cleaned, match.start(), match.end()):
            continue  # US$ 59.00 beside CN¥ 399.00: another currency's price is no evidence of the yuan one
        part = next(p for p in parts if p.label_start <= match.start() < p.end)
        if _in_code(cleaned, match.start(), match.end()):
            continue  # the digits of a style number ('KX-424199-05') or a standard ('2660-2017') on the price's row
        whole, cents = match.group(1).replace(",", "").replace("，", ""), match.group(2)
        try:
            amount = Decimal(f"{whole}.{cents or '0'}").quantize(Decimal("0.01"))
        except InvalidOperation:
            continue
        decimals = cents is not None and len(cents) == 2
        if part.field == "price":
            context = True
        elif part.field is None:
            context = bool(_PRICE_CONTEXT.search(text[part.label_start : part.end]))
        else:  # in another field's value: a price only with its currency beside it
            context = bool(_CURRENCY_BESIDE.search(text[max(part.label_start, match.start() - 4) : match.end() + 1]))
        scored = len(line.char_confidences) == len(cleaned)
        digit_confidences = tuple(c for ch, c in zip(cleaned[match.start(1):match.end(1)], line.char_confidences[match.start(1):])
                                  if ch.isdigit()) if scored else ()
        out.append(_Amount(amount, whole, _weakest(line, match.start(), match.end()), context or decimals, line,
                           digit_confidences if len(digit_confidences) == len(whole) else (), match.start()))
    return out


_CURRENCY_BESIDE = re.compile(r"[¥￥]\s*\d|RMB\s*\d|CNY\s*\d|\d\s*元", re.IGNORECASE)
_CURRENCY_AROUND = re.compile(r"RMB|CNY|[¥￥元]|^[YＹ]", re.IGNORECASE)
# Letters joined to digits make a code; digits joined by a hyphen do not ('￥129-00': a price, its point read '-').
_CODE_JOINT = re.compile(r"[A-Za-z]-?\d|\d-?[A-Za-z]")
# One letter before an amount in yuan and cents ('V549.00', 'N328.00'): a bold ¥ read as a letter. A code carries no
# decimal point and two cents.
_SIGN_READ_AS_LETTER = re.compile(r"^[A-Za-z]\d{1,6}[.．]\d\d$")


def _in_code(text: str, start: int, end: int) -> bool:
    """Whether the number at text[start:end] is part of a code: its word (up to spaces and Chinese characters) joins
    digits to letters (a style number, a 号型), once the currencies written in it are set aside ('吊牌价RMB1000'). A
    row read without its spaces ('…GB18401-2010C类零售价RMB69.90') keeps the standard's 'B1' out of the price's word."""
    while start > 0 and not _word_end(text[start - 1]):
        start -= 1
    while end < len(text) and not _word_end(text[end]):
        end += 1
    word = _CURRENCY_AROUND.sub("", text[start:end])
    return bool(_CODE_JOINT.search(word)) and not _SIGN_READ_AS_LETTER.match(word)


def _word_end(ch: str) -> bool:
    return ch.isspace() or "\u4e00" <= ch <= "\u9fff"


def _sign_read_as_digit(amount: _Amount, shown: set[Decimal]) -> bool:
    """'吊牌价：4399.00' where another read shows ¥399.00 surely: a bold ¥ read as a digit before the same amount (its
    line shows no currency sign), not a doubt about the expected price (thirteenth set 000016)."""
    return len(amount.digits) > 1 and not _CURRENCY_AROUND.search(amount.line.text) \
        and any(amount.digits[1:] == str(int(other)) for other in shown)


def _surely_other_amount(want_digits: str, read: _Amount) -> bool:
    """An amount of as many yuan digits as the expected one whose differing digits were read surely, all of them or
    two ('￥329' with its 3 and 2 at 100 % for ¥459, the 9 at 56 %): another price printed (`_surely_differs`)."""
    chars = read.digit_confidences
    return len(read.digits) == len(want_digits) == len(chars) and _surely_differs(want_digits, read.digits, chars)


def _cents_run_on(amount: _Amount, other: Decimal) -> bool:
    """'￥3290' where another read shows ¥329 surely: the cents printed small after the yuan ('¥329⁰⁰') read into
    them, one or two digits of them; what is left is the other amount, no misread of the expected one."""
    yuan = str(int(other))
    cents = f"{other:.2f}".split(".")[1]
    tail = amount.digits[len(yuan):]
    return amount.digits.startswith(yuan) and 0 < len(tail) <= 2 and cents.startswith(tail)


def cents_run_on(value: str, other: str) -> bool:
    """Whether the price `value` is the price `other` with one or two digits of its cents read into the yuan
    ('¥32900.00' for ¥329.00, the cents printed small and raised): the same amount read twice."""
    read, shown = parse_price(value), parse_price(other)
    if read is None or shown is None or read != read.to_integral_value():
        return False
    return _cents_run_on(_Amount(read, str(int(read)), 0.0, True, OcrLine(value, 0.0, (0.0, 0.0, 0.0, 0.0))), shown)


def _slipped(expected: str, read: str) -> bool:
    """Digits the recognizer lost, not a different price: '1299' read as '129' or '12' (what was
    read is the expected digits with some left out)."""
    it = iter(expected)
    return len(read) < len(expected) and all(ch in it for ch in read)


def _could_be_expected(expected: Decimal, want_digits: str, read: _Amount, min_confidence: float) -> bool:
    """Whether an amount could be the expected price misread: its digits with some lost ('129' for 1299), its cents
    read into the yuan, or, read weakly, as many digits as the expected or one repeated ('12999'). A weak amount of
    other digits ('38.00' in a list of other currencies, 'RMB7' on a tag whose RMB79 another read shows) is some other
    number, not a doubt about this price."""
    if _slipped(want_digits, read.digits) or _raised_cents(expected, read) or _sign_and_point_lost(expected, read):
        return True
    return read.confidence < min_confidence and (len(read.digits) == len(want_digits) or _slipped(read.digits, want_digits))


def _raised_cents(expected: Decimal, read: _Amount) -> bool:
    """The cents printed small and raised ('¥2999⁰⁰') read into the whole amount: '299900', no decimal point,
    the expected yuan followed by its cents. Doubt, never a different price (nor proof of this one: a
    price a hundred times the expected could be printed too)."""
    cents = f"{expected:.2f}".split(".")[1]
    return read.amount == read.amount.to_integral_value() and read.digits == f"{int(expected)}{cents}"


def _sign_and_point_lost(expected: Decimal, read: _Amount) -> bool:
    """A ¥ read as a digit and the decimal point lost ('零售价 88800' for ¥ 88.00 in a thermal printer's dots): one digit,
    then the expected yuan and its cents, on a line that shows no currency. Doubt, never a different price."""
    cents = f"{expected:.2f}".split(".")[1]
    return read.amount == read.amount.to_integral_value() and read.digits[1:] == f"{int(expected)}{cents}" \
        and not _CURRENCY_AROUND.search(read.line.text)


SMALL_PRINT_READ = "printed as expected (read by the small-print recognizer)"
RAISED_CENTS = "printed as expected, its cents small and raised"


def _small_print_price(expected: Decimal, small_print: Sequence[OcrLine], doubted: Sequence[_Amount],
                       min_confidence: float, struck: Sequence[Decimal] = (), turn_deg: float = 0.0) -> _Amount | None:
    """The expected amount, as a price, in a line the small-print recognizer read (verify.py's last read), where
    the stock reads were in doubt: evidence one way only, as for the other fields. A read of the whole yuan
    ('¥1099') says nothing of cents printed small and raised: where a stock read ran the yuan and two more digits
    together ('109950'), those digits must be the expected cents."""
    cents = f"{expected:.2f}".split(".")[1]
    yuan = str(int(expected))
    run_on = [a.digits[len(yuan):] for a in doubted if len(a.digits) == len(yuan) + 2 and a.digits.startswith(yuan)]
    if any(tail != cents for tail in run_on):
        return None
    found = [a for line in small_print for a in _amounts(line)
             if a.context and a.amount == expected and a.confidence >= min_confidence
             and not (a.amount in struck or not struck and offered(line, a.start, small_print, turn_deg))]
    return max(found, key=lambda a: a.confidence, default=None)


def _price(rule: FieldRule, reads: Sequence[Sequence[OcrLine]], labelled: Sequence[Mapping[str, FieldReading]],
           line_reads: int, small_print: Sequence[OcrLine] = (), confirming: Sequence[OcrLine] = (),
           struck: Sequence[Decimal] = (), turn_deg: float = 0.0) -> FieldEvidence:
    """`struck`: amounts the tag prints struck through (a markdown's old price): neither the recipe's price nor
    evidence against it; where the tag strikes one, every other amount is a current price whatever its label (a
    markdown's 折后价 is the price charged), else an amount under an offer's label is no retail price (offer_prices)."""
    expected = parse_price(rule.expected or "")
    if expected is None:
        return FieldEvidence("price", Found.ABSENT)
    want_digits = str(int(expected))
    # an amount a read shows under an offer's label is no price charged in the reader's own fields either (a heading
    # row's label alone given the cell under its neighbour: twentysecond_other 000086's '吊牌价 / ¥328.00', the offer)
    offers = set() if struck else {a.amount for read in reads for line in read for a in _amounts(line)
                                   if offered(line, a.start, read, turn_deg)}
    per_read: list[tuple[Found, _Amount | None]] = []
    best_match: _Amount | None = None
    for read, fields in zip(reads, labelled):
        # a member's or an event's price beside the retail one is neither the recipe's price nor evidence against it
        everything = [a for line in read for a in _amounts(line)]
        amounts = [a for a in everything if a.amount not in struck and (struck or not offered(a.line, a.start, read, turn_deg))]
        reading = fields.get("price")
        amount = parse_price(reading.value) if reading is not None else None
        if amount is not None and not any(a.amount == amount for a in everything) and amount not in offers \
                and not _not_charged(reading.raw, amount, struck):
            line = OcrLine(reading.raw or reading.value, reading.confidence, (0.0, 0.0, 0.0, 0.0))
            amounts.append(_Amount(amount, str(int(amount)), reading.confidence, True, line))
        matches = [a for a in amounts if a.amount == expected and (a.context or len(a.digits) >= 2)]
        if matches:
            top = max(matches, key=lambda a: a.confidence)
            if best_match is None or top.confidence > best_match.confidence:
                best_match = top
            continue
        priced = [a for a in amounts if a.context]
        like = [a for a in priced if _could_be_expected(expected, want_digits, a, rule.min_confidence)
                and not _surely_other_amount(want_digits, a)]
        sure = [a for a in priced if a.confidence >= rule.min_confidence or _surely_other_amount(want_digits, a)]
        if like:
            per_read.append((Found.NEAR, max(like, key=lambda a: a.confidence)))
        elif sure:
            per_read.append((Found.DIFFERENT, max(sure, key=lambda a: a.confidence)))
        elif priced:  # only weak amounts, none of them a misread of the expected one
            per_read.append((Found.NEAR, max(priced, key=lambda a: a.confidence)))
        else:
            per_read.append((Found.ABSENT, None))
    if best_match is not None:
        found = Found.MATCH if best_match.confidence >= rule.min_confidence else Found.NEAR
        return FieldEvidence("price", found, rule.expected or "", best_match.confidence, "ocr", "printed as expected", best_match.line.text)
    seen = [(f, a) for f, a in per_read if a is not None]
    # as for words: a read showing the same other amount less surely (a digit at 62 %) bears out a read sure of it
    shown = {a.amount for f, a in seen
             if f is Found.DIFFERENT and (a.confidence >= SURE_DIFFERENCE or _surely_other_amount(want_digits, a))}

    def bears(found: Found, amount: _Amount | None) -> bool:
        if found is Found.DIFFERENT:
            return True
        if found is not Found.NEAR or amount is None:
            return False
        if amount.amount in shown or _sign_read_as_digit(amount, shown):
            return True
        # what is left of the other amount ('RMB7' where another read shows RMB79 surely), no misread of the expected
        return not _could_be_expected(expected, want_digits, amount, rule.min_confidence) and any(
            _slipped(str(int(other)), amount.digits) or _cents_run_on(amount, other) for other in shown)

    confirmed = sum(1 for f, a in per_read[:line_reads] if bears(f, a))
    if seen and all(bears(f, a) for f, a in seen) and confirmed >= line_reads:
        # the amount a read was sure of ('￥329'), before what other reads left of it ('￥3290', its cents run on)
        _f, amount = max(seen, key=lambda fa: (fa[1].amount in shown, fa[1].confidence))
        return FieldEvidence("price", Found.DIFFERENT, f"¥{amount.amount:.2f}", amount.confidence, "ocr", "a price on the tag", amount.line.text)
    small = _small_print_price(expected, small_print, [a for _f, a in seen], rule.min_confidence, struck, turn_deg)
    if small is not None:
        return FieldEvidence("price", Found.MATCH, rule.expected or "", small.confidence, "ocr", SMALL_PRINT_READ, small.line.text)
    raised = _small_print_price(expected, confirming, [a for _f, a in seen], rule.min_confidence, struck, turn_deg)
    if raised is not None:
        return FieldEvidence("price", Found.MATCH, rule.expected or "", raised.confidence, "ocr", RAISED_CENTS, raised.line.text)
    if seen:
        _f, amount = max(seen, key=lambda fa: fa[1].confidence)
        return FieldEvidence("price", Found.NEAR, f"¥{amount.amount:.2f}", amount.confidence, "ocr", "a price on the tag", amount.line.text)
    return FieldEvidence("price", Found.ABSENT)


# -- barcodes -----------------------------------------------------------------------------------------
def _from_barcodes(rule: FieldRule, tag: TagReading) -> FieldEvidence | None:
    """A style number a Code128 carries, an EAN the bars carry: stronger than any OCR."""
    if rule.name == "style_number":
        codes = [b for b in tag.barcodes if b.format.replace("-", "") in STYLE_CODE_FORMATS]
        if not codes:
            return None
        if rule.expected is not None:
            hit = next((b for b in codes if code_key(b.text) == code_key(rule.expected)), None)
            if hit is not None:
                return FieldEvidence("style_number", Found.MATCH, rule.expected, BARCODE_CONFIDENCE, "barcode", f"carried by the {hit.format}", hit.text)
            return None
        return FieldEvidence("style_number", Found.NEAR, codes[0].text, 0.9, "barcode", f"carried by the {codes[0].format}", codes[0].text)
    if rule.name == "ean13":
        ean = product_ean(tag.barcodes, normalize_ean(rule.expected) if rule.expected is not None else None)
        if ean is None:
            return None
        if rule.expected is None or ean.text == normalize_ean(rule.expected):
            return FieldEvidence("ean13", Found.MATCH, ean.text, BARCODE_CONFIDENCE, "barcode", "the EAN-13's bars", ean.text)
        return FieldEvidence("ean13", Found.DIFFERENT, ean.text, BARCODE_CONFIDENCE, "barcode", "the EAN-13's bars", ean.text)
    return None
