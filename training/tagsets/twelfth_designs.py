"""Three designs added on 2026-12-04 (twentieth session), after the reader had been developed while looking at the
thirty-seven in `designs` and the batches after it: a fresh yardstick nobody tuned for.

Each is a common sight on Chinese garment tags that the thirty-seven do not show:

- `spread_labels`: a factory 合格证 set in office software, its labels **justified to one width** (分散对齐:
  `品　　名`, `货　　号`, `零 售 价` spread to the width of `执行标准`) with the colons in one column, the fibre content
  **across two lines** (the first fibre on the label's line, the rest under it), and the maker's block under the code
  (制造商, 地址, 电话 and 生产日期: numbers a recipe never checks);
- `tracked_caps`: a minimal brand tag whose values are **letter-spaced** (tracked 0.18–0.4 em, as display type is set:
  `W 2 3 0 1`-looking but printed as `W2301`), the brand tracked wider still, small grey labels in a column;
- `stripe_badge`: a vertical tag with a **dark stripe down the right edge** (the brand in it, top to bottom), the rows
  set **flush right** against the stripe (a ragged left edge), the size printed **only in a white-on-dark badge** under
  a small 尺码/SIZE label, and **two prices**: 零售价 (the recipe's) large and a lower 会员价 (member price) under it.

Fields as in `designs`, values from `values`, printed exactly as `fields` says. Faces are `fonts` faces only.
"""

from __future__ import annotations

import numpy as np

from training.tagsets.canvas import MIN_PRINT_MM, Card, Color, TagArt
from training.tagsets.eighth_designs import width_mm
from training.tagsets.fonts import font_names
from training.tagsets.fourth_designs import vertical_text
from training.tagsets.layout import BLACK, ean_block, money, pick
from training.tagsets.seventh_designs import units_in_lines
from training.tagsets.values import PRICES, TagValues

GREY: Color = (96, 96, 102)
WHITE: Color = (250, 250, 248)


# -- labels justified to one width (分散对齐), colons in a column ----------------------------------------------------

def spread_text(card: Card, x: float, y: float, text: str, width: float, size: float, ink: Color, face: str) -> float:
    """`text` from x with its characters spread so the last one ends at x + `width` (a label justified to the
    width of the longest, as 分散对齐 sets it); a text already as wide printed as it is. Returns the width used."""
    widths = [width_mm(card, ch, size, face) for ch in text]
    if len(text) < 2 or sum(widths) >= width:
        return card.text(x, y, text, size, ink, face)
    gap = (width - sum(widths)) / (len(text) - 1)
    at = x
    for ch, w in zip(text, widths):
        card.text(at, y, ch, size, ink, face)
        at += w + gap
    return width


def fibre_split(composition: str) -> list[str]:
    """The fibre content across two lines: the first fibre and its share, then the rest (one line when one fibre)."""
    words = composition.split(" ")
    return [composition] if len(words) <= 2 else [" ".join(words[:2]), " ".join(words[2:])]


MAKERS = ("杭州{}服饰有限公司", "广州市{}制衣有限公司", "宁波{}服装有限公司", "苏州{}纺织品有限公司")
ADDRESSES = ("浙江省杭州市余杭区临平大道88号", "广东省广州市海珠区新港西路135号", "浙江省宁波市鄞州区天童南路568号",
             "江苏省苏州市吴江区盛泽镇市场路16号")


