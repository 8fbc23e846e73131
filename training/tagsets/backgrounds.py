"""Procedural surfaces a tag is photographed on: wood, woven fabric, paper, a cluttered desk, gradients."""

from __future__ import annotations

import cv2
import numpy as np

from training.tagsets.fonts import font, font_names

KINDS = ("wood", "fabric", "paper", "desk_clutter", "gradient")

_CLUTTER_TEXT = ("发货单 No. 2023-0815", "收货人：王先生 138****5521", "合计 ¥2,360.00", "质检员 03", "Order 58213 / Qty 12",
                 "注意轻放", "快递单号 SF1234567890", "Invoice 4481", "会议记录 下午三点", "备注：加急",
                 "Lot 07  Pcs 240", "面辅料清单", "总计：36件", "MADE IN CHINA")


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cell: int) -> np.ndarray:
    small = rng.normal(0, 1, (h // cell + 2, w // cell + 2)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _wood(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    full_h, full_w, h, w = h, w, h // 2, w // 2
    y, x = np.mgrid[0:h, 0:w].astype(np.float32) * 2
    warp = _smooth_noise(rng, h, w, 64) * 18
    freq = rng.uniform(0.04, 0.09)
    grain = np.sin((y + warp + 0.05 * x) * freq) * 0.5 + 0.5
    grain = grain ** rng.uniform(1.5, 4) + 0.15 * _smooth_noise(rng, h, w, 3)
    base = np.array(rng.choice([(150, 100, 60), (110, 70, 40), (190, 140, 90), (80, 60, 50)]), np.float32)
    return cv2.resize(base * (0.75 + 0.35 * grain[..., None]), (full_w, full_h), interpolation=cv2.INTER_LINEAR)


def _fabric(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    period = rng.uniform(3.0, 7.0)
    weave = (np.sin(x * np.pi / period) * np.sin(y * np.pi / period)) * 0.5 + 0.5
    base = rng.uniform(30, 220, 3).astype(np.float32)
    shade = 0.85 + 0.2 * weave + 0.05 * _smooth_noise(rng, h, w, 40)
    return base * shade[..., None] + rng.normal(0, 4, (h, w, 1)).astype(np.float32)


def _paper(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = np.array(rng.choice([(236, 240, 242), (214, 226, 232), (225, 225, 225)]), np.float32)
    image = base * (1 + 0.03 * _smooth_noise(rng, h, w, 20)[..., None])
    if rng.random() < 0.5:  # ruled paper
        gap = int(rng.integers(28, 48))
        image[int(rng.integers(0, gap))::gap, :] *= np.array((0.85, 0.75, 0.7), np.float32)
    return image


def _gradient(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    a, b = rng.uniform(20, 235, 3), rng.uniform(20, 235, 3)
    t = np.linspace(0, 1, w // 8, dtype=np.float32)[None, :] * np.cos(rng.uniform(0, np.pi))
    t = t + np.linspace(0, 1, h // 8, dtype=np.float32)[:, None] * rng.uniform(-1, 1)
    t = (t - t.min()) / max(float(t.max() - t.min()), 1e-6)
    small = (a * (1 - t[..., None]) + b * t[..., None]).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _desk_clutter(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    from PIL import Image, ImageDraw

    image = _gradient(rng, h, w) * 0.5 + 60
    canvas = Image.fromarray(np.clip(image, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(canvas)
    faces = font_names()
    for _ in range(int(rng.integers(2, 5))):  # sheets of printed paper
        x, y = int(rng.integers(-100, w - 100)), int(rng.integers(-100, h - 100))
        pw, ph = int(rng.integers(200, 420)), int(rng.integers(240, 480))
        draw.rectangle((x, y, x + pw, y + ph), fill=tuple(int(v) for v in rng.integers(215, 250, 3)))
        size = int(rng.integers(14, 26))
        for row in range(y + 16, y + ph - size, int(size * 1.7)):
            text = _CLUTTER_TEXT[int(rng.integers(len(_CLUTTER_TEXT)))]
            draw.text((x + 14, row), text, font=font(faces[int(rng.integers(len(faces)))], size), fill=(40, 40, 40))
    for _ in range(int(rng.integers(1, 4))):  # coins and round things
        cx, cy, r = int(rng.integers(0, w)), int(rng.integers(0, h)), int(rng.integers(25, 60))
        tone = tuple(int(v) for v in rng.integers(110, 200, 3))
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=tone, outline=(60, 60, 60), width=2)
    return np.asarray(canvas, np.float32)


_MAKERS = {"wood": _wood, "fabric": _fabric, "paper": _paper, "desk_clutter": _desk_clutter, "gradient": _gradient}


def background(rng: np.random.Generator, kind: str, h: int, w: int) -> np.ndarray:
    """An RGB float32 image (0..255)."""
    return _MAKERS[kind](rng, h, w).astype(np.float32)
