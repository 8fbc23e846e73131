"""Three designs added on 2026-12-05 (twenty-eighth session), after the reader had been developed while looking at the
seventy-six in `designs`: a fresh yardstick nobody tuned for. Each is a tag a real line meets that none of the
seventy-six is:

- `shoe_tag`: a shoe's hangtag (鞋吊牌, after QB/T 2673 鞋类产品标识): the size as a **shoe size** (`尺码：39`, the
  EU/Chinese 码 36-44) or as the **Chinese mondopoint in mm** (`鞋码：245`, GB/T 3293.1, 5 mm steps), the other
  system or the foot length beside it (`脚长：245mm`, `（欧码39）`, numbers no recipe checks); the materials **by
  part** (帮面 the upper, the recipe's `composition`; 内里 the lining and 外底/鞋底 the sole under it, in no field);
  a footwear standard (QB/T 1002-2015 皮鞋, GB/T 15107-2013 旅游鞋, QB/T 2955-2017 休闲鞋) and **no 安全类别** (GB 18401
  covers textiles, not adult shoes);
- `half_shadow`: a plain colon-row tag photographed with **part of the card in a shadow**: a hanger's or a rail's
  straight edge across it, a bar's band, or a hand's (a palm and fingers reaching in from an edge), soft-edged
  (penumbra 0.8-3 mm), the shade 38-60 % darker and a little cooler than the lit part (lit by the room, not the
  lamp); over print and bars alike, as a shadow falls;
- `steep_angle`: a plain colon-row tag photographed **at a steep angle**: the card turned 30-48° about its vertical
  or its horizontal middle line, seen from 2-5 card widths, so it is foreshortened across the turn and **tapers**
  towards the far edge (rows shrink along their length, or lines crowd towards the far end), lit a little less on
  the far side.

Fields as in `designs`, values from `values` (the shoe's from `shoe_values`), printed exactly as `fields` says (a
long value wrapped between its units keeps its words). The shadow and the turn lie on the card's art, so the scene
and every older design render as before.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from training.tagsets.canvas import Card, SymbolArt, TagArt
from training.tagsets.fonts import font_names
from training.tagsets.layout import BLACK, ean_block, money, pick
from training.tagsets.sixth_designs import warped_across
from training.tagsets.twentyfourth_designs import _field_rows, colon_rows
from training.tagsets.values import TagValues

# -- a shoe's hangtag --------------------------------------------------------------------------------------------

SHOE_EU = tuple(str(k) for k in range(36, 45))  # 36-44, women's and men's
SHOE_MM = {str(eu): 230 + 5 * (eu - 36) for eu in range(35, 46)}  # 36 → 230 mm ... 44 → 270 mm (GB/T 3293.1)
# product, its standard, and the materials of the upper a maker of that shoe names
SHOES = (("男士皮鞋", "QB/T 1002-2015", ("牛皮革", "头层牛皮革", "羊皮革")),
         ("女式单鞋", "QB/T 1002-2015", ("羊皮革", "牛皮革", "超细纤维合成革")),
         ("跑步鞋", "GB/T 15107-2013", ("纺织物", "网布", "纺织物/合成革")),
         ("运动鞋", "GB/T 15107-2013", ("纺织物/合成革", "超细纤维合成革", "网布")),
         ("休闲鞋", "QB/T 2955-2017", ("牛皮革", "超细纤维合成革", "帆布")),
         ("板鞋", "QB/T 2955-2017", ("超细纤维合成革", "牛皮革")))
LININGS = ("猪皮革", "纺织物", "网布", "羊皮革", "超细纤维")
SOLES = ("橡胶", "EVA", "橡胶/EVA", "聚氨酯(PU)", "TPR")


def shoe_values(rng: np.random.Generator, v: TagValues) -> TagValues:
    """A shoe's values: the size in 码 (`39`) or in mm (`245`, two jobs in five), a shoe's name, its standard and the
    upper's material as `composition`; the grade a shoe's (合格品 or 一等品)."""
    name, standard, uppers = SHOES[int(rng.integers(len(SHOES)))]
    eu = pick(rng, SHOE_EU)
    size = str(SHOE_MM[eu]) if rng.random() < 0.4 else eu
    return v.replace(size=size, product_name=name, standard=standard, composition=pick(rng, uppers),
                     grade=pick(rng, ("合格品", "合格品", "一等品")))


def other_system(size: str) -> tuple[str, str]:
    """(eu, mm) of a shoe size given in either system: `39` → ('39', '245'), `245` → ('39', '245'); a mix-up's
    neighbour past the table's ends (`45`, `275`) keeps its own steps."""
    if int(size) < 100:
        return size, str(230 + 5 * (int(size) - 36))
    return str(36 + (int(size) - 230) // 5), size


def shoe_tag(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A shoe's hangtag (52×92 mm): brand, colon rows with the size as a shoe size or in mm and the other beside it,
    the upper, lining and sole materials row by row, a footwear standard, the price and the EAN-13."""
    if not v.size.isdigit():  # values drawn for a garment: a shoe's own, from the style seed
        v = shoe_values(np.random.default_rng(style_seed), v)
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (30, 34, 60), (58, 40, 30)))
    stock = pick(rng, ((255, 255, 255), (246, 243, 234), (236, 232, 224), (232, 236, 240)))
    w, h = 52.0, 92.0
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 1.8)
    card.rounded(pick(rng, (2.0, 3.0, 5.0)))
    card.hole(w / 2, 5.5, 1.9, ring=pick(rng, (None, (210, 210, 212))))
    card.text(w / 2, 10.0, v.brand, 6.0, ink, face, anchor="ma", max_w_mm=w - 12, stroke=1)
    card.text(w / 2, 17.2, pick(rng, ("合格证", "产品合格证", "鞋类产品标识")), 2.8, ink, face, anchor="ma")
    eu, mm = other_system(v.size)
    if v.size == eu:
        size_row = (pick(rng, ("尺码", "鞋码", "码数")), eu)
        beside = pick(rng, (("脚长", f"{mm}mm"), ("中国码", mm), None))
    else:
        size_row = (pick(rng, ("鞋码", "尺码", "中国鞋码")), mm)
        beside = pick(rng, (("欧码", eu), ("脚长", f"{mm}mm"), None))
    upper = pick(rng, ("帮面材质", "帮面", "鞋面材料"))
    rows = [("品名", v.product_name, "product_name"), (pick(rng, ("货号", "款号")), v.style_number, "style_number"),
            ("颜色", v.color, "color"), (size_row[0], size_row[1], "size")]
    if beside:
        rows.append((beside[0], beside[1], None))
    rows += [(upper, v.composition, "composition"), (pick(rng, ("内里材质", "内里", "里料")), pick(rng, LININGS), None),
             (pick(rng, ("外底材质", "鞋底", "大底材料")), pick(rng, SOLES), None), ("等级", v.grade, "grade"),
             (pick(rng, ("执行标准", "产品标准")), v.standard, "standard")]
    colon = pick(rng, ("：", ": "))
    printed, y = colon_rows(card, 5.0, 22.0, w - 4.5, rows, 2.8, 4.4, ink, ink, face, value_face, colon)
    fields = {name: printed[name] for _, _, name in rows if name}
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "yen_spaced")))
    used = card.text(5.0, y + 1.2, pick(rng, ("零售价：", "吊牌价：", "统一零售价：")), 3.0, ink, face)
    card.text(5.0 + used + 0.6, y + 0.3, price, 4.6, ink, value_face, max_w_mm=w - 10.0 - used, stroke=1)
    ean_block(card, v.ean13, 7.0, h - 16.0, w - 14.0, 9.5, BLACK, value_face)
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


# -- a plain colon-row card the shadow and the turn are drawn on ------------------------------------------------

def _plain_card(rng: np.random.Generator, style_seed: int, v: TagValues, px_per_mm: float,
                w: float = 54.0, h: float = 96.0) -> tuple[Card, dict[str, str]]:
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (30, 34, 60), (52, 40, 34)))
    stock = pick(rng, ((253, 253, 250), (246, 243, 234), (240, 242, 244), (236, 228, 214)))
    card = Card(w, h, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (2.0, 3.0)))
    card.hole(w / 2, 5.5, 1.8)
    card.text(w / 2, 10.0, v.brand, 6.2, ink, face, anchor="ma", max_w_mm=w - 12, stroke=1)
    card.line(5.0, 18.5, w - 5.0, 18.5, ink, 0.25)
    rows = [(label, value, name) for label, value, name in _field_rows(v, rng)]
    fields, y = colon_rows(card, 5.0, 21.5, w - 4.5, rows, 2.8, 4.6, ink, ink, face, value_face,
                           pick(rng, ("：", ": ", " ")))
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "rmb", "yen_spaced")))
    used = card.text(5.0, y + 1.2, pick(rng, ("零售价：", "吊牌价：", "统一零售价：")), 3.0, ink, face)
    card.text(5.0 + used + 0.6, y + 0.3, price, 4.6, ink, value_face, max_w_mm=w - 10.0 - used, stroke=1)
    ean_block(card, v.ean13, 8.0, h - 16.0, w - 16.0, 9.5, BLACK, value_face)
    fields.update(price=price, brand=v.brand, ean13=v.ean13)
    return card, fields


# -- a shadow over part of the card ----------------------------------------------------------------------------

SHADOW_TINT = np.array([1.0, 0.96, 0.88], np.float32)  # the shade is lit by the room, bluer than the lamp


def shadow_cover(shape: tuple[int, int], px_per_mm: float, kind: str, rng: np.random.Generator) -> np.ndarray:
    """Where a shadow falls on a card of `shape` (card pixels), 0 (lit) .. 1 (in full shade), its edge softened by a
    penumbra of 0.8-3 mm: `edge` a straight edge across the card (a hanger's or a shelf's) with one side in shade,
    `bar` a band 9-18 mm wide across it (a hanger's bar, a rail), `hand` a palm and four fingers reaching in from a
    side edge."""
    h, w = shape
    mask = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(mask)
    mm = px_per_mm
    if kind == "edge":  # through a point in the card's middle band, at any angle: one side in shade
        cx, cy = w * rng.uniform(0.35, 0.65), h * rng.uniform(0.35, 0.65)
        angle = rng.uniform(0, math.pi)
        d = np.array([math.cos(angle), math.sin(angle)])
        n = np.array([-d[1], d[0]]) * (1 if rng.random() < 0.5 else -1)
        far = 3 * (w + h)
        p = np.array([cx, cy])
        draw.polygon([tuple(p - d * far), tuple(p + d * far), tuple(p + d * far + n * far),
                      tuple(p - d * far + n * far)], fill=255)
    elif kind == "bar":
        cx, cy = w * rng.uniform(0.3, 0.7), h * rng.uniform(0.3, 0.7)
        angle = rng.uniform(-0.6, 0.6) + (math.pi / 2 if rng.random() < 0.3 else 0.0)
        d = np.array([math.cos(angle), math.sin(angle)])
        n = np.array([-d[1], d[0]]) * rng.uniform(9, 18) * mm / 2
        far = 3 * (w + h)
        p = np.array([cx, cy])
        draw.polygon([tuple(p - d * far + n), tuple(p + d * far + n), tuple(p + d * far - n), tuple(p - d * far - n)],
                     fill=255)
    else:  # a hand from the left or the right edge: the palm beyond it, fingers over the card
        from_left = rng.random() < 0.5
        cy = h * rng.uniform(0.35, 0.65)
        palm_x = -12 * mm if from_left else w + 12 * mm
        draw.ellipse((palm_x - 22 * mm, cy - 28 * mm, palm_x + 22 * mm, cy + 28 * mm), fill=255)
        sign = 1 if from_left else -1
        for k, length in enumerate(rng.uniform(22, 34, 4)):
            fy = cy + (k - 1.5) * 9.5 * mm + rng.uniform(-1, 1) * mm
            tip = palm_x + sign * (18 * mm + length * mm)
            draw.line((palm_x, fy, tip, fy + rng.uniform(-3, 3) * mm), fill=255, width=int(7.5 * mm))
            draw.ellipse((tip - 3.7 * mm, fy - 3.7 * mm, tip + 3.7 * mm, fy + 3.7 * mm), fill=255)
    soft = mask.filter(ImageFilter.GaussianBlur(max(0.8, rng.uniform(0.8, 3.0) * mm / 2)))
    return np.asarray(soft, np.float32) / 255.0


def in_shadow(card: Card, cover: np.ndarray, depth: float) -> None:
    """The card's light cut by `depth` (0..1) where `cover` says, the shade a little cooler: print and stock alike."""
    pixels = np.asarray(card.image, np.float32)
    gain = 1.0 - depth * cover[..., None] * SHADOW_TINT
    card.image = Image.fromarray(np.clip(pixels * gain + 0.5, 0, 255).astype(np.uint8))
    card.draw = ImageDraw.Draw(card.image)


def half_shadow(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A plain colon-row tag (54×96 mm), part of it in the shadow of a hanger's edge, a bar or a hand."""
    rng = np.random.default_rng(style_seed)
    card, fields = _plain_card(rng, style_seed, v, px_per_mm)
    kind = pick(rng, ("edge", "edge", "bar", "hand"))
    h, w = card.image.size[1], card.image.size[0]
    cover = shadow_cover((h, w), px_per_mm, kind, np.random.default_rng(style_seed + 7))
    in_shadow(card, cover, float(rng.uniform(0.38, 0.6)))
    return card.finish(fields)


# -- a card seen at a steep angle -----------------------------------------------------------------------------

def turn_map(width_px: int, angle_rad: float, distance_px: float, far_first: bool):
    """The forward map of a flat card `width_px` across, turned `angle_rad` about its middle line and seen from
    `distance_px` in front of that line: (x'(s), scale(s)) of the position s along the card (card pixels), the
    projected x and the perspective scale (1 at the nearest edge, less towards the far one). `far_first`: the edge
    at s = 0 is the far one."""
    half = width_px / 2.0
    sign = 1.0 if far_first else -1.0

    def depth(s):
        return distance_px + sign * (half - np.asarray(s, np.float64)) * math.sin(angle_rad)

    nearest = distance_px - half * math.sin(angle_rad)

    def scale(s):
        return nearest / depth(s)

    def x(s):
        return (np.asarray(s, np.float64) - half) * math.cos(angle_rad) * scale(s)

    return x, scale


def _transposed(art: TagArt) -> TagArt:
    def swap(box):
        return (box[1], box[0], box[3], box[2])

    return TagArt(np.ascontiguousarray(np.transpose(art.rgba, (1, 0, 2))), dict(art.fields),
                  tuple(SymbolArt(c.format, c.text, swap(c.box)) for c in art.barcodes),
                  tuple(SymbolArt(c.format, c.text, swap(c.box)) for c in art.qr), art.smallest_print_px)


def turned(art: TagArt, angle_rad: float, distance_widths: float, far: str, far_gain: float) -> TagArt:
    """`art` turned `angle_rad` about its vertical middle line (`far` 'left' or 'right': that edge recedes) or its
    horizontal one ('top', 'bottom'), seen from `distance_widths` of the turned dimension; lit `far_gain` at the far
    edge, 1 at the near one. The smallest print shrinks by the far edge's scale (and by the turn's cosine where
    lines crowd along the turn)."""
    across = far in ("left", "right")
    flat = art if across else _transposed(art)
    w = flat.rgba.shape[1]
    x_of, scale_of = turn_map(w, angle_rad, distance_widths * w, far in ("left", "top"))
    far_s = 0.0 if far in ("left", "top") else float(w)

    def light(s):
        return 1.0 - (1.0 - far_gain) * (1.0 - np.abs(np.asarray(s) - far_s) / w)

    out = warped_across(flat, x_of, scale_of, light, np.array([0.0, float(w)]))
    if not across:
        out = _transposed(out)
        out = TagArt(out.rgba, out.fields, out.barcodes, out.qr, out.smallest_print_px * math.cos(angle_rad))
    return out


def steep_angle(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A plain colon-row tag (54×96 mm) photographed at a steep angle: turned 30-48° about its vertical or horizontal
    middle line, from 2-5 widths away, foreshortened and tapering to the far edge."""
    rng = np.random.default_rng(style_seed)
    far = pick(rng, ("left", "right", "left", "right", "top", "bottom"))
    angle = math.radians(float(rng.uniform(30, 48)))
    distance, far_gain = float(rng.uniform(2.0, 5.0)), float(rng.uniform(0.84, 0.97))
    if far in ("top", "bottom"):  # the card seen nearer, so every job's card is as tall in the frame (the writer
        x_of, _ = turn_map(1000, angle, distance * 1000.0, far == "top")  # scales a design by one height)
        px_per_mm /= float(x_of(1000.0) - x_of(0.0)) / 1000.0
    card, fields = _plain_card(rng, style_seed, v, px_per_mm)
    return turned(card.finish(fields), angle, distance, far, far_gain)
