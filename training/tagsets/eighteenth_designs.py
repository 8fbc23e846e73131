"""Three designs added on 2026-12-05 (twenty-fourth session), after the reader had been developed while looking at the
fifty-five in `designs`: a fresh yardstick nobody tuned for.

Each shows a tag as it is **presented to the camera** on a real packing line, which none of the fifty-five does:

- `polybag_sealed`: the tag still inside the garment's clear PE bag: the film's haze over the whole card, its
  creases (折痕) as thin bright highlights with a dark shoulder, a broad sheen, and the **bag's own print** over the
  tag: the suffocation warning (`警告：请将包装袋远离婴儿及儿童，以免发生窒息危险`, on some bags with its English line)
  and a recycling mark (`04` in chasing arrows over `LDPE`/`PE-LD`), in the bag's blue, black or red ink;
- `held_fingers`: the tag held up by an operator: one or two thumbs (bare skin in four tones, or a blue nitrile or
  white cotton glove) over its edges or corners, each with its nail (or the glove's seam) and a soft shadow; they may
  cover labels and the hole, **never a value's ink (the brand's included) nor the bars or their digits**;
- `foil_stamped`: a dark card (black, navy, bottle green, wine, charcoal) printed in **gold or silver foil**: the
  foil is bright where it catches the lamp and close to the card's own tone elsewhere (a broad band of reflection
  across the card, never less than about 45 levels above the stock), with the foil's grain and the die's
  impression (a dark edge on one side of every stroke); the EAN-13 on a white label stuck at the foot.

Fields as in `designs` (GB/T 29862 fields, GB 18401 安全类别, GB/T 1335 号型, FZ/T 01053 成分), values from `values`,
printed exactly as `fields` says. The bag, the thumbs and the foil's light lie on the card (drawn in its art), so the
hand and the bag beyond the card's edge are not drawn, and the scene and every older design render as before.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from training.tagsets.canvas import Card, Color, TagArt
from training.tagsets.fonts import font_names, latin_font_names
from training.tagsets.layout import BLACK, ean_block, money, pick
from training.tagsets.seventh_designs import cell_shares, field_rows, printed_rows
from training.tagsets.values import TagValues

Box = tuple[float, float, float, float]  # mm: x1, y1, x2, y2

BAG_WARNING = ("警告：请将包装袋远离婴儿", "及儿童，以免发生窒息危险")
BAG_WARNING_EN = "WARNING: KEEP THIS BAG AWAY FROM BABIES AND CHILDREN."


def _blend(card: Card, cover: np.ndarray, colour) -> None:
    """Lay `colour` over the card where `cover` (0..1, card pixels) says, as a film or a glare does."""
    pixels = np.asarray(card.image, np.float32)
    c = cover[..., None]
    card.image = Image.fromarray(np.clip(pixels * (1.0 - c) + np.asarray(colour, np.float32) * c + 0.5, 0,
                                         255).astype(np.uint8))
    card.draw = ImageDraw.Draw(card.image)


def _price_row(card: Card, boxes: dict[str, Box], y: float, price: str, ink: Color, face: str, value_face: str,
               label: str, room: float) -> None:
    used = card.text(5, y + 1.0, label, 3.0, ink, face)
    width = card.text(5 + used + 0.6, y + 0.2, price, 4.4, ink, value_face, max_w_mm=room - used, stroke=1)
    boxes["price"] = (5 + used + 0.6, y + 0.2, 5 + used + 0.6 + width, y + 5.2)


# -- a tag inside a clear polybag ------------------------------------------------------------------------------

def crease_cover(shape: tuple[int, int], px_per_mm: float, start: tuple[float, float], end: tuple[float, float],
                 bow: float, width_mm: float, peak: float) -> tuple[np.ndarray, np.ndarray]:
    """A crease in the film (mm, from `start` to `end`, bowed by `bow`): the glare of its ridge (0..`peak`, a thin
    bright core with a soft fall-off) and the darkening of its shoulder beside it (0..1), card pixels."""
    h, w = shape
    ridge = Image.new("L", (w, h), 0)
    s, e = np.asarray(start), np.asarray(end)
    normal = np.array([-(e - s)[1], (e - s)[0]]) / max(float(np.linalg.norm(e - s)), 1e-6)
    t = np.linspace(0, 1, 40)[:, None]
    mid = (s + e) / 2 + normal * bow
    path = (1 - t) ** 2 * s + 2 * (1 - t) * t * mid + t ** 2 * e
    ImageDraw.Draw(ridge).line([tuple(p * px_per_mm) for p in path], fill=255,
                               width=max(1, int(round(width_mm * px_per_mm))), joint="curve")
    core = np.asarray(ridge.filter(ImageFilter.GaussianBlur(max(0.6, 0.25 * width_mm * px_per_mm))), np.float32) / 255
    halo = np.asarray(ridge.filter(ImageFilter.GaussianBlur(max(1.0, 1.2 * px_per_mm))), np.float32) / 255
    shoulder = Image.new("L", (w, h), 0)
    ImageDraw.Draw(shoulder).line([tuple((p + normal * 0.9 * width_mm) * px_per_mm) for p in path], fill=255,
                                  width=max(1, int(round(0.6 * width_mm * px_per_mm))), joint="curve")
    dark = np.asarray(shoulder.filter(ImageFilter.GaussianBlur(max(0.6, 0.3 * px_per_mm))), np.float32) / 255
    return np.clip(peak * np.minimum(1.0, core * 1.6) + 0.25 * peak * halo, 0.0, peak), dark


def recycling_mark(card: Card, cx: float, cy: float, side: float, ink: Color, face: str, code: str) -> None:
    """The plastics mark (GB/T 16288): three chasing arrows in a triangle round the resin's number, its name under."""
    r = side / np.sqrt(3)
    corners = [(cx + r * np.cos(a), cy + r * np.sin(a)) for a in np.deg2rad((-90, 30, 150))]
    for k in range(3):
        (x1, y1), (x2, y2) = corners[k], corners[(k + 1) % 3]
        a = (x1 + (x2 - x1) * 0.14, y1 + (y2 - y1) * 0.14)
        b = (x1 + (x2 - x1) * 0.8, y1 + (y2 - y1) * 0.8)
        card.line(*a, *b, ink, 0.32)
        d = np.array([x2 - x1, y2 - y1]) / side
        n = np.array([-d[1], d[0]])
        tip = np.array(b) + d * 0.9
        head = [tuple(tip * card.px_per_mm), tuple((tip - d * 1.1 + n * 0.6) * card.px_per_mm),
                tuple((tip - d * 1.1 - n * 0.6) * card.px_per_mm)]
        card.draw.polygon(head, fill=ink)
    card.text(cx, cy - 0.2, "04", max(2.0, side * 0.3), ink, face, anchor="mm")
    card.text(cx, cy + r * 0.6 + 0.6, code, 2.0, ink, face, anchor="ma")


