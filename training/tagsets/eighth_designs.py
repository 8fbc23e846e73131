"""Three designs added on 2026-12-03 (thirteenth session), after the reader had been developed while looking at the
twenty-five in `designs`, `fresh_designs`, `third_designs`, `fourth_designs`, `fifth_designs`, `sixth_designs` and
`seventh_designs`: a fresh yardstick nobody tuned for.

Each is a common sight on Chinese garment tags that the twenty-five do not show:

- `round_diecut`: a round or oval die-cut tag with a printed ring inside its edge; every row centred, each fitted
  inside the curve at its own height (rows near the top and bottom narrower), so rows differ in width and a long
  row is set smaller or split between its units; the price and an EAN-13 low in the round;
- `folded_booklet`: a two-panel tag photographed open (a folded card, both panels seen side by side): the fields
  split over the two panels, a crease down the fold, the panels lit a little differently (one 4-11 % darker, each
  shaded towards the crease), the hole punched through both panels so it shows twice, mirrored about the fold;
  labels in a condensed face (长体), values in a wider one (扁体 or plain); EAN-13 on the back panel;
- `qr_first`: a modern minimal tag: a large QR code and the brand on top, the legally required fields in small
  light-grey print in a table with hairline rules, an EAN-13 with its digits, the price large and bold at the bottom.

Fields as in `designs` (GB/T 29862 fields, GB 18401 安全类别, GB/T 1335 号型), values from `values`, printed
exactly as `fields` says. Faces are `fonts` faces only. Nothing here changes the scene or any older design.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw

from training.tagsets.canvas import MIN_PRINT_MM, Card, Color, TagArt
from training.tagsets.fonts import font, font_names, latin_font_names
from training.tagsets.layout import BLACK, ean_block, money, pick
from training.tagsets.seventh_designs import units_in_lines
from training.tagsets.values import TagValues

Box = tuple[float, float, float, float]  # mm: x1, y1, x2, y2


def width_mm(card: Card, text: str, size_mm: float, face: str, stretch: float = 1.0) -> float:
    """How wide `text` prints at `size_mm` in `face`, its glyphs scaled to `stretch` of their width (mm)."""
    return font(face, card.px(size_mm)).getlength(text) * stretch / card.px_per_mm


def stretched_text(card: Card, x_mm: float, y_mm: float, text: str, size_mm: float, ink: Color, face: str,
                   stretch: float, stroke: int = 0) -> float:
    """One line from (x, y) (its top left) with its glyphs scaled to `stretch` of their width and their height kept:
    below 1 a condensed face (长体), above 1 a wide one (扁体), as label software sets them. Returns the width (mm)."""
    f = font(face, card.px(size_mm))
    if abs(stretch - 1.0) < 1e-3:
        card.draw.text((card.px(x_mm), card.px(y_mm)), text, font=f, fill=ink, anchor="la", stroke_width=stroke,
                       stroke_fill=ink)
        card.smallest_print_px = min(card.smallest_print_px or float(f.size), float(f.size))
        return f.getlength(text) / card.px_per_mm
    x0, y0, x1, y1 = f.getbbox(text, anchor="la", stroke_width=stroke)
    mask = Image.new("L", (int(math.ceil(x1)) + 2, int(math.ceil(y1)) + 2), 0)
    ImageDraw.Draw(mask).text((0, 0), text, font=f, fill=255, anchor="la", stroke_width=stroke, stroke_fill=255)
    width = max(1, int(round(mask.width * stretch)))
    mask = mask.resize((width, mask.height), Image.LANCZOS)
    card.image.paste(Image.new("RGB", mask.size, ink), (card.px(x_mm), card.px(y_mm)), mask)
    card.draw = ImageDraw.Draw(card.image)
    card.smallest_print_px = min(card.smallest_print_px or float(f.size), float(f.size))
    return width / card.px_per_mm


def fitted(card: Card, parts: list[tuple[str, str, float]], size_mm: float, room_mm: float) -> float:
    """The size (mm, never below the smallest legal print) at which `parts` (text, face, stretch) fit `room_mm`,
    or MIN_PRINT_MM when they do not fit even there (the caller then sets the value on two lines)."""
    natural = sum(width_mm(card, t, size_mm, f, s) for t, f, s in parts)
    if natural <= room_mm:
        return size_mm
    return max(MIN_PRINT_MM, size_mm * room_mm / natural * 0.99)


# -- a round or oval die-cut tag --------------------------------------------------------------------------------

def chord_mm(width: float, height: float, y: float) -> float:
    """How wide the ellipse inscribed in a `width` x `height` card is at height `y` (mm); 0 outside it."""
    a, b = width / 2, height / 2
    t = (y - b) / b
    return 0.0 if abs(t) >= 1 else 2 * a * math.sqrt(1 - t * t)


def centred_pair(card: Card, cx: float, y: float, label: str, value: str, size: float, label_ink: Color, ink: Color,
                 face: str, value_face: str, room_of, pitch: float) -> tuple[float, Box]:
    """A label and its value as one centred row at `y`, fitted into `room_of(y_top, y_bottom)` (mm, the curve's
    width at the row, margins taken); a value too long even at the smallest legal print goes on two centred lines,
    split between its units. Returns the y of the next row and the value's box (its first line)."""
    room = room_of(y, y + size * 1.15)
    s = fitted(card, [(label, face, 1.0), (value, value_face, 1.0)], size, room)
    lines = [value]
    if width_mm(card, label, s, face) + width_mm(card, value, s, value_face) > room:
        lines = units_in_lines(value, room - width_mm(card, label, size, face),
                               lambda t: width_mm(card, t, size, value_face))
        room2 = room_of(y + pitch, y + pitch + size * 1.15)
        s = min(fitted(card, [(label, face, 1.0), (lines[0], value_face, 1.0)], size, room),
                fitted(card, [(lines[-1], value_face, 1.0)], size, room2))
    lw, vw = width_mm(card, label, s, face), width_mm(card, lines[0], s, value_face)
    x = cx - (lw + vw) / 2
    card.text(x, y, label, s, label_ink, face)
    card.text(x + lw, y, lines[0], s, ink, value_face)
    box = (x + lw, y, x + lw + vw, y + s * 1.15)
    for k, line in enumerate(lines[1:], 1):
        card.text(cx, y + k * pitch, line, s, ink, value_face, anchor="ma")
    return y + pitch * len(lines), box


