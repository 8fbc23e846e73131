"""Three designs added on 2026-12-05 (twenty-third session), after the reader had been developed while looking at the
forty-nine in `designs` and the batches after it: a fresh yardstick nobody tuned for.

Each is a common sight on Chinese garment tags that the forty-nine do not show:

- `woven_label`: a **woven** (织唛) satin label carrying the 合格证 fields, hung as the tag: every character is
  thread, so its edges step at the weft's pitch (0.28–0.38 mm a pick), the ground shows the satin's binding points
  and each pick's roundness, and the cloth is slightly stretched (rows and columns wave by up to 0.3 mm); the
  price and the EAN-13 on a shop's white paper sticker at its foot;
- `cij_inkjet`: a pre-printed 合格证 whose **variable fields** (货号, 颜色, 号型/尺码, the price, a batch line) are
  added on the packing line by a **continuous inkjet (CIJ) coder**: Latin and digits in a 5×7 dot matrix, Chinese in
  a 16×16 one, every character a grid of round drops, the line's baseline wavy (the tag moved under the head), the
  block off the form's register;
- `spec_line`: a tag whose **SKU line** prints several fields on one line parted by spaces only, with no labels
  (`KX-203188   黑色   L 170/92A`), the size **in two systems at once** (`L 170/92A`, `M(165/88A)`,
  `EU 38 / CN 165/84A`, `170/92A (L)`); the recipe names one of them (truth's `values` hold the recipe's part).

Fields as in `designs`, values from `values`, printed exactly as `fields` says. Faces are `fonts` faces only. Nothing
here changes the scene or any older design.
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from training.tagsets.canvas import Card, Color, TagArt
from training.tagsets.eighth_designs import width_mm
from training.tagsets.fifteenth_designs import LETTER_RUN
from training.tagsets.fonts import font_files, font_names, latin_font_names
from training.tagsets.layout import BLACK, ean_block, money, pick
from training.tagsets.values import TagValues

def unit_lines(text: str, room_mm: float, width_of) -> list[str]:
    """`text` in as many lines no wider than `room_mm` as it needs, broken between its units (a fibre stays with
    its share), as label software wraps a long field; a unit wider than the room keeps a line of its own."""
    words = text.split(" ")
    units = [" ".join(words[k:k + 2]) for k in range(0, len(words), 2)] if all(
        w.endswith("%") for w in words[1::2]) else words
    lines: list[str] = []
    for unit in units:
        if lines and width_of(lines[-1] + " " + unit) <= room_mm:
            lines[-1] += " " + unit
        else:
            lines.append(unit)
    return lines


# -- a woven label ---------------------------------------------------------------------------------------------

WARP_MM = 0.12  # a woven label's warp threads: about 80 to the centimetre


def weave(mask: np.ndarray, ground: Color, thread: Color, px_per_mm: float, pick_mm: float,
          rng: np.random.Generator) -> np.ndarray:
    """The woven cloth (RGB float, at the mask's scale) of a text mask (0…1): a cell of the thread grid (a warp
    across, a pick down) floats the pattern thread where the mask covers at least 0.42 of it, so the print's edges
    step at the pick's pitch; each pick is shaded round, the ground's satin shows a binding point every eighth warp
    on a diagonal, and a sheen runs across the cloth."""
    h, w = mask.shape
    cols, rows = max(1, int(round(w / (WARP_MM * px_per_mm)))), max(1, int(round(h / (pick_mm * px_per_mm))))
    cover = cv2.resize(mask.astype(np.float32), (cols, rows), interpolation=cv2.INTER_AREA)
    floats = cv2.resize((cover >= 0.42).astype(np.uint8), (w, h), interpolation=cv2.INTER_NEAREST).astype(np.float32)
    y = (np.arange(h) + 0.5) / (h / rows)
    pick_row, across = np.floor(y).astype(int), y % 1.0
    x = (np.arange(w) + 0.5) / (w / cols)
    warp_col, along = np.floor(x).astype(int), x % 1.0
    round_pick = (0.8 + 0.2 * np.sin(np.pi * across))[:, None]
    round_warp = (0.93 + 0.07 * np.sin(np.pi * along))[None, :]
    binding = ((warp_col[None, :] + 5 * pick_row[:, None]) % 8 == 0).astype(np.float32)
    ground_shade = round_pick * (1.0 - 0.12 * binding)
    thread_shade = round_pick * round_warp
    angle = rng.uniform(0, np.pi)
    sheen = 1.0 + rng.uniform(0.03, 0.07) * np.cos(
        (np.arange(w)[None, :] * np.cos(angle) + np.arange(h)[:, None] * np.sin(angle)) / max(w, h) * np.pi * 2)
    g, t = np.asarray(ground, np.float32), np.asarray(thread, np.float32)
    cloth = (floats[..., None] * t * thread_shade[..., None] + (1 - floats[..., None]) * g * ground_shade[..., None])
    return cloth * sheen[..., None]


def stretched(image: np.ndarray, px_per_mm: float, rng: np.random.Generator) -> np.ndarray:
    """The cloth pulled a little out of true: rows shift sideways and columns up or down along slow waves of up
    to 0.3 mm, as a woven label hangs."""
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    ax, ay = (float(rng.uniform(0.12, 0.3)) * px_per_mm for _ in range(2))
    lx, ly = (float(rng.uniform(25, 60)) * px_per_mm for _ in range(2))
    px_, py_ = rng.uniform(0, 2 * np.pi, 2)
    map_x = xs + ax * np.sin(2 * np.pi * ys / lx + px_)
    map_y = ys + ay * np.sin(2 * np.pi * xs / ly + py_)
    return cv2.remap(image.astype(np.float32), map_x.astype(np.float32), map_y.astype(np.float32), cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_REFLECT)


def woven_label(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A woven satin label (46×100 mm) hung as the tag: brand, 合格证 and colon rows woven in one thread colour on a
    satin ground, a selvedge down each side, a stitched fold or an eyelet at the top; a shop's white sticker with
    the price and the EAN-13 at its foot."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ground, thread = pick(rng, (((24, 24, 28), (236, 232, 220)), ((22, 32, 64), (232, 226, 208)),
                                ((242, 240, 234), (28, 28, 32)), ((232, 220, 196), (70, 44, 30)),
                                ((250, 250, 248), (30, 42, 96)), ((110, 22, 34), (240, 228, 200))))
    w, h = 46.0, 100.0
    fine = max(px_per_mm, 14.0)  # threads are drawn at 14 px/mm at least, then seen at the frame's scale
    layer = Card(w, h, fine, (0, 0, 0))
    white: Color = (255, 255, 255)
    top = pick(rng, ("fold", "eyelet"))
    latin = pick(rng, latin_font_names()) if v.brand.isascii() else face
    layer.text(w / 2, 9.0, v.brand.upper() if v.brand.isascii() else v.brand, 6.0, white, latin, anchor="ma",
               max_w_mm=36, stroke=1)
    layer.text(w / 2, 17.0, pick(rng, ("合格证", "产品合格证", "CERTIFICATE 合格证")), 2.8, white, face, anchor="ma")
    size, pitch, x, right = 2.8, 4.7, 4.5, w - 4.5
    rows = [("品名：", v.product_name, "product_name"), (pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
            (pick(rng, ("颜色：", "色号：")), v.color, "color"), (pick(rng, ("号型：", "规格：", "尺码：")), v.size, "size"),
            (pick(rng, ("成分：", "面料：")), v.composition, "composition"), ("等级：", v.grade, "grade"),
            ("执行标准：", v.standard, "standard"), (pick(rng, ("安全类别：", "安全技术类别：")), v.safety_category,
                                                     "safety_category")]
    fields: dict[str, str] = {}
    y = 22.5
    for label, value, name in rows:
        used = layer.text(x, y, label, size, white, face)
        room = right - x - used - 0.5
        lines = unit_lines(value, room, lambda t: width_mm(layer, t, size, value_face))
        if len(lines) > 2 or max(width_mm(layer, t, size, value_face) for t in lines) > room:  # under its label
            used, y = 2.5, y + 3.4
            room = right - x - used - 0.5
            lines = unit_lines(value, room, lambda t: width_mm(layer, t, size, value_face))
        for k, line in enumerate(lines):
            layer.text(x + used + 0.5, y + 3.4 * k, line, size, white, value_face, max_w_mm=room)
        fields[name] = " ".join(lines)
        y += pitch + 3.4 * (len(lines) - 1)
    mask = np.asarray(layer.image, np.float32)[..., 0] / 255.0
    cloth = weave(mask, ground, thread, fine, float(rng.uniform(0.28, 0.38)), rng)
    selvedge = int(round(0.7 * fine))
    cloth[:, :selvedge] *= 0.86
    cloth[:, -selvedge:] *= 0.86
    cloth = stretched(cloth, fine, rng)
    size_px = (max(1, int(round(w * px_per_mm))), max(1, int(round(h * px_per_mm))))
    card = Card(w, h, px_per_mm, ground)
    card.image = Image.fromarray(np.clip(cv2.resize(cloth, size_px, interpolation=cv2.INTER_AREA) + 0.5, 0,
                                         255).astype(np.uint8))
    card.draw = ImageDraw.Draw(card.image)
    card.smallest_print_px = layer.smallest_print_px * px_per_mm / fine
    if top == "fold":  # the end folded over and stitched
        card.rect((0, 0, w, 3.2), fill=tuple(int(c * 0.8) for c in ground))
        for sx in np.arange(1.5, w - 1.0, 2.4):
            card.line(sx, 3.9, sx + 1.4, 3.9, tuple(int(c * 0.55) for c in ground), 0.3)
    else:
        card.hole(w / 2, 3.6, 1.5, ring=(188, 186, 180))
    sticker = Card(38.0, 23.0, px_per_mm, pick(rng, ((255, 255, 255), (250, 250, 246))))
    sticker.rounded(1.0)
    price = money(v.price, pick(rng, ("yen", "yen", "yen_spaced", "yuan")))
    used = sticker.text(2.0, 1.6, pick(rng, ("零售价", "吊牌价", "售价")), 2.6, BLACK, face)
    sticker.text(2.0 + used + 1.0, 0.9, price, 4.0, BLACK, value_face, max_w_mm=36 - used - 1.0, stroke=1)
    ean_block(sticker, v.ean13, 3.0, 7.0, 32.0, 10.5, BLACK, value_face)
    card.stick(sticker, w / 2 + float(rng.uniform(-1.0, 1.0)), min(max(y + 13.5, 84.0), h - 12.0),
               float(rng.uniform(1.0, 3.0)) * pick(rng, (-1, 1)))
    fields.update(price=price, brand=v.brand.upper() if v.brand.isascii() else v.brand, ean13=v.ean13)
    return card.finish(fields)


# -- a continuous inkjet coder's dot-matrix print --------------------------------------------------------------

# A CIJ coder's 5×7 matrix for Latin letters, digits and the signs a tag's fields need: seven rows, '#' a drop.
DOTS_5X7 = {
    "0": ".###. #...# #..## #.#.# ##..# #...# .###.", "1": "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",
    "2": ".###. #...# ....# ...#. ..#.. .#... #####", "3": "##### ...#. ..#.. ...#. ....# #...# .###.",
    "4": "...#. ..##. .#.#. #..#. ##### ...#. ...#.", "5": "##### #.... ####. ....# ....# #...# .###.",
    "6": "..##. .#... #.... ####. #...# #...# .###.", "7": "##### ....# ...#. ..#.. .#... .#... .#...",
    "8": ".###. #...# #...# .###. #...# #...# .###.", "9": ".###. #...# #...# .#### ....# ...#. .##..",
    "A": ".###. #...# #...# ##### #...# #...# #...#", "B": "####. #...# #...# ####. #...# #...# ####.",
    "C": ".###. #...# #.... #.... #.... #...# .###.", "D": "###.. #..#. #...# #...# #...# #..#. ###..",
    "E": "##### #.... #.... ####. #.... #.... #####", "F": "##### #.... #.... ####. #.... #.... #....",
    "G": ".###. #...# #.... #.### #...# #...# .####", "H": "#...# #...# #...# ##### #...# #...# #...#",
    "I": ".###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.", "J": "..### ...#. ...#. ...#. ...#. #..#. .##..",
    "K": "#...# #..#. #.#.. ##... #.#.. #..#. #...#", "L": "#.... #.... #.... #.... #.... #.... #####",
    "M": "#...# ##.## #.#.# #.#.# #...# #...# #...#", "N": "#...# #...# ##..# #.#.# #..## #...# #...#",
    "O": ".###. #...# #...# #...# #...# #...# .###.", "P": "####. #...# #...# ####. #.... #.... #....",
    "Q": ".###. #...# #...# #...# #.#.# #..#. .##.#", "R": "####. #...# #...# ####. #.#.. #..#. #...#",
    "S": ".#### #.... #.... .###. ....# ....# ####.", "T": "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
    "U": "#...# #...# #...# #...# #...# #...# .###.", "V": "#...# #...# #...# #...# #...# .#.#. ..#..",
    "W": "#...# #...# #...# #.#.# #.#.# #.#.# .#.#.", "X": "#...# #...# .#.#. ..#.. .#.#. #...# #...#",
    "Y": "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..", "Z": "##### ....# ...#. ..#.. .#... #.... #####",
    "-": "..... ..... ..... .###. ..... ..... .....", ".": "..... ..... ..... ..... ..... .##.. .##..",
    "/": "..... ....# ...#. ..#.. .#... #.... .....", ":": "..... .##.. .##.. ..... .##.. .##.. .....",
    "%": "##... ##..# ...#. ..#.. .#... #..## ...##", "(": "...#. ..#.. .#... .#... .#... ..#.. ...#.",
    ")": ".#... ..#.. ...#. ...#. ...#. ..#.. .#...", "¥": "#...# .#.#. ..#.. ##### ..#.. ##### ..#..",
    " ": "..... ..... ..... ..... ..... ..... .....",
}


def _matrix(pattern: str) -> np.ndarray:
    return np.array([[c == "#" for c in row] for row in pattern.split(" ")], bool)


@lru_cache(maxsize=256)
def cjk_matrix(char: str, dots: int = 16) -> np.ndarray:
    """A Chinese character as a CIJ coder's `dots`×`dots` matrix: the bitmap a sharp CJK face draws at that size."""
    files = {p.name: str(p) for p in font_files()}
    path, index = (files["wqy-zenhei.ttc"], 2) if "wqy-zenhei.ttc" in files else (str(font_files()[0]), 0)
    f = ImageFont.truetype(path, dots, index=index)
    image = Image.new("1", (dots, dots), 0)
    draw = ImageDraw.Draw(image)
    draw.fontmode = "1"
    draw.text((dots / 2, dots / 2), char, font=f, fill=1, anchor="mm")
    return np.asarray(image, bool)


