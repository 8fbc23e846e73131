"""Three designs added on 2026-12-03 (eleventh session), after the reader had been developed while looking at the
twenty-two in `designs`, `fresh_designs`, `third_designs`, `fourth_designs`, `fifth_designs` and `sixth_designs`: a
fresh yardstick nobody tuned for.

Each is a common sight on Chinese garment tags that the twenty-two do not show:

- `overprint_offset`: a blank 合格证 card bought pre-printed (brand, labels and the ruled lines of a form in the
  brand's ink) whose values were overprinted afterwards by a thermal-transfer or inkjet tag printer in its own
  monospace face and black ink, off register: every value (and the EAN-13 with its digits) shifted 1-4 mm from
  where the form meant it, the rules touching or crossing some of them;
- `glossy_hotspot`: a laminated, glossy tag photographed under a lamp: the lamp's reflection lies on the card as
  a bright blob or band that washes out part of the print (never the whole of one field) over a slight sheen
  gradient; EAN-13 with its digits;
- `string_occluded`: a tag whose string lies across its face (a doubled cotton cord from the hole with its knot,
  or a tagging gun's plastic pin with its T-bar), covering a little of some print (never so much of a field that
  a person could not read it) and casting a soft shadow; EAN-13 with its digits.

Fields as in `designs` (GB/T 29862 fields, GB 18401 安全类别, GB/T 1335 号型), values from `values`, printed
exactly as `fields` says. The hotspot and the string lie on the card (drawn in its art), so the scene and every
older design render as before.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from training.tagsets.canvas import Card, Color, TagArt
from training.tagsets.fifth_designs import printer_faces, printer_font
from training.tagsets.fonts import font, font_names, latin_font_files, latin_font_names
from training.tagsets.layout import BLACK, ean_block, money, pick
from training.tagsets.values import TagValues

Box = tuple[float, float, float, float]  # mm: x1, y1, x2, y2


def field_rows(v: TagValues, rng: np.random.Generator) -> list[tuple[str, str, str]]:
    """(label, value, field) of the eight labelled rows, label wording drawn per job."""
    return [("品名：", v.product_name, "product_name"), (pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
            (pick(rng, ("颜色：", "色号：")), v.color, "color"), (pick(rng, ("号型：", "规格：", "尺码：")), v.size, "size"),
            (pick(rng, ("成分：", "面料：")), v.composition, "composition"), ("等级：", v.grade, "grade"),
            ("执行标准：", v.standard, "standard"), ("安全类别：", v.safety_category, "safety_category")]


def cell_shares(card: Card, boxes: dict[str, Box], cover: np.ndarray, cell_mm: float,
                threshold: float = 0.5) -> dict[str, list[float]]:
    """For each field's box, cut into cells `cell_mm` wide (half an em: one digit or Latin letter, half a CJK
    character), the share of each cell's printed ink that lies where `cover` (0..1, card pixels) exceeds
    `threshold`: how much of each character a hotspot washes out or a string hides. Cells with hardly any ink (a
    space) are left out; the cells overlap (a quarter cell apart), so a character astride two is measured whole."""
    luma = np.asarray(card.image.convert("L"), np.float32)
    paper = float(np.mean(card.stock))
    cell = max(2, card.px(cell_mm))
    shares = {}
    for name, (x1, y1, x2, y2) in boxes.items():
        ys, xs = slice(card.px(y1), card.px(y2)), slice(card.px(x1), card.px(x2))
        ink = (paper - luma[ys, xs]) > 50
        hidden = ink & (cover[ys, xs] > threshold)
        cells = [(int(hidden[:, k:k + cell].sum()), int(ink[:, k:k + cell].sum()))
                 for k in range(0, max(1, ink.shape[1] - cell // 2), max(1, cell // 4))]  # overlapping: any character
        shares[name] = [h / n for h, n in cells if n >= 0.08 * cell * cell]
    return shares


def printed_rows(card: Card, x: float, y: float, rows, size: float, pitch: float, ink: Color, label_ink: Color,
                 face: str, value_face: str, max_w: float) -> tuple[dict[str, Box], float]:
    """Colon rows; returns each value's box (mm, for the hotspot and string checks) and the y after the last."""
    boxes = {}
    for label, value, name in rows:
        used = card.text(x, y, label, size, label_ink, face) + size * 0.2
        width = card.text(x + used, y, value, size, ink, value_face, max_w_mm=max_w - used, wrap_mm=pitch)
        two_lines = width < font(value_face, card.px(size)).getlength(value) / card.px_per_mm - 0.1
        boxes[name] = (x + used, y, x + used + width, y + size * (2.3 if two_lines else 1.15))
        y += pitch
    return boxes, y


