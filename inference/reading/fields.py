"""Field extraction: from recognized lines to named, normalized fields, tolerant of OCR noise.

Tags print "label：value", sometimes two pairs on one line, sometimes the value on the next line;
some fields stand without a label (a price with its ¥, the digits under the EAN, the brand on top).
Labels are found by labels.py, near-miss values mended by repairs.py.
"""

from __future__ import annotations

import functools

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from inference.reading.labels import LABELS, LEADERS, LinePart, line_parts
from inference.reading.letter_sizes import is_letter_size

from inference.reading.normalize import (
    ean13_check_ok,
    halfwidth,
    normalize_ean,
    normalize_field,
    parse_price,
)
from inference.reading.slash_pairs import only_slash, parted
from inference.reading.repairs import GRADES, drop_label_remnant, fix_composition, fix_grade, looks_empty, mend_with_alternatives
from inference.reading.types import FieldReading, OcrLine

__all__ = ["LABELS", "extract_fields", "fix_composition", "lines_from_text"]

_CONTINUES_COMPOSITION = re.compile(r"^[\u4e00-\u9fffA-Za-z ]{1,12}\s*\d+(?:\.\d+)?\s*%")
# A line of its own "label: value" (a label this reader does not know): not the value of the label above.
_LABELLED = re.compile(r"^[\u4e00-\u9fffA-Za-z /()]{1,12}\s*:\s*\S")
# An EAN-13's printed caption ('6 906850 561811'): under a label whose value is hidden or unread it is the code's
# digits, never that label's value (a price of 690685, a size, a colour).
_EAN_CAPTION = re.compile(r"^\s*\d\s?\d{6}\s?\d{6}\s*$")
# A label alone on its line takes the next line as its value; where the label's dotted leaders ran on to that line
# ('颜色' / '……………橙色': a tag folded between its labels and their values), they part the two as a colon does and
# are no part of the value (labels.LEADERS: leaders written as ellipses or middle dots; and plain dots).
_LEADING_LEADERS = re.compile(rf"^[.·。\s{LEADERS}]{{2,}}")
_PRICE_SIGN = re.compile(r"[¥￥]|RMB|CNY", re.IGNORECASE)
_PLAIN_TAG_WORDS = ("合格证", "产品合格证", "CERTIFICATE", "QC PASSED", "检验合格")
# Labels, as a value would read: a row of column heads over an unlabelled line of values ('颜色 SIZE 货号' over
# '咖啡色 2XL(180/100A) V2506812') reads as a label whose value is the next head; no value is ever a label's word.
_LABEL_WORDS = frozenset(label.replace(" ", "").upper() for label in LABELS)

# A found field's confidence is scaled by these when the evidence is weaker than a clean label.
FUZZY_LABEL_FACTOR = 0.9
INVALID_VALUE_FACTOR = 0.5
UNLABELED_FACTOR = 0.85


@dataclass(frozen=True)
class _Segment:
    name: str | None
    value: str
    confidence: float
    raw: str
    label_exact: bool
    line_index: int


# Characters whose exact form normalization throws away: the recognizer's doubt between a space
# and none, or between ':' and '：', says nothing about whether the value is right.
_UNWEIGHED = frozenset(" \t:：;；¥￥")


def _span_confidence(line: OcrLine, start: int, end: int) -> float:
    """The weakest character of the value that matters once normalized."""
    chars = line.char_confidences
    if chars and len(chars) == len(line.text) and end > start:
        weighed = [c for ch, c in zip(line.text[start:end], chars[start:end]) if ch not in _UNWEIGHED]
        return float(min(weighed)) if weighed else float(line.confidence)
    return float(line.confidence)


