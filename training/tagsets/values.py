"""What one job's tag says: values drawn from Chinese garment labelling practice, and the planted defects.

GB/T 29862 (which fields a label carries), GB 18401 (safety category A/B/C类), GB/T 1335 (号型 such as
170/92A) and FZ/T 01053 (fibre content such as "棉 95% 氨纶 5%"). Values are drawn wide on purpose:
letter-prefixed style numbers, prices with repeated digits, colour names of several lengths.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

PRODUCT_NAMES = (
    "女士羊毛针织衫", "男式休闲裤", "半身裙", "连衣裙", "男士衬衫", "女式牛仔裤", "儿童卫衣", "羽绒服",
    "针织开衫", "运动短裤", "风衣", "男士夹克", "女士T恤", "加绒卫裤", "真丝衬衫", "棉服", "西装上衣",
    "打底衫", "阔腿裤", "毛呢大衣", "polo衫", "休闲短袖", "工装裤", "雪纺衫",
)
COLORS = (
    "黑色", "藏青", "米白", "卡其", "酒红", "白色", "灰色", "浅灰", "深蓝", "军绿", "驼色", "杏色", "粉红",
    "宝蓝", "咖啡色", "燕麦色", "雾霾蓝", "奶白", "墨绿", "焦糖色", "浅蓝", "花灰", "橙色", "紫色",
)
CHEST = {"A": (80, 84, 88, 92, 96, 100, 104), "B": (88, 92, 96, 100, 104), "Y": (80, 84, 88, 92, 96)}
HEIGHTS = (155, 160, 165, 170, 175, 180, 185)
LETTER_SIZES = ("S", "M", "L", "XL", "XXL", "XS", "2XL", "3XL")
FIBRES = ("棉", "聚酯纤维", "氨纶", "粘纤", "锦纶", "羊毛", "腈纶", "桑蚕丝", "亚麻", "莫代尔", "再生纤维素纤维")
STANDARDS = (
    "GB/T 2664-2017", "GB/T 2660-2017", "FZ/T 73020-2019", "FZ/T 81007-2022", "GB/T 22849-2014",
    "FZ/T 81004-2022", "GB/T 2662-2017", "FZ/T 73043-2021", "GB/T 14272-2021", "FZ/T 81006-2017",
    "GB/T 22853-2019", "FZ/T 73005-2021",
)
GRADES = ("合格品", "一等品", "优等品")
BRANDS = ("MUJIAN", "北木", "LANXI", "Oak&Linen", "素本", "KOVA", "云织", "HEYLO", "青禾", "NORDA", "Veline", "森屿")
STYLE_PREFIXES = ("B", "KX-", "V", "W", "MT", "D", "QL", "H", "ZS", "A", "FS-", "N")
PRICES = ("399.00", "1299.00", "88.00", "199.00", "1099.00", "259.00", "699.00", "129.00", "1599.00", "99.00",
          "459.00", "2999.00", "69.90", "329.00", "888.00", "1199.00", "79.00", "549.00", "1000.00", "339.00")

DEFECT_KINDS = ("wrong_size", "wrong_price", "wrong_style_number", "wrong_color", "wrong_barcode",
                "missing_tag", "two_tags")
DEFECT_FIELD = {"wrong_size": "size", "wrong_price": "price", "wrong_style_number": "style_number",
                "wrong_color": "color", "wrong_barcode": "ean13"}


@dataclass(frozen=True)
class TagValues:
    """Canonical values of one job (the recipe's); how a design prints them is the design's business."""

    product_name: str
    style_number: str
    color: str
    size: str
    composition: str
    standard: str
    safety_category: str
    grade: str
    price: str  # "1099.00": the design picks the currency form
    ean13: str
    brand: str

    def replace(self, **changes: str) -> TagValues:
        return TagValues(**{**self.__dict__, **changes})


def _pick(rng: np.random.Generator, items: tuple[str, ...]) -> str:
    return items[int(rng.integers(len(items)))]


def ean13_with_check(first12: str) -> str:
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(first12))
    return first12 + str((10 - total % 10) % 10)


def random_ean13(rng: np.random.Generator) -> str:
    prefix = _pick(rng, ("690", "691", "692", "693", "694", "695", "697", "699"))
    return ean13_with_check(prefix + "".join(str(int(d)) for d in rng.integers(0, 10, 9)))


def random_style_number(rng: np.random.Generator) -> str:
    prefix = _pick(rng, STYLE_PREFIXES)
    digits = "".join(str(int(d)) for d in rng.integers(0, 10, int(rng.integers(4, 9))))
    tail = _pick(rng, ("", "", "A", "B", "-05", "-01", "C")) if len(digits) < 7 else ""
    return prefix + digits + tail


def random_size(rng: np.random.Generator) -> str:
    if rng.random() < 0.35:
        return _pick(rng, LETTER_SIZES)
    body = _pick(rng, tuple(CHEST))
    height = int(_pick(rng, tuple(map(str, HEIGHTS))))
    girth = CHEST[body][int(rng.integers(len(CHEST[body])))]
    return f"{height}/{girth}{body}"


def random_composition(rng: np.random.Generator) -> str:
    n = int(rng.choice((1, 2, 2, 3)))
    fibres = list(rng.choice(FIBRES, size=n, replace=False))
    if n == 1:
        shares = [100]
    else:
        main = int(rng.choice((95, 92, 90, 85, 80, 70, 65, 60, 55)))
        rest = 100 - main
        shares = [main] + ([rest] if n == 2 else [rest - rest // 3, rest // 3])
    return " ".join(f"{f} {s}%" for f, s in zip(fibres, shares))


def random_values(rng: np.random.Generator) -> TagValues:
    return TagValues(
        product_name=_pick(rng, PRODUCT_NAMES),
        style_number=random_style_number(rng),
        color=_pick(rng, COLORS),
        size=random_size(rng),
        composition=random_composition(rng),
        standard=_pick(rng, STANDARDS),
        safety_category=f"GB 18401-2010 {_pick(rng, ('A', 'B', 'B', 'C'))}类",
        grade=_pick(rng, GRADES),
        price=_pick(rng, PRICES),
        ean13=random_ean13(rng),
        brand=_pick(rng, BRANDS),
    )


def neighbour_size(rng: np.random.Generator, size: str) -> str:
    """The size a mix-up on the line would give: the next size up or down, same system."""
    if size in LETTER_SIZES:
        options = tuple(s for s in LETTER_SIZES if s != size)
        return _pick(rng, options)
    step = int(rng.choice((-1, 1)))
    if size.isdigit():  # a jeans waist in inches ('29') or a child's height ('110')
        return str(int(size) + (step if int(size) < 50 else 10 * step))
    waist_leg = re.match(r"^W(\d+) L(\d+)$", size)
    if waist_leg:
        return f"W{int(waist_leg.group(1)) + step} L{waist_leg.group(2)}"
    cup = re.match(r"^(\d{2})([A-G])$|^([A-G])(\d{2})$", size)
    if cup:  # a bra's band and cup: the next band, same cup ('75B' → '80B', 'B75' → 'B70')
        if cup.group(1):
            return f"{int(cup.group(1)) + 5 * step}{cup.group(2)}"
        return f"{cup.group(3)}{int(cup.group(4)) + 5 * step}"
    height, rest = size.split("/")
    if rest.isdigit():  # a child's 号型 has no body type and steps 10 cm in height with 4 cm in chest
        return f"{int(height) + 10 * step}/{int(rest) + 4 * step}"
    girth, body = int(rest[:-1]), rest[-1]
    return f"{int(height) + 5 * step}/{girth + 4 * step}{body}"


def wrong_value(rng: np.random.Generator, kind: str, values: TagValues) -> TagValues:
    """The same tag with one field changed to a plausible wrong value (never equal to the right one)."""
    while True:
        if kind == "wrong_size":
            changed = values.replace(size=neighbour_size(rng, values.size))
        elif kind == "wrong_price":
            changed = values.replace(price=_pick(rng, PRICES))
        elif kind == "wrong_style_number":
            digits = list(values.style_number)
            spots = [i for i, c in enumerate(digits) if c.isdigit()]
            i = spots[int(rng.integers(len(spots)))]
            digits[i] = str((int(digits[i]) + int(rng.integers(1, 10))) % 10)
            changed = values.replace(style_number="".join(digits))
        elif kind == "wrong_color":
            changed = values.replace(color=_pick(rng, COLORS))
        elif kind == "wrong_barcode":
            changed = values.replace(ean13=random_ean13(rng))
        else:
            raise ValueError(f"{kind} changes no field")
        field = DEFECT_FIELD[kind]
        if getattr(changed, field) != getattr(values, field):
            return changed
