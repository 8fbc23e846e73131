"""Three designs added on 2026-12-03, after the reader had been developed while looking at the thirteen in
`designs`, `fresh_designs` and `third_designs`: a fresh yardstick nobody tuned for.

Each is a common sight on Chinese garment tags that the thirteen do not show:

- `logo_face`: a brand-heavy tag; a coloured panel with a large logo mark and the brand in reverse (white)
  print takes the upper half, the fields sit small in a block below (small grey labels, synonyms 款式编号,
  规格, 面料成分), the price after 统一零售价 with a thousands separator (`¥1,299.00`), and a QR code as the
  only code: no barcode (the recipe counts no barcode and one QR code);
- `dotted_leaders`: a vertical 合格证 whose labels run to their values along dotted leaders, every value
  set flush right (`品名 ........ 衬衫`); the fabric in two parts on two lines (面料 the recipe's composition,
  then 里料, the lining, which no recipe judges), 产品标准 for the standard, `RMB1299` for the price; EAN-13;
- `brand_band`: a horizontal tag with a coloured band down its left edge carrying the brand top to bottom
  (a Chinese name one character under the other, a Latin one turned 90°), labels in reverse print on
  chips of the band's colour, the price `￥1,299` (whole yuan, thousands separated); EAN-13.

Fields as in `designs` (GB/T 29862 fields, GB 18401 安全类别, GB/T 1335 号型), values from `values`, printed
exactly as `fields` says.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from training.tagsets.canvas import MIN_PRINT_MM, Card, Color, TagArt
from training.tagsets.fonts import font, font_names, latin_font_names
from training.tagsets.layout import BLACK, ean_block, pick
from training.tagsets.values import TagValues

GREY: Color = (104, 104, 108)
WHITE: Color = (255, 255, 255)
LININGS = ("聚酯纤维 100%", "铜氨纤维 100%", "粘纤 100%", "锦纶 100%")


# -- print forms the earlier designs do not use ---------------------------------------------------------------

def price_form(price: str, form: str) -> str:
    """A price as these tags print it: 'thousands' '¥1,299.00'; 'rmb_tight' 'RMB1299' (whole yuan, no space;
    'RMB69.90' with cents); 'whole_thousands' '￥1,299' (whole yuan; '￥69.90' with cents)."""
    units, cents = price.split(".")
    if form == "thousands":
        return f"¥{int(units):,}.{cents}"
    if form == "rmb_tight":
        return f"RMB{units}" if cents == "00" else f"RMB{price}"
    if form == "whole_thousands":
        return f"￥{int(units):,}" if cents == "00" else f"￥{price}"
    raise ValueError(f"unknown price form {form!r}")


def text_width(card: Card, text: str, size_mm: float, face: str) -> float:
    return font(face, card.px(size_mm)).getlength(text) / card.px_per_mm


def leader_row(card: Card, x_mm: float, right_mm: float, y_mm: float, label: str, value: str, size_mm: float,
               ink: Color, face: str, value_face: str, value_size_mm: float | None = None,
               stroke: int = 0) -> list[str]:
    """`label ......... value`: the label at x, the value set flush right at `right_mm`, dotted leaders between.
    A value too long to leave 4 mm of leaders at its size is split between its units, the first part on this
    row and the rest flush right on the next, as label printers set a long fibre content (never shrunk below
    the smallest legal print). Returns the value's lines as printed, in reading order."""
    value_size = value_size_mm or size_mm
    used = card.text(x_mm, y_mm + (value_size - size_mm) * 0.7, label, size_mm, ink, face)
    room = right_mm - (x_mm + used) - 4.0
    lines = [value]
    if text_width(card, value, value_size, value_face) > room:
        lines = _split_units(value) if " " in value else [value]
    widths = []
    for k, line in enumerate(lines):
        widths.append(card.text(right_mm, y_mm + k * value_size * 1.25, line, value_size, ink, value_face,
                                anchor="ra", max_w_mm=room if k == 0 else right_mm - x_mm, stroke=stroke))
    dots_from, dots_to = x_mm + used + 0.8, right_mm - widths[0] - 0.8
    r = max(0.5, 0.09 * card.px_per_mm)
    cy = card.px(y_mm + value_size * 0.82)
    x = dots_from
    while x < dots_to:
        cx = x * card.px_per_mm
        card.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink)
        x += 0.9
    return lines


