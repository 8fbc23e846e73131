"""Three designs added on 2026-12-05 (twenty-third session), after the reader had been developed while looking at the
forty-nine in `designs` and the batches after it: a fresh yardstick nobody tuned for.

Each is a common sight on Chinese garment tags that the forty-nine do not show:

- `fullwidth_print`: a tag typeset as Chinese text is, **every digit and Latin letter in its full-width form**
  (`１７０／９２Ａ`, `ＧＢ／Ｔ　２６６４－２０１７`, `棉　９５％`, `￥３９９．００`), the spaces ideographic or plain;
  truth's `fields` keep the full-width print, its `values` the recipe's (NFKC) form;
- `correction_sticker`: a printed tag whose size or price was **corrected by a small white sticker** pasted over
  the printed value, reprinting the right one; the old value's edges peek out round it (a sliver above or below,
  the end of its last character, the corners of a sticker stuck askew). Truth is the sticker's value;
- `hung_upside_down`: a vertical tag **hung or photographed upside down**: the writer turns the whole card a half
  turn in the frame (150–210° with the scene's own tilt), so its hole is at the bottom and every line reads
  right to left, top down.

Fields as in `designs`, values from `values`, printed exactly as `fields` says. Faces are `fonts` faces only.
Nothing here changes the scene or any older design.
"""

from __future__ import annotations

import numpy as np

from training.tagsets.canvas import Card, Color, TagArt
from training.tagsets.eighth_designs import width_mm
from training.tagsets.fonts import font, font_names, latin_font_names
from training.tagsets.layout import BLACK, ean_block, money, pick
from training.tagsets.seventh_designs import units_in_lines
from training.tagsets.values import PRICES, TagValues, neighbour_size

IDEOGRAPHIC_SPACE = "\u3000"


def fullwidth(text: str, space: str = IDEOGRAPHIC_SPACE) -> str:
    """`text` with every ASCII letter, digit and sign in its full-width form (U+FF01…FF5E), ¥ as ￥ and a space as
    `space`: what NFKC folds back to `text`."""
    out = []
    for ch in text:
        if ch == " ":
            out.append(space)
        elif ch == "¥":
            out.append("￥")
        elif "!" <= ch <= "~":
            out.append(chr(ord(ch) + 0xFEE0))
        else:
            out.append(ch)
    return "".join(out)