def round_diecut(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A round (76 mm) or oval (62 x 84 mm) die-cut tag: a printed ring inside the edge, the brand, every field
    centred and fitted inside the curve, the price and an EAN-13 low in the round."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    w, h = pick(rng, ((76.0, 76.0), (62.0, 84.0)))
    stock = pick(rng, ((252, 252, 250), (244, 238, 226), (236, 242, 238), (248, 236, 236), (200, 170, 128)))
    ink = pick(rng, (BLACK, (40, 32, 28), (28, 40, 70)))
    label_ink = pick(rng, (ink, (96, 92, 90)))
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 4.0 if stock[0] < 220 else 1.8, fibres=stock[0] < 220)
    card.mask = Image.new("L", card.image.size, 0)
    ImageDraw.Draw(card.mask).ellipse((0, 0, card.image.size[0] - 1, card.image.size[1] - 1), fill=255)
    inset = 2.0
    card.draw.ellipse((card.px(inset), card.px(inset), card.px(w - inset), card.px(h - inset)), outline=ink,
                      width=card.px(pick(rng, (0.2, 0.35))))
    cx, top = w / 2, (h - 76.0) / 2  # the oval's extra height is shared above and below the block
    card.hole(cx, top + 6.0, 2.0, ring=pick(rng, (None, (214, 196, 150), (200, 200, 204))))
    brand = v.brand.upper() if v.brand.isascii() else v.brand
    brand_face = pick(rng, latin_font_names()) if brand.isascii() and rng.random() < 0.5 else face
    card.text(cx, top + 10.0, brand, 5.0, ink, brand_face, anchor="ma", max_w_mm=chord_mm(w, h, top + 10) - 14,
              stroke=1)
    card.line(cx - 9, top + 16.3, cx + 9, top + 16.3, ink, 0.2)
    margin = inset + 3.2

    def room_of(y1: float, y2: float) -> float:
        return min(chord_mm(w, h, y1), chord_mm(w, h, y2)) - 2 * margin

    colon = pick(rng, ("：", ": ", " "))
    rows = [("品名", v.product_name, "product_name"), (pick(rng, ("货号", "款号")), v.style_number, "style_number"),
            (pick(rng, ("颜色", "色号")), v.color, "color"), (pick(rng, ("号型", "尺码", "规格")), v.size, "size"),
            (pick(rng, ("成分", "面料")), v.composition, "composition"), ("等级", v.grade, "grade"),
            ("执行标准", v.standard, "standard"), ("安全类别", v.safety_category, "safety_category")]
    y, pitch, size = top + 17.6, 3.75, 2.6
    for label, value, _ in rows:
        y, _ = centred_pair(card, cx, y, label + colon, value, size, label_ink, ink, face, value_face, room_of, pitch)
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "yen_spaced")))
    price_label = pick(rng, ("零售价", "吊牌价"))
    y += 0.6
    lw = width_mm(card, price_label + " ", 3.0, face)
    ps = fitted(card, [(price, value_face, 1.0)], 4.6, room_of(y, y + 5.3) - lw)
    pw = width_mm(card, price, ps, value_face)
    x = cx - (lw + pw) / 2
    card.text(x, y + (ps - 3.0) * 0.7, price_label, 3.0, label_ink, face)
    card.text(x + lw, y, price, ps, ink, value_face, stroke=1)
    y += ps * 1.15 + 0.8
    ean_w = 28.0
    ean_block(card, v.ean13, cx - ean_w / 2, y, ean_w, 7.0, ink if ink != label_ink else BLACK, value_face)
    assert chord_mm(w, h, y + 7.0 + 3.4) - 2 * inset > ean_w + 4, "the EAN-13 must lie inside the round"
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, brand=brand, ean13=v.ean13)
    return card.finish(fields)


