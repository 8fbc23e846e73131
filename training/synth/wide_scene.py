"""A scene of the wide domain: many tag designs on many surfaces, hard negatives in every image.

    scene = generate_wide_scene(seed, 640)                  # training designs only
    scene = generate_wide_scene(seed, 640, held_out=True)   # one held-out design per scene

Held-out scenes use one design each, `held_out_design(seed)`, so AP50 can be reported per design.
"""

from __future__ import annotations

import sys

import cv2
import numpy as np

from training.synth.distractors import DISTRACTORS
from training.synth.negatives import PATCHES, lamp
from training.synth.scene import (ASPECTS, NOMINAL_CARD_MM, Scene, SymbolTruth, TagTruth, _bbox, _crease, _curl,
                                  _occlude, _overlaps, _string, _translate)
from training.synth.surfaces import surface
from training.synth.tag import HANGTAG, TagCanvas
from training.synth.wide_tag import Design, design_split, render_wide_card

TAG_COUNTS = (0, 1, 2, 3, "sheet")
TAG_COUNT_P = (0.2, 0.32, 0.2, 0.1, 0.18)


def held_out_design(seed: int) -> Design:
    held = design_split()[1]
    return held[seed % len(held)]


def _homography(rng: np.random.Generator, w: int, h: int, target_long: float, upright: bool) -> np.ndarray:
    s = target_long / max(w, h)
    r = rng.random()
    theta = rng.normal(0, 4 if upright else 12) if upright or r < 0.5 else (rng.uniform(-90, 90) if r < 0.85 else rng.uniform(-180, 180))
    c, si = np.cos(np.radians(theta)), np.sin(np.radians(theta))
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = ((src - [w / 2, h / 2]) * s) @ np.float32([[c, si], [-si, c]])
    jitter = rng.uniform(0, 0.18 if rng.random() < 0.3 else 0.08) * target_long
    dst += rng.uniform(-jitter, jitter, dst.shape)
    return cv2.getPerspectiveTransform(src, dst.astype(np.float32))


