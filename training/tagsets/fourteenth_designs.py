"""Three designs added on 2026-12-04 (twenty-second session), after the reader had been developed while looking at the
forty-three in `designs` and the batches after it: a fresh yardstick nobody tuned for.

Each is a common sight on Chinese garment tags that the forty-three do not show:

- `tick_form`: a pre-printed 合格证 form whose 等级 and 安全类别 are **option boxes** (`优等品 一等品 合格品`,
  `A类 B类 C类`, every option printed, the job's one ticked by the tag printer, filled, or ticked or ringed by hand
  in a pen), and whose 执行标准 names **two standards on two lines** (the product standard, then a labelling standard
  such as `GB/T 29862-2013` or `GB 5296.4-2012` under it): the unticked grades and classes and the second standard are
  print no recipe expects;
- `split_columns`: a horizontal 合格证 whose fields stand in **two independent key:value columns parted by a vertical
  divider** (a rule, a dashed rule or a double rule), the columns' rows at different pitches, so a row of one drifts
  past the rows of the other; values in a condensed face (长体) on half of them; the price in the right column;
- `hologram_seal`: a vertical tag carrying a **防伪 hologram sticker** (silver foil with a rainbow sheen, a QR code on
  a white panel, `防伪标识`/`扫码验真`, a serial number) stuck a little askew on the right, beside the lower rows and
  over part of the maker's lines (产地/地址/检验员, which no recipe checks); never over a judged value or the bars.

Fields as in `designs`, values from `values`, printed exactly as `fields` says (a ticked option is the field's value).
Faces are `fonts` faces only. Nothing here changes the scene or any older design.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw

from training.tagsets.canvas import Card, Color, TagArt
from training.tagsets.eighth_designs import stretched_text, width_mm
from training.tagsets.fonts import font_names
from training.tagsets.layout import BLACK, ean_block, money, pick
from training.tagsets.seventh_designs import units_in_lines
from training.tagsets.values import GRADES, TagValues

PEN_INKS = ((28, 52, 150), (20, 20, 24), (150, 24, 30))
LABELLING_STANDARDS = ("GB/T 29862-2013", "GB 5296.4-2012", "FZ/T 01053-2007")
SAFETY_OPTIONS = ("A类", "B类", "C类")


def _pen_stroke(card: Card, points: list[tuple[float, float]], ink: Color, width_mm: float,
                rng: np.random.Generator) -> None:
    """A hand-drawn stroke through `points` (mm): each point jittered a little, the line a pen's width."""
    pts = [(card.px(x + float(rng.normal(0, 0.12))), card.px(y + float(rng.normal(0, 0.12)))) for x, y in points]
    card.draw.line(pts, fill=ink, width=max(1, card.px(width_mm)), joint="curve")


def option_marks(card: Card, x: float, y: float, options: tuple[str, ...], marked: str, size: float, ink: Color,
                 face: str, mark: str, pen: Color, rng: np.random.Generator) -> float:
    """Print every option from (x, y), a box before each, and mark `marked`: 'tick' (a printed tick in its box),
    'filled' (its box filled), 'pen_tick' (a tick drawn by hand, larger than the box) or 'pen_ring' (a ring drawn by
    hand round the option, boxes all empty). Returns where the row ends (mm)."""
    side = size * 0.72
    at = x
    for option in options:
        by = y + (size - side) * 0.55
        is_marked = option == marked
        card.rect((at, by, at + side, by + side), fill=ink if is_marked and mark == "filled" else None, outline=ink,
                  width_mm=0.18)
        if is_marked and mark == "tick":
            pts = [(at + side * 0.15, by + side * 0.5), (at + side * 0.42, by + side * 0.82), (at + side * 0.9, by + side * 0.12)]
            card.draw.line([(card.px(a), card.px(b)) for a, b in pts], fill=ink, width=max(1, card.px(0.28)), joint="curve")
        if is_marked and mark == "pen_tick":
            _pen_stroke(card, [(at - side * 0.05, by + side * 0.35), (at + side * 0.4, by + side * 0.95),
                               (at + side * 1.3, by - side * 0.45)], pen, 0.32, rng)
        used = card.text(at + side + 0.6, y, option, size, ink, face)
        if is_marked and mark == "pen_ring":
            x0, x1 = at + side + 0.1, at + side + 0.6 + used + 0.6
            card.draw.ellipse((card.px(x0), card.px(y - 0.7), card.px(x1), card.px(y + size + 0.5)), outline=pen,
                              width=max(1, card.px(0.28)))
        at += side + 0.6 + used + size * 0.9
    return at - size * 0.9


