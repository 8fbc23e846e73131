"""Three designs added on 2026-12-03 (tenth session), after the reader had been developed while looking at the
nineteen in `designs`, `fresh_designs`, `third_designs`, `fourth_designs` and `fifth_designs`: a fresh yardstick
nobody tuned for.

Each is a common sight on Chinese garment tags that the nineteen do not show:

- `curled_tag`: a plain vertical 合格证 whose card has taken a curl (paper stock bent round a cylinder across its
  width, as a tag does after hanging folded in a bag): a geometric warp of the printed card, so the rows bow, the
  print foreshortens towards the side turning away and the lamp shades the curve; EAN-13 with its digits;
- `handwritten_price`: a printed tag whose price box (零售价 / 售价 over an empty ruled box) was left blank at the
  printer and filled in by hand in the shop with a marker: `¥299` or `299`, `¥69.90`, drawn as jittered strokes,
  never a font; the recipe states that price; EAN-13 with its digits;
- `dense_tag`: a small tag packed the way high-street brands print them: a brand line and a slogan, every field
  in small type (2.0-2.3 mm), a row of GB/T 8685 care symbols (wash tub with its temperature, bleach triangle,
  tumble-dry square, iron with its dots, dry-clean circle) drawn as line icons, a QR code beside the care row and an EAN-13 at the foot.

Fields as in `designs` (GB/T 29862 fields, GB 18401 安全类别, GB/T 1335 号型), values from `values`, printed
exactly as `fields` says.
"""

from __future__ import annotations

import cv2
import numpy as np

from training.tagsets.canvas import Card, Color, SymbolArt, TagArt
from training.tagsets.fonts import font_names, latin_font_names
from training.tagsets.layout import BLACK, ean_block, money, pick, row
from training.tagsets.values import TagValues

# -- a card curled round a cylinder -----------------------------------------------------------------------------


def curl_map(width_px: int, bend_rad: float, start_rad: float, distance_px: float):
    """The forward map of a card `width_px` wide bent round a cylinder (axis along the card's height) through
    `bend_rad`, its left edge at `start_rad` from the point nearest the camera, seen from `distance_px` in front of
    that point. Returns (theta(s), x'(s), scale(s)) as functions of the arc length s (card pixels): the surface
    angle, the projected x (0 at the nearest point) and the perspective scale (1 at the nearest point, less where
    the surface turns away, so lines bow)."""
    radius = width_px / bend_rad

    def theta(s):
        return start_rad + np.asarray(s, np.float64) / radius

    def scale(s):
        return distance_px / (distance_px + radius * (1.0 - np.cos(theta(s))))

    def x(s):
        return radius * np.sin(theta(s)) * scale(s)

    return theta, x, scale


def curled(art: TagArt, bend_rad: float, start_rad: float, distance_px: float, shade: float) -> TagArt:
    """`art` bent round a cylinder (see `curl_map`) and photographed: each column of the card lands at its
    projected x, its height shrunk about the card's middle by the perspective scale (horizontal print bows), the
    side turning away foreshortened, and the lamp (from the front) darkens the surface by `shade` × (1 - cos θ).
    The codes' boxes follow their warped outline; the smallest print shrinks with the smallest scale it meets."""
    w = art.rgba.shape[1]
    theta, x_of, scale_of = curl_map(w, bend_rad, start_rad, distance_px)
    return warped_across(art, x_of, scale_of, lambda s: 1.0 - shade * (1.0 - np.cos(theta(s))), np.array([0.0, w]))