def _segments(lines: Sequence[OcrLine]) -> list[_Segment]:
    segments: list[_Segment] = []
    under_labels: set[int] = set()
    for index, line in enumerate(lines):
        if index in under_labels:
            continue
        text = line.text
        parts = line_parts(text)
        paired = _table_row(lines, index)
        if paired:
            segments.extend(paired)
            under_labels.add(index + 1)
            continue
        if not parts[0].labelled and len(parts) == 1:
            segments.append(_Segment("?", text.strip(), float(line.confidence), text, True, index))
            continue
        k = 0
        while k < len(parts):
            joined = _slash_joined(text, parts, k)
            if joined:  # '颜色/号型：咖啡色/155/84A': each label's value is its part of the one value
                segments.extend(_Segment(part.field, text[a:b].strip(), _span_confidence(line, a, b), text, part.exact, index)
                                for part, (a, b) in joined)
                k += len(joined)
                continue
            part = parts[k]
            value = text[part.value_start : part.end].strip()
            conf = _span_confidence(line, part.value_start, part.end)
            segments.append(_Segment(part.field if part.labelled else "?", value, conf, text, part.exact, index))
            k += 1
    return segments


def _slash_joined(text: str, parts: Sequence[LinePart], k: int) -> list[tuple[LinePart, tuple[int, int]]]:
    """From part `k` on, labels joined by slashes and their one value parted among them (slash_pairs.py), each
    label with its value's span in `text`; [] where the labels there are not joined so or the value does not part."""
    run = [parts[k]]
    while run[-1].labelled and run[-1].field and only_slash(text[run[-1].value_start : run[-1].end]) and k + len(run) < len(parts):
        run.append(parts[k + len(run)])
    if len(run) < 2 or not all(p.labelled and p.field for p in run):
        return []
    last = run[-1]
    spans = parted([p.field for p in run], text[last.value_start : last.end])
    if spans is None:
        return []
    return [(p, (last.value_start + a, last.value_start + b)) for p, (a, b) in zip(run, spans)]


def _table_row(lines: Sequence[OcrLine], index: int) -> list[_Segment]:
    """A row of labels alone ('货号 颜色 号型 等级', a table's head) over a row of as many values, one each
    ('A0208 米白 180/96Y 一等品'): each label's value is the one in its place. Nothing where the counts differ (a
    value with a space in it) or the next line holds a label of its own."""
    if index + 1 >= len(lines):
        return []
    heads = [label_only(t.group(0)) for t in re.finditer(r"\S+", lines[index].text)]
    if len(heads) < 2 or not all(heads):
        return []
    below = lines[index + 1]
    if line_parts(below.text)[0].labelled:
        return []
    tokens = [(t.start(), t.end()) for t in re.finditer(r"\S+", below.text)]
    if len(tokens) > len(heads) and heads[-1][0] in _SPACED:  # the last column's value has spaces of its own
        tokens = tokens[: len(heads) - 1] + [(tokens[len(heads) - 1][0], tokens[-1][1])]
    if len(tokens) != len(heads):
        return []
    raw = f"{lines[index].text} / {below.text}"
    return [_Segment(field, below.text[a:b], _span_confidence(below, a, b), raw, exact, index)
            for (field, exact), (a, b) in zip(heads, tokens)]  # type: ignore[misc]


# Fields whose one value may hold spaces: in a table's last column it takes the rest of its row.
_SPACED = ("composition",)


def label_only(token: str) -> tuple[str, bool] | None:
    """(field, exact) where a token (or a whole line) is a field's label and nothing else."""
    parts = line_parts(token)
    if len(parts) != 1 or not parts[0].labelled or parts[0].field in (None, "?"):
        return None
    return (parts[0].field, parts[0].exact) if looks_empty(parts[0].field, token[parts[0].value_start :].strip()) else None