def _field_rows(v: TagValues, rng: np.random.Generator) -> list[tuple[str, str, str]]:
    return [("品名：", v.product_name, "product_name"), (pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
            (pick(rng, ("颜色：", "色号：")), v.color, "color"), (pick(rng, ("号型：", "规格：", "尺码：")), v.size, "size"),
            (pick(rng, ("成分：", "面料成分：")), v.composition, "composition"), ("等级：", v.grade, "grade"),
            ("执行标准：", v.standard, "standard"),
            (pick(rng, ("安全类别：", "安全技术类别：")), v.safety_category, "safety_category")]


# -- every digit and letter full-width ------------------------------------------------------------------------------

def fullwidth_print(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical 合格证 (58×110 mm) set as Chinese text: colon rows whose values print every digit and Latin letter
    full-width; a value too wide for its line goes on the line under its label (a fibre content split between its
    units); the price `￥３９９．００` / `３９９．００元` / `￥３９９元`; the EAN-13 with its digits plain or full-width."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (30, 34, 62), (48, 40, 36)))
    label_ink = pick(rng, (ink, ink, (100, 100, 104)))
    space = pick(rng, (IDEOGRAPHIC_SPACE, IDEOGRAPHIC_SPACE, " "))
    w, h = 58.0, 110.0
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (250, 249, 243), (244, 241, 232))))
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (2.0, 3.0)))
    card.hole(w / 2, 5.5, 1.8, ring=pick(rng, (None, (214, 212, 206))))
    brand = fullwidth(v.brand, space) if v.brand.isascii() else v.brand
    card.text(w / 2, 10.0, brand, 6.0, ink, face, anchor="ma", max_w_mm=46, stroke=1)
    card.text(w / 2, 17.0, pick(rng, ("合格证", "产品合格证")), 3.0, ink, face, anchor="ma")
    card.line(5, 21.4, w - 5, 21.4, ink, 0.2)
    size, pitch, x, right = 2.6, 4.4, 5.0, w - 5.0
    fields: dict[str, str] = {}
    y = 23.6
    for label, value, name in _field_rows(v, rng):
        used = card.text(x, y, label, size, label_ink, face)
        room = right - x - used - 0.5
        printed = fullwidth(value, space)
        if width_mm(card, printed, size, value_face) > room:  # under its label, split between units if need be
            y, used, room = y + pitch - 0.4, 2.0 * size - 0.5, right - x - 2.0 * size
        lines = units_in_lines(value, room, lambda t: width_mm(card, fullwidth(t, space), size, value_face))
        for k, line in enumerate(lines):
            card.text(x + used + 0.5, y + 3.4 * k, fullwidth(line, space), size, ink, value_face, max_w_mm=room)
        fields[name] = fullwidth(" ".join(lines), space)
        y += pitch + 3.4 * (len(lines) - 1)
    units, cents = v.price.split(".")
    form = pick(rng, ("yen", "yen", "yuan_cents", "yuan"))
    price = {"yen": f"¥{v.price}", "yuan_cents": f"{v.price}元",
             "yuan": f"¥{units}元" if cents == "00" else f"¥{v.price}"}[form]
    price = fullwidth(price, space)
    used = card.text(x, y + 1.0, pick(rng, ("零售价：", "吊牌价：", "统一零售价：")), 3.0, label_ink, face)
    card.text(x + used + 0.6, y, price, 4.4, ink, value_face, max_w_mm=right - x - used - 0.6, stroke=1)
    top = max(y + 7.5, 88.0)
    code_h = min(9.5, h - 5.0 - top)
    card.linear_code(v.ean13, "EAN-13", 10, top, 38, code_h, ink)
    digits = f"{v.ean13[0]} {v.ean13[1:7]} {v.ean13[7:]}"
    if rng.random() < 0.5:
        card.text(w / 2, top + code_h + 0.5, fullwidth(digits, " "), 2.4, ink, value_face, anchor="ma", max_w_mm=44)
    else:
        card.text(w / 2, top + code_h + 0.6, digits, 38 / 11.5, ink, value_face, anchor="ma")
    fields.update(price=price, brand=brand, ean13=v.ean13)
    return card.finish(fields)


# -- a correction sticker over one printed value --------------------------------------------------------------------

def _ink_box(card: Card, x_mm: float, y_mm: float, text: str, size_mm: float, face: str) -> tuple[float, ...]:
    """The box (mm) the ink of `text` covers when printed from (x, y) with the canvas' default anchor."""
    left, top, right, bottom = font(face, card.px(size_mm)).getbbox(text, anchor="la")
    s = card.px_per_mm
    return (card.px(x_mm) + left) / s, (card.px(y_mm) + top) / s, (card.px(x_mm) + right) / s, (card.px(y_mm) + bottom) / s


def _old_value(rng: np.random.Generator, name: str, v: TagValues) -> str:
    """What the tag was printed with before the correction: another size of the same system, another price."""
    if name == "size":
        return neighbour_size(rng, v.size)
    return pick(rng, tuple(p for p in PRICES if p != v.price))


