"""Three designs added on 2026-12-04 (twenty-first session), after the reader had been developed while looking at the
forty in `designs` and the batches after it: a fresh yardstick nobody tuned for.

Each is a common sight on Chinese garment tags that the forty do not show:

- `batch_codes`: a factory 合格证 whose production numbers are printed **among the fields**: 批号 (a batch number
  such as `20261015-03` or `P2610153`, on its own row under 货号 or beside it on the 货号 line), 生产日期, 检验号,
  and the EAN-13's digits once more as a labelled text row `条码：6901234567892` over the bars (the digits under the
  bars or not): numbers that look like fields and that no recipe checks;
- `zebra_table`: a horizontal tag whose fields stand in a **table without rules, every other row shaded** (a pale
  tint, rounded bands), the labels bilingual with **full-width parentheses** (`品名（NAME）`, `号型（SIZE）`), and the
  size given **as letter and 号型 together** (`M(165/88A)`, `165/88A(M)`, `M（165/88A）`; GB/T 1335 with the shop's
  letter);
- `pale_serif`: a two-ink fashion tag on a **pale monogram ground**: the labels in the **second, pale ink** (light
  grey, rose or sky blue), every Latin run of a value in a **Latin serif, bold or italic** (`W2301`, `170/92A`,
  `GB/T 2664-2017`; Chinese runs in a CJK face), a **care line between the fields** (`洗涤：手洗水温30度 …`: numbers
  again) and the price as **售价 299.00元 / 299元 / ¥299.00**.

Fields as in `designs`, values from `values`, printed exactly as `fields` says. Faces are `fonts` faces only.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw

from training.tagsets.canvas import MIN_PRINT_MM, Card, Color, TagArt
from training.tagsets.eighth_designs import width_mm
from training.tagsets.fonts import FontsMissingError, font, font_names, latin_font_names
from training.tagsets.layout import BLACK, ean_block, money, pick
from training.tagsets.seventh_designs import units_in_lines
from training.tagsets.values import TagValues

GREY: Color = (90, 90, 96)


# -- production numbers among the fields ------------------------------------------------------------------------------

def batch_number(rng: np.random.Generator, style_number: str) -> str:
    """A batch number as factories print them: the production date and a run (`20261015-03`), a letter and six or
    seven digits (`P2610153`), or the date alone; never the style number."""
    day = f"2026{int(rng.integers(8, 12)):02d}{int(rng.integers(1, 29)):02d}"
    while True:
        form = int(rng.integers(3))
        if form == 0:
            batch = f"{day}-{int(rng.integers(1, 20)):02d}"
        elif form == 1:
            batch = pick(rng, ("P", "L", "PH")) + day[2:] + str(int(rng.integers(1, 10)))
        else:
            batch = day
        if batch != style_number:
            return batch


def batch_codes(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical factory 合格证 (58×110 mm), colon rows with a batch number under or beside 货号, the production
    date and an inspector's number among the fields, then 条码 with the EAN-13's digits as text over the bars."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (30, 30, 30), (24, 34, 80)))
    w, h = 58.0, 110.0
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (250, 249, 245), (246, 246, 242))))
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (1.5, 3.0)))
    card.hole(w / 2, 5.5, 1.7)
    card.text(w / 2, 9.0, v.brand, 5.4, ink, face, anchor="ma", max_w_mm=44, stroke=1)
    card.text(w / 2, 15.6, pick(rng, ("合格证", "产品合格证", "合 格 证")), 3.4, ink, face, anchor="ma")
    card.line(5, 20.4, w - 5, 20.4, ink, 0.25)
    batch = batch_number(rng, v.style_number)
    made = pick(rng, ("2026-10-15", "2026.10", "2026年09月", "20261108"))
    inspector = pick(rng, ("检07", "QC 017", "08", "合格 12"))
    style_label = pick(rng, ("货号：", "款号："))
    batch_label = pick(rng, ("批号：", "批次：", "生产批号："))
    size, pitch, x, right = 2.9, 4.5, 5.0, w - 5.0
    # 批号 on the 货号 line, as forms with two columns print it, where both fit at full size
    style_end = x + width_mm(card, style_label, size, face) + 0.6 + width_mm(card, v.style_number, size, value_face)
    batch_at = max(style_end + 3.0, 30.0)
    beside = bool(rng.random() < 0.4) and batch_at + width_mm(card, batch_label, size, face) + 0.6 + \
        width_mm(card, batch, size, value_face) <= right
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "yen_spaced")))
    rows: list[tuple[str, str, str | None]] = [("品名：", v.product_name, "product_name"),
                                               (style_label, v.style_number, "style_number")]
    if not beside:
        rows.append((batch_label, batch, None))
    rows += [(pick(rng, ("颜色：", "色别：")), v.color, "color"), (pick(rng, ("号型：", "规格：")), v.size, "size"),
             (pick(rng, ("成分：", "面料成分：")), v.composition, "composition"),
             (pick(rng, ("生产日期：", "出厂日期：")), made, None), ("等级：", v.grade, "grade"),
             ("执行标准：", v.standard, "standard"), (pick(rng, ("安全类别：", "安全技术类别：")), v.safety_category, "safety_category"),
             (pick(rng, ("检验号：", "检验员：")), inspector, None), (pick(rng, ("零售价：", "吊牌价：")), price, "price")]
    fields: dict[str, str] = {}
    y = 23.0
    for label, value, name in rows:
        used = card.text(x, y, label, size, ink, face)
        room = right - x - used - 0.6
        lines = units_in_lines(value, room, lambda t: width_mm(card, t, size, value_face)) if name == "composition" else [value]
        for line in lines:
            if name == "price":  # bold, its weight the same at any scale (a pixel's stroke smears 9-px print)
                slanted_text(card, x + used + 0.6, y, line, size, ink, value_face, 0.0, bold=True)
            else:
                card.text(x + used + 0.6, y, line, size, ink, value_face, max_w_mm=room)
            y += pitch if len(lines) == 1 else 3.6
        if len(lines) > 1:
            y += pitch - 3.6
        if name == "style_number" and beside:
            used_b = card.text(batch_at, y - pitch, batch_label, size, ink, face)
            card.text(batch_at + used_b + 0.6, y - pitch, batch, size, ink, value_face)
        if name is not None:
            fields[name] = " ".join(lines)
    # the code's digits as a labelled row over the bars; under the bars again, or not
    used = card.text(x, y + 0.4, pick(rng, ("条码：", "条形码：")), size, ink, face)
    card.text(x + used + 0.6, y + 0.4, v.ean13, size, ink, value_face)
    if rng.random() < 0.5:
        ean_block(card, v.ean13, 9, y + 5.2, 40, 10.0, ink, value_face)
    else:
        card.linear_code(v.ean13, "EAN-13", 9, y + 5.2, 40, 11.5, ink)
    fields.update(brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


# -- a table without rules, every other row shaded; bilingual labels in full-width parentheses ------------------------

# GB/T 1335's 号型 beside the letter a shop prints with it (the A body; B and Y bodies keep their own letter by height)
LETTER_OF_HEIGHT = {155: "XS", 160: "S", 165: "M", 170: "L", 175: "XL", 180: "XXL", 185: "3XL"}
HAO_OF_LETTER = {"XS": "155/80A", "S": "160/84A", "M": "165/88A", "L": "170/92A", "XL": "175/96A", "XXL": "180/100A",
                 "2XL": "180/100A", "3XL": "185/104A"}


def letter_and_hao(size: str, form: int) -> str:
    """The size as letter and 号型 together, whichever the recipe holds: `M(165/88A)`, `165/88A(M)` or
    `M（165/88A）` (`form` 0, 1, 2)."""
    if size in HAO_OF_LETTER:
        letter, hao = size, HAO_OF_LETTER[size]
    else:
        letter, hao = LETTER_OF_HEIGHT[int(size.split("/")[0])], size
    return (f"{letter}({hao})", f"{hao}({letter})", f"{letter}（{hao}）")[form]


ZEBRA_TINTS = ((232, 236, 244), (238, 234, 224), (230, 240, 234), (236, 236, 236), (246, 232, 232))


def zebra_table(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A horizontal tag (104×64 mm): the fields in a table without rules, every other row a pale rounded band,
    labels `品名（NAME）` in a column, the size as letter and 号型 together; the price and the EAN-13 on the right."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (36, 36, 40), (28, 40, 70)))
    tint = pick(rng, ZEBRA_TINTS)
    w, h = 104.0, 64.0
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (252, 251, 248))))
    card.texture(np.random.default_rng(style_seed + 1), 1.3)
    card.rounded(pick(rng, (1.5, 3.0)))
    card.hole(w - 5.5, 5.5, 1.6)
    card.text(5, 3.6, v.brand, 5.0, ink, face, max_w_mm=50, stroke=1)
    size_text = letter_and_hao(v.size, int(rng.integers(3)))
    rows = [("品名（NAME）", v.product_name, "product_name"),
            (pick(rng, ("货号（STYLE NO.）", "款号（STYLE）", "货号（ART. NO.）")), v.style_number, "style_number"),
            (pick(rng, ("颜色（COLOUR）", "颜色（COLOR）")), v.color, "color"),
            (pick(rng, ("号型（SIZE）", "尺码（SIZE）")), size_text, "size"),
            (pick(rng, ("成分（FABRIC）", "面料（COMPOSITION）")), v.composition, "composition"),
            ("等级（GRADE）", v.grade, "grade"), ("执行标准（STANDARD）", v.standard, "standard"),
            ("安全类别（SAFETY）", v.safety_category, "safety_category")]
    label_size, size, band = 2.3, 2.8, 5.0
    left, right = 4.0, 70.0
    x_value = left + 1.4 + max(width_mm(card, label, label_size, face) for label, _, _ in rows) + 1.6
    fields: dict[str, str] = {}
    y = 11.0
    for k, (label, value, name) in enumerate(rows):
        lines = [value]
        if name == "composition":
            lines = units_in_lines(value, right - 1.0 - x_value, lambda t: width_mm(card, t, size, value_face))
        height = band if len(lines) == 1 else band + 3.3
        if k % 2 == 0:
            card.rect((left, y, right, y + height), fill=tint, radius_mm=pick(rng, (1.2, 2.2)))
        card.text(left + 1.4, y + (band - label_size) / 2 - 0.2, label, label_size, GREY, face)
        for j, line in enumerate(lines):
            card.text(x_value, y + (band - size) / 2 - 0.2 + 3.3 * j, line, size, ink, value_face,
                      max_w_mm=right - 1.0 - x_value)
        fields[name] = " ".join(lines)
        y += height
    price = money(v.price, pick(rng, ("yen", "yen", "rmb", "yuan")))
    card.text(74, 12.0, pick(rng, ("零售价（PRICE）", "零售价（RMB）", "吊牌价（PRICE）")), 2.3, GREY, face)
    card.text(74, 16.0, price, 4.8, ink, value_face, max_w_mm=w - 78, stroke=1)
    ean_block(card, v.ean13, 74, 33.0, 26, 13.0, ink, value_face)
    fields.update(size=size_text, price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


# -- two inks: pale labels on a monogram ground, values in a Latin serif, a care line among the fields ----------------

PALE_INKS = ((164, 164, 170), (176, 176, 182), (214, 150, 160), (140, 176, 210), (186, 170, 140))
CARE_LINES = ("洗涤：水温30度以下轻柔手洗 不可漂白 悬挂晾干 低温熨烫", "洗涤说明：40度水洗 不可干洗 不可翻转干燥 熨烫110度",
              "洗涤：手洗水温30度 不可漂白 平摊晾干 中温熨烫150度", "洗涤说明：30度机洗 分色洗涤 阴凉处晾干")


def serif_faces() -> tuple[str, ...]:
    """The Latin serif faces installed (Liberation Serif), or none: a value's Latin runs then stay in its CJK face."""
    try:
        return tuple(n for n in latin_font_names() if "Serif" in n)
    except FontsMissingError:
        return ()