def cij_columns(text: str) -> list[np.ndarray]:
    """Each character of `text` as its drop matrix, top row first: 5×7 for Latin, digits and signs (and a gap
    column after each), 16×16 for a Chinese character (the coder prints both in one line, bottoms aligned)."""
    out = []
    for char in text:
        if char in DOTS_5X7:
            out.append(np.pad(_matrix(DOTS_5X7[char]), ((0, 0), (0, 1))))
        else:
            out.append(np.pad(cjk_matrix(char), ((0, 0), (0, 2))))
    return out


def cij_width_mm(text: str, pitch_mm: float, cjk_pitch_mm: float) -> float:
    return sum(m.shape[1] * (pitch_mm if m.shape[0] == 7 else cjk_pitch_mm) for m in cij_columns(text))


def cij_line(ink: np.ndarray, fine: float, x_mm: float, baseline_mm: float, text: str, pitch_mm: float,
             cjk_pitch_mm: float, wave: tuple[float, float, float], rng: np.random.Generator) -> float:
    """Drops of one CIJ line into `ink` (coverage, at `fine` px/mm), the characters' bottoms on a baseline that
    waves (amplitude mm, wavelength mm, phase) as the tag moved under the head; each drop round, a little off
    its place, now and then a satellite beside it. Returns the line's width (mm)."""
    layer = Image.fromarray(np.zeros(ink.shape, np.uint8))
    draw = ImageDraw.Draw(layer)
    x = x_mm
    amp, length, phase = wave
    for m in cij_columns(text):
        p = pitch_mm if m.shape[0] == 7 else cjk_pitch_mm
        r = 0.56 * p
        for j in range(m.shape[1]):
            cx = x + (j + 0.5) * p
            base = baseline_mm + amp * math.sin(2 * math.pi * cx / length + phase)
            for i in np.nonzero(m[:, j])[0]:
                cy = base - (m.shape[0] - i - 0.5) * p
                dx, dy = rng.normal(0, 0.06 * p, 2)
                px, py, pr = (cx + dx) * fine, (cy + dy) * fine, r * fine
                draw.ellipse((px - pr, py - pr, px + pr, py + pr), fill=255)
                if rng.random() < 0.03:  # a satellite drop
                    sx, sy = px + rng.normal(0, 1.2 * pr), py + rng.normal(0, 1.2 * pr)
                    draw.ellipse((sx - pr / 3, sy - pr / 3, sx + pr / 3, sy + pr / 3), fill=255)
        x += m.shape[1] * p
    np.maximum(ink, np.asarray(layer, np.float32) / 255.0, out=ink)
    return x - x_mm