def _sticker(old_box: tuple[float, ...], value: str, px_per_mm: float, rng: np.random.Generator, face: str,
             ink: Color, max_size_mm: float) -> tuple[Card, float, float]:
    """A white correction label covering `old_box` but for a sliver of the old ink on one side (above, below or
    at the end), the new value centred on it; the label and its centre (mm)."""
    x0, y0, x1, y1 = old_box
    peek = float(rng.uniform(0.15, 0.3))
    side = pick(rng, ("top", "bottom", "end", "none"))
    top, bottom = y0 - 0.45 + (peek + 0.45 if side == "top" else 0.0), y1 + 0.45 - (peek + 0.45 if side == "bottom" else 0.0)
    left, right = x0 - 0.7, x1 + 0.7 - (peek + 0.7 if side == "end" else 0.0)
    probe = Card(1.0, 1.0, px_per_mm, (255, 255, 255))
    size = max_size_mm
    while size > 2.0:
        bx = _ink_box(probe, 0, 0, value, size, face)
        if bx[3] - bx[1] <= (bottom - top) - 0.5 or size * 0.9 <= 2.0:
            break
        size *= 0.95
    bx = _ink_box(probe, 0, 0, value, size, face)
    ink_w, ink_h = bx[2] - bx[0], bx[3] - bx[1]
    width = max(right - left, ink_w + 1.4)
    height = max(bottom - top, ink_h + 0.6)
    if width > right - left:  # a longer value: the label grows past the old print's far end
        right = left + width
    stock = pick(rng, ((255, 255, 255), (252, 252, 250), (248, 248, 244)))
    sticker = Card(width, height, px_per_mm, stock)
    sticker.texture(np.random.default_rng(int(rng.integers(2**31))), 1.0)
    sticker.rounded(pick(rng, (0.3, 0.6, 1.0)))
    above_baseline = -font(face, sticker.px(size)).getbbox(value, anchor="ls")[1] / px_per_mm
    sticker.text((width - ink_w) / 2 - bx[0], (height - ink_h) / 2 + above_baseline, value, size, ink, face, anchor="ls")
    return sticker, (left + right) / 2, (top + bottom) / 2