def spread_labels(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical factory 合格证 (58×106 mm): labels justified to one width, colons in a column, the fibre content
    on two lines, the price in the same rows; EAN-13, then the maker's name, address, phone and production date."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (30, 30, 30), (20, 36, 84)))
    w, h = 58.0, 106.0
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (250, 249, 245), (246, 244, 238))))
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (1.0, 2.5)))
    card.hole(w / 2, 5.5, 1.7)
    card.text(w / 2, 9.0, v.brand, 5.4, ink, face, anchor="ma", max_w_mm=44, stroke=1)
    title = pick(rng, ("合格证", "产品合格证"))
    title_w = 3.6 * len(title) * (2.0 if len(title) == 3 else 1.4)
    spread_text(card, (w - title_w) / 2, 16.0, title, title_w, 3.6, ink, face)
    card.line(5, 21.2, w - 5, 21.2, ink, 0.25)
    colon = pick(rng, ("：", "：", ""))
    size, pitch = 3.0, 4.7
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "yen_spaced")))
    rows = [("品名", [v.product_name], "product_name"), (pick(rng, ("货号", "款号")), [v.style_number], "style_number"),
            (pick(rng, ("颜色", "色别")), [v.color], "color"), (pick(rng, ("号型", "规格")), [v.size], "size"),
            (pick(rng, ("成分", "面料")), fibre_split(v.composition), "composition"), ("等级", [v.grade], "grade"),
            (pick(rng, ("执行标准", "产品标准")), [v.standard], "standard"),
            (pick(rng, ("安全类别", "安全技术类别")), [v.safety_category], "safety_category"),
            (pick(rng, ("零售价", "吊牌价")), [price], "price")]
    label_w = 4 * width_mm(card, "标", size, face)
    x, y = 5.0, 23.6
    for label, lines, _ in rows:
        used = spread_text(card, x, y, label, label_w, size, ink, face)
        at = x + used + (width_mm(card, colon, size, face) if colon else 1.2)
        if colon:
            card.text(x + used, y, colon, size, ink, face)
        for line in lines:
            card.text(at + 0.3, y, line, size, ink, value_face, max_w_mm=w - 5 - at - 0.3)
            y += pitch
    ean_block(card, v.ean13, 9, y + 1.2, 40, 10.0, ink, value_face)
    y += 15.6
    brandish = pick(rng, ("锦程", "华衣", "盛美", "恒达"))
    maker = [f"制造商：{pick(rng, MAKERS).format(brandish)}", f"地址：{pick(rng, ADDRESSES)}",
             f"电话：0{int(rng.integers(20, 760))}-{int(rng.integers(80000000, 89999999))}",
             f"生产日期：{pick(rng, ('2026.10', '2026年09月', '2026-08-15'))}　检验员：{int(rng.integers(1, 30)):02d}"]
    for line in maker:
        card.text(5, y, line, 2.2, GREY, face, max_w_mm=w - 10)
        y += 3.0
    fields = {name: " ".join(lines) for _, lines, name in rows}
    fields.update(brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


# -- letter-spaced values --------------------------------------------------------------------------------------------

def tracked_width(card: Card, text: str, size: float, face: str, track_em: float) -> float:
    return sum(width_mm(card, ch, size, face) for ch in text) + track_em * size * (len(text) - 1)


def tracked_text(card: Card, x: float, y: float, text: str, size: float, ink: Color, face: str, track_em: float,
                 max_w_mm: float, stroke: int = 0) -> float:
    """`text` from (x, y) one character at a time, `track_em` of the size between them (letter-spacing, as display
    type is set); the tracking halved, then the size cut (never below the smallest legal print) to fit `max_w_mm`.
    Returns the width used (mm)."""
    if tracked_width(card, text, size, face, track_em) > max_w_mm:
        track_em /= 2
    while tracked_width(card, text, size, face, track_em) > max_w_mm and size > MIN_PRINT_MM:
        size = max(MIN_PRINT_MM, size * 0.94)
    at = x
    for ch in text:
        if ch != " ":
            card.text(at, y, ch, size, ink, face, stroke=stroke)
        at += width_mm(card, ch, size, face) + track_em * size
    return at - track_em * size - x


def tracked_caps(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A minimal horizontal brand tag (100×60 mm): the brand tracked wide, small grey labels in a column, every value
    letter-spaced; a long fibre content on two tracked lines; the price tracked and large on the right over the
    EAN-13."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (40, 40, 44), (60, 44, 36)))
    track = float(pick(rng, (0.18, 0.25, 0.32, 0.4)))
    w, h = 100.0, 60.0
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (244, 242, 238), (236, 234, 230), (250, 246, 236))))
    card.texture(np.random.default_rng(style_seed + 1), 1.4)
    card.rounded(pick(rng, (0.8, 2.0)))
    card.hole(5.0, h / 2, 1.6)
    brand = v.brand.upper() if v.brand.isascii() else v.brand
    tracked_text(card, 12, 4.0, brand, 5.0, ink, face, 0.6, 50, stroke=1)
    english = rng.random() < 0.4
    rows = [(("品名", "ITEM"), v.product_name, "product_name"), ((pick(rng, ("款号", "货号")), "STYLE"), v.style_number, "style_number"),
            (("颜色", "COLOUR"), v.color, "color"), ((pick(rng, ("尺码", "号型")), "SIZE"), v.size, "size"),
            (("成分", "FABRIC"), v.composition, "composition"), (("等级", "GRADE"), v.grade, "grade"),
            (("执行标准", "执行标准"), v.standard, "standard"), (("安全类别", "安全类别"), v.safety_category, "safety_category")]
    label_size, size, pitch = 2.2, 2.9, 4.8
    labels = [(en if english else cn) for (cn, en), _, _ in rows]
    x_value = 12 + max(width_mm(card, t, label_size, face) for t in labels) + 2.2
    right, y = 66.0, 12.5
    fields: dict[str, str] = {}
    for label, (_, value, name) in zip(labels, rows):
        card.text(12, y + (size - label_size) * 0.6, label, label_size, GREY, face)
        lines = [value]
        if name == "composition":
            lines = units_in_lines(value, right - x_value, lambda t: tracked_width(card, t, size, value_face, track / 2))
        for line in lines:
            tracked_text(card, x_value, y, line, size, ink, value_face, track, right - x_value)
            y += pitch if len(lines) == 1 else 3.9
        fields[name] = " ".join(lines)
        if len(lines) > 1:
            y += pitch - 3.9
    price = money(v.price, pick(rng, ("yen", "yen", "rmb", "yen_spaced")))
    card.text(70, 9.5, pick(rng, ("零售价", "吊牌价", "PRICE")), 2.2, GREY, face)
    tracked_text(card, 70, 13.0, price, 4.6, ink, value_face, track, w - 74, stroke=1)
    ean_block(card, v.ean13, 70, 28.0, 26, 13.0, ink, value_face)
    fields.update(price=price, brand=brand, ean13=v.ean13)
    return card.finish(fields)


