"""Three designs added on 2026-12-05 (twenty-sixth session), after the reader had been developed while looking at the
sixty-seven in `designs`: a fresh yardstick nobody tuned for. Each is a **print process** Chinese tag printers use
that changes how the characters look, drawn as the process lays ink down (a fine raster of the plate or screen, then
seen at the frame's scale), not as a filter over the finished card:

- `reverse_cells`: a two-colour offset 合格证 whose **labels are reversed out of solid cells** (反白: the paper shows
  through the form's ink) down a solid label column parted by white hairlines, each value in **dark ink in a ruled
  white cell beside it**; the labels in a sans, as reversed small type is set, the solid's ink spreading into their
  strokes (dot gain: a white stroke narrows by 0.04–0.1 mm; the solid faintly mottled), and the value plate **off
  register** against the form (0.15–0.6 mm across, −0.3…+0.4 mm down), so values sit off their cells' centre lines
  and may touch a rule;
- `halftone_photo`: a brand tag printed **over a faint halftone photograph** (a lifestyle scene screened at 65–110
  lines per inch in one or two inks, round dots at 45° or 15°/75°, 25–50 % coverage at most), the fields in dark ink
  over the dots (the code on a clear white zone, as designers keep it); at the frame's scale the screen turns into a
  grainy, moiré-prone tint behind every character;
- `letterpress`: a 合格证 on **thick cotton card printed letterpress** in one ink: every stroke **bitten into the
  card** (a deboss lit from the lamp's side: a bright rim on one edge, a shadow on the other), the **ink uneven**
  (squeezed to the strokes' edges, thinner and salted with the card's grain inside, denser where the roller was
  fresh), the code on a white sticker stuck at the foot.

Fields as in `designs`, values from `values`, printed exactly as `fields` says (a long value wrapped between its units
keeps its words, so truth is the recipe's). Faces are `fonts` faces only. Nothing here changes the scene or any older
design.
"""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image, ImageDraw

from training.tagsets.canvas import Card, Color, SymbolArt, TagArt
from training.tagsets.eighth_designs import width_mm
from training.tagsets.fonts import font_names
from training.tagsets.layout import BLACK, ean_block, money, pick
from training.tagsets.seventeenth_designs import unit_lines
from training.tagsets.values import TagValues

WHITE: Color = (255, 255, 255)
FINE_PX_PER_MM = 16.0  # plates and screens are drawn at 16 px/mm at least, then seen at the frame's scale
SANS_FACES = ("wqy-microhei", "wqy-zenhei")


def _layer(w: float, h: float, fine: float) -> Card:
    """A coverage layer: print drawn in white on black is where the plate carries ink."""
    return Card(w, h, fine, (0, 0, 0))


def _coverage(layer: Card) -> np.ndarray:
    return np.asarray(layer.image, np.float32)[..., 0] / 255.0


def _seen(pixels: np.ndarray, card: Card) -> None:
    """`pixels` (RGB float at a finer scale) become `card`'s image, averaged by area as a sensor sees print."""
    w, h = card.image.size
    card.image = Image.fromarray(np.clip(cv2.resize(pixels, (w, h), interpolation=cv2.INTER_AREA) + 0.5, 0,
                                         255).astype(np.uint8))
    card.draw = ImageDraw.Draw(card.image)


def _printed(base: np.ndarray, cover: np.ndarray, ink: Color) -> np.ndarray:
    """Transparent process ink over `base`: each pixel takes `cover` of the ink's filter (multiplied, as ink on
    paper or on another ink)."""
    filt = np.asarray(ink, np.float32) / 255.0
    return base * (1.0 - cover[..., None] * (1.0 - filt))


def _value_lines(layer: Card, value: str, size: float, face: str, room: float) -> list[str]:
    """`value` on one line when it fits `room` at `size`, else on as many as it needs, cut between its units."""
    if width_mm(layer, value, size, face) <= room:
        return [value]
    return unit_lines(value, room, lambda t: width_mm(layer, t, size, face))


def _field_rows(v: TagValues, rng: np.random.Generator) -> list[tuple[str, str, str]]:
    return [("品名", v.product_name, "product_name"), (pick(rng, ("货号", "款号")), v.style_number, "style_number"),
            (pick(rng, ("颜色", "色号")), v.color, "color"), (pick(rng, ("号型", "规格", "尺码")), v.size, "size"),
            (pick(rng, ("成分", "面料")), v.composition, "composition"), ("等级", v.grade, "grade"),
            ("执行标准", v.standard, "standard"), (pick(rng, ("安全类别", "安全技术类别")), v.safety_category,
                                                   "safety_category")]


