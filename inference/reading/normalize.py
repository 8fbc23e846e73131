"""Text normalization that makes OCR output comparable: width forms, currency signs, code confusions.

Each field has a canonical *key*: two values are "the same" when their keys are equal. Keys ignore
spacing and width forms everywhere, letter/digit look-alikes in codes, and formatting in prices.
"""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal, InvalidOperation

_DASHES = dict.fromkeys(map(ord, "‐‑‒–—―−﹣－ー一_~"), "-")
_COLONS = dict.fromkeys(map(ord, "：﹕︰∶;；"), ":")
_CODE_LOOKALIKES = str.maketrans({"O": "0", "I": "1", "|": "1"})
_SPACES = re.compile(r"\s+")
_PRICE = re.compile(r"(\d{1,6}(?:[.,，]\d{1,2})?)")
_CURRENCY_NOISE = re.compile(r"^(?:RMB|CNY|Y|¥)+", re.IGNORECASE)


def halfwidth(text: str) -> str:
    """NFKC folds full-width letters, digits, ￥, ％, （） onto their ASCII forms."""
    return unicodedata.normalize("NFKC", text).replace("\u3000", " ").strip()


def squash(text: str) -> str:
    return _SPACES.sub("", halfwidth(text))


def normalize_code(text: str) -> str:
    """Style numbers and the like: upper case, no spaces, every dash a hyphen.

    Codes are a letter prefix then digits, so past the prefix an O next to a digit is a 0 and an
    I or l is a 1.
    """
    text = squash(text).translate(_DASHES)
    text = re.sub(r"[^0-9A-Za-z\-/.]", "", text)
    prefix = re.match(r"[A-Za-z]*", text).group(0)
    rest = text[len(prefix) :]
    if re.search(r"\d", rest):
        rest = re.sub(r"(?<=[\d\-])[OoQ]|[OoQ](?=\d)", "0", rest)
        rest = re.sub(r"(?<=[\d\-])[Il|]|[Il|](?=\d)", "1", rest)
    return (prefix + rest).upper()


def code_key(text: str) -> str:
    """Codes compared with O/0 and I/1/l folded, because OCR swaps them freely."""
    return normalize_code(text.replace("l", "1")).translate(_CODE_LOOKALIKES)


# An amount in another currency: a dollar, euro, pound or won sign, or a currency's code or name, before it
# (`US$ 59.00`, `EUR 70,90`, `JP¥ 8,390`, `HK$440`; € is often read ∈) or after it (`59 USD`, `440港币`). An export tag lists the
# retail price in several currencies; the recipe's price is the yuan one (¥, ￥, RMB, CNY, CN¥, 元).
_OTHER_CURRENCIES = r"USD|EUR|GBP|JPY|HKD|SGD|AUD|CAD|NZD|KRW|TWD|NTD|CHF|MOP|MYR|THB|美元|欧元|日元|港币|港元|英镑|韩元|新币|澳元|台币"
_FOREIGN_BEFORE = re.compile(rf"(?:[$€∈£₩]|JP[¥￥]|{_OTHER_CURRENCIES})\s*[:：]?\s*$", re.IGNORECASE)
_FOREIGN_AFTER = re.compile(rf"^(?:[.,，]\d{{1,2}})?\s*(?:[$€£₩]|{_OTHER_CURRENCIES})", re.IGNORECASE)
_NUMBER = re.compile(r"\d[\d,，]*(?:[.．·]\d{1,2})?")


def foreign_amount(text: str, start: int, end: int) -> bool:
    """Whether the number at text[start:end] is an amount in a currency other than the yuan."""
    return bool(_FOREIGN_BEFORE.search(text[max(0, start - 8) : start]) or _FOREIGN_AFTER.match(text[end : end + 8]))


def without_foreign_amounts(text: str) -> str:
    """The text with every amount in another currency blanked (its digits turned to spaces, so positions hold)."""
    out = list(text)
    for match in _NUMBER.finditer(text):
        if foreign_amount(text, match.start(), match.end()):
            out[match.start() : match.end()] = " " * (match.end() - match.start())
    return "".join(out)


def parse_price(text: str) -> Decimal | None:
    """The yuan amount of a printed price ('¥1,099.00', 'RMB 399', '199元'); amounts in other currencies
    on the same line (`US$ 59.00`) are passed over."""
    cleaned = squash(without_foreign_amounts(halfwidth(text))).replace("￥", "¥")
    cleaned = _CURRENCY_NOISE.sub("", cleaned.upper())
    cleaned = re.sub(r"(?<=\d)O|O(?=\d)", "0", cleaned)
    cleaned = re.sub(r"(?<=\d)[,，](?=\d{3}(?!\d))", "", cleaned)  # thousands: 1,099.00 is 1099.00
    match = _PRICE.search(cleaned)
    if not match:
        return None
    try:
        return Decimal(match.group(1).replace(",", ".").replace("，", ".")).quantize(Decimal("0.01"))
    except InvalidOperation:
        return None


def format_price(amount: Decimal) -> str:
    return f"¥{amount:.2f}"