def polybag_sealed(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical colon-row tag (52×98 mm) photographed inside the garment's clear PE bag: the film's haze, creases
    and sheen over it, and the bag's printed warning and recycling mark over its lower part."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    stock = pick(rng, ((252, 252, 248), (246, 243, 234), (238, 240, 242)))
    ink = pick(rng, (BLACK, (40, 36, 34), (30, 40, 64)))
    w, h = 52.0, 98.0
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (1.5, 3.0)))
    card.hole(w / 2, 6.0, 1.9, ring=pick(rng, (None, (200, 200, 204))))
    brand = v.brand.upper() if v.brand.isascii() else v.brand
    card.text(w / 2, 11.5, brand, 6.0, ink, pick(rng, latin_font_names()) if brand.isascii() else face, anchor="ma",
              max_w_mm=42, stroke=1)
    card.line(5, 19.5, w - 5, 19.5, ink, 0.2)
    rows = field_rows(v, rng)
    boxes, y = printed_rows(card, 5, 22.0, rows, 2.9, 4.75, ink, ink, face, value_face, 43)
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "rmb")))
    _price_row(card, boxes, y, price, ink, face, value_face, pick(rng, ("零售价：", "吊牌价：")), 42)
    band_top = y + 6.4  # the free band between the price and the code, where the bag's print falls
    ean_block(card, v.ean13, 8, 80.0, 36, 9.0, ink, value_face)
    code = card.barcodes[0].box
    shape = (card.image.size[1], card.image.size[0])
    # the bag's print first: it lies on the film, over the card
    bag_ink = pick(rng, ((28, 72, 168), (30, 30, 34), (186, 34, 44)))
    mark_right = rng.random() < 0.5
    text_x = 4.0 if mark_right else 16.5
    warn_size = float(rng.uniform(2.1, 2.35))
    wy = band_top + float(rng.uniform(-0.3, 0.5))
    for k, line in enumerate(BAG_WARNING):
        card.text(text_x, wy + k * warn_size * 1.2, line, warn_size, bag_ink, face)
    if not mark_right and rng.random() < 0.5:  # its English line, run off the card's edge as the bag's print goes on past it
        card.text(text_x, wy + 2 * warn_size * 1.2 + 0.2, BAG_WARNING_EN, 2.0, bag_ink, pick(rng, latin_font_names()))
    recycling_mark(card, w - 7.5 if mark_right else 7.5, band_top + 3.6, 7.0, bag_ink, face,
                   pick(rng, ("LDPE", "PE-LD")))
    # the film: creases that leave every field legible and the bars alone, a sheen, the film's haze
    glare = np.zeros(shape, np.float32)
    shade = np.zeros(shape, np.float32)
    for _ in range(int(rng.integers(2, 5))):
        for _attempt in range(40):
            horizontal = rng.random() < 0.5
            if horizontal:
                start, end = (-2.0, float(rng.uniform(10, 90))), (w + 2, float(rng.uniform(10, 90)))
            else:
                start, end = (float(rng.uniform(2, 50)), -2.0), (float(rng.uniform(2, 50)), h + 2)
            ridge, dark = crease_cover(shape, px_per_mm, start, end, float(rng.uniform(-4, 4)),
                                       float(rng.uniform(0.4, 0.9)), float(rng.uniform(0.4, 0.55)))
            trial = np.maximum(glare, ridge)
            washed = [[c > 0.5 for c in cells] for cells in cell_shares(card, boxes, trial, 1.45, 0.3).values()]
            most = max(sum(cells) / max(1, len(cells)) for cells in washed)
            bars = trial[int(code[1]):int(code[3]) + 1, int(code[0]):int(code[2]) + 1]
            if most <= 0.34 and bars.max() < 0.2:
                glare, shade = trial, np.maximum(shade, dark)
                break
    depth = float(rng.uniform(0.1, 0.2))
    pixels = np.asarray(card.image, np.float32) * (1.0 - depth * shade[..., None])
    card.image = Image.fromarray(np.clip(pixels + 0.5, 0, 255).astype(np.uint8))
    yy, xx = np.mgrid[0:shape[0], 0:shape[1]].astype(np.float32) / px_per_mm
    a = float(rng.uniform(0, 2 * np.pi))
    ramp = (xx * np.cos(a) + yy * np.sin(a))
    ramp = (ramp - ramp.min()) / max(float(ramp.max() - ramp.min()), 1e-6)
    haze = float(rng.uniform(0.05, 0.11)) + float(rng.uniform(0.0, 0.08)) * ramp
    _blend(card, np.clip(haze + glare, 0.0, 0.55), (250, 252, 255))
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, brand=brand, ean13=v.ean13)
    return card.finish(fields)