# -- a two-panel booklet photographed open ----------------------------------------------------------------------

def labelled_rows(card: Card, x: float, y: float, right: float, rows, size: float, pitch: float, label_ink: Color,
                  ink: Color, face: str, value_face: str, squeeze: float, stretch: float) -> float:
    """Label/value rows: labels in `face` condensed to `squeeze`, values in `value_face` widened to `stretch` (less
    where a value would not fit, down to plain, then smaller, then on two lines split between its units), in a column
    after the widest label, up to `right` (mm). Returns the y after the last row."""
    label_w = max(width_mm(card, lb, size, face, squeeze) for lb, _, _ in rows)
    vx = x + label_w + size * 0.45
    room = right - vx
    for label, value, _ in rows:
        stretched_text(card, x, y, label, size, label_ink, face, squeeze)
        s, st = size, stretch
        if width_mm(card, value, s, value_face, st) > room:
            st = max(1.0, room / width_mm(card, value, s, value_face))
            s = fitted(card, [(value, value_face, st)], s, room)
        lines = [value]
        if width_mm(card, value, s, value_face, st) > room:
            lines = units_in_lines(value, room, lambda t: width_mm(card, t, size, value_face, st))
            s = min(fitted(card, [(line, value_face, st)], size, room) for line in lines)
        for k, line in enumerate(lines):
            stretched_text(card, vx, y + (size - s) * 0.6 + k * pitch, line, s, ink, value_face, st)
        y += pitch * len(lines)
    return y


def fold_light(card: Card, fold_x: float, rng: np.random.Generator) -> tuple[float, float]:
    """Light the open booklet as it lies: the two panels at slightly different angles to the lamp (one 4-11 %
    darker), each shaded over the last 1.5-3 mm towards the crease, a dark crease line with a faint highlight
    beside it. Print multiplies with the paper, so the step and the shading fall on ink and stock alike.
    Returns the two panels' gains (left, right)."""
    pixels = np.asarray(card.image, np.float32)
    w = pixels.shape[1]
    x = (np.arange(w, dtype=np.float32) + 0.5) / card.px_per_mm
    darker = float(rng.uniform(0.89, 0.96))
    left_gain, right_gain = (darker, 1.0) if rng.random() < 0.5 else (1.0, darker)
    gain = np.where(x < fold_x, left_gain, right_gain).astype(np.float32)
    reach = float(rng.uniform(1.5, 3.0))
    depth = float(rng.uniform(0.05, 0.12))
    near = np.clip(1.0 - np.abs(x - fold_x) / reach, 0.0, 1.0)
    gain *= 1.0 - depth * near ** 2
    crease = np.exp(-0.5 * ((x - fold_x) / 0.12) ** 2)
    highlight = np.exp(-0.5 * ((x - fold_x - pick(rng, (-0.35, 0.35))) / 0.15) ** 2)
    gain *= 1.0 - 0.22 * crease
    gain += 0.05 * highlight
    out = pixels * gain[None, :, None]
    card.image = Image.fromarray(np.clip(out + 0.5, 0, 255).astype(np.uint8))
    card.draw = ImageDraw.Draw(card.image)
    return left_gain, right_gain


