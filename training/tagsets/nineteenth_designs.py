"""Three designs added on 2026-12-05 (twenty-fourth session), after the reader had been developed while looking at the
fifty-five in `designs`: a fresh yardstick nobody tuned for. Each names the size in a **size system** the earlier
designs never print (they print letter sizes and adult 号型 only):

- `kids_height`: a children's-wear (童装) 合格证: the size by the child's **height** (GB/T 1335.3 号型 without a body
  type, `110/56`, or the height alone, `110`), with `适合身高：105-115cm` and `建议年龄：4-5岁` lines, GB 31701-2015
  (婴幼儿及儿童纺织产品安全技术规范) as the safety standard, `A类` and a `婴幼儿用品` line for a baby's size;
- `jeans_waist`: a jeans tag: the size as a **waist in inches** (`29`, `W29 L32`), with the 号型 (`170/74A`, a
  waist girth) and the waist in cm and in 市尺 (`腰围：74cm（2尺2）`) beside it; the recipe names one of them;
- `bra_cup`: a bra (文胸) tag, FZ/T 73012-2017: the size as **band and cup** (`75B`, `B75`, `75B(34B)`), with
  the body's 上胸围 / 下胸围 ranges in cm under it.

A job's values come from `kids_values`, `jeans_values`, `bra_values` (the design's own product names, sizes, standards and safety class), so its
recipe is what a line engineer would type from the tag: the size as the size row prints it (the 号型 where a jeans
job names the 号型; the Chinese form `75B` where a bra tag adds the inch form). Truth's `fields` keep the print,
its `values` the recipe's. `values.neighbour_size` steps every one of these systems for a wrong-size defect.
"""

from __future__ import annotations

import re

import numpy as np

from training.tagsets.canvas import Card, TagArt
from training.tagsets.fonts import font_names
from training.tagsets.layout import BLACK, ean_block, money, pick
from training.tagsets.values import TagValues

# -- children's wear: GB/T 1335.3 号型 (height / chest girth, no body type), 10·4 series from 80 cm ------------

KIDS_SIZES = ("80/48", "90/52", "100/52", "110/56", "120/60", "130/64", "140/68", "150/72")
BABY_HEIGHT = 90  # a size for 36 months or younger: GB 31701's 婴幼儿 (A类 and 婴幼儿用品)
KIDS_AGES = {70: "6-12个月", 80: "12-18个月", 90: "2-3岁", 100: "3-4岁", 110: "4-5岁", 120: "6-7岁", 130: "8-9岁", 140: "10-11岁",
             150: "12-13岁", 160: "14岁"}
KIDS_NAMES = ("儿童卫衣", "男童长裤", "女童连衣裙", "儿童羽绒服", "儿童T恤", "童装套装")
BABY_NAMES = ("婴儿连体衣", "婴儿哈衣", "婴儿爬服", "宝宝外套")
KIDS_STANDARDS = ("FZ/T 81003-2003", "FZ/T 73045-2013", "GB/T 33271-2016")
KIDS_FIBRES = ("棉 100%", "棉 95% 氨纶 5%", "棉 80% 聚酯纤维 20%", "莫代尔 92% 氨纶 8%")

# -- jeans: a waist in inches, its girth in cm (the 号型's) and in 市尺 (3 尺 to the metre) --------------------

WAIST_CM = {26: 66, 27: 68, 28: 70, 29: 74, 30: 76, 31: 78, 32: 80, 33: 84, 34: 86, 35: 88, 36: 90}
LEG_HEIGHT = {30: 165, 32: 170, 34: 180}  # an inside leg in inches and the body height its 号型 names
JEANS_NAMES = ("女式牛仔裤", "男士牛仔裤", "直筒牛仔裤", "修身牛仔裤", "阔腿牛仔裤")
JEANS_FIBRES = ("棉 100%", "棉 98% 氨纶 2%", "棉 92% 聚酯纤维 6% 氨纶 2%", "棉 79% 莱赛尔纤维 20% 氨纶 1%")
WAIST = re.compile(r"^W(\d{2}) L(\d{2})$")

# -- bras: FZ/T 73012 band (下胸围, cm) and cup (上胸围 minus 下胸围) ---------------------------------------------