# -- a pre-printed form overprinted off register --------------------------------------------------------------

def overprint_text(layer: Image.Image, px_per_mm: float, x: float, y: float, text: str, size_mm: float,
                   face: tuple[str, int], bold: bool) -> float:
    """One line in the tag printer's face on the overprint layer (black on white); returns its width (mm)."""
    f = printer_font(face[0], face[1], max(6, int(round(size_mm * px_per_mm))))
    draw = ImageDraw.Draw(layer)
    at = (int(round(x * px_per_mm)), int(round(y * px_per_mm)))
    draw.text(at, text, font=f, fill=(0, 0, 0))
    if bold:
        draw.text((at[0] + max(1, int(round(0.08 * px_per_mm))), at[1]), text, font=f, fill=(0, 0, 0))
    return f.getlength(text) / px_per_mm


def units_in_lines(text: str, room_mm: float, width_of) -> list[str]:
    """`text` on one line, or on two split between its units (a fibre stays with its share) when it is wider
    than `room_mm`: how tag-printer software sets a long fibre content into a two-line field."""
    if width_of(text) <= room_mm:
        return [text]
    words = text.split(" ")
    cuts = [k for k in range(2, len(words), 2)] if all(w.endswith("%") for w in words[1::2]) else list(range(1, len(words)))
    best = min(cuts, key=lambda k: max(width_of(" ".join(words[:k])), width_of(" ".join(words[k:]))), default=None)
    return [text] if best is None else [" ".join(words[:best]), " ".join(words[best:])]


