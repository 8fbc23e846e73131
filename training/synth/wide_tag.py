"""Cards of many designs for the wide training domain: layouts, typefaces, stocks and die-cuts.

A *design* is a (layout, typeface) pair. `design_split` keeps whole designs out of training — one
layout and one typeface never appear in any training scene — so the validation score says how the
detector does on designs it has not seen, not on new seeds of known ones.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from training.synth.content import LABELS, draw_fields
from training.synth.fonts import cjk_faces, face, latin_faces
from training.synth.tag import DARK_INKS, DARK_PAPERS, LIGHT_INKS, LIGHT_PAPERS, TagCanvas, _Layout, _paper_texture, _punch_hole

LAYOUTS = ("classic", "codes_first", "band", "western", "minimal", "ledger", "framed")
HELD_OUT_LAYOUT = "ledger"
HELD_OUT_FACE = "KaitiM"  # a brush (kai) face; the test set's own kai face is a different font
COLOR_STOCKS = ((200, 30, 40), (250, 200, 40), (30, 80, 160), (20, 110, 70), (240, 120, 30), (120, 60, 140),
                (180, 180, 184), (230, 210, 180))
# Share of fronts whose price and codes sit on a panel of their own (a printed block of another colour, or
# a tinted box), a common convention on horizontal tags: the panel is part of the card and never a tag by
# itself. 0 (the default) draws no extra random numbers, so sets written before it keep their bytes.
PANEL_SHARE = float(os.environ.get("HTS_SYNTH_PANEL_SHARE", "0") or 0)
PANEL_LAYOUTS = ("classic", "band", "minimal", "framed")
# Share of fronts printed heavy: the price in faux bold (the face's strokes thickened, as label printers
# embolden a face that has no bold), sometimes in an accent colour, and the size large in a ruled box.
# Dense vertical strokes of heavy numerals read as bars at 640 px; they are print, never a barcode. 0 (the
# default) draws no extra random numbers, so sets written before it keep their bytes.
HEAVY_SHARE = float(os.environ.get("HTS_SYNTH_HEAVY_SHARE", "0") or 0)
ACCENT_INKS = ((30, 60, 150), (20, 100, 60), (170, 30, 40), (200, 90, 20))
SHAPES = ("rect", "rounded", "clipped", "arch", "notched", "oval", "octagon", "shield", "slim", "square", "scallop")
SHAPE_P = (0.16, 0.18, 0.1, 0.06, 0.06, 0.07, 0.07, 0.06, 0.08, 0.08, 0.08)


@dataclass(frozen=True)
class Design:
    layout: str
    regular: str  # font file paths
    bold: str

    @property
    def name(self) -> str:
        return f"{self.layout}/{Path(self.regular).stem.split('-')[0]}"


def _face_pairs() -> list[tuple[str, str]]:
    """(regular, bold) per CJK family; a family with one weight uses it for both."""
    by_family: dict[str, list[str]] = {}
    for path in cjk_faces():
        by_family.setdefault(Path(path).stem.split("-")[0], []).append(path)
    return [(min(p, key=lambda s: "Bold" in s), max(p, key=lambda s: "Bold" in s)) for _, p in sorted(by_family.items())]


def design_split() -> tuple[list[Design], list[Design]]:
    """(training designs, held-out designs). Latin-only 'western' uses the DejaVu faces."""
    train, held = [], []
    latin = latin_faces()
    for layout in LAYOUTS:
        pairs = [(latin[0], latin[min(1, len(latin) - 1)]), (latin[-1], latin[-1])] if layout == "western" else _face_pairs()
        for regular, bold in pairs:
            design = Design(layout, regular, bold)
            out = layout == HELD_OUT_LAYOUT or HELD_OUT_FACE in Path(regular).name
            (held if out else train).append(design)
    return train, held


class _FaceLayout(_Layout):
    def __init__(self, *args, design: Design, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.design = design

    def fitted_font(self, text: str, size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
        path = self.design.bold if bold else self.design.regular
        f = face(path, size)
        length = f.getlength(text)
        if length > self.width:
            f = face(path, int(size * self.width / length))
        return f

    heavy = False

    def price(self, text: str, size: int, align: str = "left") -> None:
        """The price line: bold, or on a heavy front in faux bold, sometimes in an accent colour."""
        if not self.heavy:
            self.text(text, size, bold=True, align=align)
            return
        rng = self.rng
        f = self.fitted_font(text, size, True)
        stroke = max(1, int(round(f.size * rng.uniform(0.03, 0.08))))
        ink = ACCENT_INKS[int(rng.integers(len(ACCENT_INKS)))] if rng.random() < 0.4 and sum(self.ink) < 300 else self.ink
        x = {"left": self.x0 + stroke, "center": (self.x0 + self.x1) / 2, "right": self.x1 - stroke}[align]
        anchor = {"left": "la", "center": "ma", "right": "ra"}[align]
        self.draw.text((x, self.y), text, font=f, fill=ink, anchor=anchor, stroke_width=stroke, stroke_fill=ink)
        self.y += int(f.size * 1.45 + 2 * stroke)

    def boxed_size(self, label: str, value: str) -> None:
        """A size printed large in a ruled box after its label ('规格 [165/96A]'), as horizontal tags do."""
        rng, mm = self.rng, self.mm
        size = int(mm * rng.uniform(3.5, 5.5))
        label_font = self.fitted_font(label, int(size * 0.6))
        value_font = self.fitted_font(value, size, rng.random() < 0.5)
        pad = int(mm * rng.uniform(0.8, 1.6))
        bx = self.x0 + int(label_font.getlength(label)) + int(mm)
        bw = int(value_font.getlength(value)) + 2 * pad
        if bx + bw > self.x1:
            return
        self.draw.text((self.x0, self.y + pad + size // 2), label, font=label_font, fill=self.ink, anchor="lm")
        self.draw.rectangle((bx, self.y, bx + bw, self.y + size + 2 * pad), outline=self.ink, width=max(1, int(mm * 0.35)))
        self.draw.text((bx + pad, self.y + pad + size // 2), value, font=value_font, fill=self.ink, anchor="lm")
        self.y += size + 2 * pad + int(mm * 1.5)


def _shape(draw: ImageDraw.ImageDraw, w: int, h: int, shape: str, mm: float) -> None:
    if shape == "rounded":
        draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=int(mm * float(np.clip(w / mm / 8, 2, 9))), fill=255)
    elif shape == "clipped":
        c = int(min(w, h) * 0.18)
        draw.polygon([(c, 0), (w - 1 - c, 0), (w - 1, c), (w - 1, h - 1), (0, h - 1), (0, c)], fill=255)
    elif shape == "arch":
        r = w // 2
        draw.rectangle((0, min(r, h // 2), w - 1, h - 1), fill=255)
        draw.pieslice((0, 0, w - 1, 2 * min(r, h // 2)), 180, 360, fill=255)
    elif shape == "notched":
        n = int(mm * 3)
        draw.rectangle((0, 0, w - 1, h - 1), fill=255)
        for y in (h // 3, 2 * h // 3):
            draw.pieslice((-n, y - n, n, y + n), 270, 90, fill=0)
            draw.pieslice((w - 1 - n, y - n, w - 1 + n, y + n), 90, 270, fill=0)
    elif shape == "oval":
        draw.ellipse((0, 0, w - 1, h - 1), fill=255)
    elif shape == "octagon":
        c = int(min(w, h) * 0.22)
        draw.polygon([(c, 0), (w - 1 - c, 0), (w - 1, c), (w - 1, h - 1 - c), (w - 1 - c, h - 1), (c, h - 1),
                      (0, h - 1 - c), (0, c)], fill=255)
    elif shape == "shield":
        draw.polygon([(0, 0), (w - 1, 0), (w - 1, int(h * 0.8)), (w // 2, h - 1), (0, int(h * 0.8))], fill=255)
    elif shape == "scallop":
        r = max(2, int(mm * 2))
        draw.rectangle((r, r, w - 1 - r, h - 1 - r), fill=255)
        for x in range(r, w - r + 1, 2 * r):
            draw.ellipse((x - r, 0, x + r, 2 * r), fill=255)
            draw.ellipse((x - r, h - 1 - 2 * r, x + r, h - 1), fill=255)
        for y in range(r, h - r + 1, 2 * r):
            draw.ellipse((0, y - r, 2 * r, y + r), fill=255)
            draw.ellipse((w - 1 - 2 * r, y - r, w - 1, y + r), fill=255)
    else:
        draw.rectangle((0, 0, w - 1, h - 1), fill=255)


def _stock(rng: np.random.Generator) -> tuple[tuple, tuple, str]:
    """(paper, ink, finish): light, dark with light print, or coloured stock; matte or glossy."""
    r = rng.random()
    if r < 0.5:
        paper, ink = LIGHT_PAPERS[int(rng.integers(len(LIGHT_PAPERS)))], DARK_INKS[int(rng.integers(len(DARK_INKS)))]
    elif r < 0.75:
        paper, ink = DARK_PAPERS[int(rng.integers(len(DARK_PAPERS)))], LIGHT_INKS[int(rng.integers(len(LIGHT_INKS)))]
    else:
        paper = COLOR_STOCKS[int(rng.integers(len(COLOR_STOCKS)))]
        ink = (250, 250, 250) if sum(paper) < 420 and rng.random() < 0.7 else (20, 20, 24)
    paper = tuple(int(np.clip(c + rng.normal(0, 6), 0, 255)) for c in paper)
    return paper, ink, "glossy" if rng.random() < 0.3 else "matte"


WESTERN_LINES = (("style_number", "STYLE NO. {}", "ART. {}"), ("size", "SIZE {}", "SIZE: {}"),
                 ("color", "COLOUR {}", "COL. {}"), ("composition", "100% COTTON", "FABRIC: 95% COTTON 5% ELASTANE"))


def _lines(rng: np.random.Generator, fields: dict[str, str], layout: str) -> list[tuple[str, str]]:
    colon = ("：", ": ", " ", "")[int(rng.choice(4, p=(0.55, 0.2, 0.15, 0.1)))]
    keys = ["product_name", "style_number", "color", "size", "composition", "standard", "safety_category", "grade"]
    if layout == "minimal":
        keys = list(rng.choice(keys[:4], int(rng.integers(1, 3)), replace=False))
    else:
        rng.shuffle(keys[2:5])
        keys = keys[:int(rng.integers(4, 9))]
    return [(k, f"{LABELS[k][int(rng.integers(len(LABELS[k])))]}{colon}{fields[k]}") for k in keys]


def render_wide_card(rng: np.random.Generator, px_per_mm: float, design: Design, *, back_side: bool | None = None) -> TagCanvas:
    """One card of `design`, with a random stock, die-cut, size and code mix."""
    fields = draw_fields(rng)
    mm = float(px_per_mm)
    panel = PANEL_SHARE > 0 and design.layout in PANEL_LAYOUTS and rng.random() < PANEL_SHARE
    shape = SHAPES[int(rng.choice(len(SHAPES), p=SHAPE_P))]
    landscape = shape not in ("slim", "arch", "shield") and rng.random() < (0.6 if panel else 0.25)
    if shape == "slim":
        w_mm, h_mm = rng.uniform(28, 40), rng.uniform(90, 130)
    elif shape == "square":
        w_mm = h_mm = rng.uniform(50, 80)
    elif landscape:
        w_mm, h_mm = rng.uniform(70, 105), rng.uniform(40, 62)
    else:
        w_mm = rng.uniform(40, 70)
        h_mm = w_mm * rng.uniform(1.3, 2.1)
    w, h = int(w_mm * mm), int(h_mm * mm)
    paper, ink, finish = _stock(rng)
    patch = (255, 255, 255) if sum(paper) < 600 or rng.random() < 0.25 else None
    rgb = Image.new("RGB", (w, int(h * 2.2)), paper)
    labels = Image.new("L", (w, int(h * 2.2)), 0)
    inset = 0.16 if shape in ("oval", "octagon", "scallop") else 0.0
    hole_r = rng.uniform(1.5, 3.0) * mm
    hole = (6.5 * mm + inset * w, h / 2) if landscape else (w / 2, 6.5 * mm + inset * h * 0.5)
    margin = int(rng.uniform(2.5, 5.5) * mm + inset * min(w, h) * 0.6)
    x0, top = (int(hole[0] + hole_r + 3 * mm), margin) if landscape else (margin, int(hole[1] + hole_r + 2.5 * mm))
    x1 = w - margin
    back = (rng.random() < 0.12) if back_side is None else back_side
    panel = panel and not back
    if landscape and not back:
        x1 = int(x0 + (w - x0 - margin) * 0.55)
    layout = _FaceLayout(rng, rgb, labels, mm, ink, x0, x1, top, design=design)
    layout.heavy = HEAVY_SHARE > 0 and not back and rng.random() < HEAVY_SHARE
    printed: dict[str, str | None] = {key: None for key in fields}
    draw = layout.draw

    if design.layout == "band":
        band_h = int(mm * rng.uniform(9, 16))
        band_ink = ink if sum(ink) < 300 or sum(paper) < 300 else COLOR_STOCKS[int(rng.integers(len(COLOR_STOCKS)))]
        draw.rectangle((0, top - int(2 * mm), w, top + band_h), fill=band_ink)
        f = layout.fitted_font(fields["brand"], int(band_h * 0.55), True)
        draw.text(((x0 + x1) / 2, top + band_h / 2 - 1 * mm), fields["brand"], font=f, fill=paper, anchor="mm")
        layout.y = top + band_h + int(2 * mm)
    elif design.layout == "framed":
        inset_px = int(mm * rng.uniform(1.5, 3))
        draw.rectangle((inset_px, inset_px, w - inset_px, int(h * 2.2) - 1), outline=ink, width=max(1, int(mm * 0.35)))
    if design.layout != "band":
        brand = fields["brand"] if design.layout != "western" or fields["brand"].isascii() else "NORTHWIND"
        layout.text(brand, int(mm * rng.uniform(4.5, 9.0)), bold=True,
                    align=("center", "left")[int(rng.random() < 0.3 or landscape)])
    printed["brand"] = fields["brand"]
    if back:
        for _ in range(int(rng.integers(1, 4))):
            layout.text(("Designed for everyday comfort", "简约 · 舒适 · 自然", "品质生活", "MADE WITH CARE",
                         "www.example.cn")[int(rng.integers(5))], int(mm * rng.uniform(2.5, 4)), align="center")
    else:
        codes_first = design.layout == "codes_first"
        if codes_first:
            _codes(rng, layout, fields, printed, patch, landscape)
        if design.layout == "western":
            for key, a, b in WESTERN_LINES[:int(rng.integers(2, 5))]:
                text = (a if rng.random() < 0.5 else b).format(fields[key] if fields[key].isascii() else "M")
                layout.text(text, int(mm * rng.uniform(2.4, 3.4)), gap=0.4)
            layout.price(f"RMB {fields['price'][1:]}", int(mm * rng.uniform(3.5, 5.5)))
        elif design.layout == "ledger":
            _ledger(rng, layout, fields, printed)
        else:
            base = mm * rng.uniform(2.2, 3.2)
            boxed = layout.heavy and rng.random() < 0.6
            for key, line in _lines(rng, fields, design.layout):
                if boxed and key == "size":
                    continue
                layout.text(line, int(base), gap=float(rng.uniform(0.25, 0.6)))
                printed[key] = fields[key]
            price_label = LABELS["price"][int(rng.integers(len(LABELS["price"])))]
            price_line = f"{price_label}：{fields['price']}" if rng.random() < 0.6 else fields["price"]
            if boxed:
                layout.boxed_size(LABELS["size"][int(rng.integers(len(LABELS["size"])))], fields["size"])
                printed["size"] = fields["size"]
            if not panel:
                layout.price(price_line, int(base * rng.uniform(1.3, 2.4)))
        printed["price"] = fields["price"]
        if panel:
            patch = _panel(rng, layout, w, int(h * 2.2), margin, landscape, paper, price_line, int(base * rng.uniform(1.3, 2.2)))
            _codes(rng, layout, fields, printed, patch, landscape)
        elif not codes_first:
            if landscape:
                layout.x0, layout.x1, layout.y = layout.x1 + int(2 * mm), w - margin, margin + int(2 * mm)
            layout.y += int(mm * rng.uniform(0.5, 2.5))
            _codes(rng, layout, fields, printed, patch, landscape)

    h = min(max(h, layout.y + margin), rgb.height)
    alpha = Image.new("L", (w, h), 0)
    _shape(ImageDraw.Draw(alpha), w, h, shape, mm)
    card = np.asarray(rgb)[:h].copy()
    alpha_np = np.asarray(alpha).copy()
    _paper_texture(rng, card, paper)
    if paper[0] > 150 and abs(paper[0] - paper[2]) > 40 and rng.random() < 0.5:  # kraft fibres
        card[:] = np.clip(card + ((rng.random(card.shape[:2]) < 0.01) * rng.uniform(-50, 10))[..., None], 0, 255)
    _punch_hole(card, alpha_np, hole, hole_r, rng)
    label_np = np.asarray(labels)[:h].copy()
    label_np[alpha_np == 0] = 0
    return TagCanvas(card, alpha_np, label_np, layout.symbols, printed, (float(hole[0]), float(hole[1])),
                     "back" if back else "front", {"finish": finish, "design": design.name})


def _panel(rng: np.random.Generator, layout: _FaceLayout, w: int, canvas_h: int, margin: int, landscape: bool,
           paper: tuple, price_line: str, price_px: int) -> tuple:
    """A block for the price and the codes: the right part of a horizontal card or the foot of an upright
    one, solid colour with light print or a tinted box with dark print, bled to the card's edge or inset.
    Moves the layout's cursor into it and prints the price there; returns the codes' patch colour."""
    mm, draw = layout.mm, layout.draw
    if rng.random() < 0.6:
        fill = COLOR_STOCKS[int(rng.integers(6))] if rng.random() < 0.7 else DARK_PAPERS[int(rng.integers(len(DARK_PAPERS)))]
        text_ink = (250, 250, 250) if sum(fill) < 500 else (20, 20, 24)
    else:
        fill = LIGHT_PAPERS[int(rng.integers(len(LIGHT_PAPERS)))] if sum(paper) < 450 else COLOR_STOCKS[6 + int(rng.integers(2))]
        text_ink = DARK_INKS[int(rng.integers(len(DARK_INKS)))]
    if abs(sum(fill) - sum(paper)) < 60:
        fill = tuple(max(0, c - 70) for c in fill)
    inset = int(mm * rng.uniform(1.5, 4)) if rng.random() < 0.5 else 0
    radius = int(mm * rng.uniform(0, 3))
    if landscape:
        box = (layout.x1 + int(mm * rng.uniform(1, 3)), inset, w - 1 - inset, canvas_h - 1)
        layout.x0, layout.x1 = box[0] + int(2 * mm), box[2] - int(2 * mm)
        layout.y = max(inset, 0) + margin
    else:
        box = (inset, layout.y + int(mm * rng.uniform(1, 3)), w - 1 - inset, canvas_h - 1)
        layout.y = box[1] + int(2 * mm)
    draw.rounded_rectangle(box, radius=radius, fill=fill)
    if fill[0] + fill[1] + fill[2] > 600 or rng.random() < 0.3:
        draw.rounded_rectangle(box, radius=radius, outline=layout.ink, width=max(1, int(mm * 0.3)))
    ink, layout.ink = layout.ink, text_ink
    layout.price(price_line, price_px, align=("left", "center")[int(rng.random() < 0.5)])
    layout.ink = ink
    layout.y += int(mm * rng.uniform(0.5, 2))
    return (255, 255, 255)


def _codes(rng: np.random.Generator, layout: _FaceLayout, fields: dict, printed: dict, patch, landscape: bool) -> None:
    r = rng.random()
    if r < 0.08:
        return  # a front with no codes at all (a brand card)
    with_ean = r < 0.9
    with_128 = rng.random() < 0.45
    if with_128 and rng.random() < 0.5:
        layout.code128(fields["style_number"], rng.uniform(4, 9), patch)
        with_128 = False
    if with_ean:
        layout.ean13(fields["ean13"], rng.uniform(8, 17) if not landscape else rng.uniform(8, 13), patch)
        printed["ean13"] = fields["ean13"]
    if with_128:
        layout.code128(fields["style_number"], rng.uniform(4, 9), patch)
    if rng.random() < 0.35:
        side_mm = min(rng.uniform(9, 18), layout.width / layout.mm - 2)
        if side_mm > 7:
            x = int(layout.x0 + rng.random() * max(1.0, layout.width - side_mm * layout.mm))
            side = layout.qr(f"https://t.tag.cn/p/{fields['style_number']}?s={fields['ean13'][-5:]}", side_mm, x,
                             layout.y + int(layout.mm), patch)
            layout.y += side + int(2 * layout.mm)


def _ledger(rng: np.random.Generator, layout: _FaceLayout, fields: dict, printed: dict) -> None:
    """A ruled table: label cell | value cell, one row per field."""
    mm, draw = layout.mm, layout.draw
    size = int(mm * rng.uniform(2.2, 3.0))
    split = layout.x0 + int(layout.width * rng.uniform(0.3, 0.42))
    keys = ["product_name", "style_number", "color", "size", "composition", "grade"][:int(rng.integers(4, 7))]
    row_h = int(size * 1.7)
    top = layout.y
    for i, key in enumerate(keys):
        y = top + i * row_h
        label = LABELS[key][0]
        draw.text((layout.x0 + mm, y + row_h / 2), label, font=layout.fitted_font(label, size), fill=layout.ink, anchor="lm")
        value = fields[key]
        f = face(layout.design.regular, size)
        if f.getlength(value) > layout.x1 - split - 2 * mm:
            f = face(layout.design.regular, int(size * (layout.x1 - split - 2 * mm) / max(f.getlength(value), 1)))
        draw.text((split + mm, y + row_h / 2), value, font=f, fill=layout.ink, anchor="lm")
        printed[key] = fields[key]
    bottom = top + len(keys) * row_h
    width = max(1, int(mm * 0.25))
    for i in range(len(keys) + 1):
        draw.line((layout.x0, top + i * row_h, layout.x1, top + i * row_h), fill=layout.ink, width=width)
    for x in (layout.x0, split, layout.x1):
        draw.line((x, top, x, bottom), fill=layout.ink, width=width)
    layout.y = bottom + int(2 * mm)
    layout.price(fields["price"], int(size * rng.uniform(1.5, 2.2)), align="right")