def tick_form(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical pre-printed 合格证 (56×106 mm): colon rows, 等级 and 安全类别 as option boxes with the job's ticked,
    执行标准 naming the product standard and a labelling standard on the line under it; the price; the EAN-13."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (30, 36, 70), (40, 40, 44)))
    mark = pick(rng, ("tick", "filled", "pen_tick", "pen_ring"))
    pen = pick(rng, PEN_INKS)
    w, h = 56.0, 106.0
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (251, 250, 246), (246, 246, 242))))
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (1.5, 3.0)))
    card.hole(w / 2, 5.5, 1.7, ring=pick(rng, (None, (214, 214, 216))))
    card.text(w / 2, 10.0, v.brand, 5.6, ink, face, anchor="ma", max_w_mm=44, stroke=1)
    card.text(w / 2, 16.6, pick(rng, ("合格证", "产品合格证")), 3.2, ink, face, anchor="ma")
    card.line(5, 21.0, w - 5, 21.0, ink, 0.2)
    size, pitch, x, right = 2.8, 4.6, 5.0, w - 5.0
    rows = [("品名：", v.product_name, "product_name"), (pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
            (pick(rng, ("颜色：", "色别：")), v.color, "color"), (pick(rng, ("号型：", "规格：")), v.size, "size"),
            (pick(rng, ("成分：", "纤维含量：")), v.composition, "composition")]
    fields: dict[str, str] = {}
    y = 23.5
    for label, value, name in rows:
        used = card.text(x, y, label, size, ink, face)
        room = right - x - used - 0.6
        lines = units_in_lines(value, room, lambda t: width_mm(card, t, size, value_face)) if name == "composition" else [value]
        for k, line in enumerate(lines):
            card.text(x + used + 0.6, y + 3.6 * k, line, size, ink, value_face, max_w_mm=room)
        y += pitch + 3.6 * (len(lines) - 1)
        fields[name] = " ".join(lines)
    used = card.text(x, y, "等级：", size, ink, face)
    option_marks(card, x + used + 0.6, y, GRADES[::-1], v.grade, size, ink, face, mark, pen, rng)
    y += pitch + 0.4
    used = card.text(x, y, "执行标准：", size, ink, face)
    card.text(x + used + 0.6, y, v.standard, size, ink, value_face, max_w_mm=right - x - used - 0.6)
    card.text(x + used + 0.6, y + 3.7, pick(rng, LABELLING_STANDARDS), size, ink, value_face,
              max_w_mm=right - x - used - 0.6)
    y += pitch + 3.7
    gb, safety = v.safety_category.rsplit(" ", 1)
    used = card.text(x, y, pick(rng, ("安全类别：", "安全技术类别：")), size, ink, face)
    card.text(x + used + 0.6, y, gb, size, ink, value_face)
    option_marks(card, x + used + 0.6, y + 3.9, SAFETY_OPTIONS, safety, size, ink, face, mark, pen, rng)
    y += pitch + 4.3
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "yen_spaced")))
    used = card.text(x, y + 0.9, pick(rng, ("零售价：", "吊牌价：", "统一零售价：")), 3.0, ink, face)
    card.text(x + used + 0.6, y, price, 4.4, ink, value_face, max_w_mm=right - x - used - 0.6, stroke=1)
    card.text(x, y + 6.2, pick(rng, ("检验员：03", "检验：合格", "检验员：QC07")), 2.3, ink, face)
    ean_block(card, v.ean13, 9, max(y + 10.5, 85.0), 38, 10.0 if y + 10.5 <= 85.0 else 8.5, ink, value_face)
    fields.update(grade=v.grade, standard=v.standard, safety_category=v.safety_category, price=price, brand=v.brand,
                  ean13=v.ean13)
    return card.finish(fields)