def folded_booklet(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A two-panel tag opened flat (two 48 x 86 mm panels): brand, product name, style number, colour, size and
    price on the left panel; fibre content, grade, standard, safety category and the EAN-13 on the right; labels
    condensed, values wide; a crease and a brightness step at the fold; the hole seen twice, mirrored about it."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    panel_w, h = 48.0, 86.0
    w = 2 * panel_w
    stock = pick(rng, ((250, 250, 246), (244, 240, 230), (236, 238, 240), (240, 232, 220)))
    accent = pick(rng, ((150, 30, 42), (30, 50, 112), (28, 88, 62), (36, 36, 40), (160, 110, 40)))
    ink = pick(rng, (BLACK, (36, 34, 38)))
    label_ink = pick(rng, (ink, accent, (90, 90, 96)))
    squeeze = float(rng.uniform(0.66, 0.8))
    stretch = float(pick(rng, (1.0, 1.08, 1.15)))
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 2.0)
    card.rounded(pick(rng, (2.0, 3.0)))
    off = pick(rng, (24.0, 38.0))  # from the fold: punched at the closed tag's top centre or outer corner
    for hx in (panel_w - off, panel_w + off):
        card.hole(hx, 6.0, 1.8)
    brand = v.brand.upper() if v.brand.isascii() else v.brand
    left_cx = panel_w / 2
    card.text(left_cx, 11.0, brand, 5.6, accent, face, anchor="ma", max_w_mm=38, stroke=1)
    card.rect((8, 19.0, panel_w - 8, 19.5), fill=accent)
    x0, right0 = 5.0, panel_w - 4.0
    size, pitch = 2.9, 5.0
    colon = pick(rng, ("：", ""))
    first = [("品名" + colon, v.product_name, "product_name"),
             (pick(rng, ("货号", "款号")) + colon, v.style_number, "style_number"),
             (pick(rng, ("颜色", "色号")) + colon, v.color, "color"),
             (pick(rng, ("号型", "规格", "尺码")) + colon, v.size, "size")]
    y = labelled_rows(card, x0, 23.0, right0, first, size, pitch, label_ink, ink, face, value_face, squeeze, stretch)
    price = money(v.price, pick(rng, ("yen", "yen", "rmb", "yuan")))
    stretched_text(card, x0, y + 2.0, pick(rng, ("零售价", "吊牌价", "统一零售价")), 3.0, label_ink, face, squeeze)
    card.text(x0, y + 6.4, price, 6.0, ink, value_face, max_w_mm=right0 - x0, stroke=1)
    card.text(left_cx, h - 8.0, pick(rng, ("合格证", "MADE IN CHINA", "检验合格")), 2.4, (110, 110, 116), face,
              anchor="ma")
    x1, right1 = panel_w + 5.0, w - 4.0
    second = [(pick(rng, ("成分", "面料")) + colon, v.composition, "composition"), ("等级" + colon, v.grade, "grade"),
              ("执行标准" + colon, v.standard, "standard"), ("安全类别" + colon, v.safety_category, "safety_category")]
    heading = pick(rng, ("产品信息", "洗涤说明", "合格证"))
    stretched_text(card, x1, 11.5, heading, 3.2, accent, face, squeeze)
    card.rect((x1, 16.6, right1, 16.9), fill=accent)
    y = labelled_rows(card, x1, 20.0, right1, second, size, pitch, label_ink, ink, face, value_face, squeeze, stretch)
    card.text(x1, y + 1.0, pick(rng, ("检验员：07", "检验：合格", "检验员：12")), 2.4, (110, 110, 116), face)
    ean_block(card, v.ean13, panel_w + 7.0, h - 22.0, 34.0, 9.0, BLACK, value_face)
    fold_light(card, panel_w, np.random.default_rng(style_seed + 2))
    fields = {name: value for _, value, name in first + second}
    fields.update(price=price, brand=brand, ean13=v.ean13)
    return card.finish(fields)


