"""Repairs of values the recognizer got nearly right, from what a hangtag can say.

Fibre names come from GB/T 29862, grades from GB/T 18401's vocabulary; a misread English
sub-label that lost its colon is dropped from the value it ran into.
"""

from __future__ import annotations

import re
from itertools import product

GRADES = ("优等品", "一等品", "合格品")

# GB/T 29862 fibre names as printed on mainland tags, and the parts of a garment they describe.
FIBRES = (
    "棉", "聚酯纤维", "涤纶", "氨纶", "锦纶", "尼龙", "粘纤", "粘胶纤维", "羊毛", "绵羊毛", "腈纶", "亚麻", "苎麻",
    "桑蚕丝", "真丝", "蚕丝", "莫代尔", "莱赛尔", "天丝", "羊绒", "山羊绒", "兔毛", "马海毛", "羊驼毛", "醋酯纤维",
    "铜氨纤维", "丙纶", "维纶", "聚氨酯", "鸭绒", "鹅绒", "白鸭绒", "白鹅绒", "羽绒", "其他纤维",
)
PARTS = ("面料", "面布", "里料", "里布", "填充物", "胆料", "罗纹", "网布", "袖里", "身里")
_COMPOSITION_WORD = re.compile(r"[\u4e00-\u9fff]+")


def _nearest(word: str, vocabulary: tuple[str, ...]) -> str:
    """The vocabulary word one character away from `word` (same length, 2+ characters), if unique."""
    if word in vocabulary or len(word) < 2:
        return word
    close = [v for v in vocabulary if len(v) == len(word) and sum(a != b for a, b in zip(v, word)) == 1]
    return close[0] if len(close) == 1 else word


# A word the lexicon may mend: a fibre right before its share, or a part right before its colon.
_MENDABLE = re.compile(r"[\u4e00-\u9fff]{2,5}(?=\s*\d+(?:\.\d+)?\s*[%％]|\s*[:：])")


def mend_with_alternatives(text: str, alternatives: tuple[str, ...]) -> str:
    """Swap one character for the recognizer's runner-up where that turns a near-miss into a
    fibre or part name (镍纶 with 锦 as runner-up → 锦纶). Length is kept, so confidences align."""
    if len(alternatives) != len(text):
        return text
    chars = list(text)
    for match in _MENDABLE.finditer(text):
        word = match.group(0)
        if word in FIBRES or word in PARTS:
            continue
        for offset in range(len(word)):
            i = match.start() + offset
            hit = next((alt for alt in alternatives[i] if word[:offset] + alt + word[offset + 1 :] in FIBRES + PARTS), None)
            if hit:
                chars[i] = hit
                break
    return "".join(chars)


def fix_composition(value: str) -> str:
    """Fibre and part names misread by one character go back to the name: 镍纶 → 锦纶, 園料 → 面料; shares
    whose % was lost or read as a digit get it back where the shares then add up to 100."""
    return mend_shares(_COMPOSITION_WORD.sub(lambda m: _nearest(_nearest(m.group(0), FIBRES), PARTS), value))


# A fibre and its share: the % may be missing, or read as a last digit ('桑蚕丝 1009' for 桑蚕丝 100%).
_SHARE = re.compile(r"(?<=[\u4e00-\u9fff])\s*(\d{1,4})(\s*[%％])?")


def mend_shares(value: str) -> str:
    """The shares of one fibre content add up to 100 (GB/T 29862): where some were read without their % sign,
    the one way of reading each as it stands (a % lost) or without its last digit (a % read as a digit) that
    makes them add up to 100 puts the signs back. No such way, or more than one: the value stays as read."""
    shares = list(_SHARE.finditer(value))
    unmarked = [m for m in shares if m.group(2) is None]
    if not unmarked or len(shares) > 6:
        return value
    options = [[int(m.group(1))] if m.group(2) else sorted({int(m.group(1)), int(m.group(1)) // 10}) for m in shares]
    ways = [way for way in product(*options) if sum(way) == 100 and all(0 < v <= 100 for v in way)]
    if len(ways) != 1:
        return value
    out, end = [], 0
    for m, share in zip(shares, ways[0]):
        out.append(value[end : m.start(1)] + f"{share}%")
        end = m.end()
    return "".join(out) + value[end:]


def fix_grade(value: str) -> str:
    for grade in GRADES:
        if grade[:2] in value or (grade[0] in value and "品" in value and grade != "合格品"):
            return grade
    return "合格品" if "格" in value else value


_SIZE_TOKEN = re.compile(r"^(?:X{0,3}[SML]|[2-6]XL|\d{2,3}/\d{2,3}[A-Z]?.*|均码|F|FREE)$", re.IGNORECASE)


def drop_label_remnant(name: str, value: str) -> str:
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
            spaced = next((k for k, t in enumerate(tokens) if len(t) != 1), len(tokens))
            if spaced > 1 and _SIZE_TOKEN.match("".join(tokens[:spaced])):  # a size printed letter-spaced or full-width
                return " ".join(["".join(tokens[:spaced]), *tokens[spaced:]])  # ('Ｘ Ｌ'): no remnant before 'L'
            tokens.pop(0)
        return " ".join(tokens)
    if name in ("color", "product_name", "grade", "composition"):
        while len(tokens) > 1 and tokens[0].isascii() and re.search(r"[\u4e00-\u9fff]", " ".join(tokens[1:])):
            tokens.pop(0)
        return " ".join(tokens)
    return value


def looks_empty(name: str, value: str) -> bool:
    """No value, or only the English half of the label ('Art. No', 'Size') before a line break."""
    text = value.strip()
    if not text:
        return True
    if not re.fullmatch(r"[A-Za-z. ]+", text) or name == "brand":
        return False
    return not (name == "size" and _SIZE_TOKEN.match(text.split()[-1]))