def runs(text: str) -> list[tuple[str, bool]]:
    """`text` cut into runs of ASCII (True) and of anything else (False): `棉 95% 氨纶 5%` gives
    `棉`, ` 95% `, `氨纶`, ` 5%`."""
    out: list[tuple[str, bool]] = []
    for ch in text:
        latin = ch.isascii()
        if out and out[-1][1] == latin:
            out[-1] = (out[-1][0] + ch, latin)
        else:
            out.append((ch, latin))
    return out


def slanted_text(card: Card, x: float, y: float, text: str, size: float, ink: Color, face: str, slant: float,
                 bold: bool = False) -> float:
    """One line from (x, y) (its top left) sheared `slant` to the right (an oblique, as label software slants a face
    it has no italic of) and emboldened by a stroke of 4.5 % of the em; drawn four times over and scaled down, so the
    weight is the same at every scale the card is drawn at. Returns its width before the slant (mm)."""
    if slant <= 0 and not bold:
        return card.text(x, y, text, size, ink, face)
    over = 4
    f = font(face, card.px(size) * over)
    stroke = max(1, round(0.045 * f.size)) if bold else 0
    x0, y0, x1, y1 = f.getbbox(text, anchor="la", stroke_width=stroke)
    height = int(math.ceil(y1)) + 2 * over
    pad = int(math.ceil(height * slant)) + 2 * over
    mask = Image.new("L", (int(math.ceil(x1)) + pad, height), 0)
    ImageDraw.Draw(mask).text((0, 0), text, font=f, fill=255, anchor="la", stroke_width=stroke, stroke_fill=255)
    if slant > 0:  # x_src = x_dst + slant * (y - height): the foot stays, the top leans right
        mask = mask.transform(mask.size, Image.AFFINE, (1, slant, -slant * height, 0, 1, 0), Image.BICUBIC)
    mask = mask.resize((max(1, mask.width // over), max(1, mask.height // over)), Image.BOX)
    card.image.paste(Image.new("RGB", mask.size, ink), (card.px(x), card.px(y)), mask)
    card.draw = ImageDraw.Draw(card.image)
    em = float(card.px(size))
    card.smallest_print_px = min(card.smallest_print_px or em, em)
    return f.getlength(text) / over / card.px_per_mm


def mixed_width(card: Card, text: str, size: float, cjk: str, latin: str) -> float:
    return sum(width_mm(card, part, size, latin if is_latin else cjk) for part, is_latin in runs(text))


def mixed_text(card: Card, x: float, y: float, text: str, size: float, ink: Color, cjk: str, latin: str,
               slant: float, bold: bool, max_w_mm: float) -> float:
    """`text` with its ASCII runs in the Latin `latin` face (slanted, bold by a stroke) and the rest in `cjk`,
    shrunk as a whole to `max_w_mm` (never below the smallest legal print). Returns the width used (mm)."""
    natural = mixed_width(card, text, size, cjk, latin)
    if natural > max_w_mm:
        size = max(MIN_PRINT_MM, size * max_w_mm / natural * 0.99)
    at = x
    for part, is_latin in runs(text):
        if is_latin:
            slanted_text(card, at, y, part, size, ink, latin, slant, bold)
            at += width_mm(card, part, size, latin)
        else:
            at += card.text(at, y, part, size, ink, cjk)
    return at - x


def shop_price(price: str, form: int) -> str:
    """`售价 299.00元`'s `299.00元`, `299元` (whole yuan only) or `¥299.00` (`form` 0, 1, 2)."""
    if form == 1 and price.endswith(".00"):
        return f"{price[:-3]}元"
    return f"{price}元" if form in (0, 1) else f"¥{price}"


def pale_serif(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical two-ink tag (56×108 mm) on a pale monogram ground: labels in the pale ink, values in dark with their
    Latin runs in a serif (bold or oblique, the weight the same at every scale), a care line between 成分 and 等级, `售价 299.00元`, the EAN-13."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    latin = pick(rng, serif_faces() or (value_face,))
    slant, bold = float(pick(rng, (0.0, 0.0, 0.2, 0.24))), bool(rng.random() < 0.5)
    ink = pick(rng, (BLACK, (40, 30, 30), (20, 30, 60)))
    pale = pick(rng, PALE_INKS)
    stock = pick(rng, ((255, 255, 255), (251, 249, 244), (246, 246, 246)))
    w, h = 56.0, 108.0
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 1.4)
    # the monogram ground: the brand's initial in a lattice, a tint a little off the stock
    ground = tuple(max(0, c - int(rng.integers(12, 22))) for c in stock)
    initial = v.brand[0].upper()
    for j, gy in enumerate(np.arange(2.0, h, 7.0)):
        for gx in np.arange(2.0 + 3.5 * (j % 2), w, 7.0):
            card.text(float(gx), float(gy), initial, 3.6, ground, face)
    card.smallest_print_px = 0.0  # the ground is pattern, not print a reader reads
    card.rounded(pick(rng, (2.0, 4.0)))
    card.hole(w / 2, 6.0, 1.8, ring=pale)
    card.text(w / 2, 11.0, v.brand, 6.0, ink, face, anchor="ma", max_w_mm=44, stroke=1)
    card.line(8, 19.5, w - 8, 19.5, pale, 0.3)
    colon = pick(rng, ("：", " ", ": "))
    price = shop_price(v.price, int(rng.integers(3)))
    rows = [("品名", v.product_name, "product_name"), (pick(rng, ("货号", "款号")), v.style_number, "style_number"),
            (pick(rng, ("颜色", "色号")), v.color, "color"), (pick(rng, ("号型", "尺码")), v.size, "size"),
            (pick(rng, ("成分", "面料")), v.composition, "composition"), ("", "", "care"),
            ("等级", v.grade, "grade"), ("执行标准", v.standard, "standard"),
            (pick(rng, ("安全类别", "安全技术类别")), v.safety_category, "safety_category")]
    size, pitch, x, right = 2.9, 4.7, 5.0, w - 5.0
    fields: dict[str, str] = {}
    y = 22.5
    for label, value, name in rows:
        if name == "care":  # the care text in the pale ink, on two lines between the fields
            care = pick(rng, CARE_LINES)
            for line in units_in_lines(care, right - x, lambda t: width_mm(card, t, 2.3, face)):
                card.text(x, y, line, 2.3, pale, face, max_w_mm=right - x)
                y += 3.2
            y += pitch - 3.2
            continue
        used = card.text(x, y + 0.2, label + colon, 2.6, pale, face)
        at = x + used + 0.8
        lines = [value]
        if name == "composition":
            lines = units_in_lines(value, right - at, lambda t: mixed_width(card, t, size, value_face, latin))
        for line in lines:
            mixed_text(card, at, y, line, size, ink, value_face, latin, slant, bold, right - at)
            y += pitch if len(lines) == 1 else 3.7
        if len(lines) > 1:
            y += pitch - 3.7
        fields[name] = " ".join(lines)
    y += 1.0
    used = card.text(x, y + 1.6, pick(rng, ("售价", "零售价", "吊牌价")) + pick(rng, ("：", " ")), 3.0, pale, face)
    mixed_text(card, x + used + 0.8, y, price, 5.0, ink, value_face, latin, slant, True, right - x - used - 0.8)
    card.rect((5, h - 21.5, w - 5, h - 3.5), fill=stock, radius_mm=1.0)  # the code's clear zone, left unprinted
    ean_block(card, v.ean13, 8, h - 19.5, 40, 11.0, ink, value_face)
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)