def _colon_rows(layer: Card, x: float, y: float, right: float, rows, size: float, pitch: float, face: str,
                value_face: str, colon: str) -> tuple[dict[str, str], float]:
    """Colon rows into a coverage layer; a value too long for its line goes on under it, cut between its units and
    set in line with the value above. Returns the fields as printed and the next row's top."""
    fields: dict[str, str] = {}
    for label, value, name in rows:
        used = layer.text(x, y, label + colon, size, WHITE, face)
        vx = x + used + 0.4
        lines = _value_lines(layer, value, size, value_face, right - vx)
        for k, line in enumerate(lines):
            layer.text(vx, y + 1.12 * size * k, line, size, WHITE, value_face, max_w_mm=right - vx)
        fields[name] = " ".join(lines)
        y += pitch + 1.12 * size * (len(lines) - 1)
    return fields, y


# -- labels reversed out of solid cells, values off register -----------------------------------------------------

def spread(solid: np.ndarray, px: float) -> np.ndarray:
    """A solid's ink spread by `px` pixels (fractional) into what is reversed out of it, as dot gain chokes reversed
    type: every white stroke narrows by about twice `px`."""
    whole = int(px)
    grown = [cv2.dilate(solid, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1)))
             if r else solid for r in (whole, whole + 1)]
    part = px - whole
    return (1 - part) * grown[0] + part * grown[1]