def _split_units(value: str) -> list[str]:
    """'棉 60% 聚酯纤维 35% 氨纶 5%' -> ['棉 60% 聚酯纤维 35%', '氨纶 5%']: the balanced split after a share."""
    words = value.split(" ")
    cuts = [k for k in range(1, len(words)) if words[k - 1].endswith("%")] or list(range(1, len(words)))
    best = min(cuts, key=lambda k: abs(len(" ".join(words[:k])) - len(" ".join(words[k:]))))
    return [" ".join(words[:best]), " ".join(words[best:])]


def chip(card: Card, x_mm: float, y_mm: float, label: str, size_mm: float, fill: Color, face: str,
         width_mm: float | None = None, ink: Color = WHITE) -> float:
    """A label in reverse print: light text on a small filled block. Returns the block's width (mm)."""
    pad = size_mm * 0.35
    w = width_mm or text_width(card, label, size_mm, face) + 2 * pad
    card.rect((x_mm, y_mm - pad * 0.6, x_mm + w, y_mm + size_mm * 1.05 + pad * 0.4), fill=fill, radius_mm=0.4)
    card.text(x_mm + pad, y_mm, label, size_mm, ink, face)
    return w


def vertical_text(card: Card, cx_mm: float, cy_mm: float, text: str, size_mm: float, ink: Color, face: str,
                  max_h_mm: float) -> float:
    """Print `text` top to bottom centred on (cx, cy): Chinese characters one under the other, upright (as a
    brand column is set); a Latin word turned 90° clockwise (read with the head tilted right). Shrunk to
    `max_h_mm`; returns the height used (mm)."""
    if not text.isascii():
        step = size_mm * 1.15
        if step * len(text) > max_h_mm:
            size_mm, step = max_h_mm / len(text) / 1.15, max_h_mm / len(text)
        top = cy_mm - step * len(text) / 2
        for k, ch in enumerate(text):
            card.text(cx_mm, top + k * step + (step - size_mm) / 2, ch, size_mm, ink, face, anchor="ma", stroke=1)
        return step * len(text)
    size = card.px(size_mm)
    length = font(face, size).getlength(text)
    if length > card.px(max_h_mm):
        size = max(6, int(size * card.px(max_h_mm) / length))
    f = font(face, size)
    x0, y0, x1, y1 = f.getbbox(text, anchor="ls", stroke_width=1)
    mask = Image.new("L", (int(x1 - x0) + 4, int(y1 - y0) + 4), 0)
    ImageDraw.Draw(mask).text((2 - x0, 2 - y0), text, font=f, fill=255, anchor="ls", stroke_width=1, stroke_fill=255)
    turned = mask.rotate(-90, expand=True)
    at = (card.px(cx_mm) - turned.width // 2, card.px(cy_mm) - turned.height // 2)
    card.image.paste(Image.new("RGB", turned.size, ink), at, turned)
    card.draw = ImageDraw.Draw(card.image)
    card.smallest_print_px = min(card.smallest_print_px or float(size), float(size))
    return turned.height / card.px_per_mm


def _fits(card: Card, text: str, size_mm: float, face: str, width_mm: float) -> bool:
    return text_width(card, text, size_mm, face) <= width_mm


def _domain(brand: str) -> str:
    return brand.lower().replace("&", "") if brand.isascii() else "brand"


# -- the designs -----------------------------------------------------------------------------------------------

def logo_face(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """Brand-heavy vertical tag: a coloured panel with a large logo mark and the brand in reverse print over
    the upper half; the fields small in a block below; '统一零售价' over '¥1,299.00'; a QR code, no barcode."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    latin = pick(rng, latin_font_names())
    panel = pick(rng, ((178, 74, 52), (30, 104, 108), (36, 50, 92), (120, 96, 70), (150, 40, 70)))
    ink = pick(rng, (BLACK, (40, 40, 46)))
    card = Card(54, 108, px_per_mm, pick(rng, ((252, 251, 248), (245, 243, 238), (255, 255, 255))))
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (2.0, 4.0)))
    card.rect((0, 0, 54, 58), fill=panel)
    card.texture(np.random.default_rng(style_seed + 3), 1.2)
    card.hole(27, 6.0, 1.9, ring=pick(rng, (None, (226, 226, 228), (212, 180, 110))))
    card.draw.ellipse((card.px(27 - 11), card.px(15), card.px(27 + 11), card.px(37)), outline=WHITE,
                      width=card.px(0.8))  # the logo mark: a ring round the brand's initial
    initial = v.brand[0].upper()
    card.text(27, 26.0, initial, 12.0, WHITE, latin if initial.isascii() else face, anchor="mm", stroke=1)
    brand_face = latin if v.brand.isascii() else face
    brand = v.brand.upper() if v.brand.isascii() else v.brand
    card.text(27, 41.0, brand, 6.6, WHITE, brand_face, anchor="ma", max_w_mm=46, stroke=1)
    tagline = pick(rng, ("DESIGNED IN SHANGHAI", "EST. 2012", "SINCE 1998"))
    card.text(27, 51.5, tagline, 2.2, (236, 236, 236), latin, anchor="ma")
    rows = [("品名", v.product_name, "product_name"), (pick(rng, ("款式编号", "款号")), v.style_number, "style_number"),
            ("颜色", v.color, "color"), (pick(rng, ("规格", "号型")), v.size, "size"),
            (pick(rng, ("面料成分", "成分")), v.composition, "composition"), ("等级", v.grade, "grade"),
            ("执行标准", v.standard, "standard"), ("安全类别", v.safety_category, "safety_category")]
    label_size, value_size, pitch = 2.1, 2.5, 3.6
    x_value = 4.5 + max(text_width(card, label, label_size, face) for label, _, _ in rows) + 1.6
    width = 50.5 - x_value
    y = 61.0
    for label, value, _ in rows:
        card.text(4.5, y + 0.25, label, label_size, GREY, face)
        two = not _fits(card, value, MIN_PRINT_MM, value_face, width)
        card.text(x_value, y, value, value_size, ink, value_face, max_w_mm=width, wrap_mm=6.0 if two else None)
        y += pitch + (2.6 if two else 0.0)
    price = price_form(v.price, "thousands")
    card.text(4.5, y + 1.6, pick(rng, ("统一零售价", "零售价")), label_size, GREY, face)
    card.text(4.5, y + 4.6, price, 4.4, ink, pick(rng, (value_face, latin)), max_w_mm=30, stroke=1)
    card.qr_code(f"https://qr.{_domain(v.brand)}.com.cn/t?sku={v.style_number}&g={v.ean13}", 37.5, max(y + 0.6, 89.5),
                 13.0, ink)
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, brand=brand)
    return card.finish(fields)


def dotted_leaders(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """Vertical 合格证: labels run to flush-right values along dotted leaders; 面料 then 里料 on their own lines
    (the lining not in the recipe), 产品标准, the price 'RMB1299'; EAN-13 with its digits."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (30, 36, 60)))
    card = Card(52, 102, px_per_mm, pick(rng, ((255, 255, 255), (250, 248, 242), (242, 242, 240))))
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (1.5, 3.0)))
    card.hole(26, 5.5, 1.8, ring=pick(rng, (None, (214, 214, 216))))
    card.text(26, 9.5, v.brand, 4.6, ink, face, anchor="ma", max_w_mm=40, stroke=1)
    card.text(26, 16.0, pick(rng, ("合 格 证", "产品合格证", "合格证")), 3.4, ink, face, anchor="ma")
    card.line(5, 21.0, 47, 21.0, ink, 0.2)
    lining = pick(rng, LININGS)
    rows = [("品名", v.product_name, "product_name"),
            (pick(rng, ("款号", "货号", "款式编号")), v.style_number, "style_number"),
            (pick(rng, ("颜色", "色号")), v.color, "color"), (pick(rng, ("号型", "规格")), v.size, "size"),
            ("面料", v.composition, "composition"), ("里料", lining, ""), ("等级", v.grade, "grade"),
            (pick(rng, ("产品标准", "执行标准")), v.standard, "standard"),
            (pick(rng, ("安全技术类别", "安全类别")), v.safety_category, "safety_category")]
    size, pitch, y = 2.7, 4.4, 23.5
    for label, value, _ in rows:
        lines = leader_row(card, 5, 47, y, label, value, size, ink, face, value_face)
        y += pitch + (len(lines) - 1) * size * 1.25
    price = price_form(v.price, "rmb_tight")
    leader_row(card, 5, 47, y + 0.6, pick(rng, ("零售价", "吊牌价")), price, size, ink, face, value_face,
               value_size_mm=4.2, stroke=1)
    card.text(5, 76.5, "检验员：" + pick(rng, ("02", "08", "QC1")), 2.2, GREY, face)
    ean_block(card, v.ean13, 8, 80.5, 36, 10.0, ink, value_face)
    fields = {name: value for _, value, name in rows if name}
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