# -- a tag held up by an operator's thumbs ---------------------------------------------------------------------

SKIN = ((232, 190, 160), (214, 164, 128), (190, 134, 100), (150, 100, 72))
GLOVES = {"nitrile": (70, 118, 206), "cotton": (236, 234, 226)}


def thumb_cover(shape: tuple[int, int], px_per_mm: float, base: tuple[float, float], angle_deg: float,
                reach_mm: float, width_mm: float) -> np.ndarray:
    """Where a thumb hides the card (0..1, card pixels, a soft edge): a rounded digit `width_mm` wide from `base`
    (mm, off the card's edge) reaching `reach_mm` along `angle_deg`."""
    h, w = shape
    y, x = np.mgrid[0:h, 0:w].astype(np.float32) / px_per_mm
    a = np.deg2rad(angle_deg)
    u = (x - base[0]) * np.cos(a) + (y - base[1]) * np.sin(a)  # along the thumb
    t = -(x - base[0]) * np.sin(a) + (y - base[1]) * np.cos(a)  # across it
    half = width_mm / 2
    along = np.clip(u, -1e3, reach_mm - half)
    d = np.sqrt(np.maximum(0.0, u - along) ** 2 + t ** 2)  # a capsule: its tip rounded
    edge = 0.18
    return np.clip((half - d) / edge + 0.5, 0.0, 1.0) * (u > -30)