def correction_sticker(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical tag (54×100 mm), colon rows, the size (printed large) or the price printed with an old value and
    corrected by a small white sticker that reprints the right one over it; the EAN-13."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (36, 36, 40), (28, 40, 72)))
    w, h = 54.0, 100.0
    card = Card(w, h, px_per_mm, pick(rng, ((250, 250, 246), (240, 236, 226), (232, 236, 240), (255, 255, 255))))
    card.texture(np.random.default_rng(style_seed + 1), 1.8)
    card.rounded(pick(rng, (2.0, 3.5)))
    card.hole(w / 2, 6.0, 1.8)
    card.text(w / 2, 11.0, v.brand, 6.2, ink, face, anchor="ma", max_w_mm=42, stroke=1)
    card.line(5, 19.6, w - 5, 19.6, ink, 0.22)
    corrected = pick(rng, ("size", "price"))
    old = _old_value(rng, corrected, v)
    latin_faces = tuple(n for n in latin_font_names() if "Serif" not in n)
    sticker_ink = pick(rng, (BLACK, BLACK, (20, 20, 20), (40, 40, 90)))
    size, pitch, x, right = 2.7, 4.6, 5.0, w - 5.0
    fields: dict[str, str] = {}
    y = 22.5
    patch: tuple[tuple[float, ...], str, float] | None = None
    for label, value, name in _field_rows(v, rng):
        used = card.text(x, y, label, size, ink, face)
        room = right - x - used - 0.5
        value_size = 3.4 if name == "size" else size
        dy = -(value_size - size) * 0.6
        if name == "size" and corrected == "size":
            card.text(x + used + 0.5, y + dy, old, value_size, ink, value_face, stroke=1)
            patch = (_ink_box(card, x + used + 0.5, y + dy, old, value_size, value_face), v.size, value_size)
            fields[name] = v.size
        else:
            lines = units_in_lines(value, room, lambda t, s=value_size: width_mm(card, t, s, value_face))
            for k, line in enumerate(lines):
                card.text(x + used + 0.5, y + dy + 3.5 * k, line, value_size, ink, value_face, max_w_mm=room,
                          stroke=1 if name == "size" else 0)
            fields[name] = " ".join(lines)
            y += 3.5 * (len(lines) - 1)
        y += pitch + (0.6 if name == "size" else 0.0)
    form = pick(rng, ("yen", "yen", "yuan", "rmb"))
    used = card.text(x, y + 1.0, pick(rng, ("零售价：", "吊牌价：")), 3.0, ink, face)
    px0 = x + used + 0.8
    if corrected == "price":
        old_price = money(old, form)
        card.text(px0, y, old_price, 4.6, ink, value_face, stroke=1)
        price = money(v.price, pick(rng, ("yen", "yen_spaced", form)))
        patch = (_ink_box(card, px0, y, old_price, 4.6, value_face), price, 4.6)
    else:
        price = money(v.price, form)
        card.text(px0, y, price, 4.6, ink, value_face, max_w_mm=right - px0, stroke=1)
    ean_top = max(y + 9.0, 80.0)
    ean_block(card, v.ean13, 8, ean_top, 38, min(10.0, h - 5.0 - ean_top), ink, value_face)
    assert patch is not None
    old_box, new_value, new_size = patch
    latin = all(ord(c) < 256 for c in new_value)  # Liberation has no ￥ or 元
    sticker_face = pick(rng, font_names() + (latin_faces if latin else ()))
    sticker, cx, cy = _sticker(old_box, new_value, px_per_mm, rng, sticker_face, sticker_ink, new_size * 0.92)
    card.stick(sticker, cx + float(rng.uniform(-0.2, 0.2)), cy, float(rng.uniform(-1.8, 1.8)))
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


# -- the whole tag upside down ---------------------------------------------------------------------------------------

def hung_upside_down(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A plain vertical tag (52×98 mm): brand, colon or spaced labels, the price, the EAN-13. Drawn upright; the
    writer turns it a half turn in the frame (`HUNG_UPSIDE_DOWN` in `designs`)."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    stock, ink = pick(rng, (((252, 251, 247), BLACK), ((255, 255, 255), (30, 36, 70)), ((236, 228, 214), (52, 36, 28)),
                            ((226, 232, 236), BLACK)))
    label_ink = pick(rng, (ink, (104, 104, 108)))
    w, h = 52.0, 98.0
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 1.8)
    card.rounded(pick(rng, (2.0, 3.0, 5.0)))
    card.hole(w / 2, 6.0, 1.8, ring=pick(rng, (None, (200, 200, 204))))
    card.text(w / 2, 11.0, v.brand, 6.4, ink, face, anchor="ma", max_w_mm=42, stroke=1)
    card.line(5, 19.8, w - 5, 19.8, ink, 0.22)
    spaced = rng.random() < 0.35
    size, pitch, x, right = 2.7, 4.6, 4.5, w - 4.5
    fields: dict[str, str] = {}
    y = 22.6
    for label, value, name in _field_rows(v, rng):
        label = label.rstrip("：") + " " if spaced else label
        used = card.text(x, y, label, size, label_ink, face)
        room = right - x - used - 0.5
        lines = units_in_lines(value, room, lambda t: width_mm(card, t, size, value_face))
        for k, line in enumerate(lines):
            card.text(x + used + 0.5, y + 3.5 * k, line, size, ink, value_face, max_w_mm=room)
        fields[name] = " ".join(lines)
        y += pitch + 3.5 * (len(lines) - 1)
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "rmb", "yen_spaced")))
    used = card.text(x, y + 1.0, pick(rng, ("零售价：", "吊牌价：", "统一零售价：")), 3.0, label_ink, face)
    card.text(x + used + 0.6, y, price, 4.6, ink, value_face, max_w_mm=right - x - used - 0.6, stroke=1)
    ean_top = max(y + 8.5, 79.0)
    ean_block(card, v.ean13, 7, ean_top, 38, min(10.0, h - 5.0 - ean_top), ink, value_face)
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)