# -- two independent columns parted by a vertical divider ---------------------------------------------------------

def _divider(card: Card, x: float, y0: float, y1: float, ink: Color, style: str) -> None:
    if style == "rule":
        card.line(x, y0, x, y1, ink, 0.25)
    elif style == "double":
        card.line(x - 0.5, y0, x - 0.5, y1, ink, 0.18)
        card.line(x + 0.5, y0, x + 0.5, y1, ink, 0.18)
    else:  # dashed
        for y in np.arange(y0, y1, 1.6):
            card.line(x, float(y), x, float(min(y + 0.9, y1)), ink, 0.22)


def split_columns(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A horizontal 合格证 (104×60 mm): two key:value columns parted by a vertical divider, their rows at different
    pitches (品名 货号 颜色 号型 等级 left; 成分 执行标准 安全类别, the price and a small 检验/生产日期 line right),
    values condensed or plain; the EAN-13 under the left column."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (30, 34, 60), (44, 40, 36)))
    stretch = float(pick(rng, (1.0, 1.0, 0.78, 0.85)))
    w, h = 104.0, 60.0
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (250, 249, 245), (242, 243, 245))))
    card.texture(np.random.default_rng(style_seed + 1), 1.4)
    card.rounded(pick(rng, (1.5, 2.5)))
    card.hole(w - 5.5, 5.5, 1.6)
    card.text(5, 3.4, v.brand, 5.0, ink, face, max_w_mm=48, stroke=1)
    card.text(w - 11, 4.2, pick(rng, ("合格证", "产品合格证", "CERTIFICATE")), 3.2, ink, face, anchor="ra")
    card.line(5, 11.0, w - 5, 11.0, ink, 0.22)
    mid = 52.0
    _divider(card, mid, 13.0, 56.0, ink, pick(rng, ("rule", "dashed", "double")))
    colon = pick(rng, ("：", ": "))
    size = 2.8

    def value_at(x: float, y: float, text: str, room: float) -> float:
        natural = width_mm(card, text, size, value_face, stretch)
        if natural <= room:
            return stretched_text(card, x, y, text, size, ink, value_face, stretch)
        return card.text(x, y, text, size, ink, value_face, max_w_mm=room)

    fields: dict[str, str] = {}
    left = [("品名", v.product_name, "product_name"), (pick(rng, ("货号", "款号")), v.style_number, "style_number"),
            (pick(rng, ("颜色", "色号")), v.color, "color"), (pick(rng, ("号型", "尺码", "规格")), v.size, "size"),
            ("等级", v.grade, "grade")]
    y, pitch = 14.0, float(pick(rng, (5.2, 5.6)))
    for label, value, name in left:
        used = card.text(5, y, label + colon, size, ink, face)
        value_at(5 + used + 0.5, y, value, mid - 1.5 - (5 + used + 0.5))
        fields[name] = value
        y += pitch
    x, right = mid + 3.0, w - 4.0
    y, pitch = 14.0 + float(pick(rng, (2.3, 2.8))), float(pick(rng, (6.4, 6.9)))
    right_rows = [(pick(rng, ("成分", "面料")), v.composition, "composition"), ("执行标准", v.standard, "standard"),
                  (pick(rng, ("安全类别", "安全技术类别")), v.safety_category, "safety_category")]
    for label, value, name in right_rows:
        used = card.text(x, y, label + colon, size, ink, face)
        room = right - x - used - 0.5
        lines = [value]
        if name == "composition":
            lines = units_in_lines(value, room, lambda t: width_mm(card, t, size, value_face, stretch))
        for k, line in enumerate(lines):
            value_at(x + used + 0.5, y + 3.5 * k, line, room)
        fields[name] = " ".join(lines)
        y += pitch + 3.5 * (len(lines) - 1)
    price = money(v.price, pick(rng, ("yen", "rmb", "yuan", "yen")))
    used = card.text(x, y + 1.2, pick(rng, ("零售价", "吊牌价")) + colon, 3.0, ink, face)
    card.text(x + used + 0.5, y, price, 4.8, ink, value_face, max_w_mm=right - x - used - 0.5, stroke=1)
    card.text(x, y + 8.0, pick(rng, ("检验员：05  生产日期：2026.10", "检验：合格  2026-11-08", "生产日期：2026年10月")), 2.3,
              ink, face, max_w_mm=right - x)
    ean_block(card, v.ean13, 8, 43.0, 36, 9.5, ink, value_face)
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


