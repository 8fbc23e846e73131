"""Photo-like surfaces for the wide domain: wood, belts, steel, cardboard, printed pages, lab-like
textures and blurred rooms, beside the garment textures of background.py. Float32 RGB, 0..255."""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image, ImageDraw

from training.synth.background import _color, _frame, garment_background
from training.synth.fonts import cjk_faces, face, latin_faces


def _smooth(rng: np.random.Generator, h: int, w: int, cells: int) -> np.ndarray:
    small = rng.normal(0, 1, (cells, max(2, int(cells * w / max(h, 1))))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def wood(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    u, v = _frame(rng, h, w)
    warp = _smooth(rng, h, w, 4) * rng.uniform(10, 40)
    rings = np.sin((v + warp) / rng.uniform(2, 7)) * 0.5 + 0.5
    base = np.float32([rng.uniform(120, 210), rng.uniform(70, 140), rng.uniform(30, 80)])
    tone = 0.75 + 0.25 * rings + 0.05 * _smooth(rng, h, w, 20)
    return base[None, None] * tone[..., None]


def belt(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A conveyor: dark rubber with a fine texture, seams and a roller edge."""
    gray = rng.uniform(25, 90)
    out = np.full((h, w, 3), gray, np.float32) * rng.uniform(0.9, 1.1, 3).astype(np.float32)
    out += rng.normal(0, rng.uniform(2, 8), (h, w, 1)).astype(np.float32)
    u, _ = _frame(rng, h, w)
    period = rng.uniform(0.3, 1.5) * max(h, w)
    out[(np.mod(u, period) < rng.uniform(2, 6))] *= 0.6
    if rng.random() < 0.5:
        y = int(rng.uniform(0, h))
        out[max(0, y - 6):y + 6] = rng.uniform(120, 200)
    return out


def steel(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    u, v = _frame(rng, h, w)
    streak = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), sigmaX=25, sigmaY=0.6)
    base = rng.uniform(120, 210)
    out = base + streak * 40 + _smooth(rng, h, w, 3) * 25
    return np.repeat(out[..., None], 3, 2) * rng.uniform(0.95, 1.05, 3).astype(np.float32)


def cardboard(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    u, _ = _frame(rng, h, w)
    ridge = 0.94 + 0.06 * np.sin(u / rng.uniform(3, 6))
    base = np.float32([rng.uniform(170, 210), rng.uniform(130, 160), rng.uniform(80, 110)])
    out = base[None, None] * ridge[..., None] * (1 + 0.04 * _smooth(rng, h, w, 12))[..., None]
    return out + rng.normal(0, 3, (h, w, 1)).astype(np.float32)


def printed_page(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """White paper full of text lines, tables and now and then a photo block: tags get laid on these."""
    paper = rng.uniform(225, 252)
    image = Image.new("RGB", (w, h), (int(paper),) * 3)
    draw = ImageDraw.Draw(image)
    size = int(min(h, w) * rng.uniform(0.018, 0.045))
    faces = cjk_faces() + latin_faces()
    path = faces[int(rng.integers(len(faces)))]
    words = "面料 成分 检验 合格 质量 报告 出厂 日期 批次 STYLE ORDER QTY INVOICE TOTAL 款号 颜色 数量 单价 SHIP TO 收货".split()
    y = int(rng.uniform(0, size * 2))
    col_w = int(w * rng.uniform(0.45, 1.0))
    while y < h:
        x = int(rng.uniform(0, size))
        while x < w:
            line = " ".join(words[int(i)] for i in rng.integers(0, len(words), int(rng.integers(3, 9))))
            draw.text((x, y), line, font=face(path, size), fill=(int(rng.uniform(10, 70)),) * 3)
            x += col_w + size
        if rng.random() < 0.05:
            draw.rectangle((int(rng.uniform(0, w * 0.6)), y, int(rng.uniform(w * 0.6, w)), y + size * 5),
                           fill=tuple(int(c) for c in _color(rng)))
            y += size * 6
        if rng.random() < 0.08:
            draw.line((0, y - size * 0.3, w, y - size * 0.3), fill=(60, 60, 60), width=max(1, size // 10))
        y += int(size * rng.uniform(1.3, 1.9))
    return np.asarray(image).astype(np.float32)


def lab_texture(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Cells, grains and blobs, as microscope or lab imagery looks: texture with no straight print."""
    base = _color(rng, (0.1, 0.7))
    out = np.ones((h, w, 3), np.float32) * base
    mask = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(30, 200))):
        c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        r = int(min(h, w) * rng.uniform(0.01, 0.06))
        cv2.ellipse(mask, c, (r, int(r * rng.uniform(0.5, 1))), float(rng.uniform(0, 180)), 0, 360,
                    float(rng.uniform(0.3, 1)), int(rng.choice([-1, 2])))
    mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(0.5, 3))
    ink = _color(rng)
    out = out * (1 - mask[..., None]) + ink * mask[..., None]
    return out + _smooth(rng, h, w, 30)[..., None] * rng.uniform(5, 25)


def blurred_room(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """Out-of-focus shapes and colour fields, as a workshop looks behind the object."""
    out = np.ones((h, w, 3), np.float32) * _color(rng)
    for _ in range(int(rng.integers(4, 14))):
        x0, y0 = rng.uniform(-0.2, 1, 2) * (w, h)
        x1, y1 = x0 + rng.uniform(0.1, 0.6) * w, y0 + rng.uniform(0.1, 0.6) * h
        cv2.rectangle(out, (int(x0), int(y0)), (int(x1), int(y1)), tuple(float(c) for c in _color(rng)), -1)
    return cv2.GaussianBlur(out, (0, 0), min(h, w) * rng.uniform(0.01, 0.05))


SURFACES = (garment_background, wood, belt, steel, cardboard, printed_page, lab_texture, blurred_room)
SURFACE_WEIGHTS = (0.37, 0.1, 0.1, 0.08, 0.08, 0.1, 0.08, 0.09)


def surface(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    kind = SURFACES[int(rng.choice(len(SURFACES), p=SURFACE_WEIGHTS))]
    return np.clip(kind(rng, h, w).astype(np.float32), 0, 255)