BANDS = (70, 75, 80, 85, 90)
CUPS = ("A", "B", "C", "D")
CUP_DIFF = {"A": 10.0, "B": 12.5, "C": 15.0, "D": 17.5}
BAND_INCH = {70: 32, 75: 34, 80: 36, 85: 38, 90: 40}
BRA_NAMES = ("文胸", "无钢圈文胸", "聚拢文胸", "蕾丝文胸", "运动文胸")
BRA_FIBRES = ("锦纶 82% 氨纶 18%", "锦纶 90% 氨纶 10%", "聚酯纤维 85% 氨纶 15%", "棉 95% 氨纶 5%")
CUP_SIZE = re.compile(r"^(\d{2})([A-G])$|^([A-G])(\d{2})$")


def cup_parts(size: str) -> tuple[int, str] | None:
    """(band, cup) of '75B' or 'B75', or None where `size` is neither."""
    m = CUP_SIZE.match(size)
    if not m:
        return None
    return (int(m.group(1)), m.group(2)) if m.group(1) else (int(m.group(4)), m.group(3))


def _waist_of_girth(cm: int) -> int:
    return min(WAIST_CM, key=lambda inch: (abs(WAIST_CM[inch] - cm), inch))


def shi_chi(cm: int) -> str:
    """A girth in 市尺 as a tailor says it: 74 cm is 2尺2 (tenths of a 尺, 3 尺 to the metre)."""
    tenths = round(cm * 3 / 10)
    return f"{tenths // 10}尺{tenths % 10}" if tenths % 10 else f"{tenths // 10}尺"


def jeans_sizes(size: str, height: int) -> tuple[int, int, str]:
    """(waist inches, leg inches, 号型) the tag prints for the recipe's size ('29', 'W29 L32' or '170/74A');
    `height` is the job's where the recipe's size names none."""
    m = WAIST.match(size)
    if m:
        waist, leg = int(m.group(1)), int(m.group(2))
        return waist, leg, f"{LEG_HEIGHT.get(leg, height)}/{WAIST_CM.get(waist, waist * 254 // 100)}A"
    if "/" in size:
        h, girth = size.split("/")
        cm = int(girth.rstrip("ABCY"))
        leg = min(LEG_HEIGHT, key=lambda k: abs(LEG_HEIGHT[k] - int(h)))
        return _waist_of_girth(cm), leg, size
    waist = int(size)
    leg = min(LEG_HEIGHT, key=lambda k: abs(LEG_HEIGHT[k] - height))
    return waist, leg, f"{height}/{WAIST_CM.get(waist, waist * 254 // 100)}A"


def kids_values(rng: np.random.Generator, v: TagValues) -> TagValues:
    """A child's size by height (the 号型, or the height alone on a third of the jobs); a baby's size is A类."""
    size = pick(rng, KIDS_SIZES)
    height = int(size.split("/")[0])
    baby = height <= BABY_HEIGHT
    if rng.random() < 0.35:
        size = str(height)  # 尺码：110, the height alone
    category = "A" if baby else pick(rng, ("B", "B", "C"))
    return v.replace(size=size, product_name=pick(rng, BABY_NAMES if baby else KIDS_NAMES),
                     composition=pick(rng, KIDS_FIBRES), safety_category=f"GB 31701-2015 {category}类",
                     standard="GB/T 33271-2016" if baby else pick(rng, KIDS_STANDARDS[:2]))


def jeans_values(rng: np.random.Generator, v: TagValues) -> TagValues:
    """The size the recipe names: the waist (`29`), waist and leg (`W29 L32`) or the 号型 (`170/74A`)."""
    waist = int(pick(rng, tuple(WAIST_CM)))
    leg = int(pick(rng, tuple(LEG_HEIGHT)))
    system = pick(rng, ("waist", "waist_leg", "hao_xing"))
    size = {"waist": str(waist), "waist_leg": f"W{waist} L{leg}",
            "hao_xing": f"{LEG_HEIGHT[leg]}/{WAIST_CM[waist]}A"}[system]
    return v.replace(size=size, product_name=pick(rng, JEANS_NAMES), composition=pick(rng, JEANS_FIBRES),
                     standard="FZ/T 81006-2017")


