"""Three designs added on 2026-12-05 (twenty-fifth session), after the reader had been developed while looking at the
sixty-one in `designs`: a fresh yardstick nobody tuned for. Each sets the fields in a **layout** no earlier design
uses:

- `vertical_name`: a 国风 tag whose **product name is set top to bottom** (竖排) in a large column down one edge,
  under a small `品名` or alone, with the other fields in horizontal colon rows beside it (earlier designs set only
  the brand, which no recipe judges, in a column beside horizontal rows, or every field in columns);
- `punched_size`: a pre-printed 合格证 whose fields sit in a **bordered table with the labels in shaded cells**, the
  size row a **grid of the style's sizes**, each over a small printed circle, the garment's size marked by a
  **hole punched through its circle** (the scene shows through it): nothing is printed to mark it;
- `run_on_text`: a small economy tag whose fields **run on as one paragraph** (`品名：连衣裙  货号：KX-203188
  颜色：…`), wrapped where the line is full: a label may end one line and its value start the next, a value with
  spaces (`棉 95% 氨纶 5%`, `GB/T 2664-2017`) may be cut at a space between lines.

Truth's `fields` hold each value as printed (a value cut across lines is the whole value).
"""

from __future__ import annotations

import numpy as np
from PIL import ImageDraw

from training.tagsets.canvas import MIN_PRINT_MM, Card, Color, TagArt
from training.tagsets.fifth_designs import size_series
from training.tagsets.fonts import font, font_names
from training.tagsets.layout import BLACK, ean_block, money, pick
from training.tagsets.ninth_designs import column_text
from training.tagsets.values import TagValues


def _price(rng: np.random.Generator, v: TagValues) -> str:
    return money(v.price, pick(rng, ("yen", "yen", "yuan", "yen_spaced", "rmb")))


# -- the product name top to bottom ---------------------------------------------------------------------------

