"""Three designs added on 2026-12-02 evening, after the reader had been developed while looking at the ten
in `designs` and `fresh_designs`: a fresh yardstick nobody tuned for.

Each is a common sight on Chinese garment tags that the ten do not show:

- `hairline_rows`: a minimalist horizontal tag whose values stand WITHOUT labels in rows parted by
  hairlines, the size large in a box, standard and safety category on one line, and the EAN-13 turned
  90° along the short edge with its digits;
- `shield_centred`: a die-cut shield, every line centred, labels in 【】 or with a middle dot (品名·…),
  values often in a condensed face (label printers' 长体), the price `¥ 299` with a small raised `.00`
  or `吊牌价` over `299元`; Code 128 of the style number;
- `tear_slip`: a narrow 合格证 slip with a tear-off stub above a dashed perforation (the stub repeats
  货号 and 号型 for the shop), the fibre content one fibre to a line, and a red round 检验合格 stamp
  pressed over the printed rows; EAN-13 with its digits.

Fields as in `designs` (GB/T 29862 fields, GB 18401 安全类别, GB/T 1335 号型), values from `values`,
printed exactly as `fields` says.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from training.tagsets.canvas import Card, Color, SymbolArt, TagArt
from training.tagsets.fonts import font, font_names, latin_font_names
from training.tagsets.layout import BLACK, ean_block, money, pick, row
from training.tagsets.values import TagValues

GREY: Color = (100, 100, 104)
STAMP_RED: Color = (200, 36, 44)


# -- print the canvas has no call for: turned codes, condensed lines, raised cents, a stamp -------------------

def _multiply(card: Card, layer: np.ndarray, left: int, top: int) -> None:
    """Print `layer` (RGB floats, white = no ink) over the card from (left, top): ink multiplies the
    stock, so paper texture and earlier print show through as they do under real ink."""
    pixels = np.asarray(card.image, np.float32).copy()
    h = min(layer.shape[0], pixels.shape[0] - top)
    w = min(layer.shape[1], pixels.shape[1] - left)
    pixels[top:top + h, left:left + w] *= layer[:h, :w] / 255.0
    card.image.paste(Image.fromarray(np.clip(pixels + 0.5, 0, 255).astype(np.uint8)))


def turned_ean(card: Card, ean: str, x_mm: float, y_mm: float, length_mm: float, bars_mm: float, ink: Color,
               face: str, digits_right: bool) -> float:
    """An EAN-13 with its digits printed turned 90° from (x, y): the code's length runs down the card.
    `digits_right`: turned counter-clockwise (read bottom to top, digits on the right), else clockwise.
    Returns the width used (mm)."""
    strip = Card(length_mm, bars_mm + 0.6 + length_mm / 11.5 * 1.15, card.px_per_mm, (255, 255, 255))
    ean_block(strip, ean, 0, 0, length_mm, bars_mm, ink, face)
    pixels = np.asarray(strip.image, np.float32)
    ws, hs = strip.image.size
    left, top = card.px(x_mm), card.px(y_mm)
    (x1, y1, x2, y2) = strip.barcodes[0].box
    if digits_right:  # counter-clockwise: strip (x, y) lands on (y, ws - x); the bars' top edge on the left
        turned, box = np.rot90(pixels, 1), (y1, ws - x2, y2, ws - x1)
    else:  # clockwise: strip (x, y) lands on (hs - y, x)
        turned, box = np.rot90(pixels, -1), (hs - y2, x1, hs - y1, x2)
    _multiply(card, np.ascontiguousarray(turned), left, top)
    card.barcodes.append(SymbolArt("EAN-13", ean, (left + box[0], top + box[1], left + box[2], top + box[3])))
    card.smallest_print_px = min(card.smallest_print_px or strip.smallest_print_px, strip.smallest_print_px)
    return hs / card.px_per_mm


def text_width(card: Card, text: str, size_mm: float, face: str) -> float:
    return font(face, card.px(size_mm)).getlength(text) / card.px_per_mm


def condensed(card: Card, cx_mm: float, y_mm: float, text: str, size_mm: float, ink: Color, face: str,
              squeeze: float, max_w_mm: float, wrap_mm: float | None = None, stroke: int = 0) -> float:
    """One centred line set in a condensed face (the glyphs squeezed to `squeeze` of their width, as label
    printers' 长体 does), squeezed further down to 0.62 to fit `max_w_mm`; past that, or with `squeeze`
    1, the plain face shrunk or set on two lines as `Card.text` does. Returns the width used (mm)."""
    natural = text_width(card, text, size_mm, face)
    fit = min(squeeze, max_w_mm / natural)
    if squeeze >= 1.0 or fit < 0.62:
        return card.text(cx_mm, y_mm, text, size_mm, ink, face, anchor="ma", max_w_mm=max_w_mm, wrap_mm=wrap_mm,
                         stroke=stroke)
    f = font(face, card.px(size_mm))
    x0, y0, x1, y1 = f.getbbox(text, anchor="la", stroke_width=stroke)
    mask = Image.new("L", (int(x1) + 2, int(y1) + 2), 0)
    ImageDraw.Draw(mask).text((0, 0), text, font=f, fill=255, anchor="la", stroke_width=stroke, stroke_fill=255)
    width = max(1, int(round(mask.width * fit)))
    mask = mask.resize((width, mask.height), Image.LANCZOS)
    card.image.paste(Image.new("RGB", mask.size, ink), (card.px(cx_mm) - width // 2, card.px(y_mm)), mask)
    card.smallest_print_px = min(card.smallest_print_px or float(f.size), float(f.size))
    return width / card.px_per_mm


def raised_cents_price(card: Card, cx_mm: float, baseline_mm: float, price: str, size_mm: float, ink: Color,
                       face: str, spaced: bool) -> str:
    """'¥ 299' with a small raised '.00' after it, centred; returns the price as printed ('¥ 299.00')."""
    units, cents = price.split(".")
    main, raised = ("¥ " if spaced else "¥") + units, "." + cents
    small = max(2.4, size_mm * 0.46)
    w_main, w_small = text_width(card, main, size_mm, face), text_width(card, raised, small, face)
    x = cx_mm - (w_main + w_small) / 2
    card.text(x, baseline_mm, main, size_mm, ink, face, anchor="ls", stroke=1)
    card.text(x + w_main + 0.2, baseline_mm - size_mm * 0.42, raised, small, ink, face, anchor="ls")
    return main + raised


def round_stamp(card: Card, rng: np.random.Generator, cx_mm: float, cy_mm: float, r_mm: float, face: str,
                arc_text: str, middle: str) -> None:
    """A red round inspection stamp (ring, arc text, star, a word across the middle) pressed over whatever
    is printed there: translucent ink, a little askew, unevenly inked."""
    ppm = card.px_per_mm
    side = int(np.ceil(2 * r_mm * ppm)) + 4
    layer = Image.new("L", (side, side), 0)
    draw = ImageDraw.Draw(layer)
    c = side / 2
    ring = max(1, int(round(0.5 * ppm)))
    draw.ellipse((c - r_mm * ppm, c - r_mm * ppm, c + r_mm * ppm, c + r_mm * ppm), outline=255, width=ring)
    char_mm = r_mm * 0.30
    f = font(face, max(6, int(round(char_mm * ppm))))
    radius = (r_mm - 0.5 - char_mm * 0.75) * ppm
    span = np.deg2rad(min(230.0, 34.0 * len(arc_text)))
    for k, ch in enumerate(arc_text):
        theta = -span / 2 + span * (k + 0.5) / len(arc_text)  # from the top, clockwise
        glyph = Image.new("L", (f.size * 2, f.size * 2), 0)
        ImageDraw.Draw(glyph).text((f.size, f.size), ch, font=f, fill=255, anchor="mm")
        glyph = glyph.rotate(-np.rad2deg(theta), resample=Image.BICUBIC)
        gx, gy = c + radius * np.sin(theta), c - radius * np.cos(theta)
        layer.paste(255, (int(gx - f.size), int(gy - f.size)), glyph)
    star = font(face, max(6, int(round(r_mm * 0.62 * ppm))))
    draw.text((c, c - r_mm * 0.05 * ppm), "★", font=star, fill=255, anchor="mm")
    word = font(face, max(6, int(round(r_mm * 0.25 * ppm))))
    draw.text((c, c + r_mm * 0.50 * ppm), middle, font=word, fill=255, anchor="mm")
    layer = layer.rotate(float(rng.uniform(-30, 30)), resample=Image.BICUBIC)
    alpha = np.asarray(layer.filter(ImageFilter.GaussianBlur(max(0.4, 0.06 * ppm))), np.float32) / 255.0
    alpha *= np.where(rng.random(alpha.shape) < 0.12, 0.3, 1.0) * float(rng.uniform(0.65, 0.9))
    alpha *= np.asarray(Image.fromarray((rng.random((6, 6)) * 255).astype(np.uint8)).resize(
        (side, side), Image.BILINEAR), np.float32) / 255.0 * 0.5 + 0.5  # the stamp pressed unevenly
    tint = 255.0 - alpha[..., None] * (255.0 - np.asarray(STAMP_RED, np.float32))
    left, top = int(round(cx_mm * ppm - side / 2)), int(round(cy_mm * ppm - side / 2))
    _multiply(card, tint, left, top)


# -- the designs -----------------------------------------------------------------------------------------------

def hairline_rows(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """Minimalist horizontal tag: values printed without labels in rows parted by hairlines (name, style
    number, colour, fibres, grade, standard and safety category on one line), the size large in a box,
    the price under it, and the EAN-13 turned 90° along the right edge with its digits."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    code_face = pick(rng, font_names() + tuple(n for n in latin_font_names() if "Mono" not in n))
    ink = pick(rng, (BLACK, (40, 40, 44), (30, 36, 52)))
    rule = pick(rng, ((150, 150, 150), (120, 120, 124), (176, 168, 156)))
    card = Card(92, 56, px_per_mm, pick(rng, ((252, 252, 250), (246, 243, 236), (236, 236, 234), (255, 255, 255))))
    card.texture(np.random.default_rng(style_seed + 1), 1.5)
    card.rounded(pick(rng, (1.0, 2.5)))
    card.hole(5.5, 28, 1.6)
    card.text(11, 3.2, v.brand, 5.0, ink, face, max_w_mm=40, stroke=1)
    x, width = 11.0, 45.0
    lines = [(v.product_name, 3.4, face, "product_name", 1), (v.style_number, 3.3, code_face, "style_number", 1),
             (v.color, 3.2, value_face, "color", 0), (v.composition, 2.9, value_face, "composition", 0),
             (v.grade, 2.8, value_face, "grade", 0)]
    y = 10.5
    for value, size, line_face, _, stroke in lines:
        card.line(x, y, x + width, y, rule, 0.12)
        pitch = 6.4 if len(value) > 12 and " " in value else 5.6
        card.text(x, y + 1.3, value, size, ink, line_face, max_w_mm=width, stroke=stroke, wrap_mm=pitch - 1.3)
        y += pitch
    card.line(x, y, x + width, y, rule, 0.12)
    used = card.text(x, y + 1.4, v.standard, 2.4, ink, value_face, max_w_mm=width * 0.46)
    card.text(x + used + 2.5, y + 1.4, v.safety_category, 2.4, ink, value_face, max_w_mm=width - used - 2.5)
    card.line(x, y + 5.2, x + width, y + 5.2, rule, 0.12)
    card.rect((59, 8, 75, 24), outline=ink, width_mm=pick(rng, (0.25, 0.4)))
    size_mm = 7.5 if len(v.size) <= 3 else 4.2
    card.text(67, 16 - size_mm * 0.55, v.size, size_mm, ink, value_face, anchor="ma", max_w_mm=14.5, stroke=1)
    form = pick(rng, ("yen", "yen", "yuan"))
    price = money(v.price, form)  # '¥399.00' may take the Latin face; '￥399元' needs a CJK one
    card.text(67, 28.5, price, 4.0, ink, code_face if form == "yen" else value_face, anchor="ma", max_w_mm=17,
              stroke=1)
    card.text(67, 48.5, pick(rng, ("中国制造", "MADE IN CHINA", "产地 浙江")), 2.1, GREY, face, anchor="ma")
    turned_ean(card, v.ean13, 77.5, 10.0, 36.0, 8.5, ink, code_face, digits_right=bool(rng.random() < 0.5))
    fields = {name: value for value, _, _, name, _ in lines}
    fields.update(standard=v.standard, safety_category=v.safety_category, size=v.size, price=price, brand=v.brand,
                  ean13=v.ean13)
    return card.finish(fields)


def _shield(card: Card, straight_mm: float, corner_mm: float) -> None:
    """Die-cut shield: rounded top corners, straight sides to `straight_mm`, then curving to a round point."""
    w, h = card.image.size
    ys = card.px(straight_mm)
    card.mask = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(card.mask)
    draw.rounded_rectangle((0, 0, w - 1, ys + card.px(corner_mm)), radius=card.px(corner_mm), fill=255)
    t = np.linspace(0, 1, 60)
    right = [((1 - s) ** 2 * (w - 1) + 2 * (1 - s) * s * (w - 1) + s * s * w / 2,
              (1 - s) ** 2 * ys + 2 * (1 - s) * s * (h - 1 - card.px(3)) + s * s * (h - 1)) for s in t]
    left = [(w - 1 - px, py) for px, py in reversed(right)]
    draw.polygon([(0, ys), (w - 1, ys)] + right + left, fill=255)


def shield_centred(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """Die-cut shield with every line centred: labels in 【】 or joined by a middle dot, values often in a
    condensed face; the price as '¥ 299' with a small raised '.00' or '吊牌价' over '299元'; Code 128 of the
    style number with its text."""
    rng = np.random.default_rng(style_seed)
    face = pick(rng, font_names())
    stock = pick(rng, ((250, 246, 238), (238, 244, 248), (246, 236, 236), (232, 240, 230), (255, 255, 255)))
    ink = pick(rng, (BLACK, (60, 36, 30), (24, 44, 80)))
    squeeze = float(pick(rng, (1.0, 0.82, 0.74)))
    label_style = pick(rng, ("brackets", "dot"))
    card = Card(58, 96, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 2.0)
    _shield(card, 70.0, 5.0)
    card.hole(29, 6, 1.9, ring=pick(rng, (None, (212, 180, 110), (200, 200, 204))))
    card.text(29, 10.5, v.brand, 5.4, ink, face, anchor="ma", max_w_mm=40, stroke=1)
    card.line(21, 17.6, 37, 17.6, ink, 0.2)
    rows = [("品名", v.product_name, "product_name"), (pick(rng, ("款号", "货号")), v.style_number, "style_number"),
            ("颜色", v.color, "color"), (pick(rng, ("号型", "尺码")), v.size, "size"),
            ("成分", v.composition, "composition"), ("等级", v.grade, "grade"), ("执行标准", v.standard, "standard"),
            ("安全类别", v.safety_category, "safety_category")]
    y, pitch = 19.8, 4.5
    for label, value, _ in rows:
        line = f"【{label}】{value}" if label_style == "brackets" else f"{label}·{value}"
        condensed(card, 29, y, line, 2.9, ink, face, squeeze, 48, wrap_mm=pitch)
        y += pitch
    if rng.random() < 0.5:
        price = raised_cents_price(card, 29, y + 6.2, v.price, 5.6, ink, face, spaced=bool(rng.random() < 0.7))
    else:
        units, cents = v.price.split(".")
        price = f"{units}元" if cents == "00" else f"{v.price}元"
        condensed(card, 29, y + 0.4, "吊牌价", 2.6, ink, face, squeeze, 40)
        card.text(29, y + 3.4, price, 4.4, ink, face, anchor="ma", max_w_mm=40, stroke=1)
    card.linear_code(v.style_number, "Code128", 10, 66.5, 38, 8.5, BLACK)
    card.text(29, 75.6, v.style_number, 2.5, BLACK, face, anchor="ma")
    card.text(29, 81, pick(rng, ("合格证", "检验合格", "MADE IN CHINA")), 2.3, GREY, face, anchor="ma")
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, brand=v.brand)
    return card.finish(fields)


def fibre_lines(composition: str) -> list[str]:
    """'棉 60% 聚酯纤维 35% 氨纶 5%' -> ['棉 60%', '聚酯纤维 35%', '氨纶 5%']: one fibre to a line."""
    words = composition.split(" ")
    lines, current = [], []
    for word in words:
        current.append(word)
        if word.endswith("%"):
            lines.append(" ".join(current))
            current = []
    return lines + ([" ".join(current)] if current else [])


def tear_slip(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """Narrow 合格证 slip: a stub above a dashed tear line repeats 货号 and 号型; below, labelled rows, the fibre
    content one fibre to a line, the price, and a red round 检验合格 stamp pressed over the rows; EAN-13."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    card = Card(42, 108, px_per_mm, pick(rng, ((255, 255, 255), (250, 249, 244), (244, 244, 240))))
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(1.5)
    card.hole(21, 5.5, 1.8, ring=pick(rng, (None, (226, 226, 228))))
    style_label, size_label = pick(rng, ("货号：", "款号：")), pick(rng, ("号型：", "规格：", "尺码："))
    card.text(21, 9.8, v.brand, 4.2, BLACK, face, anchor="ma", max_w_mm=34, stroke=1)
    row(card, 4, 15.2, style_label, v.style_number, 2.6, BLACK, BLACK, face, value_face, 34)
    row(card, 4, 19.2, size_label, v.size, 2.6, BLACK, BLACK, face, value_face, 34)
    tear = 24.0  # the perforation: dashes across, a half-round notch at each edge
    x = 1.6
    while x < 40.4:
        card.line(x, tear, min(x + 1.1, 40.4), tear, GREY, 0.2)
        x += 1.9
    notch = card.px(1.0)
    for cx in (0, card.image.size[0] - 1):
        ImageDraw.Draw(card.mask).ellipse((cx - notch, card.px(tear) - notch, cx + notch, card.px(tear) + notch), fill=0)
    card.text(21, 26.5, pick(rng, ("合 格 证", "合格证", "产品合格证")), 4.2, BLACK, face, anchor="ma", stroke=1)
    rows = [("品名：", v.product_name, "product_name"), (style_label, v.style_number, "style_number"),
            (pick(rng, ("颜色：", "色号：")), v.color, "color"), (size_label, v.size, "size"),
            ("等级：", v.grade, "grade"), ("执行标准：", v.standard, "standard"),
            (pick(rng, ("安全类别：", "类别：")), v.safety_category, "safety_category")]
    y, pitch, text_size = 33.0, 4.3, 2.6
    for label, value, _ in rows:
        row(card, 4, y, label, value, text_size, BLACK, BLACK, face, value_face, 34.5, pitch=pitch)
        y += pitch
    used = card.text(4, y, pick(rng, ("成分：", "纤维含量：", "面料：")), text_size, BLACK, face)
    for line in fibre_lines(v.composition):
        card.text(4 + used + 0.5, y, line, text_size, BLACK, value_face, max_w_mm=34 - used)
        y += 3.8
    price = money(v.price, pick(rng, ("yen", "yuan", "yuan")))
    row(card, 4, y + 0.6, pick(rng, ("零售价：", "吊牌价：")), price, 4.2, BLACK, BLACK, face, value_face, 34.5,
        label_size=text_size)
    card.text(4, 86.0, "检验员：" + pick(rng, ("01", "05", "12", "QC3")), 2.2, GREY, face)
    ean_block(card, v.ean13, 4, 89.0, 34, 9.5, BLACK, value_face)
    round_stamp(card, np.random.default_rng(style_seed + 2), float(rng.uniform(26, 31)), float(rng.uniform(44, 70)),
                float(rng.uniform(7.0, 8.5)), face, pick(rng, ("质量检验专用章", "检验专用章", "品质检验章")),
                pick(rng, ("检验合格", "合格", "QC PASS")))
    fields = {name: value for _, value, name in rows}
    fields.update(composition=v.composition, price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)