def bra_values(rng: np.random.Generator, v: TagValues) -> TagValues:
    """Band and cup, Chinese order (`75B`) or cup first (`B75`) as some makers print it."""
    band, cup = int(pick(rng, BANDS)), pick(rng, CUPS)
    size = f"{cup}{band}" if rng.random() < 0.3 else f"{band}{cup}"
    return v.replace(size=size, product_name=pick(rng, BRA_NAMES), composition=pick(rng, BRA_FIBRES),
                     standard="FZ/T 73012-2017", safety_category="GB 18401-2010 B类")


KIDS_SIZE = re.compile(r"^\d{2,3}(?:/\d{2})?$")
JEANS_SIZE = re.compile(r"^\d{2}$|^W\d{2} L\d{2}$|^1\d{2}/\d{2}A$")


def in_own_system(v: TagValues, system: re.Pattern, draw, style_seed: int) -> TagValues:
    """`v`, its size replaced by one of the design's system (drawn from the style seed) where it names another:
    any job's values render, as a test or a tool may hand a design values drawn for another."""
    return v if system.match(v.size) else v.replace(size=draw(np.random.default_rng(style_seed), v).size)


def _card(rng: np.random.Generator, style_seed: int, w: float, h: float, px_per_mm: float) -> Card:
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (250, 248, 242), (246, 240, 244), (240, 246, 250))))
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (2.0, 3.0, 4.0)))
    card.hole(w / 2, 5.5, 1.8)
    return card


def _rows(card: Card, x: float, y: float, right: float, rows, size: float, pitch: float, ink, face: str,
          value_face: str) -> tuple[dict[str, str], float]:
    """Colon rows (label, value, field or None); a value too long for its line goes under it at the label's indent."""
    fields: dict[str, str] = {}
    for label, value, name in rows:
        used = card.text(x, y, label, size, ink, face)
        card.text(x + used + 0.4, y, value, size, ink, value_face, max_w_mm=right - x - used - 0.4, wrap_mm=pitch * 1.6)
        if name:
            fields[name] = value
        y += pitch
    return fields, y


