"""What a synthetic line says: random strings over the characters tags print, and hangtag-like lines from
generic grammars (a label and a value of its kind). Product names and colours are random level-1 hanzi, not
word lists: the station is judged on designs and words nobody trained on (`training.tagsets` is never read)."""

from __future__ import annotations

import numpy as np

from inference.reading.repairs import FIBRES, GRADES, PARTS


def _gb2312_rows(first: int, last: int) -> str:
    out = []
    for hi in range(first, last + 1):
        for lo in range(0xA1, 0xFF):
            try:
                out.append(bytes([hi, lo]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return "".join(out)


HANZI = _gb2312_rows(0xB0, 0xD7)  # level 1: the 3 755 most common hanzi (rows 16-55)
# level 2 (rows 56-87: 霾, 蚕's rarer neighbours): a share of every string's hanzi. A fine-tune on level 1 alone
# never asked for these classes and unlearnt them (雾霾蓝 read 雾霹蓝 on a good frame: NG)
HANZI2 = _gb2312_rows(0xD8, 0xF7)
LEVEL2_SHARE = 0.25
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
DIGITS = "0123456789"
PUNCT = "：/%¥.-()，:"
LABELS = ("品名", "货号", "款号", "颜色", "尺码", "号型", "成分", "面料", "等级", "执行标准", "安全技术类别", "价格", "零售价")
SIZES = ("XS", "S", "M", "L", "XL", "XXL", "XXXL", "2XL", "3XL", "4XL", "均码", "F")


def _pick(rng: np.random.Generator, items) -> str:
    return items[int(rng.integers(len(items)))]


def _one_hanzi(rng: np.random.Generator) -> str:
    return _pick(rng, HANZI2 if rng.random() < LEVEL2_SHARE else HANZI)


def _hanzi(rng: np.random.Generator, lo: int, hi: int) -> str:
    return "".join(_one_hanzi(rng) for _ in range(int(rng.integers(lo, hi + 1))))


def random_string(rng: np.random.Generator) -> str:
    """1-24 characters: mostly hanzi, some letters, digits and the punctuation tags use."""
    n = int(rng.integers(1, 25))
    weights = np.array([0.62, 0.14, 0.14, 0.07, 0.03])
    kinds = rng.choice(5, size=n, p=weights)
    pools = (HANZI, LETTERS, DIGITS, PUNCT, " ")
    chars = [_one_hanzi(rng) if k == 0 else _pick(rng, pools[k]) for k in kinds]
    return "".join(chars).strip() or _one_hanzi(rng)


def _standard(rng: np.random.Generator) -> str:
    prefix = _pick(rng, ("GB/T", "FZ/T", "GB", "QB/T", "FZ/T"))
    number = str(int(rng.integers(1000, 99999)))
    year = str(int(rng.integers(1995, 2025)))
    sep = _pick(rng, (" ", "", " "))
    return f"{prefix}{sep}{number}-{year}"


def _safety(rng: np.random.Generator) -> str:
    cls = _pick(rng, ("A类", "B类", "C类"))
    return _pick(rng, (f"GB 18401-2010 {cls}", f"GB18401-2010 {cls}", f"{cls}", f"GB 31701-2015 {cls}"))


def _size(rng: np.random.Generator) -> str:
    if rng.random() < 0.5:
        h = int(rng.integers(100, 200)) // 5 * 5
        g = int(rng.integers(50, 120)) // 2 * 2
        return f"{h}/{g}{_pick(rng, 'AYBC')}"
    return _pick(rng, SIZES)


def _price(rng: np.random.Generator) -> str:
    yuan = int(rng.integers(9, 9999))
    text = f"{yuan:,}" if rng.random() < 0.5 else str(yuan)
    return _pick(rng, (f"¥{text}.00", f"RMB {text}.00", f"¥{text}", f"{text}.00元", f"￥{text}.00"))


def _composition(rng: np.random.Generator) -> str:
    k = int(rng.integers(1, 4))
    shares = rng.multinomial(100, np.ones(k) / k) if k > 1 else np.array([100])
    parts = [f"{_pick(rng, FIBRES)}{_pick(rng, ('', ' '))}{max(1, s)}%" for s in shares]
    text = _pick(rng, (" ", "，", "  ")).join(parts)
    if rng.random() < 0.25:
        text = f"{_pick(rng, PARTS)}：{text}"
    return text


def _style_number(rng: np.random.Generator) -> str:
    n = int(rng.integers(5, 13))
    pool = LETTERS[:26] + DIGITS * 3 + "-"
    return "".join(_pick(rng, pool) for _ in range(n)).strip("-") or "A1"


VALUES = {
    "品名": lambda r: _hanzi(r, 2, 6), "货号": _style_number, "款号": _style_number, "颜色": lambda r: _hanzi(r, 1, 4),
    "尺码": _size, "号型": _size, "成分": _composition, "面料": _composition, "等级": lambda r: _pick(r, GRADES),
    "执行标准": _standard, "安全技术类别": _safety, "价格": _price, "零售价": _price,
}


def hangtag_line(rng: np.random.Generator) -> str:
    """A label and its value ('执行标准：FZ/T 81007-2012'), or a value alone as tags also print it."""
    label = _pick(rng, LABELS)
    value = VALUES[label](rng)
    if rng.random() < 0.25:
        return value[:24].strip()
    colon = _pick(rng, ("：", ":", " ", "："))
    return f"{label}{colon}{value}"[:24].strip()


def line_text(rng: np.random.Generator, grammar_share: float = 0.5) -> str:
    return hangtag_line(rng) if rng.random() < grammar_share else random_string(rng)