def draw_thumb(card: Card, cover: np.ndarray, base: tuple[float, float], angle_deg: float, reach_mm: float,
               width_mm: float, skin: Color, gloved: str | None, rng: np.random.Generator) -> None:
    """The thumb's shadow on the card, then the thumb: shaded round across its width, lit towards the tip, with its
    nail (bare) or a seam across it (gloved)."""
    shape = cover.shape
    shadow = Image.fromarray((cover * 255).astype(np.uint8)).filter(
        ImageFilter.GaussianBlur(max(1.0, 0.9 * card.px_per_mm)))
    off = max(1, int(round(0.8 * card.px_per_mm)))
    shadow = np.roll(np.asarray(shadow, np.float32) / 255, (off, off), axis=(0, 1))
    pixels = np.asarray(card.image, np.float32) * (1.0 - 0.35 * shadow[..., None])
    y, x = np.mgrid[0:shape[0], 0:shape[1]].astype(np.float32) / card.px_per_mm
    a = np.deg2rad(angle_deg)
    u = (x - base[0]) * np.cos(a) + (y - base[1]) * np.sin(a)
    t = -(x - base[0]) * np.sin(a) + (y - base[1]) * np.cos(a)
    across = np.clip(np.abs(t) / (width_mm / 2), 0, 1)
    roundness = 1.0 - 0.32 * across ** 2.2
    toward_tip = 0.9 + 0.12 * np.clip(u / reach_mm, 0, 1)
    tone = np.asarray(skin, np.float32)[None, None, :] * (roundness * toward_tip)[..., None]
    tone += rng.normal(0, 2.0, tone.shape[:2])[..., None]  # skin's or the glove's fine texture
    if gloved is None:  # the nail: a paler rounded plate near the tip, its free edge whiter
        nail_u, nail_half = reach_mm - width_mm * 0.5 - 2.8, width_mm * 0.28
        nail = ((np.abs(u - nail_u) < 3.4) & (np.abs(t) < nail_half)).astype(np.float32)
        nail = np.asarray(Image.fromarray((nail * 255).astype(np.uint8)).filter(
            ImageFilter.GaussianBlur(max(0.6, 0.35 * card.px_per_mm))), np.float32) / 255
        tone = tone * (1 - 0.5 * nail[..., None]) + np.asarray((236, 200, 196), np.float32) * 0.5 * nail[..., None]
        free_edge = ((np.abs(u - (nail_u + 3.6)) < 0.45) & (np.abs(t) < nail_half * 0.9)).astype(np.float32)
        tone = tone * (1 - 0.6 * free_edge[..., None]) + 250 * 0.6 * free_edge[..., None]
    elif gloved == "cotton":  # a knit's seam along the thumb
        seam = (np.abs(t - width_mm * 0.18) < 0.18).astype(np.float32) * (u < reach_mm - width_mm * 0.6)
        tone *= (1 - 0.12 * seam)[..., None]
    c = cover[..., None]
    pixels = pixels * (1 - c) + tone * c
    card.image = Image.fromarray(np.clip(pixels + 0.5, 0, 255).astype(np.uint8))
    card.draw = ImageDraw.Draw(card.image)


def place_thumb(card: Card, boxes: dict[str, Box], code: Box, taken: np.ndarray, width: float,
                rng: np.random.Generator) -> tuple[tuple[float, float], float, float, np.ndarray] | None:
    """Where a thumb can hold the card: from one of its edges or corners, never over a value's ink (no cell of any
    field's box, padded by 0.4 mm, touched) nor the bars and their digits (`code`, card pixels, padded), nor over a thumb already
    there. None when 120 tries find no such place."""
    shape = (card.image.size[1], card.image.size[0])
    w, h = card.width_mm, card.height_mm
    padded = {k: (b[0] - 0.4, b[1] - 0.4, b[2] + 0.4, b[3] + 0.4) for k, b in boxes.items()}
    for _ in range(120):
        edge = pick(rng, ("left", "right", "top", "bottom", "corner"))
        if edge == "left":
            base, angle = (-width * 0.7, float(rng.uniform(10, h - 10))), float(rng.uniform(-25, 25))
        elif edge == "right":
            base, angle = (w + width * 0.7, float(rng.uniform(10, h - 10))), 180 + float(rng.uniform(-25, 25))
        elif edge == "top":
            base, angle = (float(rng.uniform(6, w - 6)), -width * 0.7), 90 + float(rng.uniform(-25, 25))
        elif edge == "bottom":
            base, angle = (float(rng.uniform(6, w - 6)), h + width * 0.7), -90 + float(rng.uniform(-25, 25))
        else:
            cx, cy = pick(rng, ((0.0, 0.0), (w, 0.0), (0.0, h), (w, h)))
            angle = float(np.rad2deg(np.arctan2(h / 2 - cy, w / 2 - cx))) + float(rng.uniform(-15, 15))
            base = (cx - 0.6 * width * np.cos(np.deg2rad(angle)), cy - 0.6 * width * np.sin(np.deg2rad(angle)))
        reach = width * 0.7 + float(rng.uniform(4, 14))
        cover = thumb_cover(shape, card.px_per_mm, base, angle, reach, width)
        if cover.max() < 0.5 or (cover > 0.05).mean() < 0.02 or (taken * cover).max() > 0.05:
            continue
        over_value = any(cover[max(0, card.px(y1)):card.px(y2), max(0, card.px(x1)):card.px(x2)].max(initial=0.0) > 0.02
                         for x1, y1, x2, y2 in padded.values())
        x1, y1, x2, y2 = code
        pad = 2.5 * card.px_per_mm
        bars = cover[max(0, int(y1 - pad)):int(y2 + 2 * pad), max(0, int(x1 - pad)):int(x2 + pad)]
        if not over_value and bars.max() < 0.02:
            return base, angle, reach, cover
    return None


