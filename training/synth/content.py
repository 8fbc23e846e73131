"""What a Chinese garment hangtag says: field values drawn from a seeded generator.

Values are stored exactly as printed after their label, so the reading side can compare
what it reads with what was printed, character for character.
"""

from __future__ import annotations

import numpy as np

from training.synth.barcodes import ean13_check_digit

FIELD_KEYS = (
    "brand", "product_name", "style_number", "color", "size", "composition",
    "standard", "safety_category", "grade", "price", "ean13",
)

# Made-up brands: no real trademark is printed on a synthetic tag.
BRANDS = (
    "NORTHWIND", "LUMEN & CO", "MUJIAN", "QINGSHAN", "AURELIE", "HEMU", "SOLENNE", "BAIHE",
    "KESTREL", "YUNZHI", "OAKFIELD", "LINNEA", "MOSS & MILL", "TANGRAM", "ZEPHYRA", "HALCYON",
    "云织", "禾本", "青衫集", "木棉记", "素语", "山川纪", "初棉", "南风衣橱", "织里", "北屿",
)
PRODUCTS = (
    "男士针织衫", "女士连衣裙", "儿童卫衣", "男式休闲裤", "女式羊毛大衣", "纯棉T恤", "牛仔裤",
    "羽绒服", "男士衬衫", "半身裙", "针织开衫", "运动套装", "女士风衣", "男士夹克", "打底衫",
    "休闲短裤", "婴儿连体衣", "真丝衬衫", "羊绒围巾", "西服上衣", "女士毛衣", "家居服",
)
COLORS = (
    "黑色", "白色", "藏青", "卡其", "灰色", "酒红", "米白", "浅蓝", "墨绿", "驼色", "粉色",
    "杏色", "深灰", "宝蓝", "燕麦色", "咖啡色", "红色", "黄色", "花灰", "本白",
)
LETTER_SIZES = ("XS", "S", "M", "L", "XL", "XXL", "3XL", "均码")
CHEST = {"XS": "155/76A", "S": "160/80A", "M": "165/84A", "L": "170/88A", "XL": "175/92A",
         "XXL": "180/96A", "3XL": "185/100A"}
FIBRES = ("棉", "聚酯纤维", "氨纶", "锦纶", "粘纤", "羊毛", "腈纶", "亚麻", "桑蚕丝", "莫代尔", "羊绒")
STANDARDS = (
    "FZ/T 73020-2019", "GB/T 2664-2017", "FZ/T 81007-2022", "GB/T 22849-2014", "FZ/T 73010-2016",
    "GB/T 2660-2017", "FZ/T 81004-2022", "GB/T 22853-2019", "FZ/T 73018-2021", "GB/T 14272-2021",
    "FZ/T 81006-2017", "GB/T 2665-2017", "FZ/T 73045-2013", "GB/T 31888-2015",
)
SAFETY = ("A类", "B类", "C类")
GRADES = ("合格品", "一等品", "优等品")
PRICES = (59, 69, 79, 89, 99, 129, 139, 159, 169, 199, 229, 259, 299, 349, 399, 459, 499, 599,
          699, 799, 899, 999, 1299, 1599, 1999)
_LETTERS = "ABCDEFGHJKLMNPQRSTUVWXYZ"


def _pick(rng: np.random.Generator, options: tuple) -> str:
    return options[int(rng.integers(len(options)))]


def _digits(rng: np.random.Generator, n: int) -> str:
    return "".join(str(int(d)) for d in rng.integers(0, 10, n))


def style_number(rng: np.random.Generator) -> str:
    kind = int(rng.integers(5))
    year = str(int(rng.integers(20, 27)))
    if kind == 0:
        return f"{_pick(rng, tuple(_LETTERS))}{_pick(rng, tuple(_LETTERS))}{year}{_pick(rng, tuple(_LETTERS))}{_digits(rng, 4)}"
    if kind == 1:
        return f"{_pick(rng, tuple(_LETTERS))}{year}{_digits(rng, 2)}-{_digits(rng, 2)}"
    if kind == 2:
        return f"{_pick(rng, tuple(_LETTERS))}{year}{_digits(rng, 5)}"
    if kind == 3:
        return f"{year}{_pick(rng, tuple(_LETTERS))}{_pick(rng, tuple(_LETTERS))}-{_digits(rng, 4)}"
    return f"{year}{_digits(rng, 6)}"


def ean13(rng: np.random.Generator) -> str:
    """GS1 China prefixes 690-699, then company, item, and the check digit."""
    first12 = "69" + str(int(rng.integers(0, 10))) + _digits(rng, 9)
    return first12 + str(ean13_check_digit(first12))


def composition(rng: np.random.Generator) -> str:
    if rng.random() < 0.3:
        return f"{_pick(rng, FIBRES)} 100%"
    n = int(rng.integers(2, 4))
    fibres = list(rng.choice(len(FIBRES), n, replace=False))
    shares = sorted((int(s) for s in rng.integers(2, 30, n - 1)), reverse=True)
    main = 100 - sum(shares)
    parts = [f"{FIBRES[fibres[0]]} {main}%"] + [f"{FIBRES[f]} {s}%" for f, s in zip(fibres[1:], shares)]
    text = " ".join(parts)
    if rng.random() < 0.2:
        text = f"面料：{text} 里料：聚酯纤维 100%"
    return text


def size(rng: np.random.Generator) -> str:
    letter = _pick(rng, LETTER_SIZES)
    kind = int(rng.integers(3))
    if letter == "均码" or kind == 0:
        return letter
    if kind == 1:
        return CHEST[letter]
    return f"{CHEST[letter]}({letter})"


def draw_fields(rng: np.random.Generator) -> dict[str, str]:
    price = int(_pick(rng, PRICES))
    return {
        "brand": _pick(rng, BRANDS),
        "product_name": _pick(rng, PRODUCTS),
        "style_number": style_number(rng),
        "color": _pick(rng, COLORS),
        "size": size(rng),
        "composition": composition(rng),
        "standard": _pick(rng, STANDARDS),
        "safety_category": f"GB 18401-2010 {_pick(rng, SAFETY)}",
        "grade": _pick(rng, GRADES),
        "price": f"¥{price}.00",
        "ean13": ean13(rng),
    }


# Label variants as printed before each value (the value follows a full-width or ASCII colon).
LABELS = {
    "product_name": ("品名", "品 名", "名称", "品名 Name"),
    "style_number": ("货号", "款号", "货号 Style No.", "款号 Art.No."),
    "color": ("颜色", "颜 色", "颜色 Color"),
    "size": ("号型", "尺码", "规格", "号型 Size", "尺码 Size"),
    "composition": ("成分", "面料成分", "纤维含量", "成分 Fabric"),
    "standard": ("执行标准", "执行标准 Standard"),
    "safety_category": ("安全技术类别", "安全类别"),
    "grade": ("等级", "质量等级", "等级 Grade"),
    "price": ("价格", "零售价", "统一零售价", "吊牌价"),
}