# -- a 防伪 hologram sticker beside the lower rows ------------------------------------------------------------------

def hologram_sticker(rng: np.random.Generator, px_per_mm: float, shape: str, link: str, serial: str,
                     face: str) -> Card:
    """A foil security sticker drawn flat: silver with diagonal rainbow bands and a sheen, a QR code on a white
    panel, `防伪标识` or `扫码验真` and the serial number in dark print; 'rect' (26×15 mm) or 'round' (21 mm)."""
    w, h = (26.0, 15.0) if shape == "rect" else (21.0, 21.0)
    sticker = Card(w, h, px_per_mm, (206, 208, 212))
    pw, ph = sticker.image.size
    yy, xx = np.mgrid[0:ph, 0:pw].astype(np.float32) / px_per_mm
    phase = (xx + 0.7 * yy) / float(rng.uniform(3.0, 5.0)) + float(rng.uniform(0, 6.3))
    rainbow = np.stack([np.sin(phase), np.sin(phase + 2.1), np.sin(phase + 4.2)], axis=2) * 16.0
    sheen = 22.0 * np.exp(-((xx - yy * 0.8 - float(rng.uniform(0, w))) / 4.0) ** 2)[..., None]
    foil = np.asarray(sticker.image, np.float32) + rainbow + sheen
    sticker.image = Image.fromarray(np.clip(foil, 0, 255).astype(np.uint8))
    sticker.draw = ImageDraw.Draw(sticker.image)
    dark = (40, 42, 48)
    words = pick(rng, ("防伪标识", "扫码验真", "正品防伪"))
    if shape == "rect":
        sticker.mask = Image.new("L", (pw, ph), 0)
        ImageDraw.Draw(sticker.mask).rounded_rectangle((0, 0, pw - 1, ph - 1), radius=sticker.px(1.2), fill=255)
        sticker.rect((1.1, 1.1, 13.9, 13.9), fill=(250, 250, 250))
        sticker.qr_code(link, 1.6, 1.6, 11.8, BLACK)
        sticker.text(20.0, 3.0, words, 2.3, dark, face, anchor="ma", max_w_mm=11.0)
        sticker.text(20.0, 8.8, serial[:6], 2.1, BLACK, face, anchor="ma")
        sticker.text(20.0, 11.4, serial[6:], 2.1, BLACK, face, anchor="ma")
    else:
        sticker.mask = Image.new("L", (pw, ph), 0)
        ImageDraw.Draw(sticker.mask).ellipse((0, 0, pw - 1, ph - 1), fill=255)
        sticker.rect((4.7, 4.7, 16.3, 16.3), fill=(250, 250, 250))
        sticker.qr_code(link, 5.2, 5.2, 10.6, BLACK)
        sticker.text(10.5, 1.5, words, 2.2, dark, face, anchor="ma")
        sticker.text(10.5, 16.9, serial, 2.0, BLACK, face, anchor="ma", max_w_mm=15.0)
    return sticker


def sticker_spots(bands: list[tuple[float, float, float]], left: float, half_h: float, lowest: float,
                  maker_top: float) -> list[float]:
    """Heights (mm) for the centre of a sticker whose left edge is at `left`, lowest first: it ends above `lowest`
    (the bars), reaches into the maker's lines (from `maker_top`), and keeps 0.8 mm clear of the right end of every
    judged value `bands` holds as (top, bottom, right end) where the two overlap in height."""
    return [float(cy) for cy in np.arange(lowest - half_h, 40.0, -0.5)
            if cy - half_h < maker_top + 5.0 and cy + half_h > maker_top + 1.5
            and all(left >= end + 0.8 for top, bottom, end in bands if top < cy + half_h and bottom > cy - half_h)]


