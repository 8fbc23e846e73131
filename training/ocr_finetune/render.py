"""One synthetic text line as the station's reader hands it to the recognizer.

A camera's view of small print: the line is drawn large, turned and tilted a little, scaled down to a glyph
height of mostly 6-14 px, blurred (Gaussian, sometimes motion), given sensor noise and JPEG. Then the station's
own steps, imported rather than copied: the detector's box widened at both ends (`text_lines._widened`), the
line resampled from that frame to 32 px high where lower (`Upright.line_crop`, `text_lines.SMALL_PRINT_PX`),
for a share of lines the second read's 2x sharpened enlargement (`text_lines.enlarged`); the recognizer's own
`prepare_batch` (48 px high, squeeze 0.7 first read, 1.0 second) is applied per batch by the trainer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from inference.reading.rectify import Upright
from inference.reading.text_lines import SMALL_PRINT_PX, _widened, enlarged
from training.ocr_finetune.text import line_text

EM = 64  # the size lines are drawn at before the camera's scale
FIRST_SQUEEZE = 0.7  # the reader's first read (reader.py); the second reads at 1.0 (verify.REREAD_SQUEEZE)
SECOND_SQUEEZE = 1.0


@dataclass(frozen=True)
class Line:
    crop: np.ndarray  # uint8 BGR, what the recognizer's prepare_batch is given
    text: str
    glyph_px: float  # the font's em at the camera's scale
    squeeze: float
    font: str
    enlarged: bool


@lru_cache(maxsize=32)
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


@lru_cache(maxsize=32)
def _covered(path: str) -> frozenset[str]:
    from fontTools.ttLib import TTCollection, TTFont

    font = TTCollection(path).fonts[0] if path.endswith(".ttc") else TTFont(path, lazy=True)
    return frozenset(chr(c) for c in font.getBestCmap())


def _colours(rng: np.random.Generator) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """(ink, paper) in RGB: dark on light mostly, light on dark sometimes, coloured now and then."""
    paper = int(rng.integers(170, 256))
    ink = int(rng.integers(0, max(1, paper - 90)))
    paper_rgb = np.full(3, paper, float)
    ink_rgb = np.full(3, ink, float)
    if rng.random() < 0.3:
        paper_rgb = np.clip(paper_rgb - rng.uniform(0, 40, 3), 0, 255)
    if rng.random() < 0.3:
        hue = rng.uniform(0, 1, 3)
        ink_rgb = np.clip(ink_rgb + 120 * hue * rng.random(), 0, 255)
    if abs(ink_rgb.mean() - paper_rgb.mean()) < 80:  # colour must not wash the print out
        ink_rgb = np.clip(ink_rgb - (80 - abs(ink_rgb.mean() - paper_rgb.mean())), 0, 255)
    if rng.random() < 0.2:
        ink_rgb, paper_rgb = 255 - ink_rgb * 0.3, paper_rgb * 0.35  # light print on a dark tag
    return tuple(int(v) for v in ink_rgb), tuple(int(v) for v in paper_rgb)


def _glyph_px(rng: np.random.Generator) -> tuple[float, bool]:
    """(em at the camera's scale, small): mostly small print, some clean larger print so nothing is forgotten."""
    if rng.random() < 0.8:
        return float(rng.uniform(6.0, 14.0)), True
    return float(rng.uniform(14.0, 40.0)), False


def draw(text: str, font_path: str, ink, paper, stroke: int = 0) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """The line drawn at EM px on paper with a margin of an em all round; its glyphs' box (x1, y1, x2, y2).
    `stroke` px of the ink's own colour round every stroke: a bolder weight than the font has."""
    font = _font(font_path, EM)
    left, top, right, bottom = font.getbbox(text, stroke_width=stroke)
    w, h = right - left + 2 * EM, EM * 3
    image = Image.new("RGB", (int(w), int(h)), paper)
    origin = (EM - left, EM)
    ImageDraw.Draw(image).text(origin, text, font=font, fill=ink, stroke_width=stroke, stroke_fill=ink)
    box = ImageDraw.Draw(image).textbbox(origin, text, font=font, stroke_width=stroke)
    return cv2.cvtColor(np.asarray(image), cv2.COLOR_RGB2BGR), tuple(float(v) for v in box)


def _varied(big: np.ndarray, box, ink, paper, rng: np.random.Generator) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """Faces the five training fonts do not have: thinner strokes (ink eaten away by a 3 px filter), condensed or
    widened type (0.72-1.2 of the width, tags print long values narrow)."""
    if rng.random() < 0.15:
        thin = cv2.dilate if np.mean(ink) < np.mean(paper) else cv2.erode  # the paper grows into the ink
        big = thin(big, np.ones((3, 3), np.uint8))
    if rng.random() < 0.4:
        factor = float(rng.uniform(0.72, 1.2))
        big = cv2.resize(big, (max(8, round(big.shape[1] * factor)), big.shape[0]), interpolation=cv2.INTER_AREA)
        box = (box[0] * factor, box[1], box[2] * factor, box[3])
    return big, box


def _tilted(image: np.ndarray, box, rng: np.random.Generator) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """Turned by up to 3 degrees and seen a little in perspective; the glyphs' box as a detector would draw it."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = box
    angle = np.deg2rad(rng.uniform(-3.0, 3.0))
    c, s = np.cos(angle), np.sin(angle)
    centre = np.array([w / 2, h / 2])
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    moved = (corners - centre) @ np.array([[c, -s], [s, c]]).T + centre
    moved += rng.normal(0, 0.015 * EM, moved.shape) if rng.random() < 0.5 else 0.0
    matrix = cv2.getPerspectiveTransform(corners, moved.astype(np.float32))
    out = cv2.warpPerspective(image, matrix, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    ink = np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], np.float32)[None]
    seen = cv2.perspectiveTransform(ink, matrix)[0]
    return out, (float(seen[:, 0].min()), float(seen[:, 1].min()), float(seen[:, 0].max()), float(seen[:, 1].max()))


def _camera(frame: np.ndarray, rng: np.random.Generator, small: bool) -> np.ndarray:
    """Blur, sensor noise and JPEG at the camera's scale."""
    sigma = rng.uniform(0.0, 1.6) if small else rng.uniform(0.0, 0.8)
    out = frame.astype(np.float32)
    if sigma > 0.2:
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    if rng.random() < 0.15:
        length = int(rng.integers(2, 4))
        kernel = np.zeros((length * 2 + 1, length * 2 + 1), np.float32)
        kernel[length, :] = 1.0
        turn = cv2.getRotationMatrix2D((length, length), float(rng.uniform(0, 180)), 1.0)
        kernel = cv2.warpAffine(kernel, turn, kernel.shape[::-1])
        out = cv2.filter2D(out, -1, kernel / max(kernel.sum(), 1e-6))
    if rng.random() < 0.3:  # uneven light across the line
        ramp = np.linspace(1.0 - rng.uniform(0, 0.25), 1.0, out.shape[1], dtype=np.float32)
        out *= (ramp if rng.random() < 0.5 else ramp[::-1])[None, :, None]
    out += rng.normal(0, rng.uniform(0, 8.0 if small else 4.0), out.shape).astype(np.float32)
    out = np.clip(out, 0, 255).astype(np.uint8)
    quality = int(rng.integers(55, 96)) if small else int(rng.integers(75, 96))
    ok, jpeg = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(jpeg, cv2.IMREAD_COLOR)


def render_line(rng: np.random.Generator, font_path: str, text: str | None = None, glyph_px: float | None = None,
                variety: bool = False) -> Line:
    """One line; `variety` (training, v2) adds bolder, thinner, condensed and widened faces. Without it the same
    seed draws the same line as before it existed, so the evaluation lines of earlier sessions stay put."""
    if text is None:
        text = line_text(rng)
    covered = _covered(font_path)
    text = " ".join("".join(ch for ch in text if ch in covered or ch == " ").split()) or "A"
    if glyph_px is None:
        glyph_px, small = _glyph_px(rng)
    else:
        small = glyph_px < 14.0
    ink, paper = _colours(rng)
    if variety:
        big, box = draw(text, font_path, ink, paper, stroke=int(rng.choice(3, p=(0.8, 0.14, 0.06))))
        big, box = _varied(big, box, ink, paper, rng)
    else:
        big, box = draw(text, font_path, ink, paper)
    big, box = _tilted(big, box, rng)
    scale = glyph_px / EM
    frame = cv2.resize(big, (max(8, round(big.shape[1] * scale)), max(8, round(big.shape[0] * scale))), interpolation=cv2.INTER_AREA)
    frame = _camera(frame, rng, small)
    x1, y1, x2, y2 = (v * scale for v in box)
    h = max(y2 - y1, 1.0)
    top, bottom = rng.uniform(0.1, 0.4, 2) * h
    ends = rng.uniform(-0.05, 0.15, 2) * h  # the detector's box stops near the last stroke; _widened adds room
    detected = (max(0.0, x1 - ends[0]), max(0.0, y1 - top), min(frame.shape[1] - 1.0, x2 + ends[1]), min(frame.shape[0] - 1.0, y2 + bottom))
    upright = Upright(frame, np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]), 0.0, frame)
    crop = upright.line_crop(_widened(detected, frame.shape[1], frame.shape[0]), SMALL_PRINT_PX)
    roll = rng.random()
    if roll < 0.55:
        return Line(crop, text, glyph_px, FIRST_SQUEEZE, Path(font_path).name, False)
    if roll < 0.75:
        return Line(crop, text, glyph_px, SECOND_SQUEEZE, Path(font_path).name, False)
    big = enlarged(crop)  # the station enlarges only lines still under 32 px (resampled at most 4x): 8 px and less
    return Line(big, text, glyph_px, SECOND_SQUEEZE, Path(font_path).name, big.shape != crop.shape)


def render_many(seed: int, count: int, fonts: list[str], glyph_px: float | None = None, variety: bool = False) -> list[Line]:
    """`count` lines from `seed`, fonts taken in turn at random: what a worker makes for one chunk."""
    cv2.setNumThreads(1)  # one process per core renders; no thread pools inside
    rng = np.random.default_rng(seed)
    return [render_line(rng, fonts[int(rng.integers(len(fonts)))], glyph_px=glyph_px, variety=variety) for _ in range(count)]