def reverse_cells(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical two-colour 合格证 (58×106 mm): the form plate prints a solid label column in the form's ink with
    every label reversed out of it (and the brand out of a solid head band), the values' cells ruled; the value
    plate prints the values, the price and the EAN-13 in dark ink, off register against the form."""
    rng = np.random.default_rng(style_seed)
    # reversed small type is set in a sans (a Ming face's hairlines fill in under the solid's ink); values in any face
    face, value_face = pick(rng, SANS_FACES), pick(rng, font_names())
    form_ink = pick(rng, ((28, 44, 96), (24, 24, 28), (168, 30, 38), (22, 84, 58), (92, 52, 30)))
    stock = pick(rng, ((255, 255, 255), (250, 249, 244), (246, 246, 242)))
    w, h = 58.0, 106.0
    fine = max(px_per_mm, FINE_PX_PER_MM)
    form, values = _layer(w, h, fine), _layer(w, h, fine)
    card = Card(w, h, px_per_mm, stock)
    card.rounded(pick(rng, (1.5, 2.5)))
    card.hole(w / 2, 5.0, 1.8)
    form.rect((3.0, 9.0, w - 3.0, 19.0), fill=WHITE)  # the head band, the brand reversed out of it
    form.text(w / 2, 10.6, v.brand, 5.4, (0, 0, 0), face, anchor="ma", max_w_mm=w - 12, stroke=1)
    title = pick(rng, ("合格证", "产品合格证"))
    form.text(w / 2, 20.6, title, 3.0, WHITE, face, anchor="ma")
    label_w = pick(rng, (16.5, 18.0, 19.5))
    size, gap = 2.8, 0.35
    x0, x1, right = 3.0, 3.0 + label_w, w - 3.0
    rows = _field_rows(v, rng)
    money_form = pick(rng, ("yen", "yen", "yuan", "yen_spaced", "rmb"))
    price = money(v.price, money_form)
    rows.append((pick(rng, ("零售价", "吊牌价", "统一零售价")), price, "price"))
    dx, dy = float(rng.uniform(0.15, 0.6)) * pick(rng, (-1, 1)), float(rng.uniform(-0.3, 0.4))
    fields: dict[str, str] = {}
    y = 25.0
    for label, value, name in rows:
        is_price = name == "price"
        vsize = 4.2 if is_price else size
        lines = _value_lines(values, value, vsize, value_face, right - x1 - 2.0)
        cell_h = max(5.0, 1.6 + 1.12 * vsize * len(lines)) + (0.8 if is_price else 0.0)
        form.rect((x0, y, x1, y + cell_h - gap), fill=WHITE)  # the solid label cell
        form.rect((x1, y, right, y + cell_h - gap), outline=WHITE, width_mm=0.2)  # the value's ruled cell
        lsize = 2.6 if len(label) <= 4 else 2.3
        form.text(x0 + 1.0, y + (cell_h - gap - lsize) / 2, label, lsize, (0, 0, 0), face,
                  max_w_mm=label_w - 1.6)
        top = y + (cell_h - gap - 1.12 * vsize * len(lines)) / 2 + 0.1 * vsize
        for k, line in enumerate(lines):
            values.text(x1 + 1.2 + dx, top + dy + 1.12 * vsize * k, line, vsize, WHITE, value_face,
                        max_w_mm=right - x1 - 2.0, stroke=1 if is_price else 0)
        fields[name] = " ".join(lines)
        y += cell_h
    code_y = y + 2.5
    ean_block(values, v.ean13, 9.0 + dx, code_y + dy, w - 18.0, min(11.0, h - code_y - 5.0), WHITE, value_face)
    solid = _coverage(form)
    solid = spread(solid, float(rng.uniform(0.02, 0.05)) * fine)
    mottle = cv2.resize(rng.normal(0, 1, (int(h) + 1, int(w) + 1)).astype(np.float32), solid.shape[::-1],
                        interpolation=cv2.INTER_CUBIC)
    solid = solid * (0.97 + 0.015 * mottle).clip(0.92, 1.0)
    base = np.full(solid.shape + (3,), stock, np.float32)
    base = _printed(base, solid, form_ink)
    shifted = _coverage(values)
    base = _printed(base, shifted, (20, 20, 24))
    _seen(base, card)
    card.smallest_print_px = min(form.smallest_print_px, values.smallest_print_px) * px_per_mm / fine
    scale = px_per_mm / fine
    card.barcodes = [SymbolArt(c.format, c.text, tuple(b * scale for b in c.box)) for c in values.barcodes]
    fields.update(brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


# -- a tag printed over a faint halftone photograph ---------------------------------------------------------------

def scene_tone(w_px: int, h_px: int, rng: np.random.Generator) -> np.ndarray:
    """A lifestyle photograph's tones (0 paper … 1 solid), smooth as a photograph is: a sky graded to a horizon,
    hills or dunes in layers, a figure's soft silhouette standing in front, leaves or fabric folds as soft shapes."""
    ys, xs = np.mgrid[0:h_px, 0:w_px].astype(np.float32)
    u, t = xs / max(w_px, 1), ys / max(h_px, 1)
    tone = 0.15 + 0.35 * t  # the sky darkens towards the ground
    for layer in range(int(rng.integers(2, 4))):
        a = rng.uniform(0.03, 0.08, 3)
        f = rng.uniform(1.0, 5.0, 3)
        p = rng.uniform(0, 2 * np.pi, 3)
        ridge = rng.uniform(0.3, 0.75) + sum(a[k] * np.sin(2 * np.pi * f[k] * u + p[k]) for k in range(3))
        shade = rng.uniform(0.35, 0.85)
        tone = np.where(t > ridge, np.maximum(tone, shade - 0.2 * (t - ridge)), tone)
    cx, cy = rng.uniform(0.3, 0.7), rng.uniform(0.35, 0.6)
    head = ((u - cx) / 0.07) ** 2 + ((t - cy + 0.17) / 0.045) ** 2
    body = ((u - cx) / 0.13) ** 2 + ((t - cy - 0.05) / 0.18) ** 2
    figure = np.clip(1.4 - np.minimum(head, body), 0, 1)
    tone = np.maximum(tone, figure * rng.uniform(0.7, 1.0))
    for _ in range(int(rng.integers(4, 9))):  # leaves in the foreground
        lx, ly, r = rng.uniform(0, 1), rng.uniform(0, 1), rng.uniform(0.04, 0.12)
        leaf = np.exp(-(((u - lx) / r) ** 2 + ((t - ly) / (r * 0.5)) ** 2))
        tone = np.maximum(tone, leaf * rng.uniform(0.5, 0.9))
    k = max(3, int(min(w_px, h_px) * 0.01) | 1)
    return cv2.GaussianBlur(tone.astype(np.float32), (k, k), 0).clip(0, 1)


def halftone(tone: np.ndarray, fine: float, lpi: float, angle_deg: float, rng: np.random.Generator) -> np.ndarray:
    """AM halftone coverage (0…1) of `tone` at `fine` px/mm: round dots on a screen of `lpi` lines per inch turned
    `angle_deg`, each the size the tone there asks for (the dot's area grows with the tone); the edges anti-aliased
    over a pixel, and the plate's dots a little ragged."""
    h, w = tone.shape
    pitch = 25.4 / lpi * fine
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    a = np.deg2rad(angle_deg)
    uu = (xs * np.cos(a) + ys * np.sin(a)) / pitch
    vv = (-xs * np.sin(a) + ys * np.cos(a)) / pitch
    spot = 0.5 * (np.cos(2 * np.pi * uu) + np.cos(2 * np.pi * vv))  # 1 at a dot's centre, -1 between four
    rag = rng.normal(0, 0.04, tone.shape).astype(np.float32)
    threshold = 1.0 - 2.0 * tone
    edge = 2.0 * 2.0 * np.pi / pitch  # the spot function's slope across a pixel near a dot's edge
    return np.clip((spot + rag - threshold) * edge / 2.0 + 0.5, 0, 1)


def halftone_photo(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical brand tag (56×100 mm) printed over a faint halftone photograph in one or two screened inks; the
    brand and colon rows in dark ink over the screen; the price large; the EAN-13 on a clear white zone."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    w, h = 56.0, 100.0
    fine = max(px_per_mm, FINE_PX_PER_MM)
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (250, 248, 242))))
    card.rounded(pick(rng, (2.0, 3.0)))
    card.hole(w / 2, 5.5, 1.8)
    inks = pick(rng, (((110, 130, 160),), ((150, 120, 100),), ((120, 120, 124),), ((60, 160, 200), (220, 90, 150)),
                      ((120, 150, 110),), ((90, 170, 220), (230, 200, 60))))
    peak = float(rng.uniform(0.25, 0.5))  # the screen's darkest tone: a faint photograph the print stands out on
    lpi = float(rng.uniform(65, 110))
    text = _layer(w, h, fine)
    ink = pick(rng, (BLACK, (30, 30, 60), (50, 30, 24)))
    text.text(w / 2, 10.0, v.brand, 6.4, WHITE, face, anchor="ma", max_w_mm=w - 14, stroke=1)
    colon = pick(rng, ("：", "： ", " "))
    fields, y = _colon_rows(text, 4.5, 20.0, w - 4.5, _field_rows(v, rng), 2.8, 4.7, face, value_face, colon)
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "yen_spaced", "rmb")))
    used = text.text(4.5, y + 1.6, pick(rng, ("零售价", "吊牌价")) + colon.strip(), 3.0, WHITE, face)
    text.text(4.5 + used + 1.0, y + 0.4, price, 5.0, WHITE, value_face, max_w_mm=w - 10.0 - used, stroke=1)
    code_top = max(y + 8.0, h - 24.0)
    shape = text.image.size[::-1]
    tone = scene_tone(shape[1], shape[0], rng) * peak
    base = np.full(shape + (3,), card.stock, np.float32)
    angles = (45.0,) if len(inks) == 1 else (15.0, 75.0)
    for screen_ink, angle in zip(inks, angles):
        # a second ink's separation is the photograph's tones weighted a little otherwise (±15 %), as a duotone's are
        shift = rng.uniform(-0.15, 0.15) if screen_ink is not inks[0] else 0.0
        cover = halftone(np.clip(tone + shift * tone, 0, 1), fine, lpi, angle, rng)
        base = _printed(base, cover, screen_ink)
    clear = (int(6.0 * fine), int(code_top * fine), int((w - 6.0) * fine), int((code_top + 17.0) * fine))
    base[clear[1]:clear[3], clear[0]:clear[2]] = card.stock  # the code's clear zone: no screen under the bars
    base = _printed(base, _coverage(text), ink)
    _seen(base, card)
    card.smallest_print_px = text.smallest_print_px * px_per_mm / fine
    ean_block(card, v.ean13, 9.0, code_top + 2.0, w - 18.0, 10.5, ink, value_face)
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


