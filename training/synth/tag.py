"""One hangtag card, drawn flat in its own canvas: paper, shape, printed fields, symbols, hole.

Besides the RGB card the canvas carries an alpha (the card's shape, hole punched out) and a
label map in which each symbol's bar or module area is filled with its object number, so
the scene can warp it with the card and read back boxes that stay tight after any warp.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from inference.resources import font_path
from training.synth.barcodes import EAN13_GUARD_MODULES, code128_modules, ean13_modules, qr_modules
from training.synth.content import LABELS, draw_fields

CLASS_NAMES = ("hangtag", "barcode", "qr_code")
HANGTAG, BARCODE, QR_CODE = 0, 1, 2

LIGHT_PAPERS = ((250, 250, 248), (255, 255, 255), (248, 243, 228), (240, 236, 226), (236, 238, 240),
                (246, 228, 226), (226, 236, 246), (230, 242, 230), (214, 190, 150), (198, 166, 124))
DARK_PAPERS = ((28, 28, 30), (30, 38, 66), (36, 58, 44), (92, 28, 36), (60, 60, 64))
DARK_INKS = ((20, 20, 20), (45, 45, 50), (25, 35, 80), (70, 45, 30), (10, 10, 10))
LIGHT_INKS = ((245, 245, 245), (214, 186, 118), (230, 230, 220))


@lru_cache(maxsize=256)
def font(size_px: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(font_path("Bold" if bold else "Regular")), max(6, int(size_px)))


@dataclass
class Symbol:
    class_id: int
    kind: str  # "EAN-13", "Code128" or "QRCode": the names zxing-cpp reports, minus punctuation
    text: str


@dataclass
class TagCanvas:
    rgb: np.ndarray        # H x W x 3, RGB
    alpha: np.ndarray      # H x W, 255 on the card
    label_map: np.ndarray  # H x W, k + 1 inside symbol k's bar/module area
    symbols: list[Symbol]
    fields: dict[str, str | None]
    hole_xy: tuple[float, float]
    side: str = "front"
    extras: dict = field(default_factory=dict)


def _card_shape(draw: ImageDraw.ImageDraw, w: int, h: int, shape: str, mm: float) -> None:
    if shape == "rounded":
        draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=int(mm * 4), fill=255)
    elif shape == "clipped":  # luggage-tag die-cut: top corners cut off
        c = int(min(w, h) * 0.18)
        draw.polygon([(c, 0), (w - 1 - c, 0), (w - 1, c), (w - 1, h - 1), (0, h - 1), (0, c)], fill=255)
    elif shape == "arch":  # die-cut arch top
        r = w // 2
        draw.rectangle((0, r, w - 1, h - 1), fill=255)
        draw.pieslice((0, 0, w - 1, 2 * r), 180, 360, fill=255)
    elif shape == "notched":  # die-cut with side notches
        n = int(mm * 3)
        draw.rectangle((0, 0, w - 1, h - 1), fill=255)
        for y in (h // 3, 2 * h // 3):
            draw.pieslice((-n, y - n, n, y + n), 270, 90, fill=0)
            draw.pieslice((w - 1 - n, y - n, w - 1 + n, y + n), 90, 270, fill=0)
    else:
        draw.rectangle((0, 0, w - 1, h - 1), fill=255)


class _Layout:
    """A cursor down a column of the card, drawing text and symbols and filling the label map."""

    def __init__(self, rng: np.random.Generator, rgb: Image.Image, labels: Image.Image, mm: float,
                 ink: tuple, x0: int, x1: int, y: int) -> None:
        self.rng, self.mm, self.ink = rng, mm, ink
        self.draw, self.label_draw = ImageDraw.Draw(rgb), ImageDraw.Draw(labels)
        self.x0, self.x1, self.y = x0, x1, y
        self.symbols: list[Symbol] = []

    @property
    def width(self) -> int:
        return self.x1 - self.x0

    def fitted_font(self, text: str, size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
        f = font(size, bold)
        length = f.getlength(text)
        if length > self.width:
            f = font(int(size * self.width / length), bold)
        return f

    def text(self, text: str, size: int, *, bold: bool = False, align: str = "left",
             fill: tuple | None = None, gap: float = 0.45) -> None:
        f = self.fitted_font(text, size, bold)
        x = {"left": self.x0, "center": (self.x0 + self.x1) / 2, "right": self.x1}[align]
        anchor = {"left": "la", "center": "ma", "right": "ra"}[align]
        self.draw.text((x, self.y), text, font=f, fill=fill or self.ink, anchor=anchor)
        self.y += int(f.size * (1 + gap))

    def rule(self) -> None:
        self.draw.line((self.x0, self.y, self.x1, self.y), fill=self.ink, width=max(1, int(self.mm * 0.25)))
        self.y += int(self.mm * 1.5)

    def _module_px(self, modules: int, quiet: int) -> int:
        wanted = max(1, round(float(self.rng.uniform(0.26, 0.36)) * self.mm))
        fits = max(1, self.width // (modules + 2 * quiet))
        return min(wanted, fits)

    def _patch(self, box: tuple[int, int, int, int], paper: tuple | None) -> None:
        if paper is not None:
            self.draw.rectangle(box, fill=paper)

    def ean13(self, code: str, bar_mm: float, patch: tuple | None) -> None:
        modules = ean13_modules(code)
        m = self._module_px(95, 11)
        bar_h = int(bar_mm * self.mm)
        digit = font(max(7, int(m * 9)))
        guard_extra = int(digit.size * 0.55)
        left = int((self.x0 + self.x1) / 2 - 95 * m / 2)
        top = self.y
        self._patch((left - 11 * m, top - 2 * m, left + 102 * m, top + bar_h + digit.size + 3 * m), patch)
        guards = set(EAN13_GUARD_MODULES)
        for i in np.flatnonzero(modules):
            bottom = top + bar_h + (guard_extra if i in guards else 0)
            self.draw.rectangle((left + i * m, top, left + (i + 1) * m - 1, bottom - 1), fill=(0, 0, 0))
        index = len(self.symbols) + 1
        self.label_draw.rectangle((left, top, left + 95 * m - 1, top + bar_h + guard_extra - 1), fill=index)
        self.symbols.append(Symbol(1, "EAN13", code))
        ty = top + bar_h + m
        self.draw.text((left - 2 * m, ty), code[0], font=digit, fill=(0, 0, 0), anchor="ra")
        for group, start in ((code[1:7], 3), (code[7:], 50)):
            cx = left + (start + 21) * m
            self.draw.text((cx, ty), group, font=digit, fill=(0, 0, 0), anchor="ma")
        self.y = top + bar_h + digit.size + 4 * m + int(self.mm * 1.5)

    def code128(self, text: str, bar_mm: float, patch: tuple | None) -> None:
        modules = code128_modules(text)
        n = len(modules)
        m = self._module_px(n, 10)
        bar_h = int(bar_mm * self.mm)
        left = int((self.x0 + self.x1) / 2 - n * m / 2)
        top = self.y
        caption = font(max(7, int(self.mm * 2.4)))
        self._patch((left - 10 * m, top - 2 * m, left + (n + 10) * m, top + bar_h + caption.size + 4 * m), patch)
        for i in np.flatnonzero(modules):
            self.draw.rectangle((left + i * m, top, left + (i + 1) * m - 1, top + bar_h - 1), fill=(0, 0, 0))
        index = len(self.symbols) + 1
        self.label_draw.rectangle((left, top, left + n * m - 1, top + bar_h - 1), fill=index)
        self.symbols.append(Symbol(1, "Code128", text))
        self.draw.text(((self.x0 + self.x1) / 2, top + bar_h + m), text, font=caption, fill=(0, 0, 0), anchor="ma")
        self.y = top + bar_h + caption.size + 3 * m + int(self.mm * 1.5)

    def qr(self, text: str, side_mm: float, x: int, y: int, patch: tuple | None) -> int:
        grid = qr_modules(text)
        m = max(1, int(side_mm * self.mm / grid.shape[0]))
        side = grid.shape[0] * m
        self._patch((x - 2 * m, y - 2 * m, x + side + 2 * m, y + side + 2 * m), patch)
        rows, cols = np.nonzero(grid)
        for r, c in zip(rows, cols):
            self.draw.rectangle((x + c * m, y + r * m, x + (c + 1) * m - 1, y + (r + 1) * m - 1), fill=(0, 0, 0))
        index = len(self.symbols) + 1
        self.label_draw.rectangle((x, y, x + side - 1, y + side - 1), fill=index)
        self.symbols.append(Symbol(2, "QRCode", text))
        return side


def _field_lines(rng: np.random.Generator, fields: dict[str, str]) -> list[tuple[str, str]]:
    colon = "：" if rng.random() < 0.75 else ": "
    keys = ["product_name", "style_number", "color", "size", "composition", "standard",
            "safety_category", "grade"]
    if rng.random() < 0.3:
        keys[2], keys[3] = keys[3], keys[2]
    return [(key, f"{LABELS[key][int(rng.integers(len(LABELS[key])))]}{colon}{fields[key]}") for key in keys]


def render_card(rng: np.random.Generator, px_per_mm: float, fields: dict[str, str] | None = None,
                *, back_side: bool | None = None, clean: bool = False) -> TagCanvas:
    """Draw one card. `clean` turns off paper texture, so tests can find its pixels exactly."""
    fields = dict(fields) if fields else draw_fields(rng)
    mm = float(px_per_mm)
    landscape = rng.random() < 0.22
    if landscape:
        w_mm, h_mm = rng.uniform(80, 100), rng.uniform(46, 60)
    else:
        w_mm = rng.uniform(44, 62)
        h_mm = w_mm * rng.uniform(1.45, 2.0)
    w, h = int(w_mm * mm), int(h_mm * mm)
    dark = rng.random() < 0.15
    paper = DARK_PAPERS[int(rng.integers(len(DARK_PAPERS)))] if dark else LIGHT_PAPERS[int(rng.integers(len(LIGHT_PAPERS)))]
    ink = LIGHT_INKS[int(rng.integers(len(LIGHT_INKS)))] if dark else DARK_INKS[int(rng.integers(len(DARK_INKS)))]
    patch = (255, 255, 255) if dark or paper[0] < 225 or rng.random() < 0.2 else None
    shape = ("rect", "rounded", "clipped", "arch", "notched")[int(rng.choice(5, p=(0.3, 0.3, 0.2, 0.1, 0.1)))]
    if landscape and shape == "arch":
        shape = "rounded"

    # Content is laid out on a tall canvas first; the card then grows to hold all of it.
    rgb = Image.new("RGB", (w, int(h * 2)), paper)
    labels = Image.new("L", (w, int(h * 2)), 0)

    hole_r = rng.uniform(1.8, 2.6) * mm
    hole = (6.5 * mm, h / 2) if landscape else (w / 2, 7.0 * mm)
    if shape == "arch" and not landscape:
        hole = (w / 2, 0.22 * w)
    margin = int(rng.uniform(3.5, 5.5) * mm)
    if landscape:
        x0, top = int(hole[0] + hole_r + 3 * mm), margin
    else:
        x0, top = margin, int(hole[1] + hole_r + 3 * mm)
    back = (rng.random() < 0.14) if back_side is None else back_side
    x1 = w - margin
    if landscape and not back:
        x1 = int(x0 + (w - x0 - margin) * 0.52)
    layout = _Layout(rng, rgb, labels, mm, ink, x0, x1, top)
    printed: dict[str, str | None] = {key: None for key in fields}
    printed["brand"] = fields["brand"]

    base = mm * rng.uniform(2.3, 3.0)
    layout.text(fields["brand"], int(mm * rng.uniform(5.0, 7.5)), bold=True, align="center" if not landscape else "left")
    if back:
        _draw_back(rng, layout, w, h, mm)
    else:
        if rng.random() < 0.6:
            layout.rule()
        for key, line in _field_lines(rng, fields):
            layout.text(line, int(base), gap=0.35)
            printed[key] = fields[key]
        layout.y += int(mm)
        price_line = f"{LABELS['price'][int(rng.integers(len(LABELS['price'])))]}：{fields['price']}"
        layout.text(price_line, int(base * rng.uniform(1.3, 1.9)), bold=True)
        printed["price"] = fields["price"]
        left_bottom = layout.y
        if landscape:
            layout.x0, layout.x1, layout.y = layout.x1 + int(2 * mm), w - margin, margin + int(2 * mm)
        layout.y += int(mm * 1.5)
        with_code128 = rng.random() < 0.6
        if with_code128 and rng.random() < 0.5:
            layout.code128(fields["style_number"], rng.uniform(5, 9), patch)
            with_code128 = False
        layout.ean13(fields["ean13"], rng.uniform(10, 17) if not landscape else rng.uniform(9, 13), patch)
        printed["ean13"] = fields["ean13"]
        if with_code128:
            layout.code128(fields["style_number"], rng.uniform(5, 9), patch)
        if rng.random() < 0.3:
            _place_qr(rng, layout, fields, h, mm, margin, patch)
        layout.y = max(layout.y, left_bottom)

    h = max(h, layout.y + margin)
    alpha = Image.new("L", (w, h), 0)
    _card_shape(ImageDraw.Draw(alpha), w, h, shape, mm)
    card = np.asarray(rgb)[:h].copy()
    alpha_np = np.asarray(alpha).copy()
    if not clean:
        _paper_texture(rng, card, paper)
    _punch_hole(card, alpha_np, hole, hole_r, rng)
    label_np = np.asarray(labels)[:h].copy()
    label_np[alpha_np == 0] = 0
    return TagCanvas(card, alpha_np, label_np, layout.symbols, printed, (float(hole[0]), float(hole[1])),
                     "back" if back else "front")


def _place_qr(rng: np.random.Generator, layout: _Layout, fields: dict[str, str], h: int,
              mm: float, margin: int, patch: tuple | None) -> None:
    side_mm = min(rng.uniform(11, 17), layout.width / mm - 2)
    text = f"https://t.{fields['brand'].lower().replace(' ', '').replace('&', '')[:8] or 'tag'}.cn/p/{fields['style_number']}"
    if not text.isascii():
        text = f"https://t.tag.cn/p/{fields['style_number']}?sku={fields['ean13']}"
    x = int(layout.x0 + rng.random() * (layout.width - side_mm * mm))
    side = layout.qr(text, side_mm, x, layout.y + int(mm), patch)
    layout.y += side + int(2 * mm)


def _draw_back(rng: np.random.Generator, layout: _Layout, w: int, h: int, mm: float) -> None:
    """The back of a tag: a logo-ish emblem and a slogan, no symbols."""
    draw = layout.draw
    cx, cy = w / 2, min(h * 0.55, layout.y + h * 0.25)
    r = min(w, h) * rng.uniform(0.15, 0.28)
    width = max(1, int(mm * 0.6))
    if rng.random() < 0.5:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=layout.ink, width=width)
    else:
        draw.regular_polygon((cx, cy, r), int(rng.integers(3, 8)), outline=layout.ink, width=width)
    layout.y = int(cy + r + 3 * mm)
    slogans = ("Designed for everyday comfort", "简约 · 舒适 · 自然", "Made with care", "品质生活 从这里开始",
               "NATURAL FIBRES", "since 1998")
    layout.text(slogans[int(rng.integers(len(slogans)))], int(mm * 3), align="center")


def _paper_texture(rng: np.random.Generator, card: np.ndarray, paper: tuple) -> None:
    h, w = card.shape[:2]
    grain = rng.normal(0, rng.uniform(1.0, 3.5), (h // 2 + 1, w // 2 + 1)).astype(np.float32)
    grain = np.repeat(np.repeat(grain, 2, 0), 2, 1)[:h, :w]
    if paper[0] < 220 and paper[0] > 150:  # kraft: fibre speckles
        grain += (rng.random((h, w)) < 0.004) * rng.uniform(-40, 20)
    card[:] = np.clip(card.astype(np.float32) + grain[..., None], 0, 255).astype(np.uint8)


def _punch_hole(card: np.ndarray, alpha: np.ndarray, center: tuple[float, float], r: float,
                rng: np.random.Generator) -> None:
    yy, xx = np.ogrid[:alpha.shape[0], :alpha.shape[1]]
    d2 = (xx - center[0]) ** 2 + (yy - center[1]) ** 2
    if rng.random() < 0.35:  # reinforcement ring (eyelet)
        ring = (d2 <= (r * 1.7) ** 2) & (alpha > 0)
        tone = rng.choice([(190, 160, 90), (170, 170, 175), (40, 40, 40)])
        card[ring] = tone
    alpha[d2 <= r * r] = 0
