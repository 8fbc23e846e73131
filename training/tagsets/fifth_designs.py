"""Three designs added on 2026-12-03 (later), after the reader had been developed while looking at the sixteen in
`designs`, `fresh_designs`, `third_designs` and `fourth_designs`: a fresh yardstick nobody tuned for.

Each is a common sight on Chinese garment tags that the sixteen do not show:

- `thermal_label`: a plain brand tag (the brand alone on coloured or white card) carrying every field on a
  white adhesive label from a shop's thermal label printer (203 dpi): a monospace or dot-matrix face set in
  whole printer dots, slightly grey and uneven print (the head's density varies across the label, a few dots
  drop out), `款号:ZS2023C` / `尺码 XL` / `零售价:¥299.00`, a Code 128 of the style number in whole-dot modules
  with the number under it; the label stuck 1–4° askew;
- `size_run`: a vertical tag that prints the style's whole size run in a row (`XS S M L XL XXL 3XL`, or the
  号型 series `155/80A 160/84A … 185/104A` on two rows) and marks the garment's size (reverse print in a filled
  box, a ring round it, or ticked/filled check boxes before every size); the recipe names the marked size only;
  EAN-13 with its digits;
- `sideways_block`: a long narrow tag (50×120 mm) whose brand stands upright at the top while the whole field block (rows,
  price and EAN-13) is printed a quarter turn round on the lower part, its lines and the code running along the
  tag's long edge (read with the head tilted, either way round).

Fields as in `designs` (GB/T 29862 fields, GB 18401 安全类别, GB/T 1335 号型), values from `values`, printed
exactly as `fields` says.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from training.tagsets.canvas import Card, Color, TagArt, print_turned, rescaled
from training.tagsets.codes import modules
from training.tagsets.fonts import font, font_files, font_names, latin_font_names
from training.tagsets.layout import BLACK, ean_block, money, pick, row
from training.tagsets.values import HEIGHTS, TagValues

GREY: Color = (98, 98, 104)
WHITE: Color = (255, 255, 255)
PRINTER_DPMM = 8.0  # a 203 dpi thermal label printer: 8 dots to the millimetre
# Monospace and dot-matrix CJK faces (file, face index in the collection): what a label printer's built-in
# Song/Hei bitmap fonts look like. Same files as `fonts`, other faces of them.
PRINTER_FACES = (("wqy-zenhei.ttc", 1), ("wqy-zenhei.ttc", 2), ("wqy-microhei.ttc", 1))


# -- a thermal label printer --------------------------------------------------------------------------------

def printer_faces() -> tuple[tuple[str, int], ...]:
    """(font path, face index) of the printer faces installed; the first CJK face when none of them is."""
    files = {p.name: str(p) for p in font_files()}
    faces = tuple((files[name], index) for name, index in PRINTER_FACES if name in files)
    return faces or ((str(font_files()[0]), 0),)


@lru_cache(maxsize=48)
def printer_font(path: str, index: int, dots: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, dots, index=index)


def dot_text(label: Card, x_mm: float, y_mm: float, text: str, dots: int, face: tuple[str, int],
             bold: bool = False) -> float:
    """One line in whole printer dots (no grey edge: a thermal head's dot is on or off) at the label's top-left
    (x, y). `bold` strikes each dot twice, one dot to the right, as label printers embolden. Returns the width
    (mm)."""
    f = printer_font(face[0], face[1], dots)
    draw = ImageDraw.Draw(label.image)
    draw.fontmode = "1"
    at = (label.px(x_mm), label.px(y_mm))
    draw.text(at, text, font=f, fill=(0, 0, 0))
    if bold:
        draw.text((at[0] + 1, at[1]), text, font=f, fill=(0, 0, 0))
    label.draw = ImageDraw.Draw(label.image)
    label.smallest_print_px = min(label.smallest_print_px or float(dots), float(dots))
    return (f.getlength(text) + (1 if bold else 0)) / label.px_per_mm


def dot_width(text: str, dots: int, face: tuple[str, int]) -> float:
    return printer_font(face[0], face[1], dots).getlength(text) / PRINTER_DPMM


def wrap_units(text: str, room_mm: float, dots: int, face: tuple[str, int]) -> list[str]:
    """`text` set in lines no wider than `room_mm` at a fixed size, broken between its units (a fibre stays with
    its share), as label software wraps a field: '棉 60% 聚酯纤维 35% 氨纶 5%' -> ['棉 60% 聚酯纤维 35%', '氨纶 5%']."""
    words = text.split(" ")
    units = [" ".join(words[k:k + 2]) for k in range(0, len(words), 2)] if all(
        w.endswith("%") for w in words[1::2]) else words
    lines: list[str] = []
    for unit in units:
        if lines and dot_width(lines[-1] + " " + unit, dots, face) <= room_mm:
            lines[-1] += " " + unit
        else:
            lines.append(unit)
    return lines


def thermal_print(label: Card, rng: np.random.Generator) -> None:
    """Turn the label's black dots into thermal print: grey-black, darker on one side of the head than the
    other, a few head elements weaker (faint streaks along the feed), a dot dropping out here and there, and a
    slight bleed of each dot."""
    pixels = np.asarray(label.image, np.float32)
    ink = 1.0 - pixels.min(axis=2) / 255.0
    h, w = ink.shape
    columns = np.linspace(-1.0, 1.0, w) * rng.uniform(-0.09, 0.09)
    noise = np.convolve(rng.normal(0, 0.05, w + 24), np.ones(25) / 25 * 5, mode="valid")[:w]
    density = rng.uniform(0.74, 0.9) * (1.0 + columns + noise)
    for x in rng.integers(0, w, int(rng.integers(0, 4))):
        density[x] *= 0.72  # a weak element: a faint line along the feed
    ink = ink * np.clip(density, 0.45, 0.97)[None, :]
    ink[rng.random((h, w)) < 0.012] *= 0.3
    padded = np.pad(ink, 1, mode="edge")  # each dot bleeds a little into its neighbours
    bled = 0.6 * ink + 0.1 * (padded[:-2, 1:-1] + padded[2:, 1:-1] + padded[1:-1, :-2] + padded[1:-1, 2:])
    paper = np.asarray(label.stock, np.float32)
    out = paper[None, None, :] - bled[..., None] * (paper[None, None, :] - 14.0)
    label.image = Image.fromarray(np.clip(out + 0.5, 0, 255).astype(np.uint8))
    label.draw = ImageDraw.Draw(label.image)


def code128_dots(label: Card, text: str, x_mm: float, y_mm: float, module_dots: int, h_mm: float) -> float:
    """A Code 128 whose modules are whole printer dots (`module_dots` each), as a thermal head prints bars.
    Returns its width (mm)."""
    width = modules(text, "Code128").shape[1] * module_dots / label.px_per_mm
    label.linear_code(text, "Code128", x_mm, y_mm, width, h_mm, (0, 0, 0))
    return width


def _thermal_label(v: TagValues, rng: np.random.Generator, stock: Color) -> tuple[Card, dict[str, str]]:
    """The label at the printer's resolution, and the fields as it prints them."""
    face = pick(rng, printer_faces())
    dots = int(pick(rng, (20, 24, 24)))  # TSS20 / TSS24: a label printer's 2.5 and 3 mm built-in Chinese fonts
    colon = pick(rng, (":", "：", " "))
    rows = [("品名", v.product_name, "product_name"), (pick(rng, ("款号", "货号")), v.style_number, "style_number"),
            ("颜色", v.color, "color"), (pick(rng, ("尺码", "规格", "号型")), v.size, "size"),
            ("成分", v.composition, "composition"), ("等级", v.grade, "grade"), ("执行标准", v.standard, "standard"),
            ("安全类别", v.safety_category, "safety_category")]
    price = money(v.price, pick(rng, ("yen", "yen", "yen_spaced")))
    width, x = 48.0, 2.5
    aligned = colon != "：" and rng.random() < 0.6  # values in a column, as a label template's field objects
    label_w = max(dot_width(lb + colon, dots, face) for lb, _, _ in rows) + (dots / PRINTER_DPMM * 0.5 if aligned else 0)
    room = width - x - 2.0 - label_w
    pitch = dots / PRINTER_DPMM * 1.3
    lines = {name: wrap_units(value, room, dots, face) for _, value, name in rows}  # a long value wraps, never shrinks
    price_dots = int(pick(rng, (24, 28, 32)))
    n_modules = modules(v.style_number, "Code128").shape[1]
    module = 3 if (n_modules + 20) * 3 / PRINTER_DPMM <= width else 2  # 3-dot modules where a 10-module quiet zone fits
    bars = 7.5
    body = sum(len(lines[n]) for _, _, n in rows) * pitch + price_dots / PRINTER_DPMM * 1.4 + 1.0
    height = round(2.5 + body + bars + 1.0 + 16 / PRINTER_DPMM * 1.2 + 2.0, 1)
    label = Card(width, height, PRINTER_DPMM, stock)
    y = 2.5
    for lb, _, name in rows:
        used = dot_text(label, x, y, lb + colon, dots, face)
        value_x = x + label_w if aligned else x + used + (0.4 if colon == " " else 0.0)
        for line in lines[name]:
            dot_text(label, value_x, y, line, dots, face)
            y += pitch
    used = dot_text(label, x, y + (price_dots - dots) / PRINTER_DPMM * 0.8, pick(rng, ("零售价", "吊牌价")) + colon,
                    dots, face)
    dot_text(label, x + max(used, label_w if aligned else 0.0) + 0.4, y, price, price_dots, face, bold=True)
    y += price_dots / PRINTER_DPMM * 1.4 + 1.0
    code_w = n_modules * module / PRINTER_DPMM
    left = round((width - code_w) / 2 * PRINTER_DPMM) / PRINTER_DPMM  # the bars start on a whole dot
    code128_dots(label, v.style_number, left, y, module, bars)
    dot_text(label, width / 2 - dot_width(v.style_number, 16, face) / 2, y + bars + 0.6, v.style_number, 16, face)
    label.rounded(1.2)
    thermal_print(label, rng)
    fields = {name: value for _, value, name in rows}
    fields["price"] = price
    return label, fields


def thermal_label(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A plain brand tag (the brand alone on coloured or white card) with every field on a white thermal label
    stuck 1–4° askew over its lower half; Code 128 of the style number on the label."""
    rng = np.random.default_rng(style_seed)
    face = pick(rng, font_names())
    latin = pick(rng, latin_font_names())
    stock, ink = pick(rng, (((30, 30, 32), (236, 236, 232)), ((196, 184, 160), (40, 36, 30)),
                            ((96, 116, 128), (246, 246, 244)), ((248, 246, 240), (30, 30, 34)),
                            ((150, 36, 44), (248, 240, 230))))
    card = Card(54, 104, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 2.0)
    card.rounded(pick(rng, (2.0, 3.5)))
    card.hole(27, 6.5, 2.0, ring=pick(rng, (None, (214, 214, 216), (200, 170, 100))))
    brand = v.brand.upper() if v.brand.isascii() else v.brand
    card.text(27, 15.0, brand, 8.0, ink, latin if brand.isascii() else face, anchor="ma", max_w_mm=46, stroke=1)
    card.text(27, 27.0, pick(rng, ("DESIGNED IN HANGZHOU", "EST. 2015", "COLLECTION 2026", "—  ORIGINAL  —")), 2.4,
              ink, latin, anchor="ma")
    label, fields = _thermal_label(v, np.random.default_rng(style_seed + 7), pick(rng, ((252, 252, 250), (246, 247, 245))))
    sticker = rescaled(label, px_per_mm)
    angle = float(rng.uniform(1.0, 4.0)) * pick(rng, (-1, 1))
    cy = 101.0 - label.height_mm / 2 - 1.0
    card.stick(sticker, 27 + float(rng.uniform(-1.2, 1.2)), cy, angle)
    fields.update(brand=brand)
    return card.finish(fields)


# -- a size run with the garment's size marked ----------------------------------------------------------------

def size_series(size: str) -> tuple[str, ...]:
    """The style's whole run that `size` belongs to: letters 'XS S M L XL XXL 3XL' (with '2XL' where the size is
    written so), or the GB/T 1335 series through it, heights 155–185 in steps of 5 and the chest or waist
    4 cm a step ('160/84A 165/88A …'), stretched to hold a size outside those heights."""
    if "/" not in size:
        return ("XS", "S", "M", "L", "XL", "2XL" if size == "2XL" else "XXL", "3XL")
    height, rest = size.split("/")
    h, girth, body = int(height), int(rest[:-1]), rest[-1]
    heights = range(min(HEIGHTS[0], h), max(HEIGHTS[-1], h) + 1, 5)
    return tuple(f"{x}/{girth + (x - h) * 4 // 5}{body}" for x in heights)


def size_run_marks(card: Card, x_mm: float, y_mm: float, run: tuple[str, ...], marked: str, size_mm: float,
                   ink: Color, face: str, mark: str, gap_mm: float, right_mm: float) -> list[tuple[float, float, float, float]]:
    """Print `run` from (x, y), going on a new row (back at x) where the next size would pass `right_mm`, and mark
    `marked`: 'filled' (reverse print in a filled box), 'ring' (a ring round it), 'checkbox' (a box before every
    size, the marked one filled) or 'tick' (a box before every size, the marked one ticked). Returns each entry's
    box (mm), in print order."""
    f = font(face, card.px(size_mm))
    boxes = []
    box_side = size_mm * 0.72
    lead = box_side + 0.7 if mark in ("checkbox", "tick") else 0.0
    pitch = size_mm * 1.75
    cx, cy = x_mm, y_mm
    for k, entry in enumerate(run):
        w = f.getlength(entry) / card.px_per_mm
        if k and cx + lead + w > right_mm:
            cx, cy = x_mm, cy + pitch
        tx = cx + lead
        box = (tx, cy, tx + w, cy + size_mm)
        is_marked = entry == marked
        pad = size_mm * 0.3
        if lead:
            by = cy + (size_mm - box_side) * 0.55
            card.rect((cx, by, cx + box_side, by + box_side), fill=ink if is_marked and mark == "checkbox" else None,
                      outline=ink, width_mm=0.18)
            if is_marked and mark == "tick":
                pts = [(cx + box_side * 0.12, by + box_side * 0.5), (cx + box_side * 0.42, by + box_side * 0.85),
                       (cx + box_side * 1.05, by - box_side * 0.2)]
                card.draw.line([(card.px(a), card.px(b)) for a, b in pts], fill=ink, width=card.px(0.3), joint="curve")
        text_ink = ink
        if is_marked and mark == "filled":
            card.rect((tx - pad, cy - pad * 0.8, tx + w + pad, cy + size_mm + pad * 0.6), fill=ink, radius_mm=0.4)
            text_ink = card.stock
        if is_marked and mark == "ring":
            card.draw.ellipse((card.px(tx - pad * 1.6), card.px(cy - pad * 1.2), card.px(tx + w + pad * 1.6),
                               card.px(cy + size_mm + pad)), outline=ink, width=max(1, card.px(0.22)))
        card.text(tx, cy, entry, size_mm, text_ink, face)
        boxes.append(box)
        cx = tx + w + gap_mm
    return boxes


def run_width(card: Card, run: tuple[str, ...], size_mm: float, face: str, mark: str, gap_mm: float) -> float:
    """How wide `size_run_marks` sets `run` on one row (mm)."""
    f = font(face, card.px(size_mm))
    lead = size_mm * 0.72 + 0.7 if mark in ("checkbox", "tick") else 0.0
    return sum(f.getlength(e) / card.px_per_mm + lead for e in run) + gap_mm * (len(run) - 1)


def size_run(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """Vertical tag: colon labels; the size line prints the style's whole run with the garment's size marked
    (filled box, ring, or check boxes); price; EAN-13 with its digits."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (28, 34, 62)))
    card = Card(52, 98, px_per_mm, pick(rng, ((255, 255, 255), (250, 248, 242), (238, 240, 242))))
    card.texture(np.random.default_rng(style_seed + 1), 1.8)
    card.rounded(pick(rng, (2.0, 3.0)))
    card.hole(26, 5.8, 1.8, ring=pick(rng, (None, (212, 212, 214))))
    card.text(26, 10.5, v.brand, 6.0, ink, face, anchor="ma", max_w_mm=40, stroke=1)
    card.line(5, 18.5, 47, 18.5, ink, 0.2)
    run = size_series(v.size)
    letters = not run[0][0].isdigit()
    size_label = pick(rng, ("尺码：", "规格：")) if letters else pick(rng, ("号型：", "规格："))
    mark = pick(rng, ("filled", "ring", "checkbox", "tick"))
    head = [("品名：", v.product_name, "product_name"), (pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
            (pick(rng, ("颜色：", "色号：")), v.color, "color")]
    tail = [("成分：", v.composition, "composition"), ("等级：", v.grade, "grade"), ("执行标准：", v.standard, "standard"),
            (pick(rng, ("安全类别：", "安全技术类别：")), v.safety_category, "safety_category")]
    size, pitch, y = 2.8, 4.5, 21.5
    for label, value, _ in head:
        row(card, 5, y, label, value, size, ink, ink, face, value_face, 42, pitch=pitch)
        y += pitch
    used = card.text(5, y, size_label, size, ink, face)
    gap = 1.8 if letters else 2.0
    run_size = 2.8 if letters else 2.6
    if run_width(card, run, run_size, value_face, mark, gap) <= 47.0 - (5 + used + 0.6):  # on the label's line
        boxes = size_run_marks(card, 5 + used + 0.6, y, run, v.size, run_size, ink, value_face, mark, gap, 47.0)
        y = boxes[-1][1] + pitch + 0.6
    else:  # under its label, as many to a row as the tag's width holds
        boxes = size_run_marks(card, 7.0, y + size * 1.6, run, v.size, run_size, ink, value_face, mark, gap, 47.0)
        y = boxes[-1][1] + run_size * 1.75 + 0.4
    for label, value, _ in tail:
        row(card, 5, y, label, value, size, ink, ink, face, value_face, 42, pitch=pitch)
        y += pitch
    price = money(v.price, pick(rng, ("yen", "yen", "yuan")))
    used = card.text(5, y + 1.0, pick(rng, ("零售价：", "吊牌价：")), 3.0, ink, face)
    card.text(5 + used + 0.6, y + 0.2, price, 4.4, ink, value_face, max_w_mm=40 - used, stroke=1)
    ean_block(card, v.ean13, 7, max(y + 6.5, 80.0), 38, 10.0 if y + 6.5 <= 80.0 else 9.0, ink, value_face)
    fields = {name: value for _, value, name in head + tail}
    fields.update(size=v.size, price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


# -- the field block printed a quarter turn round --------------------------------------------------------------

def sideways_block(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """Long narrow tag: the brand upright at the top, the whole field block (rows, price, EAN-13 with digits)
    printed a quarter turn round below it, its lines and the code along the tag's long edge."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    latin = pick(rng, latin_font_names())
    ink = pick(rng, (BLACK, (36, 36, 40), (60, 30, 24)))
    stock = pick(rng, ((255, 255, 255), (247, 244, 236), (236, 232, 222), (226, 232, 236)))
    card = Card(50, 120, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (1.5, 3.0)))
    card.hole(25, 5.5, 1.8, ring=pick(rng, (None, (210, 210, 212))))
    brand = v.brand.upper() if v.brand.isascii() else v.brand
    card.text(25, 10.5, brand, 6.5, ink, latin if brand.isascii() else face, anchor="ma", max_w_mm=42, stroke=1)
    title = pick(rng, ("合格证", "产品合格证", "CERTIFICATE"))
    card.text(25, 19.5, title, 2.6, ink, latin if title.isascii() else face, anchor="ma")
    card.line(6, 25.0, 44, 25.0, ink, 0.2)
    block = Card(86, 45, px_per_mm, stock)
    rows = [("品名：", v.product_name, "product_name"), (pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
            (pick(rng, ("颜色：", "色号：")), v.color, "color"), (pick(rng, ("号型：", "规格：")), v.size, "size"),
            (pick(rng, ("成分：", "面料：")), v.composition, "composition"), ("等级：", v.grade, "grade"),
            ("执行标准：", v.standard, "standard"), ("安全类别：", v.safety_category, "safety_category")]
    size, pitch, y = 3.0, 4.9, 2.8
    for label, value, _ in rows:
        row(block, 2.5, y, label, value, size, ink, ink, face, value_face, 51.5, pitch=pitch)
        y += pitch
    block.line(55.5, 3.0, 55.5, 41.0, ink, 0.15)
    price = money(v.price, pick(rng, ("yen", "yuan", "rmb_whole")))
    block.text(58, 3.0, pick(rng, ("零售价", "吊牌价", "统一零售价")), 2.6, ink, face)
    block.text(58, 6.8, price, 4.8, ink, value_face, max_w_mm=26, stroke=1)
    ean_block(block, v.ean13, 58.5, 16.0, 26, 10.5, ink, value_face)
    block.text(58, 37.5, "检验员：" + pick(rng, ("03", "05", "QC2")), 2.4, ink, face)
    clockwise = bool(rng.random() < 0.5)
    print_turned(card, block, 2.5, 29.0, clockwise)
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, brand=brand, ean13=v.ean13)
    return card.finish(fields)

