"""Hard negatives: things a camera over a line sees that are not hangtags.

Coins and round metal, lamps and their reflections, receipts and printed sheets, packaging panels.
Each is an RGBA patch plus a label map (k + 1 over the bars of its k-th barcode): every linear barcode
in a scene is labelled, also one on a receipt or a box, so a barcode there is a barcode and the
paper around it is not a tag.
"""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image, ImageDraw

from training.synth.barcodes import code128_modules, ean13_modules
from training.synth.content import draw_fields
from training.synth.fonts import cjk_faces, face, latin_faces

Patch = tuple[np.ndarray, np.ndarray, list[str]]  # RGBA, label map, barcode texts


def coin(rng: np.random.Generator, scale: float) -> Patch:
    """A coin, washer, button or snap: a shaded metal disc with a rim, relief and a hot spot."""
    d = max(12, int(scale * rng.uniform(0.05, 0.2)))
    metal = np.float32(((200, 170, 90), (190, 190, 195), (170, 110, 70), (120, 120, 125))[int(rng.integers(4))])
    yy, xx = (np.mgrid[:d, :d].astype(np.float32) - d / 2 + 0.5) / (d / 2)
    r = np.hypot(xx, yy)
    lx, ly = rng.normal(0, 1, 2)
    shade = 0.65 + 0.35 * np.clip(-(xx * lx + yy * ly) / (np.hypot(lx, ly) + 1e-6), -1, 1)
    rim = (r > 0.85) & (r <= 1)
    relief8 = np.zeros((d, d), np.uint8)
    cv2.putText(relief8, str(int(rng.choice([1, 5, 10, 50]))), (int(d * 0.25), int(d * 0.65)), cv2.FONT_HERSHEY_SIMPLEX,
                d / 60, 255, max(1, d // 25))
    relief = relief8.astype(np.float32) / 255
    rgb = metal[None, None] * (shade - 0.15 * rim + 0.2 * relief)[..., None]
    hot = np.exp(-((xx - rng.uniform(-0.5, 0.5)) ** 2 + (yy - rng.uniform(-0.5, 0.5)) ** 2) / rng.uniform(0.01, 0.08))
    rgb += hot[..., None] * rng.uniform(60, 200)
    if rng.random() < 0.3:  # washer / button holes
        rgb[r < rng.uniform(0.15, 0.35)] = 0
        alpha = ((r <= 1) & (r >= 0.3)).astype(np.uint8) * 255
    else:
        alpha = (r <= 1).astype(np.uint8) * 255
    return np.dstack([np.clip(rgb, 0, 255).astype(np.uint8), alpha]), np.zeros((d, d), np.uint8), []


def _paper_patch(w: int, h: int, tone: tuple) -> tuple[Image.Image, Image.Image]:
    return Image.new("RGBA", (w, h), tone + (255,)), Image.new("L", (w, h), 0)


def _bars(draw: ImageDraw.ImageDraw, labels: ImageDraw.ImageDraw, modules: np.ndarray, x: int, y: int, m: int,
          bar_h: int, index: int) -> int:
    for i in np.flatnonzero(modules):
        draw.rectangle((x + i * m, y, x + (i + 1) * m - 1, y + bar_h - 1), fill=(0, 0, 0, 255))
    labels.rectangle((x, y, x + len(modules) * m - 1, y + bar_h - 1), fill=index)
    return len(modules) * m


def receipt(rng: np.random.Generator, scale: float) -> Patch:
    """A till receipt or printed sheet: lines of text, rules, sometimes a barcode at the foot."""
    w = int(scale * rng.uniform(0.2, 0.45))
    h = int(w * rng.uniform(1.2, 2.8))
    image, labels = _paper_patch(w, h, tuple(int(v) for v in rng.uniform(225, 255, 3)))
    draw, ldraw = ImageDraw.Draw(image), ImageDraw.Draw(labels)
    faces = latin_faces() + cjk_faces()
    path = faces[int(rng.integers(len(faces)))]
    size = max(6, int(w * rng.uniform(0.04, 0.07)))
    fields = draw_fields(rng)
    lines = ["收银小票" if rng.random() < 0.5 else "RECEIPT", f"NO. {fields['style_number']}", fields["product_name"],
             f"{fields['size']}  x1  {fields['price']}", "----------------", f"合计 TOTAL {fields['price']}",
             "现金 CASH", "谢谢惠顾 THANK YOU", "2026-11-30 14:22"]
    y = size
    texts = []
    for line in lines[:int(rng.integers(4, len(lines) + 1))]:
        draw.text((size, y), line, font=face(path, size), fill=(30, 30, 30, 255))
        y += int(size * 1.5)
    if rng.random() < 0.45 and y < h - size * 4:
        text = fields["style_number"].replace("-", "")
        modules = code128_modules(text)
        m = max(1, (w - 2 * size) // (len(modules) + 20))
        _bars(draw, ldraw, modules, (w - len(modules) * m) // 2, y + size, m, int(min(h - y - 2 * size, size * 3)), 1)
        texts.append(text)
    return np.asarray(image), np.asarray(labels), texts


def packaging(rng: np.random.Generator, scale: float) -> Patch:
    """A box panel or poly bag label: a colour field, big lettering, graphics, often an EAN-13."""
    w, h = int(scale * rng.uniform(0.3, 0.7)), int(scale * rng.uniform(0.25, 0.6))
    tone = tuple(int(v) for v in rng.uniform(40, 250, 3))
    image, labels = _paper_patch(w, h, tone)
    draw, ldraw = ImageDraw.Draw(image), ImageDraw.Draw(labels)
    ink = (255, 255, 255, 255) if sum(tone) < 380 else (20, 20, 20, 255)
    faces = cjk_faces() + latin_faces()
    fields = draw_fields(rng)
    draw.text((w * 0.06, h * 0.08), fields["brand"], font=face(faces[int(rng.integers(len(faces)))], int(h * rng.uniform(0.1, 0.2))), fill=ink)
    for _ in range(int(rng.integers(1, 4))):
        c = tuple(int(v) for v in rng.integers(0, 256, 3)) + (255,)
        x0, y0 = rng.uniform(0, w), rng.uniform(h * 0.3, h)
        draw.ellipse((x0, y0, x0 + rng.uniform(0.1, 0.4) * w, y0 + rng.uniform(0.1, 0.4) * h), fill=c)
    texts = []
    if rng.random() < 0.6:
        m = max(1, int(w * rng.uniform(0.2, 0.4) / 95))
        bar_h = int(m * rng.uniform(25, 50))
        x, y = int(w - 110 * m), int(h - bar_h - 8 * m)
        if x > 0 and y > 0:
            draw.rectangle((x - 8 * m, y - 4 * m, x + 103 * m, y + bar_h + 4 * m), fill=(255, 255, 255, 255))
            _bars(draw, ldraw, ean13_modules(fields["ean13"]), x, y, m, bar_h, 1)
            texts.append(fields["ean13"])
    return np.asarray(image), np.asarray(labels), texts


def sheet_of_print(rng: np.random.Generator, scale: float) -> Patch:
    """A white card or page with text only: the nearest thing to a hangtag that is not one."""
    w, h = int(scale * rng.uniform(0.15, 0.4)), int(scale * rng.uniform(0.2, 0.5))
    image, labels = _paper_patch(w, h, tuple(int(v) for v in rng.uniform(215, 255, 3)))
    draw = ImageDraw.Draw(image)
    faces = cjk_faces() + latin_faces()
    path = faces[int(rng.integers(len(faces)))]
    size = max(6, int(min(w, h) * rng.uniform(0.05, 0.1)))
    y = size
    words = "说明书 使用方法 注意事项 INSTRUCTIONS WARRANTY 合格证 检验员 QC PASSED 出厂日期".split()
    while y < h - size:
        draw.text((size, y), " ".join(rng.choice(words, int(rng.integers(1, 4)))), font=face(path, size), fill=(40, 40, 40, 255))
        y += int(size * rng.uniform(1.4, 2.2))
    return np.asarray(image), np.asarray(labels), []


# sheet_of_print is kept out: a plain white card with text is what a big code-less hangtag looks like,
# and as a negative it taught the first wide model to miss tags that fill the frame.
PATCHES = (coin, coin, receipt, packaging)


def lamp(rng: np.random.Generator, canvas: np.ndarray) -> None:
    """Add a light source or its reflection: a blown-out spot, a tube, or a ring light's ring."""
    H, W = canvas.shape[:2]
    glow = np.zeros((H, W), np.float32)
    c = (int(rng.uniform(0, W)), int(rng.uniform(0, H)))
    s = min(H, W)
    kind = rng.random()
    if kind < 0.45:
        cv2.ellipse(glow, c, (int(s * rng.uniform(0.02, 0.12)), int(s * rng.uniform(0.02, 0.12))), float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
    elif kind < 0.8:
        length, thick = s * rng.uniform(0.2, 0.9), s * rng.uniform(0.01, 0.04)
        cv2.ellipse(glow, c, (int(length / 2), int(thick)), float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
    else:
        r = int(s * rng.uniform(0.05, 0.2))
        cv2.circle(glow, c, r, 1.0, max(2, int(r * rng.uniform(0.1, 0.3))))
    core = cv2.GaussianBlur(glow, (0, 0), 1.5)
    small = cv2.resize(glow, (max(4, W // 8), max(4, H // 8)), interpolation=cv2.INTER_AREA)
    bloom = cv2.resize(cv2.GaussianBlur(small, (0, 0), s * rng.uniform(0.02, 0.08) / 8), (W, H), interpolation=cv2.INTER_LINEAR)
    tint = rng.uniform(0.85, 1.0, 3).astype(np.float32)
    canvas += (core * 400 + bloom * rng.uniform(80, 300))[..., None] * tint