def hologram_seal(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical tag (56×108 mm): colon rows, the price, the maker's lines (产地/地址/检验员), a 防伪 hologram sticker
    with a QR code stuck askew on the right beside the lower rows and over part of the maker's lines, the EAN-13."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (36, 36, 40), (50, 34, 28)))
    w, h = 56.0, 108.0
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (248, 246, 240), (236, 238, 240), (232, 222, 204))))
    card.texture(np.random.default_rng(style_seed + 1), 1.8)
    card.rounded(pick(rng, (2.0, 3.5)))
    card.hole(w / 2, 6.0, 1.8, ring=pick(rng, (None, (200, 200, 204))))
    card.text(w / 2, 11.0, v.brand, 6.0, ink, face, anchor="ma", max_w_mm=44, stroke=1)
    card.line(6, 19.5, w - 6, 19.5, ink, 0.2)
    size, pitch, x, right = 2.8, 4.6, 5.0, w - 5.0
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "rmb")))
    rows = [("品名：", v.product_name, "product_name"), (pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
            (pick(rng, ("颜色：", "色号：")), v.color, "color"), (pick(rng, ("号型：", "尺码：")), v.size, "size"),
            (pick(rng, ("成分：", "面料：")), v.composition, "composition"), ("等级：", v.grade, "grade"),
            ("执行标准：", v.standard, "standard"),
            (pick(rng, ("安全类别：", "安全技术类别：")), v.safety_category, "safety_category")]
    fields: dict[str, str] = {}
    bands: list[tuple[float, float, float]] = []  # (top, bottom, right end) of every judged value, mm
    y = 22.5
    for label, value, name in rows:
        used = card.text(x, y, label, size, ink, face)
        room = right - x - used - 0.6
        lines = units_in_lines(value, room, lambda t: width_mm(card, t, size, value_face)) if name == "composition" else [value]
        for k, line in enumerate(lines):
            end = x + used + 0.6 + card.text(x + used + 0.6, y + 3.6 * k, line, size, ink, value_face, max_w_mm=room)
            bands.append((y + 3.6 * k - 0.4, y + 3.6 * k + size + 0.4, end))
        fields[name] = " ".join(lines)
        y += pitch + 3.6 * (len(lines) - 1)
    used = card.text(x, y + 0.9, pick(rng, ("零售价：", "吊牌价：")), 3.0, ink, face)
    end = x + used + 0.6 + card.text(x + used + 0.6, y, price, 4.4, ink, value_face, max_w_mm=right - x - used - 0.6,
                                     stroke=1)
    bands.append((y - 0.4, y + 4.8, end))
    y += 7.0
    maker = [pick(rng, ("产地：浙江杭州", "产地：广东东莞", "产地：江苏常熟")),
             pick(rng, ("地址：浙江省杭州市余杭区良渚街道", "地址：广东省东莞市虎门镇大坑路", "地址：江苏省常熟市海虞镇工业园区")),
             pick(rng, ("检验员：07", "检验：合格", "检验员：QC 12"))]
    maker_top = y
    for line in maker:
        card.text(x, y, line, 2.3, ink, face, max_w_mm=right - x)
        y += 3.4
    ean_top = max(y + 1.6, 92.5)
    shape = pick(rng, ("rect", "round"))
    serial = "".join(str(int(d)) for d in rng.integers(0, 10, 12))
    angle = float(rng.uniform(-6.0, 6.0))
    sticker = hologram_sticker(rng, px_per_mm, shape, f"https://fw.{v.brand.lower().replace('&', '')}.cn/v/{serial}",
                               serial, face)
    sw, sh = sticker.width_mm, sticker.height_mm
    a = math.radians(abs(angle))
    half_w, half_h = (sw * math.cos(a) + sh * math.sin(a)) / 2 + 0.3, (sw * math.sin(a) + sh * math.cos(a)) / 2 + 0.3
    cx = w - 2.5 - half_w
    spots = sticker_spots(bands, cx - half_w, half_h, ean_top - 0.8, maker_top)
    if not spots:  # no room beside the values: over the maker's lines' right part only
        spots = [ean_top - 0.8 - half_h]
    cy = float(spots[int(rng.integers(len(spots)))])
    card.stick(sticker, cx, cy, angle)
    ean_block(card, v.ean13, 9, ean_top, 38, 9.5 if ean_top <= 92.5 else 8.5, ink, value_face)
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)