# -- a stripe down the right edge, rows flush right, the size in a badge, two prices -----------------------------------

MEMBER_RATES = (0.8, 0.85, 0.88, 0.9)


def member_price(price: str, rate: float) -> str:
    """The member's price a shop prints under its 零售价: the price at `rate`, cut to whole yuan (`¥399.00` at 0.9
    gives `359.00`)."""
    return f"{int(float(price) * rate)}.00"


def stripe_badge(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical tag (60×102 mm): a dark stripe down the right edge with the brand top to bottom, the size alone in a
    white-on-dark badge under a small label, the other rows flush right against the stripe, 零售价 large and
    会员价 under it, the EAN-13 at the foot."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    dark = pick(rng, ((26, 26, 30), (22, 44, 92), (120, 24, 34), (30, 70, 56)))
    w, h = 60.0, 102.0
    stripe = 49.0
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (248, 247, 243), (242, 242, 240))))
    card.texture(np.random.default_rng(style_seed + 1), 1.5)
    card.rounded(pick(rng, (1.5, 3.0)))
    card.rect((stripe, 0, w, h), fill=dark)
    card.hole(21.0, 5.5, 1.7)
    brand = v.brand.upper() if v.brand.isascii() else v.brand
    vertical_text(card, (stripe + w) / 2, h / 2, brand, 6.0, WHITE, face, h - 24)
    # the size, alone, in a badge: a circle round a letter size, a pill round a 号型
    card.text(5, 10.0, pick(rng, ("尺码", "SIZE 尺码", "号型", "尺码/SIZE")), 2.3, GREY, face)
    badge_size = 4.4
    text_w = width_mm(card, v.size, badge_size, value_face)
    badge_w = max(9.0, text_w + 3.6)
    card.rect((5, 13.2, 5 + badge_w, 22.2), fill=dark, radius_mm=4.5)
    card.text(5 + badge_w / 2, 15.3, v.size, badge_size, WHITE, value_face, anchor="ma", stroke=1)
    colon = pick(rng, ("：", ": ", " "))
    rows = [("品名", v.product_name, "product_name"), (pick(rng, ("款号", "货号")), v.style_number, "style_number"),
            (pick(rng, ("颜色", "色号")), v.color, "color"), (pick(rng, ("成分", "面料成分")), v.composition, "composition"),
            ("等级", v.grade, "grade"), (pick(rng, ("执行标准", "产品标准")), v.standard, "standard"),
            (pick(rng, ("安全类别", "安全技术类别")), v.safety_category, "safety_category")]
    right, size, pitch, y = stripe - 2.5, 2.7, 4.6, 26.5
    fields: dict[str, str] = {}
    for label, value, name in rows:
        label_w = width_mm(card, label + colon, size, face)
        room = right - 3.5 - label_w
        lines = units_in_lines(value, room, lambda t: width_mm(card, t, size, value_face)) if name == "composition" else [value]
        used = card.text(right, y, lines[0], size, BLACK, value_face, anchor="ra", max_w_mm=room)
        card.text(right - used, y, label + colon, size, BLACK, face, anchor="ra")
        for line in lines[1:]:
            y += 3.7
            card.text(right, y, line, size, BLACK, value_face, anchor="ra", max_w_mm=room)
        fields[name] = " ".join(lines)
        y += pitch
    form = pick(rng, ("yen", "yen", "yuan"))
    price = money(v.price, form)
    # never a price the value list holds, so a misprinted 零售价 can't meet the recipe's price in the member's line
    rates = tuple(r for r in MEMBER_RATES if member_price(v.price, r) not in PRICES)
    member = money(member_price(v.price, float(pick(rng, rates))), form)
    y += 1.5
    used = card.text(right, y, price, 5.0, BLACK, value_face, anchor="ra", max_w_mm=26, stroke=1)
    card.text(right - used - 1.0, y + 1.8, pick(rng, ("零售价", "吊牌价")), 2.8, BLACK, face, anchor="ra")
    y += 7.2
    used = card.text(right, y, member, 3.2, dark, value_face, anchor="ra")
    card.text(right - used - 1.0, y + 0.3, pick(rng, ("会员价", "VIP价", "会员专享价")), 2.6, dark, face, anchor="ra")
    ean_block(card, v.ean13, 5.0, h - 19.0, 38.0, 11.0, BLACK, value_face)
    fields.update(size=v.size, price=price, brand=brand, ean13=v.ean13)
    return card.finish(fields)