def _merge_split_lines(segments: list[_Segment]) -> list[_Segment]:
    """A label alone on its line takes the next unlabeled line; a value its grammar says was cut
    short takes the line it wrapped onto; composition takes its continuations."""
    merged: list[_Segment] = []
    consumed: set[int] = set()
    for i, seg in enumerate(segments):
        if i in consumed:
            continue
        if (seg.name not in ("?", None) and looks_empty(seg.name, seg.value) and i + 1 < len(segments)
                and segments[i + 1].name == "?" and not _LABELLED.match(halfwidth(segments[i + 1].value))
                and (seg.name == "ean13" or not _EAN_CAPTION.match(halfwidth(segments[i + 1].value)))):
            nxt = segments[i + 1]
            consumed.add(i + 1)
            seg = _Segment(seg.name, _LEADING_LEADERS.sub("", nxt.value), nxt.confidence, f"{seg.raw} / {nxt.raw}",
                           seg.label_exact, seg.line_index)
        elif (seg.name in _WRAPPING and i + 1 < len(segments) and segments[i + 1].name == "?"
              and not _EAN_CAPTION.match(halfwidth(segments[i + 1].value))
              and not _valid(seg.name, _value_of(seg.name, seg.value))
              and _valid(seg.name, _value_of(seg.name, f"{seg.value} {segments[i + 1].value}"))):
            nxt = segments[i + 1]  # a value wrapped onto the next line: 'GB 18401-2010' / 'B类'
            consumed.add(i + 1)
            seg = _Segment(seg.name, f"{seg.value} {nxt.value}", min(seg.confidence, nxt.confidence),
                           f"{seg.raw} / {nxt.raw}", seg.label_exact, seg.line_index)
        if seg.name == "composition":
            j = i + 1
            while j in consumed:  # the line a label alone took is its value already, not a continuation
                j += 1
            while j < len(segments) and segments[j].name == "?" and _CONTINUES_COMPOSITION.match(halfwidth(segments[j].value)):
                nxt = segments[j]
                consumed.add(j)
                seg = _Segment(
                    seg.name,
                    f"{seg.value} {nxt.value}",
                    min(seg.confidence, nxt.confidence),
                    f"{seg.raw} / {nxt.raw}",
                    seg.label_exact,
                    seg.line_index,
                )
                j += 1
        merged.append(seg)
    return merged


# Fields whose grammar tells a value cut short by a line break ('GB 18401-2010' without its 类).
_WRAPPING = ("safety_category", "price")


def _value_of(name: str, raw: str) -> str:
    return normalize_field(name, drop_label_remnant(name, halfwidth(raw)))


def _valid(name: str, value: str) -> bool:
    if not value:
        return False
    if name == "price":
        return parse_price(value) is not None
    if name == "ean13":
        return ean13_check_ok(normalize_ean(value))
    if name == "grade":
        return value in GRADES
    if name == "style_number":
        return bool(re.search(r"\d", value)) and len(value) >= 3
    if name == "safety_category":
        return bool(re.search(r"[ABC]类", value))
    if name == "composition":  # a fibre (纯棉) or a share: not a stray Latin remnant of a label ('bric')
        return bool(re.search(r"\d\s*%|[\u4e00-\u9fff]", value))
    return True


def _reading(seg: _Segment, source: str = "ocr", factor: float = 1.0) -> FieldReading | None:
    assert seg.name not in (None, "?")
    value = _value_of(seg.name, seg.value)
    if seg.name == "grade":
        value = fix_grade(value)
    elif seg.name == "composition":
        value = fix_composition(value)
    if not value or (seg.name != "brand" and value.replace(" ", "").upper() in _LABEL_WORDS):
        return None
    confidence = seg.confidence * factor
    if not seg.label_exact:
        confidence *= FUZZY_LABEL_FACTOR
    if not _valid(seg.name, value):
        confidence *= INVALID_VALUE_FACTOR
    return FieldReading(seg.name, value, confidence, source, seg.raw)


def _unlabeled(segments: Sequence[_Segment], found: dict[str, FieldReading]) -> None:
    """Price with a currency sign, an EAN under its bars and a brand line stand without labels."""
    for seg in segments:
        if seg.name != "?" or not seg.value:
            continue
        text = halfwidth(seg.value)
        if "price" not in found and _PRICE_SIGN.search(text) and parse_price(text) is not None:
            reading = _reading(_Segment("price", text, seg.confidence, seg.raw, True, seg.line_index), factor=UNLABELED_FACTOR)
            if reading:
                found["price"] = reading
            continue
        ean = _printed_ean(text)
        if "ean13" not in found and ean:
            reading = _reading(_Segment("ean13", ean, seg.confidence, seg.raw, True, seg.line_index))
            if reading:
                found["ean13"] = reading
            continue
        if "safety_category" not in found and re.search(r"[ABC]\s*类", text):
            reading = _reading(_Segment("safety_category", text, seg.confidence, seg.raw, True, seg.line_index), factor=UNLABELED_FACTOR)
            if reading:
                found["safety_category"] = reading
            continue
        if "grade" not in found and text in GRADES:
            found["grade"] = FieldReading("grade", text, seg.confidence * UNLABELED_FACTOR, "ocr", seg.raw)