def held_fingers(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical colon-row tag (50×100 mm) held up to the camera by an operator: one or two thumbs, bare or gloved,
    over its edges or corners, never over a value or the code."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    stock, ink = pick(rng, (((252, 252, 248), BLACK), ((244, 240, 230), (44, 38, 34)), ((232, 236, 240), (26, 38, 66)),
                            ((206, 182, 146), (34, 28, 24))))
    w, h = 50.0, 100.0
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 1.8, fibres=stock[0] < 220)
    radius = pick(rng, (1.5, 3.0))
    card.rounded(radius)
    card.hole(w / 2, 6.0, 1.9, ring=pick(rng, (None, (206, 206, 210))))
    brand = v.brand.upper() if v.brand.isascii() else v.brand
    brand_w = card.text(w / 2, 11.5, brand, 6.0, ink, face, anchor="ma", max_w_mm=40, stroke=1)
    card.line(5, 19.5, w - 5, 19.5, ink, 0.2)
    rows = field_rows(v, rng)
    boxes, y = printed_rows(card, 5, 22.0, rows, 2.9, 4.8, ink, ink, face, value_face, 41)
    boxes["brand"] = (w / 2 - brand_w / 2, 11.5, w / 2 + brand_w / 2, 18.5)
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "yen_spaced")))
    _price_row(card, boxes, y, price, ink, face, value_face, pick(rng, ("零售价：", "吊牌价：")), 40)
    ean_block(card, v.ean13, 7, 77.0, 36, 9.0, ink, value_face)
    code = card.barcodes[0].box
    kind = pick(rng, ("bare", "bare", "bare", "nitrile", "cotton"))
    colour = pick(rng, SKIN) if kind == "bare" else GLOVES[kind]
    shape = (card.image.size[1], card.image.size[0])
    taken = np.zeros(shape, np.float32)
    for _ in range(1 if rng.random() < 0.55 else 2):
        width = float(rng.uniform(15.0, 19.0)) if kind == "bare" else float(rng.uniform(17.0, 21.0))
        spot = place_thumb(card, boxes, code, taken, width, rng)
        if spot is None:
            continue
        base, angle, reach, cover = spot
        draw_thumb(card, cover, base, angle, reach, width, colour, None if kind == "bare" else kind, rng)
        taken = np.maximum(taken, cover)
    outline = Image.new("L", card.mask.size, 0)  # a thumb over the hole hides it; beyond the outline no hand is drawn
    ImageDraw.Draw(outline).rounded_rectangle((0, 0, outline.size[0] - 1, outline.size[1] - 1), radius=card.px(radius),
                                              fill=255)
    card.mask = Image.fromarray(np.maximum(np.asarray(card.mask), np.where(taken > 0.5, np.asarray(outline), 0)).astype(
        np.uint8))
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, brand=brand, ean13=v.ean13)
    return card.finish(fields)


# -- gold or silver foil on a dark card ------------------------------------------------------------------------

FOILS = {"gold": (236, 198, 118), "silver": (226, 228, 232), "rose": (232, 176, 150)}


