"""Three designs added on 2026-12-04 (seventeenth session), after the reader had been developed while looking at the
thirty-one in `designs` and the batches after it: a fresh yardstick nobody tuned for.

Each is a common sight on Chinese garment tags that the thirty-one do not show:

- `two_row_table`: a horizontal 合格证 whose fields sit in tables of two rows parted by thin rules, the labels in the
  top row (款号 | 颜色 | 号型 | 等级, then 品名 | 成分) and each value centred in the cell under its label;
- `stamped_price`: a printed tag whose price is left blank and **rubber-stamped** at the shop with a numbering stamp
  (violet, red or blue ink, turned a few degrees, inked unevenly, a framed or bare impression) over the price box;
- `label_over_value`: a narrow modern tag, each field's label set small and grey on its own line (Chinese, English
  small caps, or both) and the value under it in larger print; 执行标准 and 安全类别 keep their Chinese labels.

Fields as in `designs`, values from `values`, printed exactly as `fields` says. Faces are `fonts` faces only.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from training.tagsets.canvas import Card, Color, TagArt
from training.tagsets.eighth_designs import width_mm
from training.tagsets.fonts import font, font_names, latin_font_names
from training.tagsets.layout import BLACK, ean_block, money, pick, row
from training.tagsets.seventh_designs import units_in_lines
from training.tagsets.values import TagValues

GREY: Color = (108, 108, 114)


def _tint(ink: Color, share: float) -> Color:
    return tuple(int(255 - (255 - c) * share) for c in ink)  # type: ignore[return-value]


# -- fields in two-row tables -------------------------------------------------------------------------------------

def _table(card: Card, x: float, top: float, widths: list[float], cells: list[tuple[str, list[str]]], rule: Color,
           head_fill: Color | None, face: str, value_face: str, head_h: float, value_h: float,
           value_mm: float) -> float:
    """One table: the labels across the top row, each value (one or two lines) centred under its label. Returns the
    table's bottom (mm)."""
    right = x + sum(widths)
    if head_fill is not None:
        card.rect((x, top, right, top + head_h), fill=head_fill)
    card.rect((x, top, right, top + head_h + value_h), outline=rule, width_mm=0.2)
    card.line(x, top + head_h, right, top + head_h, rule, 0.15)
    left = x
    for k, (w, (label, lines)) in enumerate(zip(widths, cells)):
        if k:
            card.line(left, top, left, top + head_h + value_h, rule, 0.15)
        card.text(left + w / 2, top + (head_h - 2.5) / 2, label, 2.5, rule, face, anchor="ma", max_w_mm=w - 1.2)
        pitch = value_mm * 1.12
        y = top + head_h + (value_h - pitch * len(lines)) / 2 + 0.1
        for line in lines:
            card.text(left + w / 2, y, line, value_mm, BLACK, value_face, anchor="ma", max_w_mm=w - 1.4)
            y += pitch
        left += w
    return top + head_h + value_h


def two_row_table(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A horizontal 合格证: two tables of a label row over a value row with thin rules, the standards as lines under
    them, the price and an EAN-13 on the right."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    rule = pick(rng, (BLACK, (40, 60, 110), (110, 36, 40), (60, 60, 60)))
    head_fill = pick(rng, (None, _tint(rule, 0.12), (232, 232, 232)))
    w, h = 102.0, 58.0
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (250, 248, 242), (244, 244, 242))))
    card.texture(np.random.default_rng(style_seed + 1), 1.5)
    card.rounded(pick(rng, (1.5, 3.0)))
    card.hole(97.5, 5.0, 1.5)
    card.text(4, 3.0, v.brand, 5.0, rule, face, max_w_mm=40, stroke=1)
    card.text(71, 3.8, pick(rng, ("合格证", "产品合格证", "产品标识")), 3.2, rule, face, anchor="ra")
    style_label, color_label = pick(rng, ("款号", "货号")), pick(rng, ("颜色", "色号"))
    size_label = pick(rng, ("号型", "规格", "尺码"))
    bottom = _table(card, 4, 10.5, [22, 13, 19, 13],
                    [(style_label, [v.style_number]), (color_label, [v.color]), (size_label, [v.size]),
                     ("等级", [v.grade])],
                    rule, head_fill, face, value_face, 4.4, 5.6, 3.0)
    fibres = units_in_lines(v.composition, 44.0, lambda t: width_mm(card, t, 2.8, value_face))
    bottom = _table(card, 4, bottom + 2.0, [20, 47],
                    [("品名", [v.product_name]), (pick(rng, ("成分", "面料成分", "纤维含量")), fibres)],
                    rule, head_fill, face, value_face, 4.4, 7.8, 2.8)
    y = bottom + 2.0
    for label, value in ((pick(rng, ("执行标准：", "产品标准：")), v.standard),
                         (pick(rng, ("安全类别：", "安全技术类别：")), v.safety_category)):
        row(card, 4, y, label, value, 2.7, BLACK, rule, face, value_face, 67)
        y += 4.3
    card.text(4, y, f"检验员：{int(rng.integers(1, 30)):02d}", 2.4, GREY, face)
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "rmb")))
    card.text(87.5, 10.5, pick(rng, ("零售价", "吊牌价", "统一零售价")), 2.8, rule, face, anchor="ma")
    card.text(87.5, 15.0, price, 4.6, BLACK, value_face, anchor="ma", max_w_mm=25, stroke=1)
    ean_block(card, v.ean13, 74.5, 25.0, 26, 15, BLACK, value_face)
    fields = {"style_number": v.style_number, "color": v.color, "size": v.size, "grade": v.grade,
              "product_name": v.product_name, "composition": " ".join(fibres), "standard": v.standard,
              "safety_category": v.safety_category, "price": price, "brand": v.brand, "ean13": v.ean13}
    return card.finish(fields)


