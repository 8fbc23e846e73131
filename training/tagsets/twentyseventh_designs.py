"""Three designs added on 2026-12-06 (thirtieth session), after the reader had been developed while looking at the
eighty-two in `designs`: a fresh yardstick nobody tuned for. Each is a tag a real line meets that none of the
eighty-two is:

- `metallic_board`: a tag printed in one dark ink **straight on silver or gold metallised board** (银卡纸/金卡纸, the
  stock Chinese tag printers sell for premium lines): the board is a mirror, so it is bright only where it catches
  the lamp (a broad band at the light's angle) and takes the dim room's grey elsewhere, with a brushed grain along
  one direction; the ink, a film on the mirror, stays dark but picks up a little of the band. Print stands 40–190
  levels off the board (grey mean), least where a gold board faces the room. The EAN-13 on an **opaque white
  underprint** (printers lay white under a code on metallised board so a scanner sees contrast);
- `big_numerals`: a fashion brand's tag whose **size is the design**: printed huge (a letter size set 26–32 mm to the
  em, its capitals about 20 mm high; a 号型 across the card's width, up to 14 mm) in a bold face, in ink or the
  brand's colour, without a label; every other field in **small print** (2.2–2.5 mm, labels in grey) under it, the
  price a little larger;
- `clear_film`: a colon-row tag with a **clear tamper-evident film** (防调包透明保护贴, 30–46 × 10–18 mm, rounded
  corners, ±4°) stuck over the price row or the size row, as shops and brands seal a price against relabelling:
  the values under it show through a faint warm haze, a **gloss band** across the film (18–38 % white at its peak),
  its **cut edge** a thin bright line on the lamp's side and a shadow on the other, two to five trapped **air
  bubbles** (a bright rim, 0.4–1.1 mm), and on half of them a thin printed border in red or blue; never over the
  code.

Fields as in `designs`, values from `values`, printed exactly as `fields` says (a long value wrapped between its units
keeps its words).
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from training.tagsets.canvas import Card, Color, TagArt
from training.tagsets.eighteenth_designs import foil_light
from training.tagsets.eighth_designs import width_mm
from training.tagsets.fonts import font_names
from training.tagsets.layout import BLACK, ean_block, money, pick
from training.tagsets.seventh_designs import field_rows, printed_rows
from training.tagsets.twentyfourth_designs import _field_rows, colon_rows
from training.tagsets.values import TagValues

# -- one dark ink on metallised board -------------------------------------------------------------------------------

# (mirror's bright tone where it catches the lamp, its hue), silver and gold board
BOARDS = {"silver": (238, 240, 244), "gold": (240, 212, 140)}
# what the mirror shows where it faces the dim room: a grey 96-124 (never darker, or the print would vanish)
ROOM_TONE = (96.0, 124.0)


def board_tone(shape: tuple[int, int], px_per_mm: float, metal: Color, rng: np.random.Generator) -> np.ndarray:
    """The metallised board's colour at each point (card pixels, float RGB): the room's grey where it faces away from
    the lamp, the metal's full tone in the lamp's band (`foil_light`), with a brushed grain along one direction."""
    light = foil_light(shape, px_per_mm, rng)
    h, w = shape
    hue = np.asarray(metal, np.float32) / max(metal)
    room = hue * float(rng.uniform(*ROOM_TONE))
    tone = room[None, None, :] + (np.asarray(metal, np.float32) - room)[None, None, :] * light[..., None] ** 1.2
    # brushing: fine streaks along x or y (noise stretched 40× along the brush)
    along_x = rng.random() < 0.5
    streaks = rng.normal(0, 0.035, (h // 2 + 1, 2) if along_x else (2, w // 2 + 1)).astype(np.float32)
    streaks = np.asarray(Image.fromarray(streaks, mode="F").resize((w, h), Image.BILINEAR))
    return tone * (1.0 + streaks)[..., None], light


def metallic_board(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical tag (54×96 mm) on silver or gold metallised board, printed in one dark ink straight on the mirror;
    the EAN-13 on a white underprint."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (22, 28, 58), (70, 20, 26), (30, 40, 34)))
    metal = BOARDS[pick(rng, ("silver", "silver", "gold"))]
    w, h = 54.0, 96.0
    layer = Card(w, h, px_per_mm, (255, 255, 255))  # the plate: black where ink goes
    plate: Color = (0, 0, 0)
    layer.text(w / 2, 10.0, v.brand, 6.6, plate, face, anchor="ma", max_w_mm=44, stroke=1)
    layer.line(10, 18.5, w - 10, 18.5, plate, 0.25)
    rows = _field_rows(v, rng)
    fields, y = colon_rows(layer, 5.0, 21.5, w - 4.5, rows, 2.9, 4.7, plate, plate, face, value_face,
                           pick(rng, ("：", ": ")))
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "rmb", "yen_spaced")))
    used = layer.text(5, y + 1.0, pick(rng, ("零售价：", "吊牌价：", "统一零售价：")), 3.0, plate, face)
    layer.text(5 + used + 0.6, y + 0.2, price, 4.6, plate, value_face, max_w_mm=w - 9.5 - used, stroke=1)
    coverage = 1.0 - np.asarray(layer.image.convert("L"), np.float32) / 255.0  # 1 where the plate inks
    card = Card(w, h, px_per_mm, metal)
    card.rounded(pick(rng, (2.0, 3.0)))
    card.hole(w / 2, 5.0, 1.8)
    tone, light = board_tone(coverage.shape, px_per_mm, metal, rng)
    # the ink film on the mirror: dark, lifted a little where the board catches the lamp (a film's own gloss)
    inked = np.asarray(ink, np.float32)[None, None, :] + 38.0 * light[..., None]
    pixels = tone * (1.0 - coverage[..., None]) + inked * coverage[..., None]
    card.image = Image.fromarray(np.clip(pixels + 0.5, 0, 255).astype(np.uint8))
    card.draw = ImageDraw.Draw(card.image)
    card.smallest_print_px = layer.smallest_print_px
    # the code on an opaque white underprint, printed before the ink
    card.rect((5.0, 77.5, w - 5.0, 93.0), fill=(246, 246, 244), radius_mm=0.8)
    ean_block(card, v.ean13, 8.0, 78.5, w - 16.0, 10.0, BLACK, value_face)
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


# -- the size as the design -----------------------------------------------------------------------------------------

BIG_INKS = ((24, 24, 28), (26, 40, 92), (178, 34, 40), (30, 92, 70), (120, 84, 40))


def big_numerals(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical tag (56×104 mm): the size printed huge without a label, every other field in small print under
    it, the price a little larger, the EAN-13 at the foot."""
    rng = np.random.default_rng(style_seed)
    face, value_face, big_face = pick(rng, font_names()), pick(rng, font_names()), pick(rng, font_names())
    stock = pick(rng, ((255, 255, 255), (244, 242, 236), (236, 236, 232), (250, 240, 228)))
    ink = pick(rng, (BLACK, (40, 40, 44)))
    grey = pick(rng, ((112, 112, 116), (124, 120, 114), (96, 96, 100)))
    big_ink = pick(rng, BIG_INKS)
    w, h = 56.0, 104.0
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 1.4)
    card.rounded(pick(rng, (1.5, 3.0)))
    card.hole(w / 2, 5.0, 1.8)
    card.text(w / 2, 9.0, v.brand, 4.2, ink, face, anchor="ma", max_w_mm=40)
    letters = not any(c.isdigit() for c in v.size) or len(v.size) <= 3
    top = 15.0
    if letters:  # a letter size (or a short number) 26-34 mm high
        em = float(rng.uniform(26.0, 32.0))
        room = w - 8.0
        em = min(em, em * room / max(width_mm(card, v.size, em, big_face), 1e-6))
        anchor_x, anchor = (w / 2, "ma") if rng.random() < 0.6 else (4.0, "la")
        card.text(anchor_x, top, v.size, em, big_ink, big_face, anchor=anchor, stroke=max(1, card.px(0.5)))
        top += em * 1.0 + 2.0
    else:  # a 号型 across the card's width
        em = float(rng.uniform(10.0, 14.0))
        room = w - 7.0
        em = min(em, em * room / max(width_mm(card, v.size, em, big_face), 1e-6))
        card.text(w / 2, top + 4.0, v.size, em, big_ink, big_face, anchor="ma", stroke=max(1, card.px(0.35)))
        top += 4.0 + em * 1.05 + 3.0
    card.line(4.0, top - 1.2, w - 4.0, top - 1.2, grey, 0.15)
    size = float(rng.uniform(2.2, 2.5))
    rows = _field_rows(v, rng, size_row=False)
    fields, y = colon_rows(card, 4.5, top + 0.4, w - 4.0, rows, size, size * 1.5, ink, grey, face, value_face,
                           pick(rng, ("：", ": ", " ")))
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "rmb", "yen_spaced")))
    used = card.text(4.5, y + 0.8, pick(rng, ("零售价", "吊牌价", "RETAIL PRICE 零售价")), 2.4, grey, face)
    card.text(4.5 + used + 1.0, y, price, 3.6, ink, value_face, max_w_mm=w - 9.5 - used, stroke=1)
    ean_block(card, v.ean13, 9.0, h - 17.0, w - 18.0, 10.0, ink, value_face)
    fields.update(size=v.size, price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


# -- a clear tamper-evident film over a value -----------------------------------------------------------------------

FILM_BORDERS = ((200, 40, 44), (40, 70, 170))


def film_cover(shape: tuple[int, int], px_per_mm: float, centre: tuple[float, float], size: tuple[float, float],
               angle_deg: float, radius_mm: float) -> np.ndarray:
    """Where the film lies (0..1, card pixels, its cut edge antialiased): a rounded rectangle `size` mm, centred at
    `centre` (mm), turned `angle_deg` counter-clockwise."""
    h, w = shape
    scale = 4  # drawn four times finer, then averaged: a soft, straight edge
    film = Image.new("L", (int(size[0] * px_per_mm * scale), int(size[1] * px_per_mm * scale)), 0)
    ImageDraw.Draw(film).rounded_rectangle((0, 0, film.width - 1, film.height - 1),
                                           radius=int(radius_mm * px_per_mm * scale), fill=255)
    film = film.resize((max(1, film.width // scale), max(1, film.height // scale)), Image.BOX)
    film = film.rotate(angle_deg, resample=Image.BICUBIC, expand=True)
    cover = Image.new("L", (w, h), 0)
    cover.paste(film, (int(round(centre[0] * px_per_mm - film.width / 2)),
                       int(round(centre[1] * px_per_mm - film.height / 2))))
    return np.asarray(cover, np.float32) / 255.0


def lay_film(card: Card, cover: np.ndarray, rng: np.random.Generator, border: Color | None) -> None:
    """The film over the card where `cover` says: a faint warm haze, a gloss band, its cut edge lit on the lamp's
    side and shadowed on the other, trapped air bubbles, and its printed border if it has one."""
    px = card.px_per_mm
    pixels = np.asarray(card.image, np.float32)
    c = cover[..., None]
    haze = float(rng.uniform(0.04, 0.1))
    warm = np.asarray((1.0, 0.985, 0.93), np.float32)
    under = pixels * warm * (1.0 - haze) + 255.0 * haze
    h, w = cover.shape
    y, x = np.mgrid[0:h, 0:w].astype(np.float32) / px
    a = float(rng.uniform(0.3, 1.2))
    s = x * np.cos(a) + y * np.sin(a)
    ys, xs = np.nonzero(cover > 0.5)
    inside = s[ys, xs]
    centre = float(rng.uniform(np.percentile(inside, 25), np.percentile(inside, 75)))
    gloss = float(rng.uniform(0.18, 0.38)) * np.exp(-0.5 * ((s - centre) / float(rng.uniform(1.5, 3.5))) ** 2)
    under = under * (1.0 - gloss[..., None]) + 255.0 * gloss[..., None]
    pixels = pixels * (1.0 - c) + under * c
    # the cut edge: the film's rim (cover's gradient), lit on the lamp's side, its shadow cast the other way
    lamp = float(rng.uniform(0, 2 * np.pi))
    dx, dy = np.cos(lamp), np.sin(lamp)
    gy, gx = np.gradient(cover)
    facing = gx * dx + gy * dy  # > 0 where the rim faces away from the lamp (the far edge)
    rim = np.clip(-facing, 0, 1) * 2.0
    off = max(1, int(round(0.2 * px)))
    shadow = np.clip(np.roll(cover, (int(round(off * dy)), int(round(off * dx))), axis=(0, 1)) - cover, 0, 1)
    shadow = Image.fromarray((shadow * 255.0 + 0.5).astype(np.uint8))
    shadow = shadow.filter(ImageFilter.GaussianBlur(max(0.6, 0.12 * px)))
    shadow = np.asarray(shadow, np.float32) / 255.0
    pixels = pixels * (1.0 - 0.28 * shadow[..., None])
    pixels = pixels + (255.0 - pixels) * np.clip(rim, 0, 0.7)[..., None]
    # trapped air: small discs, a bright rim and a faint shadow inside
    for _ in range(int(rng.integers(2, 6))):
        k = int(rng.integers(len(ys)))
        r = float(rng.uniform(0.4, 1.1)) * px
        d = np.hypot(x * px - xs[k], y * px - ys[k])
        ring = np.clip(1.0 - np.abs(d - r) / max(1.0, 0.12 * px), 0, 1) * 0.45
        pixels = pixels + (255.0 - pixels) * ring[..., None] * c
    card.image = Image.fromarray(np.clip(pixels + 0.5, 0, 255).astype(np.uint8))
    card.draw = ImageDraw.Draw(card.image)
    if border is not None:  # the film's own print: a thin frame 1 mm inside its edge
        ring = (cover > 0.5).astype(np.uint8) * 255
        inner = np.asarray(Image.fromarray(ring).filter(ImageFilter.MinFilter(2 * max(1, int(round(px))) + 1)))
        edge = np.asarray(Image.fromarray(inner).filter(ImageFilter.MinFilter(2 * max(1, int(round(0.2 * px))) + 1)))
        line = (inner > 0) & ~(edge > 0)
        pixels = np.asarray(card.image, np.float32)
        pixels[line] = pixels[line] * 0.45 + np.asarray(border, np.float32) * 0.55
        card.image = Image.fromarray(np.clip(pixels + 0.5, 0, 255).astype(np.uint8))
        card.draw = ImageDraw.Draw(card.image)


def film_spot(target: tuple[float, float, float, float], card_w: float, code_top: float,
              rng: np.random.Generator) -> tuple[tuple[float, float], tuple[float, float], float]:
    """Where a film is stuck over the value printed in `target` (mm): its centre near the value's, inside the card's
    width, its lowest corner, turned up to 4°, at least 1 mm above the code (`code_top`); (centre, size, angle)."""
    fw, fh = float(rng.uniform(30.0, 46.0)), float(rng.uniform(10.0, 18.0))
    dx, dy, angle = float(rng.uniform(-4, 4)), float(rng.uniform(-2, 2)), float(rng.uniform(-4, 4))
    reach = (fw * abs(np.sin(np.deg2rad(angle))) + fh * np.cos(np.deg2rad(angle))) / 2  # half its turned height
    cx = min(max((target[0] + target[2]) / 2 + dx, fw / 2 + 1.5), card_w - fw / 2 - 1.5)
    cy = min((target[1] + target[3]) / 2 + dy, code_top - 1.0 - reach)
    return (cx, cy), (fw, fh), angle


def clear_film(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical colon-row tag (54×98 mm) with a clear tamper-evident film stuck over the price row or the size
    row; never over the code."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (30, 34, 60)))
    w, h = 54.0, 98.0
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (246, 244, 238), (232, 236, 240), (238, 230, 214))))
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (2.0, 3.0)))
    card.hole(w / 2, 5.5, 1.8)
    card.text(w / 2, 10.0, v.brand, 6.4, ink, face, anchor="ma", max_w_mm=44, stroke=1)
    card.line(8, 18.5, w - 8, 18.5, ink, 0.2)
    rows = field_rows(v, rng)
    boxes, y = printed_rows(card, 5.0, 21.5, rows, 2.9, 4.7, ink, ink, face, value_face, 44.5)
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "rmb", "yen_spaced")))
    used = card.text(5, y + 1.0, pick(rng, ("零售价：", "吊牌价：")), 3.0, ink, face)
    width = card.text(5 + used + 0.6, y + 0.2, price, 4.6, ink, value_face, max_w_mm=44 - used, stroke=1)
    boxes["price"] = (5 + used + 0.6, y + 0.2, 5 + used + 0.6 + width, y + 0.2 + 4.6 * 1.15)
    code_top = 80.0
    ean_block(card, v.ean13, 8.0, code_top, w - 16.0, 10.0, ink, value_face)
    centre, size, angle = film_spot(boxes["price" if rng.random() < 0.6 else "size"], w, code_top, rng)
    cover = film_cover((card.image.height, card.image.width), px_per_mm, centre, size, angle, 1.5)
    lay_film(card, cover, rng, pick(rng, FILM_BORDERS) if rng.random() < 0.5 else None)
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)
