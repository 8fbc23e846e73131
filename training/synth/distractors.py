"""Things on a garment that are not hangtags: care labels, stickers, price stickers, paper
scraps, and hands. Each is drawn as a small RGBA patch that the scene pastes, rotated.

None of them carries a bar or matrix code: every linear barcode in a scene is labelled, so a
distractor with bars would need a label too.
"""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image, ImageDraw

from training.synth.tag import font


def _rgba(w: int, h: int, fill: tuple) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("RGBA", (w, h), fill + (0,))
    return image, ImageDraw.Draw(image)


def care_label(rng: np.random.Generator, scale: float) -> np.ndarray:
    """A satin wash-care label: narrow, small text and care symbols."""
    w, h = int(scale * rng.uniform(0.18, 0.3)), int(scale * rng.uniform(0.4, 0.8))
    tone = tuple(int(v) for v in rng.uniform(225, 255, 3)) if rng.random() < 0.8 else (30, 30, 35)
    ink = (60, 60, 70) if tone[0] > 128 else (220, 220, 220)
    image, draw = _rgba(w, h, tone)
    draw.rectangle((0, 0, w - 1, h - 1), fill=tone + (255,))
    lines = ("100% COTTON", "MADE IN CHINA", "洗涤说明", "30°C", "DO NOT BLEACH", "不可漂白", "悬挂晾干", "RN 12345")
    size = max(6, int(w * 0.1))
    y = size
    for _ in range(int(rng.integers(2, 6))):
        if y > h * 0.6:
            break
        draw.text((w * 0.08, y), lines[int(rng.integers(len(lines)))], font=font(size), fill=ink)
        y += int(size * 1.5)
    s = max(4, int(w * 0.16))
    x = int(w * 0.08)
    for k in range(int(rng.integers(3, 6))):
        box = (x, y, x + s, y + s)
        kind = k % 4
        if kind == 0:
            draw.polygon([(x, y + s), (x + s, y + s), (x + s // 2, y)], outline=ink, width=1)
        elif kind == 1:
            draw.rectangle(box, outline=ink, width=1)
            draw.ellipse((x + 2, y + 2, x + s - 2, y + s - 2), outline=ink, width=1)
        elif kind == 2:
            draw.ellipse(box, outline=ink, width=1)
        else:
            draw.polygon([(x, y + s), (x + s, y + s), (x + s, y + s // 3), (x + s // 3, y + s // 3)], outline=ink, width=1)
        x += int(s * 1.4)
        if x + s > w:
            x, y = int(w * 0.08), y + int(s * 1.4)
    return np.asarray(image)


def sticker(rng: np.random.Generator, scale: float) -> np.ndarray:
    d = int(scale * rng.uniform(0.12, 0.3))
    color = tuple(int(v) for v in rng.integers(0, 256, 3))
    image, draw = _rgba(d, d, color)
    if rng.random() < 0.5:
        draw.ellipse((0, 0, d - 1, d - 1), fill=color + (255,))
    else:
        draw.rounded_rectangle((0, 0, d - 1, d - 1), radius=d // 5, fill=color + (255,))
    words = ("SALE", "NEW", "新品", "-30%", "特价", "限时", "HOT", "爆款")
    ink = (255, 255, 255) if sum(color) < 380 else (20, 20, 20)
    draw.text((d / 2, d / 2), words[int(rng.integers(len(words)))], font=font(max(6, d // 4), True), fill=ink, anchor="mm")
    return np.asarray(image)


def price_sticker(rng: np.random.Generator, scale: float) -> np.ndarray:
    w, h = int(scale * rng.uniform(0.2, 0.35)), int(scale * rng.uniform(0.08, 0.14))
    color = ((255, 255, 255), (255, 200, 40), (250, 120, 40), (255, 240, 200))[int(rng.integers(4))]
    image, draw = _rgba(w, h, color)
    draw.rectangle((0, 0, w - 1, h - 1), fill=color + (255,))
    text = f"¥{int(rng.integers(9, 999))}.{int(rng.integers(0, 10))}0"
    if rng.random() < 0.4:
        text = "特价 " + text
    draw.text((w / 2, h / 2), text, font=font(max(6, int(h * 0.55)), True), fill=(20, 20, 20), anchor="mm")
    return np.asarray(image)


def paper_scrap(rng: np.random.Generator, scale: float) -> np.ndarray:
    w, h = int(scale * rng.uniform(0.15, 0.5)), int(scale * rng.uniform(0.1, 0.4))
    tone = tuple(int(v) for v in rng.uniform(180, 255, 3))
    image, draw = _rgba(w, h, tone)
    n = int(rng.integers(5, 10))
    angles = np.sort(rng.uniform(0, 2 * np.pi, n))
    radii = rng.uniform(0.6, 1.0, n)
    points = [(w / 2 + np.cos(a) * r * w / 2, h / 2 + np.sin(a) * r * h / 2) for a, r in zip(angles, radii)]
    draw.polygon(points, fill=tone + (255,))
    return np.asarray(image)


def hand(rng: np.random.Generator, scale: float) -> np.ndarray:
    """A palm with fingers: skin-toned blobs with soft shading, drawn pointing up."""
    s = int(scale * rng.uniform(0.5, 0.9))
    red = rng.uniform(120, 245)
    green = red * rng.uniform(0.68, 0.85)
    skin = np.float32([red, green, green * rng.uniform(0.75, 0.92)])
    mask = np.zeros((s, s), np.uint8)
    palm_w, palm_h = int(s * 0.28), int(s * 0.22)
    cx, cy = s // 2, int(s * 0.7)
    cv2.ellipse(mask, (cx, cy), (palm_w, palm_h), 0, 0, 360, 255, -1, cv2.LINE_AA)
    finger_w = max(2, int(s * 0.055))
    for k in range(4):
        x = int(cx - palm_w * 0.75 + k * palm_w * 0.5)
        length = s * rng.uniform(0.22, 0.32)
        cv2.line(mask, (x, cy - palm_h // 2), (x + int(rng.normal(0, s * 0.02)), int(cy - palm_h // 2 - length)),
                 255, finger_w * 2, cv2.LINE_AA)
    cv2.line(mask, (cx + palm_w, cy), (int(cx + palm_w * 1.6), int(cy - palm_h * 0.9)), 255, int(finger_w * 2.4), cv2.LINE_AA)
    cv2.rectangle(mask, (cx - int(palm_w * 0.8), cy), (cx + int(palm_w * 0.8), s - 1), 255, -1)
    shade = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), s * 0.04)
    rgb = skin[None, None] * (0.75 + 0.25 * shade[..., None])
    return np.dstack([np.clip(rgb, 0, 255).astype(np.uint8), mask])


DISTRACTORS = (care_label, sticker, price_sticker, paper_scrap)