def _price_and_code(card: Card, rng: np.random.Generator, v: TagValues, x: float, y: float, right: float,
                    ink, face: str, value_face: str, fields: dict[str, str]) -> TagArt:
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "yen_spaced")))
    used = card.text(x, y + 1.2, pick(rng, ("零售价：", "吊牌价：", "统一零售价：")), 3.0, ink, face)
    card.text(x + used + 0.6, y, price, 4.8, ink, value_face, max_w_mm=right - x - used - 0.6, stroke=1)
    ean_block(card, v.ean13, 8.0, card.height_mm - 17.0, card.width_mm - 16.0, 10.0, ink, value_face)
    fields.update(product_name=v.product_name, price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


def kids_height(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A children's 合格证 (56×102 mm): the size by height, the suitable height and age beside it, GB 31701."""
    v = in_own_system(v, KIDS_SIZE, kids_values, style_seed)
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (30, 40, 80), (70, 40, 30)))
    card = _card(rng, style_seed, 56.0, 102.0, px_per_mm)
    x, right = 5.0, 51.0
    card.text(28, 10.0, v.brand, 6.0, ink, face, anchor="ma", max_w_mm=42, stroke=1)
    card.text(28, 17.5, pick(rng, ("合格证", "产品合格证", "童装合格证")), 3.4, ink, face, anchor="ma")
    height = int(v.size.split("/")[0])
    low, high = height - 5, height + 5
    if "/" in v.size:
        size_label, size_print = pick(rng, ("号型：", "号/型：")), v.size
        if rng.random() < 0.4:
            size_print = f"{v.size}（身高{height}cm）"
    else:
        size_label, size_print = pick(rng, ("尺码：", "规格：")), v.size
    rows = [("品名：", v.product_name, "product_name"), (pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
            ("颜色：", v.color, "color"), (size_label, size_print, "size"),
            (pick(rng, ("适合身高：", "参考身高：")), f"{low}-{high}cm", None),
            (pick(rng, ("建议年龄：", "适合年龄：")), KIDS_AGES.get(height, "4-5岁"), None),
            ("成分：", v.composition, "composition"), ("等级：", v.grade, "grade"),
            ("执行标准：", v.standard, "standard"),
            (pick(rng, ("安全技术类别：", "安全类别：")), v.safety_category, "safety_category")]
    fields, y = _rows(card, x, 23.0, right, rows, 2.8, 4.5, ink, face, value_face)
    if v.safety_category.endswith("A类"):
        badge = pick(rng, ("婴幼儿用品", "（婴幼儿用品）"))
        card.text(x, y - 0.3, badge, 2.8, ink, face)
        y += 4.5
    return _price_and_code(card, rng, v, x, y + 0.5, right, ink, face, value_face, fields)


def jeans_waist(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A jeans tag (54×98 mm): the waist in inches (`29`, `W29 L32`), the 号型 and the waist in cm and 市尺 beside
    it; the recipe names one of them."""
    v = in_own_system(v, JEANS_SIZE, jeans_values, style_seed)
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (26, 42, 78), (60, 36, 22)))
    card = _card(rng, style_seed, 54.0, 98.0, px_per_mm)
    x, right = 4.5, 49.5
    card.text(27, 10.0, v.brand, 6.4, ink, face, anchor="ma", max_w_mm=42, stroke=1)
    waist, leg, hao_xing = jeans_sizes(v.size, pick(rng, (165, 170, 175)))
    cm = int(hao_xing.split("/")[1].rstrip("ABCY"))
    names_hao_xing = "/" in v.size
    waist_print = v.size if WAIST.match(v.size) else (
        f"W{waist} L{leg}" if names_hao_xing and rng.random() < 0.5 else str(waist))
    waist_label = pick(rng, ("尺码：", "SIZE ", "腰围码：")) if not WAIST.match(waist_print) else pick(rng, ("尺码：", "SIZE "))
    hao_label = pick(rng, ("号型：", "号/型："))
    girth_row = (pick(rng, ("腰围：", "适合腰围：")), f"{cm}cm（{shi_chi(cm)}）", None)
    size_rows = [(waist_label, waist_print, None if names_hao_xing else "size"),
                 (hao_label, hao_xing, "size" if names_hao_xing else None), girth_row]
    if names_hao_xing and rng.random() < 0.5:
        size_rows = [size_rows[1], size_rows[0], girth_row]
    rows = [("品名：", v.product_name, "product_name"), (pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
            ("颜色：", v.color, "color"), *size_rows,
            ("成分：", v.composition, "composition"), ("等级：", v.grade, "grade"),
            ("执行标准：", v.standard, "standard"),
            (pick(rng, ("安全技术类别：", "安全类别：")), v.safety_category, "safety_category")]
    fields, y = _rows(card, x, 19.0, right, rows, 2.8, 4.5, ink, face, value_face)
    return _price_and_code(card, rng, v, x, y + 0.5, right, ink, face, value_face, fields)


def bra_cup(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A bra tag (52×92 mm): the size as band and cup (`75B`, `B75`, with the inch form beside it on some), the
    上胸围 / 下胸围 it fits in cm under it."""
    v = in_own_system(v, CUP_SIZE, bra_values, style_seed)
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (96, 30, 60), (40, 40, 48)))
    card = _card(rng, style_seed, 52.0, 92.0, px_per_mm)
    x, right = 4.5, 47.5
    card.text(26, 10.0, v.brand, 6.0, ink, face, anchor="ma", max_w_mm=40, stroke=1)
    band, cup = cup_parts(v.size)
    size_print = v.size
    if v.size[0].isdigit() and rng.random() < 0.45:
        inch = f"{BAND_INCH.get(band, band * 10 // 22)}{cup}"
        size_print = pick(rng, (f"{v.size}({inch})", f"{v.size}/{inch}", f"{v.size}（{inch}）"))
    top = band + CUP_DIFF.get(cup, 12.5)
    rows = [("品名：", v.product_name, "product_name"), (pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
            ("颜色：", v.color, "color"), (pick(rng, ("号型：", "规格：", "尺码：")), size_print, "size"),
            ("上胸围：", f"{top - 2.5:g}-{top + 2.5:g}cm", None), ("下胸围：", f"{band - 2}-{band + 2}cm", None),
            (pick(rng, ("成分：", "面料成分：")), v.composition, "composition"), ("等级：", v.grade, "grade"),
            ("执行标准：", v.standard, "standard"),
            (pick(rng, ("安全技术类别：", "安全类别：")), v.safety_category, "safety_category")]
    fields, y = _rows(card, x, 18.5, right, rows, 2.7, 4.4, ink, face, value_face)
    return _price_and_code(card, rng, v, x, y + 0.5, right, ink, face, value_face, fields)