# -- a modern minimal tag: QR first ------------------------------------------------------------------------------

def qr_first(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A minimal vertical tag: a large QR code and the brand on top; the required fields in small light-grey print
    in a hairline-ruled table; an EAN-13; the price large and bold at the bottom."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    latin = pick(rng, latin_font_names())
    w, h = 52.0, 112.0
    stock = pick(rng, ((255, 255, 255), (248, 248, 246), (242, 240, 236), (236, 236, 238)))
    dark = pick(rng, ((20, 20, 22), (34, 34, 40), (28, 36, 52)))
    grey = float(rng.uniform(92, 112))  # about 55-65 % black: light beside the price, still print a person reads
    label_grey: Color = (int(grey + 22), int(grey + 22), int(grey + 26))
    value_grey: Color = (int(grey - 10), int(grey - 10), int(grey - 6))
    rule: Color = (int(grey + 70), int(grey + 70), int(grey + 72))
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 1.2)
    card.rounded(pick(rng, (1.0, 2.0, 4.0)))
    card.hole(w / 2, 5.0, 1.6)
    side = float(rng.uniform(25.0, 29.0))
    domain = v.brand.lower().replace("&", "").replace(" ", "") if v.brand.isascii() else "brand"
    card.qr_code(f"https://{domain}.cn/g/{v.style_number}?c={v.ean13}", (w - side) / 2, 9.5, side, dark)
    brand = v.brand.upper() if v.brand.isascii() else v.brand
    card.text(w / 2, 11.0 + side, brand, 4.6, dark, latin if brand.isascii() else face, anchor="ma", max_w_mm=40,
              stroke=1)
    rows = [("品名", v.product_name, "product_name"), (pick(rng, ("款号", "货号")), v.style_number, "style_number"),
            ("颜色", v.color, "color"), (pick(rng, ("号型", "尺码")), v.size, "size"),
            (pick(rng, ("成分", "面料成分")), v.composition, "composition"), ("等级", v.grade, "grade"),
            ("执行标准", v.standard, "standard"), ("安全类别", v.safety_category, "safety_category")]
    size, pitch = 2.5, 3.8
    x0, x2 = 4.5, w - 4.5
    label_w = max(width_mm(card, lb, size, face) for lb, _, _ in rows)
    xv = x0 + label_w + 1.6
    y = 18.5 + side
    card.line(x0, y, x2, y, rule, 0.12)
    for label, value, _ in rows:
        lines = [value]
        s = fitted(card, [(value, value_face, 1.0)], size, x2 - xv - 0.4)
        if width_mm(card, value, s, value_face) > x2 - xv - 0.4:
            lines = units_in_lines(value, x2 - xv - 0.4, lambda t: width_mm(card, t, size, value_face))
            s = min(fitted(card, [(line, value_face, 1.0)], size, x2 - xv - 0.4) for line in lines)
        card.text(x0, y + 0.65, label, size, label_grey, face)
        for k, line in enumerate(lines):
            card.text(xv, y + 0.65 + k * (pitch - 0.6), line, s, value_grey, value_face)
        y += pitch + (len(lines) - 1) * (pitch - 0.6)
        card.line(x0, y, x2, y, rule, 0.12)
    py = h - 12.0
    # Below about 2.4 px/mm (a tag under 270 px tall, the small bucket) every face is drawn at its 6-px floor, the
    # table grows past its room, and the code keeps its place above the price, over the table's last row.
    ean_block(card, v.ean13, (w - 32.0) / 2, min(y + 2.2, py - 13.7), 32.0, 7.5, dark, value_face)
    price = money(v.price, pick(rng, ("yen", "yen_spaced", "yen", "rmb")))
    bold_latin = "LiberationSans-Bold"
    price_face = bold_latin if bold_latin in latin_font_names() and rng.random() < 0.6 else value_face
    card.text(x0, py + 2.2, pick(rng, ("零售价", "吊牌价", "售价")), 2.4, label_grey, face)
    card.text(x2, py, price, 6.4, dark, price_face, anchor="ra", max_w_mm=x2 - x0 - 9, stroke=1)
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, brand=brand, ean13=v.ean13)
    return card.finish(fields)