# -- letterpress on thick cotton card -----------------------------------------------------------------------------

def letterpress_ink(cover: np.ndarray, fine: float, rng: np.random.Generator) -> np.ndarray:
    """How much ink a letterpress form leaves where its type is (`cover`, 0…1): squeezed to each stroke's edges (a
    darker rim), thinner inside and salted where the card's grain stood low, and denser where the roller was fresh
    (a slow gradient across the form). Never under 0.55 of a full film inside a stroke but in the salt's specks."""
    h, w = cover.shape
    rim = cover - cv2.erode(cover, np.ones((3, 3), np.uint8), iterations=max(1, int(round(0.08 * fine))))
    grain = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), max(0.6, 0.05 * fine))
    grain /= max(float(grain.std()), 1e-6)
    salt = (grain < -1.1).astype(np.float32)  # low spots of the card the ink never reached
    angle = rng.uniform(0, np.pi)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    fresh = 0.5 + 0.5 * np.cos((xs * np.cos(angle) + ys * np.sin(angle)) / max(w, h) * np.pi)
    film = rng.uniform(0.56, 0.68) + rng.uniform(0.14, 0.26) * fresh + 0.08 * grain.clip(-1, 1)
    film = np.where(salt > 0, film * 0.45, film).clip(0.3, 1.0)
    return np.clip(cover * np.maximum(film, 0.55 * (1 - salt)) + rim * 0.35, 0, 1)