def _printed_ean(text: str) -> str:
    """The 13 digits under an EAN-13, read through guard-bar slivers ('6"925426 756468'): a
    mostly-digit line holding a 13-digit window whose check digit is right."""
    if sum(ch.isdigit() for ch in text) < 13 or sum(ch.isdigit() or ch == " " for ch in text) < 0.8 * len(text):
        return ""
    digits = re.sub(r"\D", "", text)
    for start in range(len(digits) - 12):
        if ean13_check_ok(digits[start : start + 13]):
            return digits[start : start + 13]
    return digits if len(digits) == 13 else ""


def _brand(segments: Sequence[_Segment], lines: Sequence[OcrLine], found: dict[str, FieldReading]) -> None:
    """No label: the largest plain line above the first labeled one, not the certificate heading."""
    if "brand" in found:
        return
    candidates = []
    for seg in segments:
        if seg.name != "?":
            break
        text = halfwidth(seg.value)
        if len(text.replace(" ", "")) < 2 or any(word in text.upper() for word in _PLAIN_TAG_WORDS) or len(text) > 24:
            continue
        if sum(ch.isdigit() for ch in text) >= sum(ch.isalpha() for ch in text) or is_letter_size(text.strip().upper()):
            continue  # a name is words: a size printed large (175/96A, XS) or a price on a sticker is not the brand
        x1, y1, x2, y2 = lines[seg.line_index].box
        candidates.append((y2 - y1, seg))
    if candidates:
        _, seg = max(candidates, key=lambda item: item[0])
        found["brand"] = FieldReading("brand", normalize_field("brand", seg.value), seg.confidence * UNLABELED_FACTOR, "ocr", seg.raw)


def extract_fields(lines: Sequence[OcrLine]) -> dict[str, FieldReading]:
    """Fields found in recognized lines (top to bottom order), each at most once, best evidence wins."""
    # the key is kept by the cache: lines without the verifier's posteriors, which are large
    key = tuple(replace(line, posteriors=None) if line.posteriors is not None else line for line in lines)
    return dict(_extract_cached(key))


@functools.lru_cache(maxsize=16)
def _extract_cached(lines: tuple[OcrLine, ...]) -> dict[str, FieldReading]:
    """Verification asks for the same lines' fields several times per tag (each gather, the
    verdict); the lines are immutable values, so the answer is kept for the last few."""
    normalized = []
    for line in lines:
        text = mend_with_alternatives(line.text, line.char_alternatives)
        half = halfwidth(text)
        normalized.append(OcrLine(half if len(half) == len(text) else text, line.confidence, line.box, line.char_confidences, line.char_alternatives))
    segments = _merge_split_lines(_segments(normalized))
    found: dict[str, FieldReading] = {}
    exact: dict[str, bool] = {}  # whether the field's reading in `found` followed its label read exactly
    for seg in segments:
        if seg.name in (None, "?"):
            continue
        reading = _reading(seg)
        if reading is None:
            continue
        previous = found.get(seg.name)
        # A label matched only with one character forgiven is another label misread as often as the field's own
        # (a shoe's lining 里料 read 塑料, one character off 面料): where another line carries one of the field's
        # labels exactly, that line is the field's, however surely the forgiven one was read.
        if previous is None or (seg.label_exact and not exact[seg.name]) \
                or (seg.label_exact == exact[seg.name] and reading.confidence > previous.confidence):
            found[seg.name] = reading
            exact[seg.name] = seg.label_exact
    _unlabeled(segments, found)
    _brand(segments, normalized, found)
    return found


def lines_from_text(text: str, confidence: float = 0.99) -> tuple[OcrLine, ...]:
    """For tests and the VLM: newline-separated text as recognized lines."""
    return tuple(OcrLine(line, confidence, (0.0, 0.0, 0.0, 0.0)) for line in text.splitlines() if line.strip())