def _fold(rng: np.random.Generator, card: TagCanvas) -> TagCanvas:
    """A folded-over card: one part darker and foreshortened across a sharp crease line."""
    h, w = card.alpha.shape
    y = int(h * rng.uniform(0.3, 0.75))
    squeeze = rng.uniform(0.75, 0.95)
    new_h = y + int((h - y) * squeeze)
    map_y = np.concatenate([np.arange(y, dtype=np.float32), y + np.arange(new_h - y, dtype=np.float32) / squeeze])
    map_x = np.broadcast_to(np.arange(w, dtype=np.float32)[None], (new_h, w)).astype(np.float32)
    map_y = np.broadcast_to(map_y[:, None], (new_h, w)).astype(np.float32)
    rgb = cv2.remap(card.rgb, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    rgb[y:] *= rng.uniform(0.7, 0.92)
    rgb[max(0, y - 1):y + 2] *= 0.6
    alpha = cv2.remap(card.alpha, map_x, map_y, cv2.INTER_LINEAR, borderValue=0)
    labels = cv2.remap(card.label_map, map_x, map_y, cv2.INTER_NEAREST, borderValue=0)
    return TagCanvas(np.clip(rgb, 0, 255).astype(np.uint8), alpha, labels, card.symbols, card.fields, card.hole_xy,
                     card.side, card.extras)


def _specular(rng: np.random.Generator, canvas: np.ndarray, alpha: np.ndarray, x0: int, y0: int) -> None:
    """A glossy card's hot spot or ring-light reflection, only where the card is."""
    h, w = alpha.shape
    yy, xx = np.mgrid[:h, :w].astype(np.float32)
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    r = np.hypot(xx - cx, yy - cy) / max(h, w)
    if rng.random() < 0.6:
        spot = np.exp(-(r / rng.uniform(0.05, 0.3)) ** 2)
    else:
        ring = rng.uniform(0.1, 0.35)
        spot = np.exp(-((r - ring) / rng.uniform(0.01, 0.04)) ** 2)
    canvas[y0:y0 + h, x0:x0 + w] += (spot * alpha.astype(np.float32) / 255 * rng.uniform(60, 240))[..., None]


def _place(rng: np.random.Generator, canvas: np.ndarray, card: TagCanvas, target_long: float, taken: list[tuple],
           centre: tuple[float, float] | None = None, upright: bool = False, overlap: float = 0.05) -> TagTruth | None:
    if rng.random() < 0.35:
        extras = card.extras
        card = _curl(rng, card) if rng.random() < 0.7 else _fold(rng, card)
        card.extras = extras  # classic _curl does not carry them
    rgb = card.rgb if rng.random() > 0.3 else _crease(rng, card.rgb)
    h, w = card.alpha.shape
    H, W = canvas.shape[:2]
    m0 = _homography(rng, w, h, target_long, upright)
    corners = cv2.perspectiveTransform(np.float32([[[0, 0], [w, 0], [w, h], [0, h]]]), m0)[0]
    lo, hi = corners.min(0), corners.max(0)
    if hi[0] - lo[0] > W - 4 or hi[1] - lo[1] > H - 4:
        return None
    for _ in range(1 if centre else 20):
        cx, cy = centre or (rng.uniform(2 - lo[0], W - 2 - hi[0]), rng.uniform(2 - lo[1], H - 2 - hi[1]))
        box = (cx + lo[0], cy + lo[1], cx + hi[0], cy + hi[1])
        inside = box[0] >= 1 and box[1] >= 1 and box[2] <= W - 1 and box[3] <= H - 1
        if inside and not _overlaps(box, taken, overlap):
            break
    else:
        return None
    shadow = int(rng.uniform(0, 0.05) * target_long)
    x0, y0 = max(0, int(box[0]) - 2 - 3 * shadow), max(0, int(box[1]) - 2 - 3 * shadow)
    x1, y1 = min(W, int(np.ceil(box[2])) + 3 + 3 * shadow), min(H, int(np.ceil(box[3])) + 3 + 3 * shadow)
    m = _translate(m0, cx - x0, cy - y0)
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(rgb, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    alpha = cv2.warpPerspective(card.alpha, m, size, flags=cv2.INTER_LINEAR, borderValue=0)
    labels = cv2.warpPerspective(card.label_map, m, size, flags=cv2.INTER_NEAREST, borderValue=0)
    roi = canvas[y0:y1, x0:x1]
    if shadow:
        soft = np.roll(cv2.GaussianBlur(alpha.astype(np.float32) / 255, (0, 0), shadow + 0.5), (shadow, shadow), axis=(0, 1))
        roi *= 1 - rng.uniform(0.2, 0.5) * soft[..., None]
    a = alpha.astype(np.float32)[..., None] / 255
    roi[:] = roi * (1 - a) + warped.astype(np.float32) * a
    if card.extras.get("finish") == "glossy" or rng.random() < 0.1:
        _specular(rng, canvas, alpha, x0, y0)
    tag_box = _bbox(alpha > 127, x0, y0)
    if tag_box is None:
        return None
    taken.append(tag_box)
    symbols = []
    for k, symbol in enumerate(card.symbols, start=1):
        b = _bbox(labels == k, x0, y0)
        if b is not None and b[2] - b[0] >= 3 and b[3] - b[1] >= 3:
            symbols.append(SymbolTruth(symbol.class_id, symbol.kind, symbol.text, b))
    full = _translate(m0, cx, cy)
    quad = cv2.perspectiveTransform(np.float32([[[0, 0], [w, 0], [w, h], [0, h]]]), full)[0]
    if rng.random() < 0.7:
        _string(rng, canvas, full, card, target_long)
    return TagTruth(tag_box, tuple((float(x), float(y)) for x, y in quad), card.side, card.fields, tuple(symbols),
                    card.extras.get("design", ""))


def _paste_labelled(rng: np.random.Generator, canvas: np.ndarray, patch: np.ndarray, labels: np.ndarray,
                    texts: list[str], avoid: list[tuple], codes: list[tuple] = ()) -> list[tuple[int, str, tuple]]:
    """Rotate and paste an RGBA patch away from the tags (it may overlap a tag's rim, never a code on
    it); returns (class, text, box) of its own barcodes."""
    H, W = canvas.shape[:2]
    ph, pw = patch.shape[:2]
    angle = float(rng.uniform(0, 360)) if rng.random() < 0.6 else float(rng.normal(0, 8))
    side = int(np.hypot(pw, ph)) + 2
    rot = cv2.getRotationMatrix2D((pw / 2, ph / 2), angle, 1.0)
    rot[:, 2] += (side - pw) / 2, (side - ph) / 2
    for _ in range(6):
        cx, cy = rng.uniform(0, W), rng.uniform(0, H)
        x0, y0 = int(cx - side / 2), int(cy - side / 2)
        if texts and (x0 < 0 or y0 < 0 or x0 + side > W or y0 + side > H):
            continue  # a labelled barcode stays wholly inside the frame
        if not _overlaps((x0 + side * 0.15, y0 + side * 0.15, x0 + side * 0.85, y0 + side * 0.85), avoid, 0.0) \
                and not _overlaps((x0, y0, x0 + side, y0 + side), list(codes), 0.0):
            break
    else:
        return []
    turned = cv2.warpAffine(patch, rot, (side, side), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
    turned_labels = cv2.warpAffine(labels, rot, (side, side), flags=cv2.INTER_NEAREST, borderValue=0)
    cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(W, x0 + side), min(H, y0 + side)
    if cx1 <= cx0 or cy1 <= cy0:
        return []
    part = turned[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0].astype(np.float32)
    a = part[..., 3:] / 255
    roi = canvas[cy0:cy1, cx0:cx1]
    roi[:] = roi * (1 - a) + part[..., :3] * a
    found = []
    for k, text in enumerate(texts, start=1):
        b = _bbox(turned_labels[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0] == k, cx0, cy0)
        if b is not None and b[2] - b[0] >= 3 and b[3] - b[1] >= 3:
            found.append((1, text, b))
    return found


def _sheet(rng: np.random.Generator, canvas: np.ndarray, short: int, design: Design | None, designs: list[Design]) -> list[TagTruth]:
    """3-6 cards of one design side by side with clear gaps, as on a rack. (Cards almost touching taught
    the first wide model to cut one landscape card into two tags.)"""
    H, W = canvas.shape[:2]
    n = int(rng.integers(3, 7))
    cols = n if rng.random() < 0.5 else int(np.ceil(n / 2))
    rows = int(np.ceil(n / cols))
    design = design or designs[int(rng.integers(len(designs)))]
    cell = min(W / cols, H / rows) * rng.uniform(0.75, 0.95)
    px_per_mm = float(np.clip(1.6 * cell / NOMINAL_CARD_MM, 2.0, 10.0))
    tags, taken = [], []
    ox, oy = rng.uniform(0, W - cols * W / cols * 0.98 + 1), rng.uniform(0, 0.05 * H)
    for i in range(n):
        r, c = divmod(i, cols)
        card = render_wide_card(rng, px_per_mm, design)
        centre = (ox + (c + 0.5) * W / cols * 0.98, oy + (r + 0.5) * H / rows * 0.95)
        t = _place(rng, canvas, card, cell * rng.uniform(0.62, 0.82), taken, centre, upright=True, overlap=0.0)
        if t is not None:
            tags.append(t)
    return tags


def generate_wide_scene(seed: int, imgsz: int = 640, *, held_out: bool = False, no_tags: bool = False) -> Scene:
    """A rare drawing failure (a die-cut too small for its print, say) draws the seed's scene again from
    a second random stream, so one bad draw never stops a dataset of thousands."""
    for attempt in range(3):
        try:
            return _draw_wide_scene(seed, imgsz, held_out, np.random.default_rng([seed, attempt]) if attempt else None, no_tags)
        except (ValueError, IndexError, ZeroDivisionError, OverflowError, cv2.error) as exc:
            print(f"wide scene {seed}: {type(exc).__name__}: {exc}; drawing it again", file=sys.stderr)
    return _draw_wide_scene(seed, imgsz, held_out, np.random.default_rng([seed, 3]), no_tags)


def _draw_wide_scene(seed: int, imgsz: int, held_out: bool, rng: np.random.Generator | None, no_tags: bool = False) -> Scene:
    rng = rng or np.random.default_rng(seed)
    train_designs, _ = design_split()
    design = held_out_design(seed) if held_out else None
    aspect = ASPECTS[int(rng.integers(len(ASPECTS)))]
    W, H = (imgsz, int(round(imgsz / aspect))) if aspect >= 1 else (int(round(imgsz * aspect)), imgsz)
    canvas = surface(rng, H, W)
    short = min(W, H)
    for _ in range(int(rng.poisson(0.7))):  # under the tags: paper, coins, packaging without labelled codes
        patch, _labels, texts = PATCHES[int(rng.integers(len(PATCHES)))](rng, short)
        if not texts:
            _paste_labelled(rng, canvas, patch, _labels, [], [])

    count = TAG_COUNTS[int(rng.choice(len(TAG_COUNTS), p=TAG_COUNT_P))]
    if no_tags:  # a hard-negative scene: the same surfaces, negatives and light, no tag at all
        count = 0
    if count == "sheet":
        tags = _sheet(rng, canvas, short, design, train_designs)
    else:
        tags, taken = [], []
        crowd = (1.0, 1.0, 0.8, 0.65)[count]
        for _ in range(count):
            target_long = short * rng.uniform(0.12, 0.97) * crowd
            px_per_mm = float(np.clip(1.6 * target_long / NOMINAL_CARD_MM, 2.0, 10.0))
            card = render_wide_card(rng, px_per_mm, design or train_designs[int(rng.integers(len(train_designs)))])
            placed = _place(rng, canvas, card, target_long, taken, overlap=0.12 if rng.random() < 0.3 else 0.03)
            if placed is not None:
                tags.append(placed)

    extra: list[tuple[int, str, tuple]] = []
    avoid = [t.xyxy for t in tags]
    codes = [s.xyxy for t in tags for s in t.symbols]
    for _ in range(1 + int(rng.poisson(1.2))):  # hard negatives in every image
        maker = PATCHES[int(rng.integers(len(PATCHES)))] if rng.random() < 0.75 else None
        if maker is None:
            plain = DISTRACTORS[int(rng.integers(len(DISTRACTORS)))](rng, short)
            extra += _paste_labelled(rng, canvas, plain, np.zeros(plain.shape[:2], np.uint8), [], avoid, codes)
        else:
            patch, labels, texts = maker(rng, short)
            found = _paste_labelled(rng, canvas, patch, labels, texts, avoid, codes)
            extra += found
            avoid += [b for _, _, b in found]
    _occlude(rng, canvas, tags, short)
    for _ in range(int(rng.random() < 0.35) + int(rng.random() < 0.1)):
        lamp(rng, canvas)
    image = _camera(rng, canvas)

    boxes, classes = [], []
    for t in tags:
        boxes.append(t.xyxy)
        classes.append(HANGTAG)
        for s in t.symbols:
            boxes.append(s.xyxy)
            classes.append(s.class_id)
    for c, _, b in extra:
        boxes.append(b)
        classes.append(c)
    xyxy = np.array(boxes, np.float32).reshape(-1, 4)
    return Scene(np.ascontiguousarray(image[..., ::-1]), xyxy, np.array(classes, np.int64), tuple(tags), seed)


def _camera(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """Lighting (one-sided, ring light, exposure), blur, noise and JPEG: float RGB in, uint8 RGB out."""
    h, w = image.shape[:2]
    yy, xx = np.arange(h, dtype=np.float32)[:, None], np.arange(w, dtype=np.float32)[None, :]
    kind = rng.random()
    if kind < 0.35:  # one-sided light
        angle = rng.uniform(0, 2 * np.pi)
        d = ((xx / w - 0.5) * np.cos(angle) + (yy / h - 0.5) * np.sin(angle))
        light = 1 + rng.uniform(0.3, 0.9) * d
    elif kind < 0.6:  # ring light: bright centre, falling off
        r2 = ((xx / w - rng.uniform(0.35, 0.65)) ** 2 + (yy / h - rng.uniform(0.35, 0.65)) ** 2) * 2
        light = 1.15 - rng.uniform(0.2, 0.6) * r2
    else:
        light = np.ones((1, 1), np.float32)
    light = np.float32(light * rng.uniform(0.55, 1.3))
    image = image * light[..., None] * rng.uniform(0.9, 1.1, 3).astype(np.float32)
    r = rng.random()
    if r < 0.2:
        length = int(rng.integers(3, 22))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), float(rng.uniform(0, 180)), 1)
        kernel = cv2.warpAffine(kernel, rot, (length, length))
        image = cv2.filter2D(image, -1, kernel / max(kernel.sum(), 1e-6))
    elif r < 0.4:
        image = cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.6, 2.2)))
    elif r < 0.5:
        f = rng.uniform(0.35, 0.7)
        small = cv2.resize(image, (max(8, int(w * f)), max(8, int(h * f))), interpolation=cv2.INTER_AREA)
        image = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.75:
        sigma = rng.uniform(1, 10)
        noise = rng.standard_normal((h, w, 1 if rng.random() < 0.5 else 3), dtype=np.float32) * np.float32(sigma)
        image = image + noise * np.sqrt(np.clip(image, 1, 255) * np.float32(1 / 128))
    image = np.clip(image, 0, 255)
    if rng.random() < 0.6:
        ok, data = cv2.imencode(".jpg", image.astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(20, 92))])
        image = cv2.imdecode(data, cv2.IMREAD_UNCHANGED)
    return image.astype(np.uint8)
