"""Field extraction: from recognized lines to named, normalized fields, tolerant of OCR noise.

Tags print "label：value", sometimes two pairs on one line, sometimes the value on the next line.
Labels are matched longest first, with one wrong character allowed when the rest of the label and
its colon are there, because a single misread character must not lose a whole field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from inference.reading.normalize import (
    ean13_check_ok,
    halfwidth,
    normalize_ean,
    normalize_field,
    parse_price,
)
from inference.reading.types import FieldReading, OcrLine

# Label text → field name; None marks labels of lines we deliberately skip (inspector, address …).
LABELS: Mapping[str, str | None] = {
    "品名": "product_name",
    "名称": "product_name",
    "产品名称": "product_name",
    "商品名称": "product_name",
    "品 名": "product_name",
    "PRODUCT": "product_name",
    "NAME": "product_name",
    "货号": "style_number",
    "款号": "style_number",
    "款式": "style_number",
    "款式编号": "style_number",
    "型号": "style_number",
    "STYLE NO": "style_number",
    "STYLE": "style_number",
    "ART NO": "style_number",
    "ITEM NO": "style_number",
    "颜色": "color",
    "色别": "color",
    "颜色/色号": "color",
    "COLOUR": "color",
    "COLOR": "color",
    "尺码": "size",
    "号型": "size",
    "规格": "size",
    "尺寸": "size",
    "SIZE": "size",
    "成分": "composition",
    "成份": "composition",
    "面料成分": "composition",
    "纤维成分": "composition",
    "材质": "composition",
    "纤维含量": "composition",
    "纤维成份": "composition",
    "COMPOSITION": "composition",
    "FABRIC": "composition",
    "MATERIAL": "composition",
    "执行标准": "standard",
    "产品标准": "standard",
    "标准": "standard",
    "STANDARD": "standard",
    "安全技术类别": "safety_category",
    "安全类别": "safety_category",
    "安全技术等级": "safety_category",
    "安全级别": "safety_category",
    "SAFETY CATEGORY": "safety_category",
    "SAFETY": "safety_category",
    "等级": "grade",
    "质量等级": "grade",
    "产品等级": "grade",
    "GRADE": "grade",
    "价格": "price",
    "零售价": "price",
    "售价": "price",
    "统一零售价": "price",
    "建议零售价": "price",
    "吊牌价": "price",
    "PRICE": "price",
    "品牌": "brand",
    "商标": "brand",
    "BRAND": "brand",
    "条码": "ean13",
    "条形码": "ean13",
    "EAN": "ean13",
    "检验员": None,
    "检验": None,
    "检验号": None,
    "地址": None,
    "电话": None,
    "生产商": None,
    "制造商": None,
    "产地": None,
    "洗涤说明": None,
    "洗涤方法": None,
    "注意事项": None,
    "网址": None,
    "邮编": None,
}

_SEPARATORS = ":：;；.·。 \t"
_LABELS_LONGEST_FIRST = sorted(LABELS, key=len, reverse=True)
_CONTINUES_COMPOSITION = re.compile(r"^[\u4e00-\u9fffA-Za-z ]{1,12}\s*\d+(?:\.\d+)?\s*%")
_PRICE_SIGN = re.compile(r"[¥￥]|RMB|CNY", re.IGNORECASE)
_PLAIN_TAG_WORDS = ("合格证", "产品合格证", "CERTIFICATE", "QC PASSED", "检验合格")
_GRADES = ("优等品", "一等品", "合格品")

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


def _label_at(text: str, start: int, require_colon: bool) -> tuple[str, int, bool] | None:
    """(label, end index after separators, exact) for a label starting at `start`, else None."""
    upper = text.upper()
    for label in _LABELS_LONGEST_FIRST:
        end = _match_label(upper, start, label)
        if end is not None:
            after = text[end : end + 1]
            if require_colon and after not in (":", "："):
                continue
            if label.isascii() and after.isalpha():
                continue
            return label, _skip_separators(text, _skip_english_label(text, end)), True
    return _fuzzy_label_at(text, start)


def _match_label(upper: str, start: int, label: str) -> int | None:
    """End of `label` at `start`, spaces between its CJK characters allowed ('颜 色')."""
    if upper.startswith(label, start):
        return start + len(label)
    if label.isascii() or len(label) < 2:
        return None
    i = start
    for k, ch in enumerate(label):
        if k:
            while i < len(upper) and upper[i] == " ":
                i += 1
        if i >= len(upper) or upper[i] != ch:
            return None
        i += 1
    return i


def _fuzzy_label_at(text: str, start: int) -> tuple[str, int, bool] | None:
    """One wrong character in a CJK label, accepted only when a colon follows it."""
    best: tuple[str, int, bool] | None = None
    for label in _LABELS_LONGEST_FIRST:
        if label.isascii():
            continue
        end = start + len(label)
        candidate = text[start:end]
        after = _skip_english_label(text, end)
        if len(candidate) != len(label) or (text[end : end + 1] not in (":", "：") and after == end):
            continue
        mismatches = sum(1 for a, b in zip(candidate, label) if a != b)
        if mismatches == 1 and (len(label) >= 3 or candidate[0] == label[0] or candidate[1] == label[1]):
            if best is None or len(label) > len(best[0]):
                best = (label, _skip_separators(text, after), False)
    return best


_ENGLISH_SUBLABEL = re.compile(r"\s*[A-Za-z][A-Za-z. ]{1,16}?\s*[:：;；]")


def _skip_english_label(text: str, index: int) -> int:
    """Bilingual tags print '货号 Style No.：'; the English half of the label (however misread:
    'Fabrc', 'Stand') is not the value. It is a run of Latin letters closed by a colon."""
    match = _ENGLISH_SUBLABEL.match(text, index)
    if match and sum(ch.isalpha() for ch in match.group(0)) >= 2:
        return match.end()
    return index


def _skip_separators(text: str, index: int) -> int:
    while index < len(text) and text[index] in _SEPARATORS:
        index += 1
    return index


def _split_labeled(text: str) -> list[tuple[str | None, int, int, bool]]:
    """(field, value start, label start, exact) for every label in a line, in order."""
    found: list[tuple[str | None, int, int, bool]] = []
    hit = _label_at(text, 0, require_colon=False)
    if hit is not None:
        found.append((LABELS[hit[0]], hit[1], 0, hit[2]))
    index = found[0][1] if found else 0
    while index < len(text):
        if index > 0 and (text[index - 1] in " \t" or (found and index > found[-1][1])):
            hit = _label_at(text, index, require_colon=True)
            if hit is not None and (not found or index > found[-1][1]):
                found.append((LABELS[hit[0]], hit[1], index, hit[2]))
                index = hit[1]
                continue
        index += 1
    return found


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
    for index, line in enumerate(lines):
        text = line.text
        labeled = _split_labeled(text)
        if not labeled:
            segments.append(_Segment("?", text.strip(), float(line.confidence), text, True, index))
            continue
        if labeled[0][2] > 0:
            segments.append(_Segment("?", text[: labeled[0][2]].strip(), _span_confidence(line, 0, labeled[0][2]), text, True, index))
        for k, (name, value_start, _label_start, exact) in enumerate(labeled):
            value_end = labeled[k + 1][2] if k + 1 < len(labeled) else len(text)
            value = text[value_start:value_end].strip()
            conf = _span_confidence(line, value_start, value_end)
            segments.append(_Segment(name, value, conf, text, exact, index))
    return segments


def _merge_split_lines(segments: list[_Segment]) -> list[_Segment]:
    """A label alone on its line takes the next unlabeled line; composition takes its continuations."""
    merged: list[_Segment] = []
    consumed: set[int] = set()
    for i, seg in enumerate(segments):
        if i in consumed:
            continue
        if seg.name not in ("?", None) and _looks_empty(seg.name, seg.value) and i + 1 < len(segments) and segments[i + 1].name == "?":
            nxt = segments[i + 1]
            consumed.add(i + 1)
            seg = _Segment(seg.name, nxt.value, nxt.confidence, f"{seg.raw} / {nxt.raw}", seg.label_exact, seg.line_index)
        if seg.name == "composition":
            j = i + 1
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


def _looks_empty(name: str, value: str) -> bool:
    """No value, or only the English half of the label ('Art. No', 'Size') before a line break."""
    text = value.strip()
    if not text:
        return True
    if not re.fullmatch(r"[A-Za-z. ]+", text) or name == "brand":
        return False
    return not (name == "size" and _SIZE_TOKEN.match(text.split()[-1]))


def _valid(name: str, value: str) -> bool:
    if not value:
        return False
    if name == "price":
        return parse_price(value) is not None
    if name == "ean13":
        return ean13_check_ok(normalize_ean(value))
    if name == "grade":
        return value in _GRADES
    if name == "style_number":
        return bool(re.search(r"\d", value)) and len(value) >= 3
    if name == "safety_category":
        return bool(re.search(r"[ABC]类", value))
    return True


# GB/T 29862 fibre names as printed on mainland tags, and the parts of a garment they describe.
FIBRES = (
    "棉", "聚酯纤维", "涤纶", "氨纶", "锦纶", "尼龙", "粘纤", "粘胶纤维", "羊毛", "绵羊毛", "腈纶", "亚麻", "苎麻",
    "桑蚕丝", "真丝", "蚕丝", "莫代尔", "莱赛尔", "天丝", "羊绒", "山羊绒", "兔毛", "马海毛", "羊驼毛", "醋酯纤维",
    "铜氨纤维", "丙纶", "维纶", "聚氨酯", "鸭绒", "鹅绒", "白鸭绒", "白鹅绒", "羽绒", "其他纤维",
)
PARTS = ("面料", "里料", "填充物", "胆料", "罗纹", "网布", "袖里", "身里")
_COMPOSITION_WORD = re.compile(r"[\u4e00-\u9fff]+")


def _nearest(word: str, vocabulary: tuple[str, ...]) -> str:
    """The vocabulary word one character away from `word` (same length, 2+ characters), if unique."""
    if word in vocabulary or len(word) < 2:
        return word
    close = [v for v in vocabulary if len(v) == len(word) and sum(a != b for a, b in zip(v, word)) == 1]
    return close[0] if len(close) == 1 else word


def fix_composition(value: str) -> str:
    """Fibre and part names misread by one character go back to the name: 镍纶 → 锦纶, 園料 → 面料."""
    return _COMPOSITION_WORD.sub(lambda m: _nearest(_nearest(m.group(0), FIBRES), PARTS), value)


def _fix_grade(value: str) -> str:
    for grade in _GRADES:
        if grade[:2] in value or (grade[0] in value and "品" in value and grade != "合格品"):
            return grade
    return "合格品" if "格" in value else value


_SIZE_TOKEN = re.compile(r"^(?:X{0,3}[SML]|[2-6]XL|\d{2,3}/\d{2,3}[A-Z]?.*|均码|F|FREE)$", re.IGNORECASE)


def _drop_label_remnant(name: str, value: str) -> str:
    """What is left of a misread English sub-label without its colon ('Style o. K2369306',
    'Size M', 'Color 墨绿') is not part of the value."""
    tokens = value.split()
    if len(tokens) < 2:
        return value
    if name == "style_number":
        codes = [t for t in tokens if re.search(r"\d", t) and len(t) >= 4]
        return codes[-1] if codes else value
    if name == "size":
        while len(tokens) > 1 and tokens[0].isascii() and tokens[0].replace(".", "").isalpha() and not _SIZE_TOKEN.match(tokens[0]):
            tokens.pop(0)
        return " ".join(tokens)
    if name in ("color", "product_name", "grade"):
        while len(tokens) > 1 and tokens[0].isascii() and re.search(r"[\u4e00-\u9fff]", " ".join(tokens[1:])):
            tokens.pop(0)
        return " ".join(tokens)
    return value


def _reading(seg: _Segment, source: str = "ocr", factor: float = 1.0) -> FieldReading | None:
    assert seg.name not in (None, "?")
    value = normalize_field(seg.name, _drop_label_remnant(seg.name, halfwidth(seg.value)))
    if seg.name == "grade":
        value = _fix_grade(value)
    elif seg.name == "composition":
        value = fix_composition(value)
    if not value:
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
        if "grade" not in found and text in _GRADES:
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
        x1, y1, x2, y2 = lines[seg.line_index].box
        candidates.append((y2 - y1, seg))
    if candidates:
        _, seg = max(candidates, key=lambda item: item[0])
        found["brand"] = FieldReading("brand", normalize_field("brand", seg.value), seg.confidence * UNLABELED_FACTOR, "ocr", seg.raw)


def extract_fields(lines: Sequence[OcrLine]) -> dict[str, FieldReading]:
    """Fields found in recognized lines (top to bottom order), each at most once, best evidence wins."""
    normalized = [
        OcrLine(halfwidth(line.text) if len(halfwidth(line.text)) == len(line.text) else line.text, line.confidence, line.box, line.char_confidences)
        for line in lines
    ]
    segments = _merge_split_lines(_segments(normalized))
    found: dict[str, FieldReading] = {}
    for seg in segments:
        if seg.name in (None, "?"):
            continue
        reading = _reading(seg)
        if reading is None:
            continue
        previous = found.get(seg.name)
        if previous is None or reading.confidence > previous.confidence:
            found[seg.name] = reading
    _unlabeled(segments, found)
    _brand(segments, normalized, found)
    return found


def lines_from_text(text: str, confidence: float = 0.99) -> tuple[OcrLine, ...]:
    """For tests and the VLM: newline-separated text as recognized lines."""
    return tuple(OcrLine(line, confidence, (0.0, 0.0, 0.0, 0.0)) for line in text.splitlines() if line.strip())