def debossed(base: np.ndarray, cover: np.ndarray, fine: float, depth: float, light_deg: float) -> np.ndarray:
    """The type's bite into the card seen under a lamp at `light_deg`: the card sinks under the strokes (a depth
    blurred by the card's give), the slope facing the lamp brightens, the one turned away darkens."""
    sink = cv2.GaussianBlur(cover, (0, 0), max(0.7, 0.09 * fine))
    gy, gx = np.gradient(sink)
    a = np.deg2rad(light_deg)
    slope = (gx * np.cos(a) + gy * np.sin(a)) * fine * 0.25  # the gradient per mm, a quarter of it
    light = 1.0 + depth * slope.clip(-1.0, 1.0)
    return base * light[..., None]


def letterpress(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical 合格证 (54×96 mm) on thick cotton card, printed letterpress in one ink: the brand, a rule, colon
    rows and the price bitten into the card with uneven ink; the EAN-13 on a white sticker at the foot."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    w, h = 54.0, 96.0
    fine = max(px_per_mm, FINE_PX_PER_MM)
    stock = pick(rng, ((246, 242, 230), (250, 249, 244), (232, 230, 226), (238, 228, 210)))
    ink = pick(rng, ((26, 26, 30), (30, 42, 84), (96, 28, 34), (34, 66, 48)))
    card = Card(w, h, px_per_mm, stock)
    card.rounded(pick(rng, (1.5, 3.0)))
    card.hole(w / 2, 5.5, 2.0)
    form = _layer(w, h, fine)
    form.text(w / 2, 10.0, v.brand, 6.2, WHITE, face, anchor="ma", max_w_mm=w - 14, stroke=1)
    form.line(8.0, 19.0, w - 8.0, 19.0, WHITE, 0.35)
    colon = pick(rng, ("：", "： "))
    fields, y = _colon_rows(form, 4.5, 22.0, w - 4.5, _field_rows(v, rng), 2.9, 4.8, face, value_face, colon)
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "yen_spaced")))
    used = form.text(4.5, y + 1.4, pick(rng, ("零售价：", "吊牌价：")), 3.0, WHITE, face)
    form.text(4.5 + used + 0.8, y + 0.3, price, 4.8, WHITE, value_face, max_w_mm=w - 9.8 - used, stroke=1)
    cover = _coverage(form)
    shape = cover.shape
    grain = cv2.resize(rng.normal(0, 2.4, (shape[0] // 3 + 1, shape[1] // 3 + 1)).astype(np.float32),
                       shape[::-1], interpolation=cv2.INTER_LINEAR)  # the cotton card's felt
    base = np.full(shape + (3,), stock, np.float32) + grain[..., None]
    base = debossed(base, cover, fine, float(rng.uniform(0.08, 0.16)), float(rng.uniform(0, 360)))
    base = _printed(base, letterpress_ink(cover, fine, rng), ink)
    _seen(base, card)
    card.smallest_print_px = form.smallest_print_px * px_per_mm / fine
    sticker = Card(40.0, 17.5, px_per_mm, pick(rng, ((255, 255, 255), (250, 250, 246))))
    sticker.rounded(1.0)
    ean_block(sticker, v.ean13, 3.5, 1.8, 33.0, 10.5, BLACK, value_face)
    card.stick(sticker, w / 2 + float(rng.uniform(-1.0, 1.0)), min(max(y + 17.0, h - 14.0), h - 10.5),
               float(rng.uniform(0.5, 2.5)) * pick(rng, (-1, 1)))
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)