def foil_light(shape: tuple[int, int], px_per_mm: float, rng: np.random.Generator) -> np.ndarray:
    """How much of the lamp a foil catches at each point (0..1, card pixels): a broad band of reflection across the
    card at the light's angle, falling off to nothing on one side or both, with a slow ripple (the card not flat)."""
    h, w = shape
    y, x = np.mgrid[0:h, 0:w].astype(np.float32) / px_per_mm
    a = float(rng.uniform(0, np.pi))
    s = x * np.cos(a) + y * np.sin(a)
    s = (s - s.min()) / max(float(s.max() - s.min()), 1e-6)
    centre, spread = float(rng.uniform(0.15, 0.85)), float(rng.uniform(0.14, 0.3))
    band = np.exp(-0.5 * ((s - centre) / spread) ** 2)
    ripple = 0.08 * np.sin(2 * np.pi * (x * np.sin(a) - y * np.cos(a)) / float(rng.uniform(25, 50)) + rng.uniform(0, 6))
    return np.clip(band + ripple, 0.0, 1.0)


def foil_stamped(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A dark vertical card (54×96 mm) hot-stamped in gold or silver foil: brand, colon rows and price in foil whose
    brightness follows the lamp across the card; the EAN-13 on a white label stuck at the foot."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    stock = pick(rng, ((22, 22, 24), (20, 28, 54), (20, 46, 34), (72, 18, 28), (44, 44, 48)))
    foil = FOILS[pick(rng, ("gold", "gold", "silver", "rose"))]
    w, h = 54.0, 96.0
    layer = Card(w, h, px_per_mm, (0, 0, 0))  # the die: white where the foil is stamped
    white: Color = (255, 255, 255)
    brand = v.brand.upper() if v.brand.isascii() else v.brand
    layer.text(w / 2, 11.0, brand, 6.5, white, pick(rng, latin_font_names()) if brand.isascii() else face, anchor="ma",
               max_w_mm=44, stroke=1)
    layer.line(12, 19.5, w - 12, 19.5, white, 0.25)
    rows = field_rows(v, rng)
    _boxes, y = printed_rows(layer, 5, 22.5, rows, 2.9, 4.8, white, white, face, value_face, 45)
    price = money(v.price, pick(rng, ("yen", "yen", "rmb", "yuan")))
    used = layer.text(5, y + 1.0, pick(rng, ("零售价：", "吊牌价：")), 3.0, white, face)
    layer.text(5 + used + 0.6, y + 0.2, price, 4.6, white, value_face, max_w_mm=43 - used, stroke=1)
    die = np.asarray(layer.image, np.float32)[..., 0] / 255.0
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 1.2)
    card.rounded(pick(rng, (2.0, 3.5)))
    card.hole(w / 2, 5.5, 1.8, ring=pick(rng, (None, foil)))
    shape = die.shape
    light = foil_light(shape, px_per_mm, rng)
    stock_f = np.asarray(stock, np.float32)
    hue = np.asarray(foil, np.float32) / max(foil)
    dim = stock_f + hue * float(rng.uniform(52, 66))  # foil turned from the lamp: a little above the card's tone
    tone = dim[None, None, :] + (np.asarray(foil, np.float32) - dim)[None, None, :] * light[..., None] ** 1.4
    grain = 1.0 + rng.normal(0, 0.04, (shape[0] // 2 + 1, shape[1] // 2 + 1)).astype(np.float32)
    grain = np.asarray(Image.fromarray(grain, mode="F").resize((shape[1], shape[0]), Image.BILINEAR))
    tone *= grain[..., None]
    off = max(1, int(round(0.1 * px_per_mm)))
    a = float(rng.uniform(0, 2 * np.pi))
    dy, dx = int(round(off * np.sin(a))) or 1, int(round(off * np.cos(a)))
    impression = np.clip(np.roll(die, (dy, dx), axis=(0, 1)) - die, 0.0, 1.0)  # the die's edge, pressed in
    pixels = np.asarray(card.image, np.float32) * (1.0 - 0.45 * impression[..., None])
    pixels = pixels * (1.0 - die[..., None]) + tone * die[..., None]
    card.image = Image.fromarray(np.clip(pixels + 0.5, 0, 255).astype(np.uint8))
    card.draw = ImageDraw.Draw(card.image)
    card.smallest_print_px = layer.smallest_print_px
    label = Card(40.0, 17.0, px_per_mm, pick(rng, ((255, 255, 255), (248, 246, 240))))
    label.rounded(1.0)
    ean_block(label, v.ean13, 3.0, 1.5, 34.0, 10.5, BLACK, value_face)
    card.stick(label, w / 2 + float(rng.uniform(-0.8, 0.8)), 84.5, float(rng.uniform(-1.5, 1.5)))
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, brand=brand, ean13=v.ean13)
    return card.finish(fields)
