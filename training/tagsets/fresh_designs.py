"""Three designs added after the reader had been developed while looking at the first seven: a fresh yardstick.

Each differs from the seven in layout or typography, and each is a common sight on Chinese garment tags:
two label/value pairs to a row, an export tag with English labels in a Latin face, and a plain tag whose
price is on an adhesive sticker stuck on at an angle. Fields as in `designs` (GB/T 29862 fields, GB 18401
安全类别, GB/T 1335 号型), values from `values`, printed exactly as `fields` says.
"""

from __future__ import annotations

import numpy as np

from training.tagsets.canvas import Card, Color, TagArt
from training.tagsets.fonts import font_names, latin_font_names
from training.tagsets.layout import BLACK, ean_block, money, pick, row
from training.tagsets.values import TagValues

GREY: Color = (96, 96, 100)
# GB/T 1335 号型 and the letter size export tags print beside it (men's and women's tables agree on the height)
LETTER_OF_HEIGHT = {155: "XS", 160: "S", 165: "M", 170: "L", 175: "XL", 180: "XXL", 185: "3XL"}


def letter_and_hao(size: str) -> str:
    """'170/92A' as an export tag prints it: 'L (170/92A)'; a letter size stays as it is."""
    if "/" not in size:
        return size
    return f"{LETTER_OF_HEIGHT[int(size.split('/')[0])]} ({size})"


