"""The label vocabulary of Chinese and bilingual hangtags, and where a label sits in a line.

Labels are matched longest first, spaces between their characters allowed ('颜 色'), with one
wrong character forgiven when the rest of the label and its colon are there, and with the English
half of a bilingual label ('货号 Style No.：') skipped however it was misread. An export tag's label written in
several languages ('尺码 / SIZE / TAILLE / GRÖSSE / TALLA') is one label (_skip_label_run, label_run_alone).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping
from typing import NamedTuple

from inference.reading.normalize import edit_distance, halfwidth

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
    "色号": "color",
    "色名": "color",
    "货品名称": "product_name",
    "款式名称": "product_name",
    "产品型号": "style_number",
    "商品编号": "style_number",
    "COLOUR": "color",
    "COLOR": "color",
    "尺码": "size",
    "号型": "size",
    "规格": "size",
    "尺寸": "size",
    "SIZE": "size",
    "鞋码": "size",  # a shoe's size, in 码 (39) or in mm (245)
    "码数": "size",
    "成分": "composition",
    "成份": "composition",
    "面料成分": "composition",
    "面料": "composition",
    "纤维成分": "composition",
    "材质": "composition",
    "纤维含量": "composition",
    "纤维成份": "composition",
    "COMPOSITION": "composition",
    # a shoe's tag names its materials by part (QB/T 2673): the upper (帮面, 鞋面) is the shoe's composition; its
    # lining and sole are parts no recipe judges, and unknown, 内里's line was one character off 面料's
    "帮面": "composition",
    "帮面材质": "composition",
    "帮面材料": "composition",
    "鞋面材料": "composition",
    "鞋面材质": "composition",
    "内里": None,
    "内里材质": None,
    "内里材料": None,
    "外底": None,
    "外底材质": None,
    "外底材料": None,
    "鞋底": None,
    "鞋底材质": None,
    "鞋底材料": None,
    "大底材料": None,
    "大底材质": None,
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
    "类别": "safety_category",  # short for 安全技术类别 on small tags; unknown, it was taken for 色别 (colour)
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
    # The words European buyers' labels use beside the Chinese and English ones (export tags print one field's label
    # in several languages: '货号 / REF. / RÉF.', '尺码 / SIZE / TAILLE / GRÖSSE / TALLA'), each only as the label of
    # the field it names. A line's letters are matched without their accents ('RÉF.' as REF, 'GRÖSSE' as GROSSE:
    # _plain_upper), as the recognizer often reads them.
    "REF": "style_number",
    "REFERENCE": "style_number",
    "REFERENCIA": "style_number",
    "REFERENZ": "style_number",
    "RIF": "style_number",
    "ART.-NR": "style_number",
    "ART-NR": "style_number",
    "ART.NR": "style_number",
    "ART. NR": "style_number",
    "ARTIKELNR": "style_number",
    "ARTIKEL-NR": "style_number",
    "ARTIKELNUMMER": "style_number",
    "TAILLE": "size",
    "GROSSE": "size",
    "GROESSE": "size",
    "TALLA": "size",
    "TAGLIA": "size",
    "COULEUR": "color",
    "FARBE": "color",
    "COLORE": "color",
    "ZUSAMMENSETZUNG": "composition",
    "COMPOSICION": "composition",
    "COMPOSIZIONE": "composition",
    "MATIERE": "composition",
    "MATERIALE": "composition",
    "PRIX": "price",
    "PREIS": "price",
    "PRECIO": "price",
    "PREZZO": "price",
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

# A label may stand in brackets ('【品名】女式牛仔裤', '[尺码] XL'): the opening one before it, the closing one
# after it, where a colon would stand.
_OPENERS = "【[〔「"
_CLOSERS = "】]〕」"
# A bullet, or a punched hole or speck the recognizer read as one ('0 颜色 咖啡色', '• 品名 …'), before a line's first
# label: one or two signs or digits and a space. The label after it opens the line as if it stood first.
_BULLET = re.compile(r"^(?:[^\w\s]|\d|[oO]){1,2}\s+")
# Dotted leaders run from a label to a value set flush right ('品名 ........ 衬衫', '款号……ZS2023C'): the
# recognizer writes them as dots, ellipses or middle dots. They part a label from its value as a colon does.
LEADERS = "…‥⋯・･．"
_SEPARATORS = ":：;；.·。 \t" + LEADERS + _CLOSERS
_LABELS_LONGEST_FIRST = sorted(LABELS, key=len, reverse=True)
# A label matches only where its first character stands (spaces are allowed only between its
# characters), so each position is tried against the labels starting with that character alone.
_LABELS_BY_FIRST: dict[str, tuple[str, ...]] = {}
for _label in _LABELS_LONGEST_FIRST:
    _LABELS_BY_FIRST[_label[0]] = _LABELS_BY_FIRST.get(_label[0], ()) + (_label,)
# One wrong character is forgiven in CJK labels only: (label, length), longest first.
_CJK_LABELS = tuple((label, len(label)) for label in _LABELS_LONGEST_FIRST if not label.isascii())
# A CJK label (two characters or more) with one wrong character still has its first or its second
# character right: the labels worth trying at a position, by its first and by its second character.
_CJK_BY_FIRST: dict[str, frozenset[int]] = {}
_CJK_BY_SECOND: dict[str, frozenset[int]] = {}
for _k, (_label, _n) in enumerate(_CJK_LABELS):
    assert _n >= 2, _label
    _CJK_BY_FIRST[_label[0]] = _CJK_BY_FIRST.get(_label[0], frozenset()) | {_k}
    _CJK_BY_SECOND[_label[1]] = _CJK_BY_SECOND.get(_label[1], frozenset()) | {_k}
_NONE: frozenset[int] = frozenset()
_COLONS = (":", "：", *_CLOSERS, *LEADERS)
# Labels of numbers no recipe checks, each one character off a field's label (批号 off 货号, 款号 and 型号): a tag
# prints a batch, carton, waybill or serial number under its own label beside the style number's, so such a label
# read whole is that number's, not a misread of the style number's.
OTHER_NUMBER_LABELS = frozenset({"批号", "箱号", "单号", "序号"})


def _plain_upper(text: str) -> str:
    """`text` in upper case, each Latin letter without its accent ('Réf.' → 'REF.', 'Größe' → 'GRÖßE' → 'GROßE'),
    character for character: the same length, so an index into it is one into `text`."""
    upper = text.upper()
    if len(upper) == len(text) and not any("\u00c0" <= ch <= "\u024f" for ch in upper):
        return upper  # no accented Latin letter (an ASCII line, a Chinese one)
    out = []
    for ch in text:
        up = ch.upper()
        if len(up) != 1:
            up = ch
        if "\u00c0" <= up <= "\u024f":  # a Latin letter with an accent (CJK and the rest are left as they are)
            base = unicodedata.normalize("NFKD", up)
            if base[:1].isascii() and all(unicodedata.combining(mark) for mark in base[1:]):
                up = base[0]
        out.append(up)
    return "".join(out)


def _label_at(text: str, start: int, require_colon: bool, upper: str | None = None) -> tuple[str, int, bool] | None:
    """(label, end index after separators, exact) for a label starting at `start`, else None.
    `upper`: _plain_upper(text), where the caller tries many positions of one line."""
    if upper is None:
        upper = _plain_upper(text)
    for label in _LABELS_BY_FIRST.get(upper[start : start + 1], ()):
        end = _match_label(upper, start, label)
        if end is not None:
            after = text[end : end + 1]
            if require_colon and after not in _COLONS:
                continue
            if label.isascii() and after.isascii() and after.isalpha():  # 'SIZES', but 'SIZE尺码' is a label and its twin
                continue
            value_start = _skip_separators(text, _skip_english_label(text, _skip_chinese_label(text, upper, end)))
            value_start = _skip_twin_label(text, upper, value_start, LABELS[label], label.isascii())
            if any(ch in ":：" for ch in text[end:value_start]):
                return label, value_start, True  # a colon closes a label: what follows is its value
            return label, _skip_label_run(text, upper, value_start, LABELS[label]), True
    return _fuzzy_label_at(text, start)


# Labels that name a part of a field's value, never another field: '成分 面料 棉 60% 里料 涤纶 100%'.
_PART_LABELS = frozenset({"面料", "里料"})


def _bare_label_at(text: str, start: int, upper: str, current: str | None, value_start: int) -> tuple[str, int, bool] | None:
    """A label without its colon after the space or bar that ends another field's value ('品名 半身裙 | 款号 A0657B |
    颜色 墨绿', '颜色墨绿' read with its bar lost): a Chinese label of another field than the one being read, a part's
    name aside, with a value after it. A row of labels (a table's header, '款号 颜色 号型 等级') has none."""
    hit = _label_at(text, start, require_colon=False, upper=upper)
    if hit is None or not hit[2]:
        return None
    label = text[start : start + len(hit[0])] if upper.startswith(hit[0], start) else hit[0]
    if label.isascii() or len(label) < 2 or label in _PART_LABELS or LABELS.get(label) in (None, current):
        return None
    before, after = text[value_start:start].strip(" \t|｜"), text[hit[1]:].strip()
    if not after or _starts_with_label(before, upper, value_start) or _starts_with_label(after, upper, hit[1]):
        return None
    return hit


# Values of a closed grammar, whole: where one ends, a label glued to it ('等级一等品产品标准GB/T 14272-2021', its bar
# lost) starts the next field. A grade, a safety class, a standard's number and year, a size.
_WHOLE_VALUES = {
    "grade": re.compile(r"^(?:优等品|一等品|合格品)$"),
    "safety_category": re.compile(r"^(?:GB\s*(?:18401|31701)\S*\s*)?[ABC]\s*类$"),
    "standard": re.compile(r"^(?:GB|FZ)\s*/?\s*T?\s*\d{3,5}(?:\.\d+)?\s*-\s*(?:19|20)\d\d$"),
    "size": re.compile(r"^(?:\d{2,3}/\d{2,3}[A-Z]{0,2}|X{0,4}[SML]|[2-6]XL)(?:\s*[(（][^()（）]*[)）])?$"),
}


def _whole_value(field: str | None, value: str) -> bool:
    """Whether `value` (the text after a label, up to here) is already a whole value of `field`'s closed grammar."""
    grammar = _WHOLE_VALUES.get(field or "")
    return grammar is not None and bool(grammar.match(value.strip(" \t:：|｜").upper()))


def _starts_with_label(part: str, upper: str, at: int) -> bool:
    """Whether `part` (the text from `at` on, spaces aside) opens with a label: another header of a row of labels."""
    if not part:
        return False
    start = at + (len(upper) - len(upper[at:].lstrip(" \t|｜")))
    return _label_at(upper, start, require_colon=False, upper=upper) is not None


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
    worth = _CJK_BY_FIRST.get(text[start : start + 1], _NONE) | _CJK_BY_SECOND.get(text[start + 1 : start + 2], _NONE)
    if not worth:
        return None
    best: tuple[str, int, bool] | None = None
    english: dict[int, int] = {}  # end of a label → end of the English half after it
    for k in sorted(worth):
        label, n = _CJK_LABELS[k]
        if best is not None and n <= len(best[0]):
            break  # longest first: nothing shorter replaces the best
        end = start + n
        candidate = text[start:end]
        if len(candidate) != n or candidate in OTHER_NUMBER_LABELS:
            continue
        mismatches = 0
        for a, b in zip(candidate, label):
            if a != b:
                mismatches += 1
                if mismatches > 1:
                    break
        if mismatches != 1 or not (n >= 3 or candidate[0] == label[0] or candidate[1] == label[1]):
            continue
        after = english.get(end)
        if after is None:
            after = english[end] = _skip_english_label(text, end)
        if text[end : end + 1] not in _COLONS and after == end:
            continue
        best = (label, _skip_separators(text, after), False)
    return best


_ENGLISH_SUBLABEL = re.compile(r"\s*[/|]?\s*[A-Za-z][A-Za-z. ]{1,16}?\s*[:：;；]")


def _skip_english_label(text: str, index: int) -> int:
    """Bilingual tags print '货号 Style No.：'; the English half of the label (however misread:
    'Fabrc', 'Stand') is not the value. It is a run of Latin letters closed by a colon."""
    match = _ENGLISH_SUBLABEL.match(text, index)
    if match and sum(ch.isalpha() for ch in match.group(0)) >= 2:
        return match.end()
    return index


class LinePart(NamedTuple):
    """One part of a line: a label with its value up to the next label, or the text before the first label
    (`labelled` False). `field` is None there, and for a label of lines we skip (inspector, address …)."""

    field: str | None
    labelled: bool
    label_start: int
    value_start: int
    end: int
    exact: bool


def line_parts(text: str) -> list[LinePart]:
    """The parts of a line, in order; a line without a label is one unlabelled part."""
    labeled = split_labeled(text)
    if not labeled:
        return [LinePart(None, False, 0, 0, len(text), True)]
    parts = [LinePart(None, False, 0, 0, labeled[0][2], True)] if labeled[0][2] > 0 else []
    for k, (name, value_start, label_start, exact) in enumerate(labeled):
        end = labeled[k + 1][2] if k + 1 < len(labeled) else len(text)
        parts.append(LinePart(name, True, label_start, value_start, end, exact))
    return parts


def label_exactness(name: str, raw: str) -> bool | None:
    """Whether the line a field was read from carries one of the field's labels exactly (True), only one forgiven
    a character (False), or none (None: a value standing without its label, a VLM's report). `raw` is the line as
    the field was read from it, a label's line and its value's next line joined by ' / '."""
    found = [part.exact for text in raw.split(" / ") for part in line_parts(halfwidth(text))
             if part.labelled and part.field == name]
    return any(found) if found else None


def carries_label(name: str, raw: str) -> bool:
    """Whether the line a field was read from carries one of the field's labels, exactly or forgiven a character."""
    return label_exactness(name, raw) is not None


_THEN_SLASH = re.compile(r"\s*(?:[A-Za-z][A-Za-z.]{0,11}\s*)?[/|]\s*")


def _skip_chinese_label(text: str, upper: str, index: int) -> int:
    """Export tags print the English label first: 'Size/号型：', 'Safety Cat./安全类别：'. After an
    English label (and the rest of its words), a slash and a Chinese label are the same label."""
    if index == 0 or not text[index - 1].isascii():
        return index
    match = _THEN_SLASH.match(text, index)
    if match is None:
        return index
    start = match.end()
    for label in _LABELS_BY_FIRST.get(upper[start : start + 1], ()):
        if not label.isascii():
            end = _match_label(upper, start, label)
            if end is not None:
                return end
    return index


# The rest of an English label's words before its Chinese twin ('SAFETY CAT、安全类别', 'STYLE NO. 款号').
_TWIN_GAP = re.compile(r"[A-Za-z]{1,10}[.、,]?[\s/|]*")
_TWIN_SEPARATORS = _SEPARATORS + "/|"
# A slash, bar or opening bracket between a Chinese label and its English twin ('尺码/SIZE', '颜色 | Colour',
# '号型（SIZE）').
_SLASH_GAP = re.compile(r"\s*[/|(（]\s*")
# A Chinese label's English gloss in brackets, however misread ('号型 (S1ZE) L(170/92A)', '成分(PABRIC) 棉 100%'):
# two letters or more, closed, with the value after it.
_BRACKETED_GLOSS = re.compile(r"\s*[(（]\s*[A-Za-z0-9][A-Za-z0-9 .&'/-]{1,20}?\s*[)）]")
_CLOSING_BRACKETS = ")）"


def _skip_twin_label(text: str, upper: str, index: int, field: str | None, english: bool) -> int:
    """Bilingual tags print both halves of a label with no colon between them ('SIZE 号型 2XL', '号型 Size
    160/92Y', 'SAFETY CAT、安全类别 GB 18401'): a label of the same field in the other language right after
    the first (`english`: the first was) is part of it, not the value. Only such a label is skipped, so a
    value is never taken for a label, and '成分：面料：棉 60% 里料：…' keeps its 面料 (a part, not a twin)."""
    if field is None or index >= len(text):
        return index
    gloss = None if english else _BRACKETED_GLOSS.match(text, index)
    if gloss is not None and sum(ch.isalpha() for ch in gloss.group(0)) >= 2 and text[gloss.end():].strip(_TWIN_SEPARATORS):
        return _skip_separators(text, gloss.end())
    gap = _TWIN_GAP.match(text, index) if english else _SLASH_GAP.match(text, index)  # '尺码/SIZE'
    for start in (index, gap.end() if gap else None):
        if start is None:
            continue
        for label in _LABELS_BY_FIRST.get(upper[start : start + 1], ()):
            if LABELS[label] != field or label.isascii() == english:
                continue
            end = _match_label(upper, start, label)
            if end is None or (label.isascii() and text[end : end + 1].isalpha()):
                continue
            after = end
            while after < len(text) and (text[after] in _TWIN_SEPARATORS or text[after] in _CLOSING_BRACKETS):
                after += 1
            # at the line's end too: both halves alone ('尺码/SIZE' over a badge's XXL) are a label alone, whose
            # value is the line under it, not its own other half
            return after
    return index


# Between the languages of one label: a slash, a bar, a middle dot or spaces ('尺码 / SIZE / TAILLE', '颜色·COLOUR',
# 'REF.  RÉF.'); a word of letters (accented or not) with the dots and hyphens of its abbreviation ('ART.-NR.').
_RUN_GAP = re.compile(r"[\s/|｜·・•]*")
_RUN_WORD = re.compile(r"[A-Za-z\u00C0-\u024F]+(?:[.\-]+[A-Za-z\u00C0-\u024F]+)*\.?")
_RUN_SEPARATORS = _TWIN_SEPARATORS + "｜·・•"


@functools.lru_cache(maxsize=4096)
def _folded(word: str) -> str:
    """A label word as its letters alone: upper case, accents, dots and hyphens dropped ('Réf.' → 'REF',
    'Art.-Nr.' → 'ARTNR'), so a word read without its accent is the same word."""
    plain = "".join(ch for ch in unicodedata.normalize("NFKD", word) if not unicodedata.combining(ch))
    return "".join(ch for ch in plain.upper() if ch.isalpha())


def _is_cjk(label: str) -> bool:
    return any(ord(ch) >= 0x2E80 for ch in label)


# Each field's Latin label words, folded: ('REF', 'REFERENCE', 'ARTNR', …) for the style number.
_LATIN_WORDS: dict[str, frozenset[str]] = {}
for _label, _field in LABELS.items():
    if _field is not None and not _is_cjk(_label):  # no CJK character: a Latin label
        _LATIN_WORDS[_field] = _LATIN_WORDS.get(_field, frozenset()) | {_folded(_label)}


def _same_fields_word(word: str, field: str) -> bool:
    """Whether a word, read after one of `field`'s labels, is that field's label in another language: one of its Latin
    label words, or one letter off one of at least three letters (an accented letter the recognizer lost or turned
    into another: 'RÉF.' read 'RF.', 'GRÖSSE' read 'GR0SSE')."""
    folded = _folded(word)
    words = _LATIN_WORDS.get(field, frozenset())
    return folded in words or (len(folded) >= 2 and any(len(w) >= 3 and abs(len(folded) - len(w)) <= 1 and edit_distance(folded, w) <= 1 for w in words))


def _skip_label_run(text: str, upper: str, index: int, field: str | None) -> int:
    """Export tags head a field with one label written in several languages ('货号 / REF. / RÉF.', 'SIZE / TAILLE /
    GRÖSSE / TALLA', 'Art.-Nr. / 款号'), the value after the run or on the line under it: the words after a field's
    label (at `index`) that are the same field's label in another language are that label too, not its value. A
    run holding another field's label ('货号 / 颜色': two fields' labels over their values) is no one label: it is left
    as read. Returns where the value starts (the line's end where the run is a label alone)."""
    if field is None:
        return index
    at = index
    value_start = index
    while at < len(text):
        start = _RUN_GAP.match(text, at).end()
        if start >= len(text):
            break
        cjk = next((label for label in _LABELS_BY_FIRST.get(upper[start : start + 1], ()) if _is_cjk(label)
                    and _match_label(upper, start, label) is not None), None)
        if cjk is not None and cjk not in _PART_LABELS:
            if LABELS[cjk] != field:
                return index if LABELS[cjk] is not None else value_start
            at = _match_label(upper, start, cjk) or start
        else:
            word = _RUN_WORD.match(text, start)
            if word is None or not _same_fields_word(word.group(0), field):
                if word is not None and any(_folded(word.group(0)) in words
                                            for other, words in _LATIN_WORDS.items() if other != field):
                    return index
                break
            at = word.end()
        value_start = at
        while value_start < len(text) and text[value_start] in _RUN_SEPARATORS:
            value_start += 1
    return value_start


# The parts of a line that is one label in several languages: its languages parted by slashes, bars, middle dots
# or wide spaces.
_RUN_PARTS = re.compile(r"\s*[/|｜·・•]\s*|\s{2,}")
# A part of such a line read beyond knowing (its Chinese words in 5 px grey print: '尺码' read 'R码', '光码', 'DO'; a
# language's word two letters off: 'TALE'): so many characters at most.
MAX_UNREAD_PART = 6
MIN_RUN_WORDS = 2


def label_run_alone(text: str) -> tuple[str, bool] | None:
    """The field a line heads where it is one field's label in several languages alone, some of its parts unread (the
    Chinese, printed smallest or greyest, most often): 'R码/SIZE/TAILLE/ TALLA', 'DO/REF./ART.NR.', '= / REF. /
    REF.'. At least MIN_RUN_WORDS of its parts, the last among them and more than the others, are that field's Latin
    label words (one letter forgiven: 'SIE', 'ROSSE'); no part is another field's, and none of the others is longer
    than MAX_UNREAD_PART or holds a code's digits. (field, exact) where it is one — its value on the line under it —,
    exact where MIN_RUN_WORDS of its words are read letter for letter; None where it is no such line."""
    parts = [part for part in _RUN_PARTS.split(text.strip()) if part]
    if len(parts) < MIN_RUN_WORDS:
        return None
    fields = [_label_word_field(part) for part in parts]
    named = {field for field in fields if field is not None}
    if len(named) != 1 or fields[-1] is None:
        return None
    field = named.pop()
    unread = [part for part, found in zip(parts, fields) if found is None]
    words = len(parts) - len(unread)
    if words < MIN_RUN_WORDS or words <= len(unread) or any(
            len(part) > MAX_UNREAD_PART or (len(part) > 2 and re.search(r"\d", part)) for part in unread):
        return None  # a part too long for a misread word, or a code's digits: a value, not a label's part
    if any(_folded(part) in others for part in unread for other, others in _LATIN_WORDS.items() if other != field):
        return None
    exact = sum(_folded(part) in _LATIN_WORDS[field] for part, found in zip(parts, fields) if found == field)
    return field, exact >= MIN_RUN_WORDS


@functools.lru_cache(maxsize=4096)
def _label_word_field(part: str) -> str | None:
    """The field whose Latin label word `part` is (one letter forgiven where it has three or more), else None; None
    also where it is a word of two fields."""
    if not _RUN_WORD.fullmatch(part):
        return None
    exact = {field for field, words in _LATIN_WORDS.items() if _folded(part) in words}
    if exact:
        return exact.pop() if len(exact) == 1 else None
    near = {field for field in _LATIN_WORDS if _same_fields_word(part, field)} if len(_folded(part)) >= 3 else set()
    return near.pop() if len(near) == 1 else None


def _skip_separators(text: str, index: int) -> int:
    while index < len(text) and text[index] in _SEPARATORS:
        index += 1
    return index


def split_labeled(text: str) -> list[tuple[str | None, int, int, bool]]:
    """(field, value start, label start, exact) for every label in a line, in order."""
    found: list[tuple[str | None, int, int, bool]] = []
    upper = _plain_upper(text)
    first = 1 if text[:1] in _OPENERS else 0
    hit = _label_at(text, first, require_colon=False, upper=upper)
    start = 0
    if hit is None and (bullet := _BULLET.match(text)) is not None:
        start = bullet.end()
        hit = _label_at(text, start, require_colon=False, upper=upper)
    if hit is not None:
        found.append((LABELS[hit[0]], hit[1], start, hit[2]))
    elif (run := label_run_alone(text)) is not None:
        return [(run[0], len(text), 0, run[1])]
    index = found[0][1] if found else 0
    while index < len(text):
        if index > 0 and (text[index - 1] in " \t" + _OPENERS or (found and index > found[-1][1])):
            hit = _label_at(text, index, require_colon=True, upper=upper)
            if hit is None and found and index > found[-1][1] and (
                    text[index - 1] in " \t|｜" or _whole_value(found[-1][0], text[found[-1][1] : index])):
                hit = _bare_label_at(text, index, upper, found[-1][0], found[-1][1])
            if hit is not None and (not found or index > found[-1][1]):
                found.append((LABELS[hit[0]], hit[1], index - 1 if text[index - 1] in _OPENERS else index, hit[2]))
                index = hit[1]
                continue
        index += 1
    return found
