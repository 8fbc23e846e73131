"""Garment-like backgrounds: knit and woven structure, solid and printed fabrics, folds.

Every texture is a closed-form function of rotated pixel coordinates, so a whole image costs
a handful of vectorized numpy passes.
"""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image, ImageDraw

from training.synth.tag import font

RGB = np.ndarray


def _color(rng: np.random.Generator, saturation: tuple[float, float] = (0.05, 0.8)) -> np.ndarray:
    hue = rng.uniform(0, 180)
    sat = rng.uniform(*saturation) * 255
    val = rng.uniform(0.15, 0.95) * 255
    hsv = np.uint8([[[hue, sat, val]]])
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)[0, 0].astype(np.float32)


def _frame(rng: np.random.Generator, h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixel coordinates in the fabric's own frame: rotated, so weaves don't all run upright."""
    theta = rng.normal(0, 0.35) if rng.random() < 0.7 else rng.uniform(0, np.pi)
    yy, xx = np.mgrid[:h, :w].astype(np.float32)
    c, s = np.cos(theta), np.sin(theta)
    return xx * c + yy * s, -xx * s + yy * c


def _shade(base: np.ndarray, tone: np.ndarray) -> RGB:
    return base[None, None, :] * tone[..., None]


def knit(rng: np.random.Generator, h: int, w: int) -> RGB:
    u, v = _frame(rng, h, w)
    px = rng.uniform(4, 12)
    py = px * rng.uniform(0.6, 0.9)
    fu = (u / px) % 1.0
    chevron = np.sin(2 * np.pi * (v / py + 0.6 * np.abs(2 * fu - 1)))
    column = 0.5 + 0.5 * np.cos(2 * np.pi * u / px)
    tone = 0.78 + 0.12 * chevron + 0.10 * column
    if rng.random() < 0.3:  # rib: alternating knit/purl columns
        tone *= 0.88 + 0.12 * (np.cos(2 * np.pi * u / (px * rng.integers(2, 4))) > 0)
    return _shade(_color(rng), tone)


def woven(rng: np.random.Generator, h: int, w: int) -> RGB:
    u, v = _frame(rng, h, w)
    p = rng.uniform(2.0, 6.0)
    warp_c, weft_c = _color(rng), _color(rng)
    if rng.random() < 0.5:  # twill / denim: diagonal wales
        t = np.sin(2 * np.pi * (u + v) / (p * 2)) * 0.5 + 0.5
        if rng.random() < 0.5:
            warp_c, weft_c = np.float32([40, 60, 110]) * rng.uniform(0.6, 1.3), np.float32([200, 200, 205])
        mix = 0.75 + 0.2 * t
    else:  # plain weave: checker of over/under
        t = np.sin(2 * np.pi * u / p) * np.sin(2 * np.pi * v / p)
        mix = 0.5 + 0.5 * np.sign(t) * np.abs(t) ** 0.5 * 0.6 + 0.2
    mix = np.clip(mix, 0, 1)[..., None]
    out = warp_c[None, None] * mix + weft_c[None, None] * (1 - mix)
    return out * (0.9 + 0.1 * np.cos(2 * np.pi * u / p))[..., None]


def solid(rng: np.random.Generator, h: int, w: int) -> RGB:
    low = cv2.resize(rng.normal(1, 0.04, (4, 4)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    return _shade(_color(rng), low)


def stripes(rng: np.random.Generator, h: int, w: int) -> RGB:
    """Also a hard negative for the barcode class: thin regular stripes look like bars."""
    u, v = _frame(rng, h, w)
    colors = [_color(rng) for _ in range(int(rng.integers(2, 4)))]
    widths = rng.uniform(2, 30, len(colors))
    period = widths.sum()
    phase = u % period
    out = np.empty((h, w, 3), np.float32)
    edges = np.cumsum(widths)
    index = np.searchsorted(edges, phase)
    index = np.minimum(index, len(colors) - 1)
    palette = np.stack(colors)
    out[:] = palette[index]
    if rng.random() < 0.5:  # plaid: a crossing set of stripes blended over
        phase_v = v % period
        index_v = np.minimum(np.searchsorted(edges, phase_v), len(colors) - 1)
        out = 0.55 * out + 0.45 * palette[index_v]
    return out


def dots_and_flowers(rng: np.random.Generator, h: int, w: int) -> RGB:
    out = np.ascontiguousarray(np.broadcast_to(_color(rng), (h, w, 3)), dtype=np.float32)
    n = int(rng.integers(20, 160))
    inks = [tuple(float(x) for x in _color(rng)) for _ in range(3)]
    big = rng.random() < 0.5
    for _ in range(n):
        x, y = float(rng.uniform(0, w)), float(rng.uniform(0, h))
        r = float(rng.uniform(4, 30 if big else 10))
        color = inks[int(rng.integers(3))]
        if big and rng.random() < 0.5:
            for k in range(5):
                a = 2 * np.pi * k / 5
                cv2.ellipse(out, (int(x + r * np.cos(a)), int(y + r * np.sin(a))), (int(r * 0.8), int(r * 0.45)),
                            float(np.degrees(a)), 0, 360, color, -1, cv2.LINE_AA)
        else:
            cv2.circle(out, (int(x), int(y)), int(r), color, -1, cv2.LINE_AA)
    return out


def graphic_print(rng: np.random.Generator, h: int, w: int) -> RGB:
    """A T-shirt print: big lettering on cloth, a hard negative for the hangtag class."""
    out = solid(rng, h, w).astype(np.uint8)
    image = Image.fromarray(np.ascontiguousarray(out))
    words = ("LOVE", "BROOKLYN", "1998", "SUMMER", "自由", "梦想", "ATHLETIC", "NO.7", "WILD", "快乐")
    draw = ImageDraw.Draw(image)
    size = int(min(h, w) * rng.uniform(0.12, 0.3))
    ink = tuple(int(x) for x in _color(rng))
    draw.text((rng.uniform(0, w * 0.5), rng.uniform(0, h * 0.7)), words[int(rng.integers(len(words)))],
              font=font(size, bool(rng.random() < 0.5)), fill=ink)
    return np.asarray(image).astype(np.float32)


def table(rng: np.random.Generator, h: int, w: int) -> RGB:
    """An inspection table or belt instead of cloth: flat, with a gentle gradient."""
    gray = rng.uniform(40, 230)
    tint = rng.uniform(0.9, 1.1, 3).astype(np.float32)
    gx = np.linspace(rng.uniform(0.85, 1.15), rng.uniform(0.85, 1.15), w, dtype=np.float32)
    out = np.ones((h, w, 3), np.float32) * gray * tint * gx[None, :, None]
    if rng.random() < 0.4:  # wood grain
        u, v = _frame(rng, h, w)
        grain = np.sin(u / rng.uniform(3, 9) + 3 * np.sin(v / rng.uniform(30, 90)))
        out *= (0.9 + 0.1 * grain)[..., None]
    return out


TEXTURES = (knit, woven, solid, stripes, dots_and_flowers, graphic_print, table)
TEXTURE_WEIGHTS = (0.22, 0.22, 0.16, 0.14, 0.1, 0.06, 0.1)


def folds(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """Cloth folds: a smooth height field bends the texture and shades it by its slope."""
    h, w = image.shape[:2]
    cells = int(rng.integers(2, 6))
    height = cv2.resize(rng.normal(0, 1, (cells, cells)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    amp = rng.uniform(2, 10)
    gy, gx = np.gradient(height * amp * min(h, w) / cells / 10)
    yy, xx = np.mgrid[:h, :w].astype(np.float32)
    bent = cv2.remap(image, xx + gx * 3, yy + gy * 3, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    light = rng.normal(0, 1, 2)
    light /= np.linalg.norm(light) + 1e-6
    shade = 1 + np.clip(gx * light[0] + gy * light[1], -1.5, 1.5) * rng.uniform(0.08, 0.25)
    return bent * shade[..., None]


def garment_background(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """H x W x 3 float32 RGB in 0..255."""
    texture = TEXTURES[int(rng.choice(len(TEXTURES), p=TEXTURE_WEIGHTS))]
    image = texture(rng, h, w).astype(np.float32)
    if texture is not table and rng.random() < 0.7:
        image = folds(rng, image)
    image += rng.standard_normal((h, w, 1), dtype=np.float32) * np.float32(rng.uniform(1, 5))
    return np.clip(image, 0, 255)
