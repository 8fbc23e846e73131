"""A tag card drawn in millimetres with Pillow: stock, shape (rounded, die-cut, punched hole), text, codes."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from training.tagsets import codes
from training.tagsets.fonts import font

Color = tuple[int, int, int]

# The smallest print a product label may carry is 1.8 mm high (小7号字); a CJK glyph fills about
# 0.9 of its em, so no value is shrunk below a 2.0 mm em when it can go on two lines.
MIN_PRINT_MM = 2.0
LINE_PITCH = 1.08  # baseline to baseline, in ems


def _halves(text: str, f) -> tuple[str, str] | None:
    """`text` split at the space that best balances its two lines (after a '%' where there is one:
    a fibre stays with its share), or None when it has no space."""
    words = text.split(" ")
    cuts = [k for k in range(1, len(words)) if words[k - 1] and words[k]]
    after_share = [k for k in cuts if words[k - 1].endswith("%")]
    cuts = after_share or cuts
    if not cuts:
        return None
    best = min(cuts, key=lambda k: max(f.getlength(" ".join(words[:k])), f.getlength(" ".join(words[k:]))))
    return " ".join(words[:best]), " ".join(words[best:])


@dataclass(frozen=True)
class SymbolArt:
    format: str
    text: str
    box: tuple[float, float, float, float]  # card pixels


@dataclass(frozen=True)
class TagArt:
    """One rendered card: RGBA pixels (transparent outside the die-cut outline and in the hole)."""

    rgba: np.ndarray
    fields: dict[str, str]
    barcodes: tuple[SymbolArt, ...] = ()
    qr: tuple[SymbolArt, ...] = ()
    # the em of the smallest text printed on the card (card pixels): how small the print a reader must read is
    smallest_print_px: float = 0.0


@dataclass
class Card:
    width_mm: float
    height_mm: float
    px_per_mm: float
    stock: Color
    image: Image.Image = field(init=False)
    mask: Image.Image = field(init=False)
    draw: ImageDraw.ImageDraw = field(init=False)
    barcodes: list[SymbolArt] = field(default_factory=list)
    qr: list[SymbolArt] = field(default_factory=list)
    smallest_print_px: float = field(init=False, default=0.0)

    def __post_init__(self) -> None:
        size = (self.px(self.width_mm), self.px(self.height_mm))
        self.image = Image.new("RGB", size, self.stock)
        self.mask = Image.new("L", size, 255)
        self.draw = ImageDraw.Draw(self.image)

    def px(self, mm: float) -> int:
        return max(1, int(round(mm * self.px_per_mm)))

    # -- stock and shape --------------------------------------------------------------------------
    def texture(self, rng: np.random.Generator, strength: float, fibres: bool = False) -> None:
        w, h = self.image.size
        noise = rng.normal(0, strength, (h // 4 + 1, w // 4 + 1)).astype(np.float32)
        noise = np.asarray(Image.fromarray(noise, mode="F").resize((w, h), Image.BILINEAR))
        pixels = np.asarray(self.image, np.float32) + noise[..., None]
        if fibres:
            for _ in range(int(w * h / 4000)):
                x, y = rng.integers(0, w), rng.integers(0, h)
                length = rng.integers(3, 12)
                pixels[y, x:x + length] -= rng.uniform(10, 30)
        self.image = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))
        self.draw = ImageDraw.Draw(self.image)

    def rounded(self, radius_mm: float) -> None:
        w, h = self.image.size
        self.mask = Image.new("L", (w, h), 0)
        ImageDraw.Draw(self.mask).rounded_rectangle((0, 0, w - 1, h - 1), radius=self.px(radius_mm), fill=255)

    def die_cut(self, chamfer_mm: float) -> None:
        w, h = self.image.size
        c = self.px(chamfer_mm)
        self.mask = Image.new("L", (w, h), 0)
        ImageDraw.Draw(self.mask).polygon([(c, 0), (w - 1 - c, 0), (w - 1, c), (w - 1, h - 1), (0, h - 1), (0, c)], fill=255)

    def hole(self, x_mm: float, y_mm: float, r_mm: float, ring: Color | None = None) -> None:
        x, y, r = self.px(x_mm), self.px(y_mm), self.px(r_mm)
        if ring is not None:
            ring_r = self.px(r_mm * 1.9)
            self.draw.ellipse((x - ring_r, y - ring_r, x + ring_r, y + ring_r), fill=ring)
        ImageDraw.Draw(self.mask).ellipse((x - r, y - r, x + r, y + r), fill=0)

    # -- print ----------------------------------------------------------------------------------
    def text(self, x_mm: float, y_mm: float, text: str, size_mm: float, ink: Color, face: str,
             anchor: str = "la", max_w_mm: float | None = None, stroke: int = 0, wrap_mm: float | None = None) -> float:
        """Draw one line; shrink to `max_w_mm` when given. Returns the widest line's width in mm.

        A value that would shrink below the smallest legal print (MIN_PRINT_MM) is set on two lines
        instead when `wrap_mm` (the height free below `y_mm`) allows, as printers set a long fibre
        content: split between its units."""
        size = self.px(size_mm)
        f = font(face, size)
        lines = [text]
        if max_w_mm is not None:
            limit = self.px(max_w_mm)
            width = f.getlength(text)
            if width > limit:
                fit = int(size * limit / width)
                two = _halves(text, f) if wrap_mm is not None and fit < self.px(MIN_PRINT_MM) else None
                if two is not None:
                    lines = list(two)
                    fit = min(size, int(self.px(wrap_mm) / LINE_PITCH / 2), int(size * limit / max(f.getlength(t) for t in two)))
                f = font(face, max(6, fit))
        pitch = f.size * LINE_PITCH
        self.smallest_print_px = min(self.smallest_print_px or float(f.size), float(f.size))
        for k, line in enumerate(lines):
            self.draw.text((self.px(x_mm), self.px(y_mm) + k * pitch), line, font=f, fill=ink, anchor=anchor,
                           stroke_width=stroke, stroke_fill=ink)
        return max(f.getlength(line) for line in lines) / self.px_per_mm

    def rect(self, box_mm: tuple[float, float, float, float], fill: Color | None = None,
             outline: Color | None = None, width_mm: float = 0.3, radius_mm: float = 0.0) -> None:
        box = tuple(self.px(v) for v in box_mm)
        self.draw.rounded_rectangle(box, radius=self.px(radius_mm) if radius_mm else 0, fill=fill,
                                    outline=outline, width=self.px(width_mm) if outline else 0)

    def line(self, x1: float, y1: float, x2: float, y2: float, ink: Color, width_mm: float = 0.25) -> None:
        self.draw.line((self.px(x1), self.px(y1), self.px(x2), self.px(y2)), fill=ink, width=self.px(width_mm))

    def linear_code(self, text: str, fmt: str, x_mm: float, y_mm: float, w_mm: float, h_mm: float,
                    ink: Color) -> None:
        box = (x_mm * self.px_per_mm, y_mm * self.px_per_mm, (x_mm + w_mm) * self.px_per_mm, (y_mm + h_mm) * self.px_per_mm)
        self._paint(lambda pixels: codes.paint_linear(pixels, codes.modules(text, fmt)[0], box, ink))
        self.barcodes.append(SymbolArt(fmt, text, box))

    def qr_code(self, text: str, x_mm: float, y_mm: float, side_mm: float, ink: Color) -> None:
        box = (x_mm * self.px_per_mm, y_mm * self.px_per_mm, (x_mm + side_mm) * self.px_per_mm, (y_mm + side_mm) * self.px_per_mm)
        self._paint(lambda pixels: codes.paint_grid(pixels, codes.modules(text, "QRCode"), box, ink))
        self.qr.append(SymbolArt("QRCode", text, box))

    def _paint(self, paint) -> None:
        pixels = np.asarray(self.image, np.float32).copy()
        paint(pixels)
        self.image = Image.fromarray(np.clip(pixels + 0.5, 0, 255).astype(np.uint8))
        self.draw = ImageDraw.Draw(self.image)

    def stamp_wear(self, rng: np.random.Generator, ink_mask_threshold: int = 110) -> None:
        """Stamped ink: speckled gaps where the stamp did not touch the kraft."""
        pixels = np.asarray(self.image, np.int16)
        dark = pixels.mean(axis=2) < ink_mask_threshold
        gaps = rng.random(dark.shape) < 0.10
        pixels[dark & gaps] = np.asarray(self.stock, np.int16) - 20
        self.image = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8)).filter(ImageFilter.SMOOTH)
        self.draw = ImageDraw.Draw(self.image)

    def stick(self, sticker: Card, cx_mm: float, cy_mm: float, angle_deg: float) -> None:
        """Stick another card (an adhesive label drawn at this card's scale) on this one, its centre at
        (cx, cy), turned `angle_deg` counter-clockwise, with the faint shadow of its raised edge. Its codes
        come along, boxed by their turned outline."""
        label = Image.fromarray(np.dstack([np.asarray(sticker.image, np.uint8), np.asarray(sticker.mask, np.uint8)]), "RGBA")
        turned = label.rotate(angle_deg, resample=Image.BICUBIC, expand=True)
        left = int(round(cx_mm * self.px_per_mm - turned.width / 2))
        top = int(round(cy_mm * self.px_per_mm - turned.height / 2))
        shadow = turned.getchannel("A").filter(ImageFilter.GaussianBlur(max(1.0, 0.25 * self.px_per_mm)))
        shade = Image.new("RGB", turned.size, (0, 0, 0))
        offset = max(1, self.px(0.2))
        self.image.paste(shade, (left + offset, top + offset), shadow.point(lambda a: a * 35 // 255))
        self.image.paste(turned.convert("RGB"), (left, top), turned.getchannel("A"))
        self.draw = ImageDraw.Draw(self.image)
        a = np.deg2rad(angle_deg)
        w, h = sticker.image.size
        centre = np.array([cx_mm * self.px_per_mm, cy_mm * self.px_per_mm])

        def moved(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
            corners = np.array([(x, y) for x in box[0::2] for y in box[1::2]]) - (w / 2, h / 2)
            turned_corners = np.stack([corners[:, 0] * np.cos(a) + corners[:, 1] * np.sin(a),
                                       -corners[:, 0] * np.sin(a) + corners[:, 1] * np.cos(a)], axis=1) + centre
            return (*turned_corners.min(axis=0), *turned_corners.max(axis=0))

        self.barcodes += [SymbolArt(c.format, c.text, moved(c.box)) for c in sticker.barcodes]
        self.qr += [SymbolArt(c.format, c.text, moved(c.box)) for c in sticker.qr]
        if sticker.smallest_print_px:
            self.smallest_print_px = min(self.smallest_print_px or sticker.smallest_print_px, sticker.smallest_print_px)

    def finish(self, fields: dict[str, str]) -> TagArt:
        rgba = np.dstack([np.asarray(self.image, np.uint8), np.asarray(self.mask, np.uint8)])
        return TagArt(rgba, dict(fields), tuple(self.barcodes), tuple(self.qr), self.smallest_print_px)


def rescaled(card: Card, px_per_mm: float) -> Card:
    """`card` seen at another scale (a label printed at its printer's 8 dots/mm, then stuck on a tag drawn at the
    frame's scale): pixels resampled by area when shrinking (as a sensor averages), Lanczos when growing; the
    outline, the codes' boxes and the smallest print scaled with them."""
    out = Card(card.width_mm, card.height_mm, px_per_mm, card.stock)
    (w0, h0), (w1, h1) = card.image.size, out.image.size
    method = Image.BOX if w1 < w0 else Image.LANCZOS
    out.image = card.image.resize((w1, h1), method)
    out.mask = card.mask.resize((w1, h1), Image.BILINEAR)
    out.draw = ImageDraw.Draw(out.image)
    fx, fy = w1 / w0, h1 / h0

    def scaled(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        return (box[0] * fx, box[1] * fy, box[2] * fx, box[3] * fy)

    out.barcodes = [SymbolArt(c.format, c.text, scaled(c.box)) for c in card.barcodes]
    out.qr = [SymbolArt(c.format, c.text, scaled(c.box)) for c in card.qr]
    out.smallest_print_px = card.smallest_print_px * fy
    return out


def print_turned(card: Card, block: Card, x_mm: float, y_mm: float, clockwise: bool) -> None:
    """Print `block` (drawn unturned, at `card`'s scale, on `card`'s stock) a quarter turn round onto `card`, the
    turned block's top-left corner at (x, y): clockwise, the block's top edge comes to the right (its lines read
    top to bottom); counter-clockwise, to the left (read bottom to top). The ink multiplies the card's stock as
    print does, so the stock's texture shows through; the block's codes come along, boxed by their turned
    outline, and its smallest print counts."""
    ws, hs = block.image.size
    pixels = np.asarray(block.image, np.float32) / np.maximum(np.asarray(block.stock, np.float32), 1.0)
    turned = np.rot90(pixels, -1 if clockwise else 1)
    left, top = card.px(x_mm), card.px(y_mm)
    base = np.asarray(card.image, np.float32).copy()
    h, w = min(turned.shape[0], base.shape[0] - top), min(turned.shape[1], base.shape[1] - left)
    base[top:top + h, left:left + w] *= np.minimum(turned[:h, :w], 1.0)
    card.image = Image.fromarray(np.clip(base + 0.5, 0, 255).astype(np.uint8))
    card.draw = ImageDraw.Draw(card.image)

    def moved(box: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        x1, y1, x2, y2 = box
        if clockwise:  # block (x, y) lands on (hs - y, x)
            x1, y1, x2, y2 = hs - y2, x1, hs - y1, x2
        else:  # counter-clockwise: block (x, y) lands on (y, ws - x)
            x1, y1, x2, y2 = y1, ws - x2, y2, ws - x1
        return (x1 + left, y1 + top, x2 + left, y2 + top)

    card.barcodes += [SymbolArt(c.format, c.text, moved(c.box)) for c in block.barcodes]
    card.qr += [SymbolArt(c.format, c.text, moved(c.box)) for c in block.qr]
    if block.smallest_print_px:
        card.smallest_print_px = min(card.smallest_print_px or block.smallest_print_px, block.smallest_print_px)