def cij_inkjet(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical pre-printed 合格证 (56×100 mm): the brand, the labels and the style's fixed fields printed with the
    form in one ink; 货号, 颜色, 号型 and the price (and a batch line) added by a CIJ coder in dot-matrix characters,
    the block off register and its baselines wavy; the EAN-13 with the form."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    form_ink = pick(rng, (BLACK, (28, 40, 96), (130, 30, 36), (40, 70, 50), (70, 70, 74)))
    cij_ink = pick(rng, ((16, 16, 20), (24, 28, 44), (20, 20, 24)))
    w, h = 56.0, 100.0
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (249, 248, 243), (242, 243, 245))))
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (1.5, 3.0)))
    card.hole(w / 2, 5.5, 1.8)
    card.text(w / 2, 9.5, v.brand, 6.0, form_ink, face, anchor="ma", max_w_mm=44, stroke=1)
    card.text(w / 2, 17.0, pick(rng, ("合格证", "产品合格证")), 3.0, form_ink, face, anchor="ma")
    card.line(5, 21.2, w - 5, 21.2, form_ink, 0.22)
    size, pitch, x, right = 2.7, 5.2, 5.0, w - 5.0
    coded = {"style_number", "color", "size", "price"}
    price = money(v.price, "yen")
    rows = [("品名：", v.product_name, "product_name"), (pick(rng, ("货号：", "款号：")), v.style_number, "style_number"),
            (pick(rng, ("颜色：", "色号：")), v.color, "color"), (pick(rng, ("号型：", "尺码：", "规格：")), v.size, "size"),
            ("成分：", v.composition, "composition"), ("等级：", v.grade, "grade"), ("执行标准：", v.standard, "standard"),
            (pick(rng, ("安全类别：", "安全技术类别：")), v.safety_category, "safety_category"),
            (pick(rng, ("零售价：", "吊牌价：")), price, "price")]
    labels_w = max(width_mm(card, label, size, face) for label, _, _ in rows)
    frame = rng.random() < 0.5  # the form frames the coder's fields
    fields: dict[str, str] = {}
    coder_rows: list[tuple[float, str]] = []
    y = 23.5
    for label, value, name in rows:
        card.text(x, y, label, size, form_ink, face)
        if name in coded:
            coder_rows.append((y, value))
            if frame:
                card.rect((x + labels_w + 0.2, y - 1.1, right, y + 4.1), outline=form_ink, width_mm=0.15)
            fields[name] = value
            y += pitch
            continue
        room = right - x - labels_w - 0.6
        lines = unit_lines(value, room, lambda t: width_mm(card, t, size, value_face))
        for k, line in enumerate(lines):
            card.text(x + labels_w + 0.6, y + 3.3 * k, line, size, form_ink, value_face, max_w_mm=room)
        fields[name] = " ".join(lines)
        y += pitch + 3.3 * (len(lines) - 1)
    batch = f"{pick(rng, ('P', 'L', ''))}{int(rng.integers(2025, 2027))}{int(rng.integers(1, 13)):02d}{int(rng.integers(1, 29)):02d}"
    card.text(x, y, pick(rng, ("批号：", "生产批号：")), size, form_ink, face)
    coder_rows.append((y, batch + pick(rng, ("", " 03", "-A1"))))
    ean_block(card, v.ean13, 9.0, max(y + 6.0, 82.0), 38.0, min(9.0, h - 4.5 - max(y + 6.0, 82.0)), form_ink,
              value_face)
    # the coder: one pass over the block, off the form's register
    fine = max(px_per_mm, 12.0)
    ink = np.zeros((int(round(h * fine)), int(round(w * fine))), np.float32)
    pitch_mm, cjk_pitch = float(rng.uniform(0.42, 0.5)), float(rng.uniform(0.2, 0.23))
    dx, dy = float(rng.uniform(-0.4, 2.0)), float(rng.uniform(-0.6, 0.9))
    wave = (float(rng.uniform(0.08, 0.3)), float(rng.uniform(14, 40)), float(rng.uniform(0, 2 * np.pi)))
    value_x = x + labels_w + 1.0 + dx
    for row_y, text in coder_rows:
        room = right - value_x
        pitches = (pitch_mm, cjk_pitch)
        natural = cij_width_mm(text, *pitches)
        if natural > room:  # the coder's narrower font where a value would overrun
            pitches = (pitch_mm * room / natural, cjk_pitch * room / natural)
        cij_line(ink, fine, value_x, row_y + 3.3 + dy, text, pitches[0], pitches[1], wave, rng)
    cover = cv2.resize(ink, card.image.size, interpolation=cv2.INTER_AREA)[..., None] * 0.92
    pixels = np.asarray(card.image, np.float32) * (1 - cover) + np.asarray(cij_ink, np.float32) * cover
    card.image = Image.fromarray(np.clip(pixels + 0.5, 0, 255).astype(np.uint8))
    card.draw = ImageDraw.Draw(card.image)
    lowest = min(7 * pitch_mm, 16 * cjk_pitch) * px_per_mm
    card.smallest_print_px = min(card.smallest_print_px, lowest)
    fields.update(brand=v.brand, ean13=v.ean13)
    return card.finish(fields)