def vertical_name(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical tag (54×96 mm): the product name large and top to bottom in a ruled column down the left or right
    edge (ink or red, under a small `品名` or bare), the brand and the other fields horizontal beside it."""
    rng = np.random.default_rng(style_seed)
    faces = font_names()
    kai = [f for f in faces if f in ("ukai", "uming")] or list(faces)
    face, value_face, name_face = pick(rng, faces), pick(rng, faces), pick(rng, kai)
    w, h = 54.0, 96.0
    stock = pick(rng, ((250, 247, 238), (255, 255, 255), (238, 232, 214), (244, 240, 232)))
    ink = pick(rng, (BLACK, (36, 32, 30), (26, 36, 64)))
    name_ink = pick(rng, (ink, (150, 36, 32)))
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 2.4, fibres=stock[0] < 245)
    card.rounded(pick(rng, (1.5, 3.0)))
    card.hole(w / 2, 5.5, 1.8)
    left = rng.random() < 0.6
    column_w = 11.0
    cx = 2.5 + column_w / 2 if left else w - 2.5 - column_w / 2
    rule_x = 2.5 + column_w if left else w - 2.5 - column_w
    card.line(rule_x, 11.0, rule_x, h - 23.0, name_ink, pick(rng, (0.2, 0.35)))
    top = 12.0
    if rng.random() < 0.55:
        top = column_text(card, cx, top, "品名", 2.8, name_ink, face, "turned") + 1.4
        card.line(cx - 2.0, top - 0.8, cx + 2.0, top - 0.8, name_ink, 0.15)
    name_size = min(6.6, (h - 25.0 - top) / (len(v.product_name) * 1.08 + 0.5))
    column_text(card, cx, top, v.product_name, name_size, name_ink, name_face, "upright")
    x = rule_x + 2.5 if left else 3.0
    right = w - 2.5 if left else rule_x - 2.0
    mid = (x + right) / 2
    card.text(mid, 10.5, v.brand, 5.4, ink, face, anchor="ma", max_w_mm=right - x, stroke=1)
    card.text(mid, 16.4, pick(rng, ("合格证", "产品合格证", "CERTIFICATE 合格证")), 2.6, ink, face, anchor="ma")
    size = 3.1
    rows = [(pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
            (pick(rng, ("颜色：", "色号：")), v.color, "color"), (pick(rng, ("号型：", "尺码：", "规格：")), v.size, "size"),
            ("成分：", v.composition, "composition"), ("等级：", v.grade, "grade"),
            ("执行标准：", v.standard, "standard"), (pick(rng, ("安全类别：", "安全技术类别：")), v.safety_category, "safety_category")]
    y = 21.5

    def beside(label: str, value: str) -> bool:
        return _width(card, value, size, value_face) <= right - x - _width(card, label, size, face) - 0.3

    def lines_under(value: str) -> float:
        return 1.7 if _two_lines(card, value, size, value_face, right - x - 2.0) else 1.0

    units = sum(1.0 if beside(label, value) else 0.85 + lines_under(value) for label, value, _ in rows)
    pitch = min(5.0, (h - 27.0 - y) / units)
    assert pitch >= size * 1.3, "the rows must not touch"
    fields: dict[str, str] = {}
    for label, value, name in rows:
        used = card.text(x, y, label, size, ink, face)
        fields[name] = value
        if beside(label, value):
            card.text(x + used + 0.3, y, value, size, ink, value_face)
            y += pitch
            continue
        # too long for its line beside the label: under it, indented, on two lines where one would shrink the print
        y += pitch * 0.85
        card.text(x + 2.0, y, value, size, ink, value_face, max_w_mm=right - x - 2.0, wrap_mm=pitch * 1.7)
        y += pitch * lines_under(value)
    assert y < h - 26.0, "the rows and the price must end above the code"
    price = _price(rng, v)
    used = card.text(x, y + 1.2, pick(rng, ("零售价：", "吊牌价：")), 2.8, ink, face)
    card.text(x + used + 0.5, y + 0.4, price, 4.2, ink, value_face, max_w_mm=right - x - used - 0.5, stroke=1)
    ean_block(card, v.ean13, (w - 38.0) / 2, h - 18.5, 38.0, 10.0, BLACK, value_face)
    fields.update(product_name=v.product_name, price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


def _width(card: Card, text: str, size_mm: float, face: str) -> float:
    return font(face, card.px(size_mm)).getlength(text) / card.px_per_mm


def _two_lines(card: Card, text: str, size_mm: float, face: str, room_mm: float) -> bool:
    """Whether `card.text` sets `text` on two lines in `room_mm` (it would shrink below the smallest print)."""
    width = _width(card, text, size_mm, face)
    return width > room_mm and size_mm * room_mm / width < MIN_PRINT_MM


# -- the size punched in a grid of sizes -----------------------------------------------------------------------

def size_window(size: str, rng: np.random.Generator, n: int = 5) -> tuple[str, ...]:
    """`n` consecutive sizes of the style's run (letters or the GB/T 1335 series) that hold `size`, at a place drawn
    from `rng`, as a pre-printed form lists the sizes a style is cut in."""
    run = size_series(size)
    at = run.index(size) if size in run else 0
    n = min(n, len(run))
    first = int(rng.integers(max(0, at - n + 1), min(at, len(run) - n) + 1))
    return run[first:first + n]


def punched_size(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A horizontal pre-printed 合格证 (108×66 mm): a bordered table, labels in shaded cells; the size row a grid of
    five sizes, each over a printed circle, the garment's punched through (a round hole in the card); the brand, the
    price and the EAN-13 on the right."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    w, h = 108.0, 66.0
    stock = pick(rng, ((255, 255, 255), (250, 249, 244), (244, 246, 248)))
    ink = pick(rng, (BLACK, (28, 40, 90), (120, 30, 34), (30, 70, 50)))
    shade = pick(rng, ((226, 226, 228), (218, 228, 240), (236, 226, 210), (222, 236, 224)))
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(2.0)
    card.hole(w - 6.0, 6.0, 1.9)
    left, label_w, right = 4.0, 17.0, 76.0
    card.text(left, 3.6, pick(rng, ("产品合格证", "合格证", "合 格 证")), 3.6, ink, face, stroke=1)
    price = _price(rng, v)
    rows = [("品名", v.product_name, "product_name"), (pick(rng, ("货号", "款号")), v.style_number, "style_number"),
            ("颜色", v.color, "color"), (pick(rng, ("号型", "尺码", "规格")), v.size, "size"),
            ("成分", v.composition, "composition"), ("等级", v.grade, "grade"),
            ("执行标准", v.standard, "standard"), ("安全类别", v.safety_category, "safety_category")]
    top, pitch, size_pitch = 9.0, 5.6, 9.6
    heights = [size_pitch if name == "size" else pitch for _, _, name in rows]
    bottom = top + sum(heights)
    y = top
    sizes = size_window(v.size, rng)
    for (label, value, name), rh in zip(rows, heights):
        card.rect((left, y, left + label_w, y + rh), fill=shade)
        card.text(left + 1.2, y + (rh - 2.7) / 2 - 0.2, label, 2.7, ink, face, max_w_mm=label_w - 2.4)
        if name == "size":
            _size_grid(card, rng, sizes, value, left + label_w, y, right, rh, ink, value_face)
        else:
            card.text(left + label_w + 1.5, y + (pitch - 2.9) / 2 - 0.2, value, 2.9, ink, value_face,
                      max_w_mm=right - left - label_w - 3.0)
        y += rh
    line = pick(rng, (0.2, 0.3))
    card.rect((left, top, right, bottom), outline=ink, width_mm=line)
    y = top
    for rh in heights[:-1]:
        y += rh
        card.line(left, y, right, y, ink, line * 0.7)
    card.line(left + label_w, top, left + label_w, bottom, ink, line * 0.7)
    px = (right + w) / 2 - 1.0
    card.text(px, 12.0, v.brand, 5.4, ink, face, anchor="ma", max_w_mm=w - right - 6.0, stroke=1)
    card.text(px, 22.0, pick(rng, ("零售价", "吊牌价", "统一零售价")), 2.8, ink, face, anchor="ma")
    card.text(px, 26.5, price, 4.4, ink, value_face, anchor="ma", max_w_mm=w - right - 4.0, stroke=1)
    ean_block(card, v.ean13, right + 2.5, h - 24.0, w - right - 6.0, 10.0, BLACK, value_face)
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


def _size_grid(card: Card, rng: np.random.Generator, sizes: tuple[str, ...], marked: str, x0: float, y0: float,
               x1: float, height: float, ink: Color, face: str) -> None:
    """The sizes in cells across the row, each under a printed circle; the marked size's circle punched out."""
    cell = (x1 - x0) / len(sizes)
    ring_r, punch_r = 1.7, pick(rng, (1.2, 1.35, 1.5))
    for k, s in enumerate(sizes):
        cx = x0 + cell * (k + 0.5)
        if k:
            card.line(x0 + cell * k, y0, x0 + cell * k, y0 + height, ink, 0.12)
        cy = y0 + 2.9
        card.draw.ellipse((card.px(cx - ring_r), card.px(cy - ring_r), card.px(cx + ring_r), card.px(cy + ring_r)),
                          outline=ink, width=max(1, card.px(0.18)))
        card.text(cx, y0 + 5.4, s, 2.5, ink, face, anchor="ma", max_w_mm=cell - 0.8)
        if s == marked:
            jitter = rng.uniform(-0.35, 0.35, 2)
            x, y, r = card.px(cx + jitter[0]), card.px(cy + jitter[1]), card.px(punch_r)
            ImageDraw.Draw(card.mask).ellipse((x - r, y - r, x + r, y + r), fill=0)


# -- the fields run on as one paragraph ------------------------------------------------------------------------

def paragraph_lines(pieces: list[tuple[str, bool]], room: float, width) -> list[str]:
    """Lines of a run-on paragraph, filled greedily: `pieces` are (text, may_break_before); a line breaks only
    before a piece that may break, and never before the first one. `width(text)` measures in the room's unit."""
    lines: list[str] = []
    line = ""
    for text, may_break in pieces:
        if line and may_break and width((line + text).rstrip()) > room:
            lines.append(line.rstrip())
            line = text.lstrip()
        else:
            line += text
    if line.strip():
        lines.append(line.rstrip())
    return lines


def run_on_text(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A small tag (52×96 mm): the brand, then every field in one paragraph wrapped where the line is full (breaks at
    a space, after a label's colon, or between fields), the price large under it, the EAN-13 at the foot."""
    rng = np.random.default_rng(style_seed)
    face = pick(rng, font_names())
    w, h = 52.0, 96.0
    stock = pick(rng, ((255, 255, 255), (248, 246, 240), (238, 240, 242), (246, 236, 222)))
    ink = pick(rng, (BLACK, (40, 40, 44), (30, 42, 80)))
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 1.8)
    card.rounded(pick(rng, (2.0, 3.0)))
    card.hole(w / 2, 5.5, 1.8)
    card.text(w / 2, 10.5, v.brand, 6.0, ink, face, anchor="ma", max_w_mm=w - 12.0, stroke=1)
    colon = pick(rng, ("：", "：", ":"))
    gap = pick(rng, ("  ", "　", "；", "，"))
    fields_in_order = [("品名", v.product_name, "product_name"), (pick(rng, ("货号", "款号")), v.style_number, "style_number"),
                       ("颜色", v.color, "color"), (pick(rng, ("号型", "尺码")), v.size, "size"),
                       ("成分", v.composition, "composition"), ("等级", v.grade, "grade"),
                       ("执行标准", v.standard, "standard"), ("安全类别", v.safety_category, "safety_category")]
    pieces: list[tuple[str, bool]] = []
    for k, (label, value, _) in enumerate(fields_in_order):
        sep = gap if k < len(fields_in_order) - 1 else ""
        pieces.append((label + colon, True))
        words = value.split(" ")
        for j, word in enumerate(words):
            tail = " " if j < len(words) - 1 else sep
            pieces.append((word + tail, True))
    x, room = 4.0, w - 8.0
    size = pick(rng, (3.0, 3.2))
    f = font(face, card.px(size))
    lines = paragraph_lines(pieces, room, lambda t: f.getlength(t) / px_per_mm)
    pitch = size * pick(rng, (1.4, 1.55))
    y = 18.0
    for line in lines:
        card.text(x, y, line, size, ink, face, max_w_mm=room)
        y += pitch
    price = _price(rng, v)
    used = card.text(x, y + 2.2, pick(rng, ("零售价：", "吊牌价：", "售价：")), 3.0, ink, face)
    card.text(x + used + 0.5, y + 1.2, price, 4.8, ink, face, max_w_mm=room - used - 0.5, stroke=1)
    assert y + 9.0 < h - 18.0, "the paragraph and the price must end above the code"
    ean_block(card, v.ean13, (w - 38.0) / 2, h - 17.0, 38.0, 10.0, BLACK, face)
    fields = {name: value for _, value, name in fields_in_order}
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)