def two_column(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """Horizontal 合格证 tag with two label/value pairs to a row (货号 | 颜色, 号型 | 等级 …); EAN-13."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    card = Card(100, 62, px_per_mm, pick(rng, ((255, 255, 255), (246, 246, 246), (238, 239, 240))))
    card.texture(np.random.default_rng(style_seed + 1), 1.5)
    card.rounded(2.0)
    card.hole(94, 6, 1.6)
    card.text(6, 3.5, v.brand, 5.0, BLACK, face, max_w_mm=40, stroke=1)
    card.text(86, 4.3, "合格证", 3.4, BLACK, face, anchor="ra")
    card.line(5, 10.5, 95, 10.5, BLACK, 0.2)
    col2 = float(pick(rng, (48.0, 51.0, 54.0)))
    style = (pick(rng, ("货号：", "款号：")), v.style_number, "style_number")
    color = (pick(rng, ("颜色：", "色号：")), v.color, "color")
    size = (pick(rng, ("号型：", "规格：", "尺码：")), v.size, "size")
    pairs = [
        [("品名：", v.product_name, "product_name"), style],
        pick(rng, ([color, size], [size, color])),
        [("等级：", v.grade, "grade"), ("执行标准：", v.standard, "standard")],
    ]
    text_size, pitch, y = 2.8, 5.4, 13.0
    for left, right in pairs:
        row(card, 6, y, left[0], left[1], text_size, BLACK, BLACK, face, value_face, col2 - 6 - 2.5)
        row(card, col2, y, right[0], right[1], text_size, BLACK, BLACK, face, value_face, 95 - col2)
        y += pitch
    row(card, 6, y, "成分：", v.composition, text_size, BLACK, BLACK, face, value_face, 89, pitch=pitch)
    y += pitch
    row(card, 6, y, pick(rng, ("安全类别：", "安全技术类别：")), v.safety_category, text_size, BLACK, BLACK, face,
        value_face, col2 - 6 - 2.5)
    price = money(v.price, pick(rng, ("yen", "yen", "yuan")))
    row(card, col2, y - 0.8, pick(rng, ("零售价：", "吊牌价：")), price, 4.2, BLACK, BLACK, face, value_face, 95 - col2,
        label_size=text_size)
    card.text(6, 52.5, pick(rng, ("检验员：03", "检验：合格", "QC 05")), 2.4, GREY, face)
    card.text(6, 56.0, pick(rng, ("产地：浙江杭州", "产地：广东东莞", "产地：福建泉州")), 2.4, GREY, face)
    ean_block(card, v.ean13, 58, 44.5, 34, 9.0, BLACK, value_face)
    fields = {name: value for pair in pairs for _, value, name in pair}
    fields.update(composition=v.composition, safety_category=v.safety_category, price=price, brand=v.brand,
                  ean13=v.ean13)
    return card.finish(fields)


def _label(card: Card, x: float, y: float, english: str, chinese: str, joint: str, size: float, ink: Color,
           latin: str, face: str) -> float:
    """An English label in the Latin face, then its Chinese in a CJK face ('Colour/颜色', 'Fabric 成分'); mm used."""
    used = card.text(x, y, english, size, ink, latin)
    if chinese:
        used += card.text(x + used, y, joint + chinese, size, ink, face)
    return used


def english_first(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """Export tag: English labels first in a Latin face, Chinese after or absent, values in a column;
    size as 'L (170/92A)' or '170/92A', price 'RMB 299'; Code 128 of the style number."""
    rng = np.random.default_rng(style_seed)
    latin, face, value_face = pick(rng, latin_font_names()), pick(rng, font_names()), pick(rng, font_names())
    chinese_after = pick(rng, ("absent", "slash", "space"))
    upper = bool(rng.random() < 0.5)
    colon = pick(rng, ("", ":"))
    card = Card(52, 96, px_per_mm, pick(rng, ((252, 252, 250), (242, 240, 234), (232, 234, 238))))
    card.texture(np.random.default_rng(style_seed + 1), 1.8)
    card.rounded(3.0)
    card.hole(26, 6, 1.8)
    brand_face = latin if v.brand.isascii() else face
    card.text(26, 11, v.brand.upper() if v.brand.isascii() else v.brand, 6.0, BLACK, brand_face, anchor="ma",
              max_w_mm=42, stroke=1)
    size_printed = letter_and_hao(v.size) if rng.random() < 0.6 else v.size
    rows = [("Style No.", "款号", v.style_number, "style_number"), ("Description", "品名", v.product_name, "product_name"),
            ("Colour", "颜色", v.color, "color"), ("Size", "号型", size_printed, "size"),
            ("Fabric", "成分", v.composition, "composition"), ("Grade", "等级", v.grade, "grade"),
            ("Standard", "执行标准", v.standard, "standard"), ("Safety Cat.", "安全类别", v.safety_category, "safety_category")]
    label_size, value_size, pitch, y0 = 2.4, 2.8, 4.7, 21.0
    # GB fields keep their Chinese label even on an English-first tag; the others only when the job prints it
    widths = []
    for k, (english, chinese, _, name) in enumerate(rows):
        keep = chinese if chinese_after != "absent" or name in ("standard", "safety_category") else ""
        english = (english.upper() if upper else english) + (colon if not keep else "")
        joint = "/" if chinese_after == "slash" else " "
        widths.append(_label(card, 5, y0 + k * pitch + 0.3, english, keep + (colon if keep else ""), joint,
                             label_size, GREY, latin, face))
    aligned = 49 - (5 + max(widths) + 1.5) >= 26  # a value column where the labels leave room, else inline
    for k, (_, _, value, _) in enumerate(rows):
        x_value = 5 + (max(widths) if aligned else widths[k]) + 1.5
        card.text(x_value, y0 + k * pitch, value, value_size, BLACK, value_face, max_w_mm=49 - x_value, wrap_mm=pitch)
    y = y0 + len(rows) * pitch + 1.0
    price = money(v.price, pick(rng, ("rmb_whole", "rmb")))
    price_label = pick(rng, ("PRICE", "Retail Price", "RRP"))
    used = _label(card, 5, y + 1.2, price_label, "零售价" if chinese_after != "absent" else "", " ", 2.6, BLACK,
                  latin, face)
    card.text(5 + used + 1.5, y, price, 4.4, BLACK, value_face, max_w_mm=44 - used, stroke=1)
    card.text(26, 67.5, "Made in China", 2.2, GREY, latin, anchor="ma")
    card.linear_code(v.style_number, "Code128", 8, 72, 36, 10, BLACK)
    card.text(26, 83.2, v.style_number, 2.6, BLACK, latin, anchor="ma")
    fields = {name: value for _, _, value, name in rows}
    fields.update(price=price, brand=v.brand.upper() if v.brand.isascii() else v.brand)
    return card.finish(fields)


def _price_sticker(v: TagValues, rng: np.random.Generator, px_per_mm: float, face: str, latin: str,
                   with_code: bool) -> tuple[Card, str]:
    """A shop's adhesive price label: its own stock and border, the price in a bold Latin face, maybe the
    product's EAN-13 again as a small code."""
    stock = pick(rng, ((255, 255, 255), (255, 244, 170), (250, 250, 244)))
    border = pick(rng, ((200, 30, 36), (24, 24, 28), (30, 80, 160)))
    sticker = Card(34, 22 if with_code else 14, px_per_mm, stock)
    sticker.rounded(1.5)
    sticker.rect((0.6, 0.6, 33.4, sticker.height_mm - 0.6), outline=border, width_mm=0.35, radius_mm=1.2)
    sticker.text(2.2, 1.8, pick(rng, ("售价", "零售价", "价格")), 2.4, border, face)
    price = money(v.price, pick(rng, ("yen_spaced", "yen_spaced", "yen")))
    sticker.text(31.5, 4.2, price, 5.4, BLACK, latin, anchor="ra", max_w_mm=29)
    if with_code:
        ean_block(sticker, v.ean13, 5, 11.3, 24, 6.5, BLACK, latin)
    return sticker, price


def price_sticker(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """Plain vertical tag, fields in a compact block with small grey labels, EAN-13; the price only on a
    separate adhesive sticker stuck at a slight angle over the lower part (over the footer's small print)."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    latin = pick(rng, tuple(n for n in latin_font_names() if "Bold" in n) or latin_font_names())
    card = Card(50, 96, px_per_mm, pick(rng, ((252, 251, 247), (255, 255, 255), (240, 238, 230))))
    card.texture(np.random.default_rng(style_seed + 1), 1.8)
    card.rounded(2.0)
    card.hole(25, 5.5, 1.7)
    card.text(25, 10, v.brand, 5.5, BLACK, face, anchor="ma", max_w_mm=40, stroke=1)
    rows = [("品名", v.product_name, "product_name"), (pick(rng, ("货号", "款号")), v.style_number, "style_number"),
            (pick(rng, ("颜色", "色号")), v.color, "color"), (pick(rng, ("号型", "规格")), v.size, "size"),
            ("成分", v.composition, "composition"), ("等级", v.grade, "grade"), ("执行标准", v.standard, "standard"),
            ("安全类别", v.safety_category, "safety_category")]
    label_ink = pick(rng, (GREY, (120, 110, 100), BLACK))
    y = 18.5
    for label, value, _ in rows:
        row(card, 5, y, label + "：", value, 2.6, BLACK, label_ink, face, value_face, 41, pitch=3.9, label_size=2.1)
        y += 3.9
    ean_block(card, v.ean13, 7, 51.5, 36, 9.5, BLACK, value_face)
    card.text(5, 66.0, "检验员：" + pick(rng, ("01", "03", "07")) + "   " + pick(rng, ("产地：江苏", "产地：浙江")), 2.1,
              label_ink, face)
    card.text(5, 69.5, pick(rng, ("洗涤方式见耐久性标签", "请勿漂白 低温熨烫")), 2.1, label_ink, face)
    with_code = bool(rng.random() < 0.5)
    sticker, price = _price_sticker(v, rng, px_per_mm, face, latin, with_code)
    angle = float(rng.uniform(2.0, 6.0)) * pick(rng, (-1, 1))
    card.stick(sticker, float(rng.uniform(23.0, 27.0)), 95.0 - sticker.height_mm / 2 - 2.8, angle)
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)