# -- a SKU line: fields parted by spaces, the size in two systems ----------------------------------------------

WIDE_RUN = ("XXS", *LETTER_RUN, "4XL")  # heights 150 … 190: a wrong size's neighbour may fall outside 155 … 185


def both_systems(size: str, form: str, men: bool) -> str:
    """`size` printed with its twin in the other system: a letter with the A body's 号型 at its height, a 号型 with
    the letter (or the EU size: women's 38 and men's 50 at 165 and 175 cm) at its height; `form` picks how the two
    are set."""
    if size in WIDE_RUN or size == "2XL":
        k = WIDE_RUN.index("XXL" if size == "2XL" else size)
        letter, hao = size, f"{150 + 5 * k}/{76 + 4 * k}A"
    else:
        height = int(size.split("/")[0])
        letter, hao = WIDE_RUN[(height - 150) // 5], size
    height = int(hao.split("/")[0])
    if form == "space" or (form == "eu" and letter == size):  # the EU form drops the letter: only for a 号型
        return f"{letter} {hao}"
    if form == "paren":
        return f"{letter}({hao})"
    if form == "after":
        return f"{hao} ({letter})"
    eu = (height - 165) // 5 * 2 + (46 if men else 38)
    return f"EU {eu} / CN {hao}"


def spec_line(style_seed: int, v: TagValues, px_per_mm: float) -> TagArt:
    """A vertical tag (54×94 mm): the brand, the 品名 large, then the **SKU line**: the style number, the colour and
    the size parted by wide spaces, unlabelled (under small column heads on some jobs), the size in two systems;
    the other fields in colon rows; the price; the EAN-13."""
    rng = np.random.default_rng(style_seed)
    face, value_face = pick(rng, font_names()), pick(rng, font_names())
    ink = pick(rng, (BLACK, (34, 34, 40), (28, 36, 70)))
    grey = pick(rng, ((120, 120, 126), (140, 136, 130)))
    w, h = 54.0, 94.0
    card = Card(w, h, px_per_mm, pick(rng, ((255, 255, 255), (248, 246, 240), (236, 238, 240))))
    card.texture(np.random.default_rng(style_seed + 1), 1.6)
    card.rounded(pick(rng, (2.0, 3.5)))
    card.hole(w / 2, 5.8, 1.8)
    card.text(w / 2, 10.0, v.brand, 6.2, ink, face, anchor="ma", max_w_mm=42, stroke=1)
    x, right = 4.5, w - 4.5
    card.text(x, 20.0, v.product_name, 3.6, ink, face, max_w_mm=right - x, stroke=1)
    men = v.product_name.startswith("男")
    size_printed = both_systems(v.size, pick(rng, ("space", "paren", "after", "eu")), men)
    gap = pick(rng, ("   ", "  ", "    "))
    tokens = [(v.style_number, "style_number", pick(rng, ("款号", "货号", "STYLE"))),
              (v.color, "color", pick(rng, ("颜色", "COLOUR"))), (size_printed, "size", pick(rng, ("尺码", "SIZE")))]
    if rng.random() < 0.4:
        tokens = [tokens[1], tokens[2], tokens[0]]
    heads = rng.random() < 0.4
    line_size = 3.2
    text = gap.join(t for t, _, _ in tokens)
    room = right - x
    natural = width_mm(card, text, line_size, value_face)
    if natural > room:
        line_size = max(2.4, line_size * room / natural * 0.99)
    y = 26.5
    if heads:  # small grey column heads over the tokens
        at = x
        for token, _, head in tokens:
            card.text(at, y, head, 2.0, grey, face)
            at += width_mm(card, token + gap, line_size, value_face)
        y += 2.8
    card.text(x, y, text, line_size, ink, value_face, max_w_mm=room, stroke=1 if rng.random() < 0.5 else 0)
    fields = {name: token for token, name, _ in tokens}
    card.line(x, y + line_size + 1.4, right, y + line_size + 1.4, grey, 0.15)
    size, pitch = 2.7, 4.5
    y += line_size + 3.0
    rows = [(pick(rng, ("成分：", "面料成分：")), v.composition, "composition"), ("等级：", v.grade, "grade"),
            ("执行标准：", v.standard, "standard"),
            (pick(rng, ("安全类别：", "安全技术类别：")), v.safety_category, "safety_category")]
    for label, value, name in rows:
        used = card.text(x, y, label, size, ink, face)
        room = right - x - used - 0.5
        lines = unit_lines(value, room, lambda t: width_mm(card, t, size, value_face))
        for k, line in enumerate(lines):
            card.text(x + used + 0.5, y + 3.4 * k, line, size, ink, value_face, max_w_mm=room)
        fields[name] = " ".join(lines)
        y += pitch + 3.4 * (len(lines) - 1)
    price = money(v.price, pick(rng, ("yen", "yen", "yuan", "rmb")))
    used = card.text(x, y + 1.2, pick(rng, ("零售价：", "吊牌价：")), 3.0, ink, face)
    card.text(x + used + 0.6, y, price, 4.8, ink, value_face, max_w_mm=right - x - used - 0.6, stroke=1)
    ean_top = max(y + 8.0, 74.0)
    ean_block(card, v.ean13, 8.0, ean_top, 38.0, min(10.0, h - 4.5 - ean_top), ink, value_face)
    fields.update(product_name=v.product_name, price=price, brand=v.brand, ean13=v.ean13)
    return card.finish(fields)