def normalize_price(text: str) -> str:
    amount = parse_price(text)
    return format_price(amount) if amount is not None else ""


def normalize_standard(text: str) -> str:
    """'ＧＢ／Ｔ２２８４９－２０１４' and 'GB/T22849—2014' both become 'GB/T 22849-2014'."""
    text = squash(text).translate(_DASHES).upper().replace("／", "/").lstrip("([{<（【-.,:;")
    # standard prefixes are GB, GB/T, FZ/T: B read as 8 or R, G as C or 6, and Z as 2 are recognizer slips
    text = re.sub(r"^[GC6][8BR](?=/T|18401|\d{4,5}-)", "GB", text)
    text = re.sub(r"^F2(?=/T)", "FZ", text)
    # no standard's code has a digit after its slash (GB/T, FZ/T): a 1 or I there is the T, its bar lost
    text = re.sub(r"^([A-Z]{2})/[1IL|](?=\s?\d)", r"\1/T", text)
    text = re.sub(r"([A-Z]{1,3}(?:/[A-Z])?)(?=\d)", r"\1 ", text)
    # the year is the last four digits after the standard's number: a dash the recognizer dropped between them
    text = re.sub(r"(?<=[A-Z] )(\d{3,5})((?:19|20)\d\d)(?!\d)", r"\1-\2", text)
    return re.sub(r"(\d)(?=[A-Z]{2})", r"\1 ", text)


def normalize_safety(text: str) -> str:
    """Keep the class letter with its 类; the standard number in front is reported as-is."""
    text = normalize_standard(text)
    text = re.sub(r"\s*([ABC])\s*[类頬突美]", r" \1类", text)
    return text.strip()


def safety_class(text: str) -> str:
    match = re.search(r"([ABC])\s*[类頬突美]", squash(text).upper())
    if match:
        return f"{match.group(1)}类"
    match = re.search(r"([ABC])$", squash(text).upper())
    return f"{match.group(1)}类" if match else squash(text)


def normalize_composition(text: str) -> str:
    """One space between components: '棉95%氨纶5%' → '棉95% 氨纶5%'."""
    text = halfwidth(text).replace("％", "%")
    text = re.sub(r"\s*%\s*", "% ", text)
    text = re.sub(r"\s*([,，、;])\s*", r"\1", text)
    return _SPACES.sub(" ", text).strip()


def normalize_size(text: str) -> str:
    text = squash(text).upper().replace("（", "(").replace("）", ")")
    if not re.search(r"\d", text):
        return text
    text = text.translate(_DASHES).replace("I", "1")
    # a 号型 has no decimal point: one read inside its numbers ('160/8.4Y') is a speck
    return _POINT_IN_HAO_XING.sub("", text) if "/" in text else text


_POINT_IN_HAO_XING = re.compile(r"(?<=\d)[.,·](?=\d{1,2}[A-Z]?(?:\W|$)|\d*/)")


def normalize_ean(text: str) -> str:
    digits = squash(text).upper().translate(str.maketrans({"O": "0", "I": "1", "L": "1", "B": "8", "S": "5"}))
    return re.sub(r"\D", "", digits)


def normalize_text(text: str) -> str:
    return _SPACES.sub(" ", halfwidth(text)).strip()


def ean13_check_ok(digits: str) -> bool:
    if len(digits) != 13 or not digits.isdigit():
        return False
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(digits[:12]))
    return (10 - total % 10) % 10 == int(digits[12])


def upca_check_ok(digits: str) -> bool:
    return len(digits) == 12 and digits.isdigit() and ean13_check_ok("0" + digits)


def ean8_check_ok(digits: str) -> bool:
    if len(digits) != 8 or not digits.isdigit():
        return False
    total = sum(int(d) * (1 if i % 2 else 3) for i, d in enumerate(digits[:7]))
    return (10 - total % 10) % 10 == int(digits[7])


NORMALIZERS = {
    "product_name": normalize_text,
    "style_number": normalize_code,
    "color": normalize_text,
    "size": normalize_size,
    "composition": normalize_composition,
    "standard": normalize_standard,
    "safety_category": normalize_safety,
    "grade": normalize_text,
    "price": normalize_price,
    "ean13": normalize_ean,
    "brand": normalize_text,
}


def normalize_field(name: str, text: str) -> str:
    return NORMALIZERS[name](text)


def field_key(name: str, text: str) -> str:
    """The form two values of one field are compared in."""
    if name == "style_number":
        return code_key(text)
    if name == "price":
        amount = parse_price(text)
        return f"{amount:.2f}" if amount is not None else squash(text)
    if name == "ean13":
        return normalize_ean(text)
    if name == "safety_category":
        return squash(normalize_safety(text))
    if name in ("standard", "size"):
        return squash(normalize_field(name, text)).upper()
    return squash(text).replace("%", "%").upper()


def edit_distance(a: str, b: str) -> int:
    """Characters inserted, dropped or changed to turn `a` into `b` (Levenshtein)."""
    if len(a) < len(b):
        a, b = b, a
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (x != y))
    return row[-1]


def same_value(name: str, a: str, b: str) -> bool:
    return field_key(name, a) == field_key(name, b)