def brand_band(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """Horizontal tag with a coloured band down its left edge carrying the brand top to bottom; labels in
    reverse print on chips of the band's colour, values beside them; '零售价' chip over '￥1,299'; EAN-13."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    latin = pick(rng, latin_font_names())
    band = pick(rng, ((196, 36, 44), (24, 60, 120), (28, 28, 30), (32, 92, 64), (140, 96, 40)))
    card = Card(100, 60, px_per_mm, pick(rng, ((255, 255, 255), (248, 246, 240), (240, 240, 236))))
    card.texture(np.random.default_rng(style_seed + 1), 1.5)
    card.rounded(2.5)
    card.rect((0, 0, 17, 60), fill=band)
    card.hole(8.5, 6.0, 1.7, ring=pick(rng, (None, (226, 226, 228))))
    brand = v.brand.upper() if v.brand.isascii() else v.brand
    column_face = latin if brand.isascii() else face
    vertical_text(card, 8.5, 35.0, brand, 7.0 if not brand.isascii() else 6.0, WHITE, column_face, 44.0)
    card.text(96, 3.0, pick(rng, ("合格证", "产品合格证", "CERTIFICATE 合格证")), 2.6, band, face, anchor="ra")
    rows = [("品名", v.product_name, "product_name"), (pick(rng, ("款式编号", "货号")), v.style_number, "style_number"),
            ("颜色", v.color, "color"), (pick(rng, ("尺码", "规格")), v.size, "size"), ("成分", v.composition, "composition"),
            ("等级", v.grade, "grade"), ("执行标准", v.standard, "standard"), ("安全类别", v.safety_category, "safety_category")]
    label_size, value_size, pitch = 2.3, 2.8, 5.0
    chip_w = max(text_width(card, label, label_size, face) for label, _, _ in rows) + 2 * label_size * 0.35
    x, x_value, right = 20.5, 20.5 + chip_w + 1.4, 64.0
    y = 8.5
    for label, value, _ in rows:
        chip(card, x, y + (value_size - label_size) * 0.5, label, label_size, band, face, width_mm=chip_w)
        two = not _fits(card, value, MIN_PRINT_MM, value_face, right - x_value)
        card.text(x_value, y, value, value_size, BLACK, value_face, max_w_mm=right - x_value, wrap_mm=5.8 if two else None)
        y += pitch + (1.6 if two else 0.0)
    chip(card, 68.0, 8.8, pick(rng, ("零售价", "统一零售价")), 2.6, band, face)
    price = price_form(v.price, "whole_thousands")
    card.text(68.0, 14.0, price, 5.4, band if rng.random() < 0.5 else BLACK, value_face, max_w_mm=28, stroke=1)
    ean_block(card, v.ean13, 66.5, 34.0, 30.0, 11.0, BLACK, value_face)
    card.text(81.5, 52.5, pick(rng, ("产地：广东广州", "产地：浙江宁波", "MADE IN CHINA")), 2.1, GREY, face, anchor="ma")
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, brand=brand, ean13=v.ean13)
    return card.finish(fields)