# -- a price rubber-stamped at the shop ---------------------------------------------------------------------------

def rubber_stamp(card: Card, text: str, cx_mm: float, cy_mm: float, size_mm: float, ink: Color, face: str,
                 angle_deg: float, framed: bool, rng: np.random.Generator) -> None:
    """Press a stamp of `text` centred on (cx, cy), turned `angle_deg` counter-clockwise: the ink spreads a little,
    lies heavier on one side than the other, misses in specks, and multiplies the stock under it as ink does."""
    f = font(face, card.px(size_mm))
    x0, y0, x1, y1 = f.getbbox(text, anchor="la")
    pad = card.px(1.3)
    mask = Image.new("L", (int(x1 - x0) + 2 * pad, int(y1 - y0) + 2 * pad), 0)
    draw = ImageDraw.Draw(mask)
    draw.text((pad - x0, pad - y0), text, font=f, fill=255, anchor="la", stroke_width=max(1, card.px(0.08)),
              stroke_fill=255)
    if framed:
        draw.rounded_rectangle((1, 1, mask.width - 2, mask.height - 2), radius=card.px(0.8), outline=255,
                               width=max(1, card.px(0.3)))
    mask = mask.filter(ImageFilter.GaussianBlur(max(0.4, 0.05 * card.px_per_mm)))
    turned = np.asarray(mask.rotate(angle_deg, resample=Image.BICUBIC, expand=True), np.float32) / 255.0
    th, tw = turned.shape
    across = np.linspace(rng.uniform(0.62, 0.8), rng.uniform(0.9, 1.0), tw)[None, :]
    if rng.random() < 0.5:
        across = across[:, ::-1]
    blotch = rng.normal(0, 0.08, (th // 6 + 1, tw // 6 + 1)).astype(np.float32)
    blotch = np.asarray(Image.fromarray(blotch, mode="F").resize((tw, th), Image.BILINEAR))
    specks = np.where(rng.random((th, tw)) < 0.06, 0.45, 1.0)
    cover = np.clip(turned * np.clip(across + blotch, 0.5, 1.0) * specks, 0.0, 1.0)[..., None]
    left, top = card.px(cx_mm) - tw // 2, card.px(cy_mm) - th // 2
    base = np.asarray(card.image, np.float32).copy()
    region = base[top:top + th, left:left + tw]
    shade = np.asarray(ink, np.float32) / 255.0
    region *= 1.0 - cover[:region.shape[0], :region.shape[1]] * (1.0 - shade)
    card.image = Image.fromarray(np.clip(base + 0.5, 0, 255).astype(np.uint8))
    card.draw = ImageDraw.Draw(card.image)
    card.smallest_print_px = min(card.smallest_print_px or float(f.size), float(f.size))


def stamped_price(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A printed vertical tag (white or kraft) with colon rows and an empty price box; the price rubber-stamped over
    the box by the shop, askew and unevenly inked."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    kraft = rng.random() < 0.5
    stock = pick(rng, ((192, 154, 108), (180, 140, 96))) if kraft else pick(rng, ((252, 252, 248), (246, 243, 236)))
    ink = pick(rng, ((34, 26, 20), BLACK, (40, 46, 70)))
    w, h = 54.0, 94.0
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 5.0 if kraft else 1.8, fibres=kraft)
    card.rounded(pick(rng, (2.0, 5.0)))
    card.hole(w / 2, 6.0, 2.0, ring=(236, 224, 200) if kraft else None)
    card.text(w / 2, 10.5, v.brand, 6.0, ink, face, anchor="ma", max_w_mm=44, stroke=1)
    card.line(5, 18.5, w - 5, 18.5, ink, 0.25)
    rows = [("品名：", v.product_name, "product_name"), (pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
            (pick(rng, ("颜色：", "色号：")), v.color, "color"), (pick(rng, ("号型：", "尺码：", "规格：")), v.size, "size"),
            ("成分：", v.composition, "composition"), ("等级：", v.grade, "grade"),
            ("执行标准：", v.standard, "standard"), ("安全类别：", v.safety_category, "safety_category")]
    y = 21.0
    for label, value, _ in rows:
        row(card, 5, y, label, value, 2.8, ink, ink, face, value_face, w - 10, pitch=4.6)
        y += 4.6
    card.text(5, y + 1.0, pick(rng, ("零售价（元）", "零售价", "吊牌价", "统一零售价")), 3.0, ink, face)
    box_top = y + 4.8
    card.rect((5, box_top, w - 5, box_top + 11.0), outline=ink, width_mm=0.25, radius_mm=pick(rng, (0.0, 1.0)))
    form = pick(rng, ("yen", "yen_spaced", "yuan"))
    price = money(v.price, form)
    stamp_face = face if form == "yuan" else pick(rng, latin_font_names())
    stamp_ink = pick(rng, ((92, 40, 150), (186, 36, 48), (36, 62, 160)))
    rubber_stamp(card, price, w / 2 + rng.uniform(-4.0, 4.0), box_top + 5.5 + rng.uniform(-1.0, 1.0),
                 pick(rng, (4.6, 5.2)), stamp_ink, stamp_face, rng.uniform(-8.0, 8.0), rng.random() < 0.5, rng)
    ean_block(card, v.ean13, 8, box_top + 14.0, 38, 9.5, ink, value_face)
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


# -- each label over its value ------------------------------------------------------------------------------------

ENGLISH = {"product_name": "PRODUCT", "style_number": "STYLE NO.", "color": "COLOUR", "size": "SIZE",
           "composition": "FABRIC", "grade": "GRADE", "price": "PRICE"}


def small_caps(card: Card, x_mm: float, y_mm: float, text: str, size_mm: float, ink: Color, face: str) -> float:
    """`text` in small caps from (x, y), its top: each word's first letter full size, the rest capitals at 0.78 of
    it, on one baseline, spaced a little apart as such labels are. Returns the width (mm)."""
    baseline = y_mm + size_mm * 0.8
    x = x_mm
    for k, word in enumerate(text.split(" ")):
        if k:
            x += size_mm * 0.35
        for i, ch in enumerate(word):
            x += card.text(x, baseline, ch, size_mm if i == 0 else size_mm * 0.78, ink, face, anchor="ls") + 0.12
    return x - x_mm


def label_over_value(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A narrow vertical tag: each field a small grey label on its own line (Chinese, English small caps, or both)
    and the value under it; the price large at the foot over an EAN-13."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    latin = pick(rng, latin_font_names())
    labels = pick(rng, ("chinese", "english", "both"))
    w, h = 42.0, 114.0
    stock = pick(rng, ((255, 255, 255), (246, 244, 240), (236, 238, 236), (30, 30, 32)))
    dark = stock == (30, 30, 32)
    ink = (240, 240, 236) if dark else BLACK
    label_ink = (170, 170, 174) if dark else GREY
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (1.0, 3.0)))
    card.hole(w / 2, 5.5, 1.6)
    brand = v.brand.upper() if v.brand.isascii() else v.brand
    card.text(w / 2, 10.0, brand, 5.6, ink, latin if brand.isascii() else face, anchor="ma", max_w_mm=34, stroke=1)
    chinese = {"product_name": "品名", "style_number": pick(rng, ("款号", "货号")), "color": "颜色",
               "size": pick(rng, ("尺码", "号型")), "composition": pick(rng, ("成分", "面料")), "grade": "等级",
               "standard": "执行标准", "safety_category": "安全类别", "price": pick(rng, ("零售价", "吊牌价"))}
    values = {"product_name": v.product_name, "style_number": v.style_number, "color": v.color, "size": v.size,
              "composition": v.composition, "grade": v.grade, "standard": v.standard,
              "safety_category": v.safety_category}
    rules = rng.random() < 0.5
    x, room, y = 5.0, w - 10.0, 19.0
    fields: dict[str, str] = {}

    def label(name: str, at: float) -> None:
        english = ENGLISH.get(name)
        if labels == "chinese" or english is None:
            card.text(x, at, chinese[name], 2.3, label_ink, face)
        elif labels == "english":
            small_caps(card, x, at, english, 2.6, label_ink, latin)
        else:
            used = card.text(x, at, chinese[name], 2.3, label_ink, face)
            small_caps(card, x + used + 1.0, at - 0.2, english, 2.6, label_ink, latin)

    for name, value in values.items():
        label(name, y)
        lines = [value]
        if name == "composition":
            lines = units_in_lines(value, room, lambda t: width_mm(card, t, 3.0, value_face))
        for line in lines:
            card.text(x, y + 2.9, line, 3.0, ink, value_face, max_w_mm=room)
            y += 3.3
        fields[name] = " ".join(lines)
        y += 4.1
        if rules and name != "safety_category":
            card.line(x, y - 1.2, w - 5, y - 1.2, _tint(label_ink, 0.5), 0.12)
    label("price", y + 0.6)
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "rmb")))
    card.text(x, y + 3.6, price, 5.0, ink, value_face, max_w_mm=room, stroke=1)
    if dark:  # the code on a white panel, as dark tags print it
        card.rect((4, y + 10.5, w - 4, y + 25.5), fill=(250, 250, 250), radius_mm=0.8)
    ean_block(card, v.ean13, 6, y + 11.5, 30, 9.5, BLACK, value_face)
    fields.update(price=price, brand=brand, ean13=v.ean13)
    return card.finish(fields)