def overprint_offset(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A pre-printed blank 合格证 (brand, labels, ruled lines) with every value overprinted by a tag printer off
    register; EAN-13 and digits overprinted with the rest."""
    rng = np.random.default_rng(style_seed)
    face = pick(rng, font_names())
    form_ink = pick(rng, ((150, 30, 42), (30, 50, 112), (28, 88, 62), (98, 62, 38), (64, 64, 70)))
    card = Card(56, 100, px_per_mm, pick(rng, ((252, 252, 248), (247, 245, 238), (255, 255, 255))))
    card.texture(np.random.default_rng(style_seed + 1), 1.8)
    card.rounded(pick(rng, (2.0, 3.0)))
    card.hole(28, 6.0, 2.0, ring=pick(rng, (None, form_ink)))
    brand = v.brand.upper() if v.brand.isascii() else v.brand
    card.text(28, 11.5, brand, 6.0, form_ink, face, anchor="ma", max_w_mm=44, stroke=1)
    card.text(28, 19.2, pick(rng, ("合格证", "产品合格证", "商品标识")), 3.0, form_ink, face, anchor="ma")
    card.line(4, 23.5, 52, 23.5, form_ink, 0.3)
    rows = field_rows(v, rng)
    label_size, pitch = 2.8, 5.4
    label_w = max(font(face, card.px(label_size)).getlength(lb) for lb, _, _ in rows) / px_per_mm
    value_x = 4 + label_w + 2.0  # where the form means a value to start
    y = 26.0
    slots = {}
    for label, _, name in rows:
        lines = 2 if name == "composition" else 1  # the form gives a fibre content two ruled lines
        card.text(4, y + 0.3, label, label_size, form_ink, face)
        for k in range(lines):
            card.line(value_x - 0.8, y + 3.6 + k * pitch, 52, y + 3.6 + k * pitch, form_ink, 0.18)
        slots[name] = y
        y += pitch * lines
    price_label = pick(rng, ("零售价：", "吊牌价："))
    card.text(4, y + 0.9, price_label, 3.0, form_ink, face)
    card.line(value_x - 0.8, y + 4.8, 52, y + 4.8, form_ink, 0.18)
    price_y = y
    ean_top = y + 7.6
    card.rect((3.5, ean_top - 0.8, 52.5, ean_top + 14.2), outline=form_ink, width_mm=0.15, radius_mm=1.0)

    # the tag printer's pass: its face, its ink, one offset for the whole pass
    printer = pick(rng, printer_faces())
    mono = [p for p in latin_font_files() if "Mono" in p.name]
    ascii_face = (str(mono[0]), 0) if rng.random() < 0.5 and mono else printer  # Latin values in its Latin face
    size = float(rng.uniform(2.8, 3.2))
    dx = float(rng.uniform(1.0, 4.0)) if rng.random() < 0.75 else -float(rng.uniform(1.0, 1.6))
    dy = float(rng.uniform(-1.0, 1.9))  # positive: down into the rule under the value
    bold = bool(rng.random() < 0.5)
    layer = Card(card.width_mm, card.height_mm, px_per_mm, (255, 255, 255))

    def width_of(text: str, use: tuple[str, int], mm: float) -> float:
        return printer_font(use[0], use[1], card.px(mm)).getlength(text) / px_per_mm

    fields = {}
    for _, value, name in rows:
        use = ascii_face if value.isascii() else printer
        room = 53.0 - value_x - max(dx, 0.0)
        if name == "composition":  # two ruled lines: a long content wraps between fibres
            lines, mm = units_in_lines(value, room, lambda t, u=use: width_of(t, u, size)), size
        else:  # one line: the printer's software shrinks a value to its field
            lines, mm = [value], min(size, size * room / width_of(value, use, size))
        for k, line in enumerate(lines):
            overprint_text(layer.image, px_per_mm, value_x + dx, slots[name] + 3.4 - mm + dy + k * pitch, line, mm,
                           use, bold)
            card.smallest_print_px = min(card.smallest_print_px, float(card.px(mm)))
        fields[name] = value
    price = money(v.price, pick(rng, ("yen", "yen", "yen_spaced", "rmb")))
    price_size = min(size * 1.25, size * 1.25 * (54.0 - value_x - max(dx, 0.0)) / width_of(price, ascii_face, size * 1.25))
    overprint_text(layer.image, px_per_mm, value_x + dx, price_y + 4.6 - price_size + dy, price, price_size, ascii_face,
                   True)
    layer.linear_code(v.ean13, "EAN-13", 10 + dx, ean_top + dy, 32, 9.0, (0, 0, 0))
    digits = f"{v.ean13[0]} {v.ean13[1:7]} {v.ean13[7:]}"
    overprint_text(layer.image, px_per_mm, 26 + dx - width_of(digits, ascii_face, 2.9) / 2, ean_top + dy + 9.5, digits,
                   2.9, ascii_face, False)
    card.smallest_print_px = min(card.smallest_print_px, float(card.px(2.9)), float(card.px(price_size)))
    _overprint(card, layer.image, pick(rng, ("thermal", "inkjet")), np.random.default_rng(style_seed + 5))
    card.barcodes += layer.barcodes
    fields.update(price=price, brand=brand, ean13=v.ean13)
    return card.finish(fields)


def _overprint(card: Card, layer: Image.Image, process: str, rng: np.random.Generator) -> None:
    """Multiply the printer's layer into the card, as ink on top of the pre-print: thermal-transfer ribbon
    (near-black, a few voids where the ribbon did not release) or inkjet (blue- or grey-black, a little spread,
    dot density uneven)."""
    ink = 1.0 - np.asarray(layer.convert("L"), np.float32) / 255.0
    if process == "inkjet":
        spread = max(0.4, 0.05 * card.px_per_mm)
        ink = np.asarray(Image.fromarray((ink * 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(spread)),
                         np.float32) / 255.0
        ink = np.clip(ink * 1.15, 0, 1) * rng.uniform(0.78, 1.0, ink.shape).astype(np.float32)
        colour = np.asarray(pick(rng, ((34, 34, 40), (30, 36, 72), (52, 52, 56))), np.float32)
    else:
        ink[rng.random(ink.shape) < 0.01] *= 0.4
        colour = np.asarray((16, 16, 18), np.float32)
    base = np.asarray(card.image, np.float32)
    out = base * (1.0 - ink[..., None]) + np.minimum(base, colour) * ink[..., None]
    card.image = Image.fromarray(np.clip(out + 0.5, 0, 255).astype(np.uint8))
    card.draw = ImageDraw.Draw(card.image)


# -- a glossy card under a lamp -------------------------------------------------------------------------------

def hotspot_cover(shape: tuple[int, int], px_per_mm: float, centre: tuple[float, float], half_axes: tuple[float, float],
                  angle_deg: float, peak: float, sheen: tuple[float, float, float]) -> np.ndarray:
    """How much of the lamp's light a glossy card reflects to the camera, 0..1 per card pixel: a reflection with
    a soft edge (`half_axes` in mm, turned `angle_deg`), its halo, and a sheen rising linearly across the card
    (direction in degrees, from and to, as shares), together never above `peak`. Print under the reflection keeps
    1 - `peak` of its contrast: washed out, still there for a person to read (the scene's lamp may brighten it
    further, and a camera clips what is brighter than white)."""
    h, w = shape
    y, x = np.mgrid[0:h, 0:w].astype(np.float32) / px_per_mm
    a = np.deg2rad(angle_deg)
    u = (x - centre[0]) * np.cos(a) + (y - centre[1]) * np.sin(a)
    t = -(x - centre[0]) * np.sin(a) + (y - centre[1]) * np.cos(a)
    r = np.sqrt((u / half_axes[0]) ** 2 + (t / half_axes[1]) ** 2)
    core = 1.0 / (1.0 + np.exp((r - 1.0) / 0.12))
    halo = 0.22 * np.exp(-0.5 * (r / 2.2) ** 2)
    d = np.deg2rad(sheen[0])
    ramp = x * np.cos(d) + y * np.sin(d)
    ramp = (ramp - ramp.min()) / max(float(ramp.max() - ramp.min()), 1e-6)
    return np.clip(peak * core + halo * peak + sheen[1] + (sheen[2] - sheen[1]) * ramp, 0.0, peak)


def glossy_hotspot(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A laminated glossy vertical tag (a colour panel with the brand in reverse, colon rows, price, EAN-13) with
    the lamp's reflection washing out part of the print."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    panel = pick(rng, ((24, 28, 36), (120, 24, 36), (22, 60, 96), (40, 72, 52), (150, 116, 70)))
    ink = pick(rng, (BLACK, (36, 36, 42), panel))
    card = Card(54, 94, px_per_mm, pick(rng, ((250, 250, 250), (246, 244, 240), (240, 240, 236))))
    card.texture(np.random.default_rng(style_seed + 1), 0.8)  # laminate: hardly any paper texture shows
    card.rounded(pick(rng, (2.5, 4.0)))
    card.rect((0, 0, 54, 22), fill=panel)
    card.hole(27, 5.5, 1.9, ring=pick(rng, (None, (214, 200, 150))))
    brand = v.brand.upper() if v.brand.isascii() else v.brand
    latin = pick(rng, latin_font_names())
    card.text(27, 10.5, brand, 6.5, (250, 248, 244), latin if brand.isascii() else face, anchor="ma", max_w_mm=44,
              stroke=1)
    rows = field_rows(v, rng)
    boxes, y = printed_rows(card, 5, 25.5, rows, 2.9, 4.7, ink, ink, face, value_face, 44)
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "rmb")))
    used = card.text(5, y + 1.0, pick(rng, ("零售价：", "吊牌价：", "统一零售价：")), 3.0, ink, face)
    width = card.text(5 + used + 0.6, y + 0.2, price, 4.4, ink, value_face, max_w_mm=42 - used, stroke=1)
    boxes["price"] = (5 + used + 0.6, y + 0.2, 5 + used + 0.6 + width, y + 5.2)
    ean_block(card, v.ean13, 8, 78.0, 38, 9.5, ink, value_face)
    code = card.barcodes[0].box
    h, w = card.image.size[1], card.image.size[0]
    cover = None
    for _ in range(60):  # a reflection on the print that leaves every field partly legible and the bars alone
        band = rng.random() < 0.4  # a tube lamp's long band, else a bulb's blob
        half = (float(rng.uniform(14, 24)), float(rng.uniform(1.8, 3.0))) if band else (
            float(rng.uniform(5, 9)), float(rng.uniform(3, 5.5)))
        centre = (float(rng.uniform(8, 46)), float(rng.uniform(16, 66)))  # on the rows, or the panel and the rows
        sheen = (float(rng.uniform(0, 360)), float(rng.uniform(0.0, 0.04)), float(rng.uniform(0.06, 0.16)))
        trial = hotspot_cover((h, w), px_per_mm, centre, half, float(rng.uniform(-60, 60)), float(rng.uniform(0.45, 0.58)),
                              sheen)
        washed = [[c > 0.5 for c in cells] for cells in cell_shares(card, boxes, trial, 1.45, 0.35).values()]
        most = max(sum(cells) / max(1, len(cells)) for cells in washed)
        bars = trial[int(code[1]):int(code[3]), int(code[0]):int(code[2])]
        if 0.0 < most <= 0.5 and bars.max() < 0.45:  # characters washed out, never most of one field
            cover = trial
            break
    if cover is None:  # the reflection off the print, on the panel's corner
        cover = hotspot_cover((h, w), px_per_mm, (44, 12), (7, 4), 20, 0.55, (90, 0.0, 0.08))
    glare = np.asarray(pick(rng, ((255, 255, 255), (255, 252, 244), (246, 250, 255))), np.float32)
    pixels = np.asarray(card.image, np.float32)
    out = pixels * (1.0 - cover[..., None]) + glare * cover[..., None]
    card.image = Image.fromarray(np.clip(out + 0.5, 0, 255).astype(np.uint8))
    card.draw = ImageDraw.Draw(card.image)
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, brand=brand, ean13=v.ean13)
    return card.finish(fields)


# -- a string lying across the card ---------------------------------------------------------------------------

def string_path(start: tuple[float, float], end: tuple[float, float], bow: float, n: int = 48) -> np.ndarray:
    """A string's centre line (mm) from `start` to `end`, bowed sideways by `bow` mm (a quadratic curve)."""
    s, e = np.asarray(start, np.float64), np.asarray(end, np.float64)
    normal = np.array([-(e - s)[1], (e - s)[0]]) / max(float(np.linalg.norm(e - s)), 1e-6)
    c = (s + e) / 2 + normal * bow
    t = np.linspace(0.0, 1.0, n)[:, None]
    return (1 - t) ** 2 * s + 2 * (1 - t) * t * c + t ** 2 * e


def draw_string(size: tuple[int, int], px_per_mm: float, kind: str, path: np.ndarray, colour: Color,
                rng: np.random.Generator) -> tuple[Image.Image, Image.Image]:
    """The string as RGB and its cover (L, 255 where it hides the card): a doubled cotton cord (two twisted
    strands side by side, a knot and two short tails at the end) or a tagging pin (a thin nylon filament ending
    in a T-bar)."""
    rgb = Image.new("RGB", size, (0, 0, 0))
    cover = Image.new("L", size, 0)
    d_rgb, d_cov = ImageDraw.Draw(rgb), ImageDraw.Draw(cover)
    pts = path * px_per_mm
    step = pts[-1] - pts[-2]
    step = step / max(float(np.linalg.norm(step)), 1e-6)
    normal = np.array([-step[1], step[0]])
    dark = tuple(int(c * 0.62) for c in colour)
    light = tuple(min(255, int(c * 1.1 + 20)) for c in colour)

    def stroke(points: np.ndarray, width_mm: float, fill: Color) -> None:
        flat = [tuple(map(float, p)) for p in points]
        wpx = max(1, int(round(width_mm * px_per_mm)))
        d_rgb.line(flat, fill=fill, width=wpx, joint="curve")
        d_cov.line(flat, fill=255, width=wpx, joint="curve")

    if kind == "cord":
        thick = float(rng.uniform(0.55, 0.75))
        for side in (-0.5, 0.5):  # the two strands of the doubled cord
            strand = pts + normal * side * thick * px_per_mm
            stroke(strand, thick, colour)
            seg = np.diff(strand, axis=0)
            length = np.concatenate([[0.0], np.cumsum(np.linalg.norm(seg, axis=1))])
            twist = max(2.0, 0.9 * px_per_mm)
            for at in np.arange(twist / 2, length[-1], twist):  # the twist: a shaded ply every ~0.9 mm
                k = min(int(np.searchsorted(length, at)), len(strand) - 1)
                p = strand[k]
                half = 0.42 * thick * px_per_mm
                d_rgb.line([tuple(p - normal * half - step * half * 0.6), tuple(p + normal * half + step * half * 0.6)],
                           fill=dark, width=max(1, int(round(0.22 * px_per_mm))))
        knot = pts[-1]
        r = 1.9 * thick * px_per_mm
        d_rgb.ellipse((*(knot - r), *(knot + r)), fill=colour, outline=dark, width=max(1, int(0.15 * px_per_mm)))
        d_cov.ellipse((*(knot - r), *(knot + r)), fill=255)
        for turn in (0.35, -0.35):  # two short tails past the knot
            c, s = np.cos(turn), np.sin(turn)
            tail_dir = np.array([step[0] * c - step[1] * s, step[0] * s + step[1] * c])
            tail = np.array([knot, knot + tail_dir * float(rng.uniform(3.0, 5.0)) * px_per_mm])
            stroke(tail, thick * 0.9, colour)
    else:
        thick = float(rng.uniform(0.4, 0.55))
        stroke(pts, thick, colour)
        d_rgb.line([tuple(map(float, p + normal * 0.12 * px_per_mm)) for p in pts], fill=light,
                   width=max(1, int(round(0.15 * px_per_mm))))
        bar = float(rng.uniform(9.0, 12.0)) / 2 * px_per_mm
        end = pts[-1]
        stroke(np.array([end - normal * bar, end + normal * bar]), float(rng.uniform(0.9, 1.2)), colour)
    return rgb, cover


def lay_string(card: Card, boxes: dict[str, Box], code: tuple[float, float, float, float], hole: tuple[float, float],
               kind: str, colour: Color, rng: np.random.Generator, pen_seed: int) -> tuple[Image.Image, Image.Image]:
    """Where the string falls, drawn (see `draw_string`): from the hole down across the print so that it hides a
    sliver of some characters (3-20 % of the worst half-em cell's ink in the fields' `boxes`), never enough of one
    for a person to misread it (a string over half an 8 makes a 3), and none of the bars (`code`, card pixels);
    failing that, sideways over the brand, above the rows."""
    for _ in range(200):
        path = string_path(hole, (float(rng.uniform(7, 43)), float(rng.uniform(38, 74))), float(rng.uniform(-8, 8)))
        rgb, cover = draw_string(card.image.size, card.px_per_mm, kind, path, colour, np.random.default_rng(pen_seed))
        hidden = np.asarray(cover, np.float32) / 255.0
        worst = max((max(cells, default=0.0) for cells in cell_shares(card, boxes, hidden, 1.45).values()), default=0.0)
        bars = hidden[max(0, int(code[1]) - 2):int(code[3]) + 2, max(0, int(code[0]) - 2):int(code[2]) + 2]
        if 0.03 <= worst <= 0.2 and not bars.any():
            return rgb, cover
    return draw_string(card.image.size, card.px_per_mm, kind, string_path(hole, (pick(rng, (6.0, 44.0)), 15.5), 1.5),
                       colour, np.random.default_rng(pen_seed))


def string_occluded(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical tag (colon rows, price, EAN-13) with its string or tagging pin lying across the print."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    stock, ink = pick(rng, (((252, 252, 248), BLACK), ((246, 242, 232), (40, 36, 34)), ((200, 176, 140), (36, 30, 26)),
                            ((236, 238, 240), (30, 40, 64))))
    card = Card(50, 95, px_per_mm, stock)
    card.texture(np.random.default_rng(style_seed + 1), 2.0, fibres=stock[0] < 220)
    card.rounded(pick(rng, (1.5, 3.0)))
    hole = (25.0, 6.5)
    card.hole(*hole, 2.0, ring=pick(rng, (None, (210, 210, 214), (190, 160, 96))))
    brand = v.brand.upper() if v.brand.isascii() else v.brand
    card.text(25, 12.0, brand, 6.0, ink, face, anchor="ma", max_w_mm=40, stroke=1)
    card.line(5, 20.0, 45, 20.0, ink, 0.2)
    rows = field_rows(v, rng)
    boxes, y = printed_rows(card, 5, 22.5, rows, 2.9, 4.8, ink, ink, face, value_face, 41)
    price = money(v.price, pick(rng, ("yen", "yen", "yuan")))
    used = card.text(5, y + 1.0, pick(rng, ("零售价：", "吊牌价：")), 3.0, ink, face)
    width = card.text(5 + used + 0.6, y + 0.2, price, 4.4, ink, value_face, max_w_mm=38 - used, stroke=1)
    boxes["price"] = (5 + used + 0.6, y + 0.2, 5 + used + 0.6 + width, y + 5.2)
    ean_block(card, v.ean13, 7, 80.0, 36, 9.0, ink, value_face)
    code = card.barcodes[0].box
    kind = "cord" if rng.random() < 0.6 else "pin"
    colour = pick(rng, ((244, 242, 234), (28, 28, 30), (170, 30, 36), (176, 140, 92))) if kind == "cord" else pick(
        rng, ((236, 236, 232), (30, 30, 32), (214, 222, 226)))
    size = card.image.size
    rgb, cover = lay_string(card, boxes, code, hole, kind, colour, rng, style_seed + 3)
    reach = max(1.0, float(rng.uniform(0.6, 1.4)) * px_per_mm)
    shadow = cover.filter(ImageFilter.GaussianBlur(max(0.8, float(rng.uniform(0.5, 0.9)) * px_per_mm)))
    angle = float(rng.uniform(0, 2 * np.pi))
    shadow = shadow.transform(size, Image.AFFINE, (1, 0, -reach * np.cos(angle), 0, 1, -reach * np.sin(angle)))
    depth = float(rng.uniform(0.3, 0.5))
    pixels = np.asarray(card.image, np.float32) * (1.0 - depth * np.asarray(shadow, np.float32)[..., None] / 255.0)
    card.image = Image.fromarray(np.clip(pixels + 0.5, 0, 255).astype(np.uint8))
    card.image.paste(rgb, (0, 0), cover)
    card.mask = Image.fromarray(np.maximum(np.asarray(card.mask), np.asarray(cover)))  # the string over the hole
    card.draw = ImageDraw.Draw(card.image)
    fields = {name: value for _, value, name in rows}
    fields.update(price=price, brand=brand, ean13=v.ean13)
    return card.finish(fields)