def warped_across(art: TagArt, x_of, scale_of, light_of, scale_at: np.ndarray) -> TagArt:
    """`art` with each column at arc length s moved to `x_of(s)` and its height shrunk about the card's middle by
    `scale_of(s)` (a card bent or folded along vertical lines, seen in perspective), lit by `light_of(s)` per
    column; the codes' boxes follow their warped outline, and the smallest print shrinks by the smallest scale at
    `scale_at`. `x_of` must rise with s."""
    h, w = art.rgba.shape[:2]
    s = np.linspace(0.0, w, 4 * w + 1)
    xs = x_of(s)
    x0 = float(xs.min())
    out_w = int(np.ceil(float(xs.max()) - x0))
    cy = (h - 1) / 2.0
    # inverse map: each output column back to its arc length
    s_of_col = np.interp(np.arange(out_w) + 0.5 + x0, xs, s)
    k = scale_of(s_of_col)
    rows = np.arange(h, dtype=np.float64)[:, None]
    map_x = np.broadcast_to(s_of_col[None, :] - 0.5, (h, out_w)).astype(np.float32)
    map_y = (cy + (rows - cy) / k[None, :]).astype(np.float32)
    warped = cv2.remap(art.rgba, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    light = light_of(s_of_col)
    rgb = warped[..., :3].astype(np.float32) * light[None, :, None]
    rgba = np.dstack([np.clip(rgb + 0.5, 0, 255).astype(np.uint8), warped[..., 3]])

    def moved(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        x1, y1, x2, y2 = box
        ss = np.linspace(x1, x2, 64)
        kk = scale_of(ss)
        px = x_of(ss) - x0
        ys = np.concatenate([cy + (y1 - cy) * kk, cy + (y2 - cy) * kk])
        return (float(px.min()), float(ys.min()), float(px.max()), float(ys.max()))

    smallest = art.smallest_print_px * float(scale_of(scale_at).min())
    return TagArt(rgba, dict(art.fields), tuple(SymbolArt(c.format, c.text, moved(c.box)) for c in art.barcodes),
                  tuple(SymbolArt(c.format, c.text, moved(c.box)) for c in art.qr), smallest)


def curled_tag(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """Vertical 合格证 (colon rows, price, EAN-13 with digits) whose card is curled across its width."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (30, 34, 60), (52, 40, 34)))
    card = Card(52, 96, px_per_mm, pick(rng, ((252, 252, 248), (246, 243, 234), (240, 242, 244))))
    card.texture(np.random.default_rng(style_seed + 1), 1.8)
    card.rounded(pick(rng, (2.0, 3.0)))
    card.hole(26, 6.0, 1.9, ring=pick(rng, (None, (208, 208, 210))))
    card.text(26, 11.0, v.brand, 6.5, ink, face, anchor="ma", max_w_mm=42, stroke=1)
    title = pick(rng, ("合格证", "产品合格证", "产品标识"))
    card.text(26, 19.0, title, 3.0, ink, face, anchor="ma")
    card.line(5, 24.0, 47, 24.0, ink, 0.2)
    rows = [("品名：", v.product_name, "product_name"), (pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
            (pick(rng, ("颜色：", "色号：")), v.color, "color"), (pick(rng, ("号型：", "规格：")), v.size, "size"),
            (pick(rng, ("成分：", "面料：")), v.composition, "composition"), ("等级：", v.grade, "grade"),
            ("执行标准：", v.standard, "standard"), ("安全类别：", v.safety_category, "safety_category")]
    y = 26.5
    for label, value, _ in rows:
        row(card, 5, y, label, value, 2.9, ink, ink, face, value_face, 42, pitch=4.7)
        y += 4.7
    price = money(v.price, pick(rng, ("yen", "yen", "yuan")))
    used = card.text(5, y + 1.0, pick(rng, ("零售价：", "吊牌价：")), 3.0, ink, face)
    card.text(5 + used + 0.6, y + 0.2, price, 4.4, ink, value_face, max_w_mm=40 - used, stroke=1)
    ean_block(card, v.ean13, 7, 81.0, 38, 9.5, ink, value_face)
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    flat = card.finish(fields)
    bend = float(rng.uniform(0.9, 1.35))  # 52-77° of arc across the tag: a tag that hung folded in its bag
    start = -bend * float(rng.uniform(0.15, 0.55))  # the nearest line off centre: one side turns away more
    if rng.random() < 0.5:
        start = -bend - start  # mirrored: the left side turns away instead
    return curled(flat, bend, start, float(rng.uniform(3.0, 5.0)) * flat.rgba.shape[1], float(rng.uniform(0.12, 0.3)))


# -- a price written by hand ----------------------------------------------------------------------------------------


def _arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, n: int = 14) -> list[tuple[float, float]]:
    a = np.deg2rad(np.linspace(a0, a1, n))
    return [(cx + rx * float(np.cos(t)), cy + ry * float(np.sin(t))) for t in a]


# Marker strokes of each character a shop assistant writes in a price box, in a unit cell (x right, y down,
# 0..1 tall; the width is the cell's share of the height). Angles in degrees, 0 = right, 90 = down.
HAND_GLYPHS: dict[str, tuple[float, list[list[tuple[float, float]]]]] = {
    "0": (0.6, [_arc(0.5, 0.5, 0.42, 0.5, 250, 625, 20)]),
    "1": (0.35, [[(0.1, 0.2), (0.55, 0.0), (0.55, 1.0)]]),
    "2": (0.6, [_arc(0.5, 0.3, 0.42, 0.3, 200, 390) + [(0.05, 1.0), (0.98, 1.0)]]),
    "3": (0.6, [_arc(0.48, 0.27, 0.38, 0.27, 205, 450), _arc(0.48, 0.73, 0.45, 0.27, 270, 520)]),
    "4": (0.65, [[(0.7, 1.0), (0.7, 0.0), (0.04, 0.7), (0.98, 0.7)]]),
    "5": (0.6, [[(0.88, 0.0), (0.25, 0.0), (0.16, 0.46)] + _arc(0.48, 0.67, 0.42, 0.33, 215, 520)]),
    "6": (0.6, [[(0.8, 0.02), (0.45, 0.2), (0.2, 0.48)] + _arc(0.5, 0.72, 0.38, 0.28, 180, 540, 18)]),
    "7": (0.6, [[(0.04, 0.0), (0.96, 0.0), (0.35, 1.0)]]),
    "8": (0.6, [_arc(0.5, 0.25, 0.32, 0.24, 90, 450), _arc(0.5, 0.72, 0.4, 0.28, -90, 270)]),
    "9": (0.6, [_arc(0.5, 0.3, 0.38, 0.29, 0, 365, 18) + [(0.62, 1.0)]]),
    ".": (0.25, [[(0.45, 0.9), (0.55, 0.97)]]),
    "¥": (0.62, [[(0.06, 0.0), (0.5, 0.48), (0.94, 0.0)], [(0.5, 0.48), (0.5, 1.0)], [(0.14, 0.55), (0.86, 0.55)],
                 [(0.14, 0.76), (0.86, 0.76)]]),
}


def hand_price(price: str, form: str) -> str:
    """How a shop writes the recipe's price by hand: '¥299' / '299' (whole yuan, the .00 left off) or '¥69.90'."""
    units, cents = price.split(".")
    number = units if cents == "00" else price
    return number if form == "bare" else "¥" + number


def hand_strokes(text: str, height_mm: float, rng: np.random.Generator) -> tuple[list[np.ndarray], float]:
    """`text` as marker strokes (mm, top-left at 0, 0): each character's strokes scaled to `height_mm`, slanted, a
    little off the baseline and off its size, every point jittered and the pen's path smoothed. Returns the
    strokes and the written width (mm)."""
    slant = float(rng.uniform(0.05, 0.25))
    x = 0.0
    strokes = []
    for ch in text:
        share, glyph = HAND_GLYPHS[ch]
        h = height_mm * float(rng.uniform(0.9, 1.08)) * (0.8 if ch == "¥" else 1.0)
        base = height_mm + float(rng.normal(0, 0.04 * height_mm))
        for stroke in glyph:
            pts = np.asarray(stroke, np.float64)
            dense = np.concatenate([np.linspace(a, b, 4, endpoint=False) for a, b in zip(pts[:-1], pts[1:])] + [pts[-1:]])
            dense = dense + rng.normal(0, 0.035, dense.shape)
            kernel = np.ones(3) / 3
            if len(dense) > 4:
                dense[1:-1] = np.stack([np.convolve(dense[:, k], kernel, mode="same") for k in range(2)], axis=1)[1:-1]
            px = x + dense[:, 0] * share * h + (1.0 - dense[:, 1]) * h * slant
            py = base - h + dense[:, 1] * h
            strokes.append(np.stack([px, py], axis=1))
        x += share * h + height_mm * float(rng.uniform(0.1, 0.2))
    return strokes, x


def write_by_hand(card: Card, x_mm: float, y_mm: float, text: str, height_mm: float, ink: Color, pen_mm: float,
                  rng: np.random.Generator) -> float:
    """Write `text` with a marker at (x, y) (top-left of the writing): round-nibbed strokes `pen_mm` wide, the ink
    thinner where the pen ran fast. Returns the width written (mm)."""
    strokes, width = hand_strokes(text, height_mm, rng)
    for stroke in strokes:
        pts = [(card.px_per_mm * (x_mm + a), card.px_per_mm * (y_mm + b)) for a, b in stroke]
        pen = max(1, int(round(pen_mm * card.px_per_mm * float(rng.uniform(0.85, 1.1)))))
        card.draw.line(pts, fill=ink, width=pen, joint="curve")
        r = pen / 2.0
        for px, py in (pts[0], pts[-1]):
            card.draw.ellipse((px - r, py - r, px + r, py + r), fill=ink)
    return width


def handwritten_price(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """Printed vertical tag (colon rows, EAN-13 with digits) whose price box was filled in by hand with a marker."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (40, 40, 44), (34, 52, 40)))
    card = Card(50, 96, px_per_mm, pick(rng, ((255, 255, 255), (248, 246, 240), (236, 230, 214))))
    card.texture(np.random.default_rng(style_seed + 1), 2.0, fibres=bool(rng.random() < 0.3))
    card.rounded(pick(rng, (1.5, 2.5)))
    card.hole(25, 5.8, 1.8, ring=pick(rng, (None, (200, 200, 204))))
    card.text(25, 10.5, v.brand, 6.0, ink, face, anchor="ma", max_w_mm=40, stroke=1)
    card.line(5, 18.0, 45, 18.0, ink, 0.2)
    rows = [("品名：", v.product_name, "product_name"), (pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
            (pick(rng, ("颜色：", "色号：")), v.color, "color"), (pick(rng, ("号型：", "规格：", "尺码：")), v.size, "size"),
            ("成分：", v.composition, "composition"), ("等级：", v.grade, "grade"), ("执行标准：", v.standard, "standard"),
            ("安全类别：", v.safety_category, "safety_category")]
    y = 20.5
    for label, value, _ in rows:
        row(card, 5, y, label, value, 2.8, ink, ink, face, value_face, 40, pitch=4.4)
        y += 4.4
    box = (5.0, y + 4.2, 45.0, y + 15.5)  # the price box, printed empty
    card.text(5, y + 0.6, pick(rng, ("零售价（元）", "零售价", "售价", "统一零售价")), 2.8, ink, face)
    card.rect(box, outline=ink, width_mm=0.25, radius_mm=pick(rng, (0.0, 1.0)))
    written = hand_price(v.price, pick(rng, ("yen", "yen", "bare")))
    marker = pick(rng, ((22, 22, 28), (20, 40, 150), (180, 24, 30)))
    height = float(rng.uniform(6.0, 7.5))
    hand_rng = np.random.default_rng(style_seed + 9)
    _, width = hand_strokes(written, height, np.random.default_rng(style_seed + 9))
    height *= min(1.0, 34.0 / width)
    _, width = hand_strokes(written, height, np.random.default_rng(style_seed + 9))
    left = box[0] + (box[2] - box[0] - width) * float(rng.uniform(0.2, 0.6))
    top = box[1] + (box[3] - box[1] - height) / 2 + float(rng.uniform(-0.6, 0.4))
    write_by_hand(card, left, top, written, height, marker, float(rng.uniform(0.45, 0.7)), hand_rng)
    ean_block(card, v.ean13, 7, 81.0, 36, 9.0, ink, value_face)
    fields = {name: value for _, value, name in rows}
    fields.update(price=written, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


# -- a dense tag: small type, care symbols, a QR code and an EAN-13 -------------------------------------------------

CARE_SYMBOLS = ("wash", "hand_wash", "no_bleach", "no_tumble", "iron", "dry_clean", "no_dry_clean", "line_dry")


def care_symbol(card: Card, kind: str, x_mm: float, y_mm: float, side_mm: float, ink: Color, face: str,
                detail: str = "") -> None:
    """One GB/T 8685 care symbol as a line icon in the square (x, y, side): 'wash' (a tub with its water line and
    `detail`, the temperature), 'hand_wash' (the tub with a hand's sweep in it), 'no_bleach' (a crossed triangle),
    'no_tumble' (a square round a circle, crossed), 'iron' (an iron with `detail` dots), 'dry_clean' (a circle
    with `detail`, its solvent letter), 'no_dry_clean' (a crossed circle), 'line_dry' (a square with a sagging
    line)."""
    s = side_mm
    lw = max(0.18, s * 0.045)
    smallest = card.smallest_print_px  # the figures inside a symbol are part of the pictogram, not print to read

    def p(u: float, v: float) -> tuple[int, int]:
        return card.px(x_mm + u * s), card.px(y_mm + v * s)

    def poly(points, closed: bool = False) -> None:
        pts = [p(u, v) for u, v in points] + ([p(*points[0])] if closed else [])
        card.draw.line(pts, fill=ink, width=card.px(lw), joint="curve")

    def cross() -> None:
        poly([(0.08, 0.1), (0.92, 0.92)])
        poly([(0.92, 0.1), (0.08, 0.92)])

    if kind in ("wash", "hand_wash"):
        poly([(0.04, 0.3), (0.16, 0.9), (0.84, 0.9), (0.96, 0.3)])
        poly([(0.1, 0.42)] + [(0.1 + 0.8 * t, 0.42 - 0.05 * float(np.sin(t * np.pi * 3))) for t in np.linspace(0, 1, 13)][1:])
        if kind == "wash":
            card.text(x_mm + 0.5 * s, y_mm + 0.5 * s, detail, s * 0.34, ink, face, anchor="ma")
        else:
            poly([(0.3, 0.28), (0.42, 0.05), (0.55, 0.28), (0.66, 0.12), (0.72, 0.34)])
    elif kind == "no_bleach":
        poly([(0.5, 0.06), (0.96, 0.9), (0.04, 0.9)], closed=True)
        cross()
    elif kind == "no_tumble":
        poly([(0.08, 0.08), (0.92, 0.08), (0.92, 0.92), (0.08, 0.92)], closed=True)
        card.draw.ellipse((*p(0.2, 0.2), *p(0.8, 0.8)), outline=ink, width=card.px(lw))
        cross()
    elif kind == "iron":
        poly([(0.04, 0.82), (0.96, 0.82), (0.9, 0.4), (0.36, 0.4), (0.2, 0.52), (0.04, 0.82)])
        poly([(0.56, 0.4), (0.6, 0.26), (0.9, 0.26)])
        dots = int(detail or "1")
        for k in range(dots):
            u = 0.55 + (k - (dots - 1) / 2) * 0.16
            card.draw.ellipse((*p(u - 0.045, 0.58), *p(u + 0.045, 0.67)), fill=ink)
    elif kind in ("dry_clean", "no_dry_clean"):
        card.draw.ellipse((*p(0.1, 0.1), *p(0.9, 0.9)), outline=ink, width=card.px(lw))
        if kind == "dry_clean":
            card.text(x_mm + 0.5 * s, y_mm + 0.27 * s, detail or "P", s * 0.45, ink, face, anchor="ma")
        else:
            cross()
    elif kind == "line_dry":
        poly([(0.08, 0.08), (0.92, 0.08), (0.92, 0.92), (0.08, 0.92)], closed=True)
        poly([(0.08 + 0.84 * t, 0.2 + 0.16 * float(np.sin(t * np.pi))) for t in np.linspace(0, 1, 9)])
    elif kind not in CARE_SYMBOLS:
        raise ValueError(f"care symbol: expected one of {CARE_SYMBOLS}, found {kind!r}; add its drawing here")
    card.smallest_print_px = smallest


def care_row(rng: np.random.Generator) -> list[tuple[str, str]]:
    """A garment's care instructions as printed: one washing symbol, then bleach, drying, ironing, dry cleaning."""
    wash = pick(rng, (("wash", "30"), ("wash", "40"), ("hand_wash", "")))
    dry = pick(rng, (("no_tumble", ""), ("line_dry", "")))
    clean = pick(rng, (("dry_clean", "P"), ("no_dry_clean", "")))
    return [wash, ("no_bleach", ""), dry, ("iron", pick(rng, ("1", "2"))), clean]


SLOGANS = ("自然 · 舒适 · 简约", "为生活而设计", "Live simply, wear well", "每一件都用心", "MADE FOR EVERYDAY")


def dense_tag(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """Small vertical tag packed full: brand line and slogan, every field in small type, a row of care symbols,
    a QR code beside the care row, an EAN-13 with its digits at the foot."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    latin = pick(rng, latin_font_names())
    ink = pick(rng, (BLACK, (44, 44, 48), (30, 40, 66)))
    grey = pick(rng, ((110, 110, 116), ink))
    card = Card(48, 92, px_per_mm, pick(rng, ((255, 255, 255), (248, 248, 246), (242, 238, 230))))
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (1.5, 2.5)))
    card.hole(24, 4.6, 1.5)
    brand = v.brand.upper() if v.brand.isascii() else v.brand
    card.text(24, 7.8, brand, 5.0, ink, latin if brand.isascii() else face, anchor="ma", max_w_mm=40, stroke=1)
    slogan = pick(rng, SLOGANS)
    card.text(24, 14.0, slogan, 2.2, grey, latin if slogan.isascii() else face, anchor="ma")
    card.line(3.5, 17.6, 44.5, 17.6, ink, 0.15)
    size = float(rng.uniform(2.0, 2.3))
    pitch = size * 1.5
    rows = [("品名：", v.product_name, "product_name"), (pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
            (pick(rng, ("颜色：", "色号：")), v.color, "color"), (pick(rng, ("号型：", "规格：")), v.size, "size"),
            ("成分：", v.composition, "composition"), ("等级：", v.grade, "grade"), ("执行标准：", v.standard, "standard"),
            ("安全类别：", v.safety_category, "safety_category")]
    y = 19.0
    for label, value, _ in rows:
        row(card, 3.5, y, label, value, size, ink, grey, face, value_face, 41, pitch=pitch)
        y += pitch
    card.text(3.5, y, pick(rng, ("产地：中国", "产地：浙江杭州", "产地：广东广州")), size, grey, face)
    y += pitch
    card.text(3.5, y, pick(rng, ("洗涤时请翻面，深浅色分开洗", "不可浸泡，低温熨烫", "首次洗涤可能有轻微浮色")), size, grey, face,
              max_w_mm=41)
    y += pitch + 0.6
    icon, top = 4.8, y
    for k, (kind, detail) in enumerate(care_row(rng)):
        care_symbol(card, kind, 3.8 + k * (icon + 1.0), top, icon, ink, latin, detail)
    card.qr_code(f"https://{v.brand.lower().replace('&', '').replace(' ', '')}.cn/t/{v.style_number}", 32.5, top,
                 12.0, ink)
    y = top + icon + 1.4
    price = money(v.price, pick(rng, ("yen", "yen", "yuan")))
    used = card.text(3.5, y + 0.7, pick(rng, ("零售价：", "吊牌价：")), 2.4, ink, face)
    card.text(3.5 + used + 0.5, y, price, 3.6, ink, value_face, max_w_mm=27 - used, stroke=1)
    ean_block(card, v.ean13, 7.0, max(top + 13.5, 68.0), 34.0, 9.5, ink, value_face)
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, brand=brand, ean13=v.ean13)
    return card.finish(fields)
