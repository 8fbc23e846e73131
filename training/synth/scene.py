"""A whole scene: garment, 0-3 hangtags under perspective, strings, distractors, camera.

Boxes are read back from the warped masks (card alpha, symbol label maps), never from
transformed corner points, so they stay tight under curl and perspective.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from training.synth.background import garment_background
from training.synth.degrade import degrade
from training.synth.distractors import DISTRACTORS, hand
from training.synth.tag import CLASS_NAMES, HANGTAG, TagCanvas, render_card

ASPECTS = (4 / 3, 3 / 2, 16 / 9, 1.0, 3 / 4)
NOMINAL_CARD_MM = 90.0
CLEAN_CLOTHS = ((40, 160, 60), (60, 80, 210), (200, 50, 160), (230, 120, 20))


@dataclass(frozen=True)
class SymbolTruth:
    class_id: int
    format: str
    text: str
    xyxy: tuple[float, float, float, float]


@dataclass(frozen=True)
class TagTruth:
    xyxy: tuple[float, float, float, float]
    quad: tuple[tuple[float, float], ...]  # card corners TL, TR, BR, BL in image pixels
    side: str
    fields: dict[str, str | None]
    symbols: tuple[SymbolTruth, ...]
    design: str = ""  # the wide domain's layout/typeface (training.synth.wide_tag); empty for classic tags

    def to_json(self) -> dict:
        out = {
            "xyxy": list(self.xyxy), "quad": [list(p) for p in self.quad], "side": self.side,
            "fields": dict(self.fields),
            "symbols": [{"class_id": s.class_id, "class_name": CLASS_NAMES[s.class_id], "format": s.format,
                         "text": s.text, "xyxy": list(s.xyxy)} for s in self.symbols],
        }
        if self.design:
            out["design"] = self.design
        return out


@dataclass(frozen=True)
class Scene:
    """`image` is BGR uint8, as the station reads frames; boxes are x1, y1, x2, y2 pixel edges."""

    image: np.ndarray
    xyxy: np.ndarray
    class_id: np.ndarray
    tags: tuple[TagTruth, ...]
    seed: int
    class_names: tuple[str, ...] = CLASS_NAMES


def _bbox(mask: np.ndarray, ox: int, oy: int) -> tuple[float, float, float, float] | None:
    ys, xs = np.nonzero(mask)
    if xs.size == 0:
        return None
    return (float(xs.min() + ox), float(ys.min() + oy), float(xs.max() + 1 + ox), float(ys.max() + 1 + oy))


def _curl(rng: np.random.Generator, card: TagCanvas) -> TagCanvas:
    """Bend the card about its long axis, as a tag curls when it hangs."""
    h, w = card.alpha.shape
    amp = rng.uniform(-0.04, 0.04) * h
    pad = int(abs(amp)) + 2
    xs = np.arange(w, dtype=np.float32)
    dy = amp * ((2 * xs / w - 1) ** 2 - 0.5)
    map_x = np.broadcast_to(xs[None, :], (h + 2 * pad, w)).astype(np.float32)
    map_y = (np.arange(h + 2 * pad, dtype=np.float32)[:, None] - pad - dy[None, :]).astype(np.float32)
    rgb = cv2.remap(card.rgb, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    alpha = cv2.remap(card.alpha, map_x, map_y, cv2.INTER_LINEAR, borderValue=0)
    labels = cv2.remap(card.label_map, map_x, map_y, cv2.INTER_NEAREST, borderValue=0)
    shade = 1 + 0.12 * np.sign(amp) * (2 * xs / w - 1)
    rgb = np.clip(rgb * shade[None, :, None], 0, 255).astype(np.uint8)
    hx, hy = card.hole_xy
    hole = (hx, hy + pad + float(amp * ((2 * hx / w - 1) ** 2 - 0.5)))
    return TagCanvas(rgb, alpha, labels, card.symbols, card.fields, hole, card.side)


def _crease(rng: np.random.Generator, rgb: np.ndarray) -> np.ndarray:
    h, w = rgb.shape[:2]
    yy, xx = np.mgrid[:h, :w].astype(np.float32)
    angle = rng.uniform(0, np.pi)
    d = (xx - rng.uniform(0, w)) * np.cos(angle) + (yy - rng.uniform(0, h)) * np.sin(angle)
    shade = np.where(d > 0, rng.uniform(0.82, 0.95), 1.0) * (1 - 0.25 * np.exp(-(d / 1.5) ** 2))
    return np.clip(rgb * shade[..., None], 0, 255).astype(np.uint8)


def _homography(rng: np.random.Generator, w: int, h: int, target_long: float) -> np.ndarray:
    """Card pixels to a quad centred on the origin: scale, rotation, perspective."""
    s = target_long / max(w, h)
    r = rng.random()
    theta = rng.normal(0, 12) if r < 0.5 else (rng.uniform(-90, 90) if r < 0.85 else rng.uniform(-180, 180))
    c, si = np.cos(np.radians(theta)), np.sin(np.radians(theta))
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    centred = (src - [w / 2, h / 2]) * s
    dst = centred @ np.float32([[c, si], [-si, c]])
    jitter = rng.uniform(0, 0.1) * target_long
    dst += rng.uniform(-jitter, jitter, dst.shape)
    return cv2.getPerspectiveTransform(src, dst.astype(np.float32))


def _overlaps(box: tuple, others: list[tuple], limit: float = 0.05) -> bool:
    for o in others:
        iw = min(box[2], o[2]) - max(box[0], o[0])
        ih = min(box[3], o[3]) - max(box[1], o[1])
        if iw > 0 and ih > 0:
            smaller = min((box[2] - box[0]) * (box[3] - box[1]), (o[2] - o[0]) * (o[3] - o[1]))
            if iw * ih > limit * smaller:
                return True
    return False


def _translate(m: np.ndarray, dx: float, dy: float) -> np.ndarray:
    return np.float64([[1, 0, dx], [0, 1, dy], [0, 0, 1]]) @ m


def _place_card(rng: np.random.Generator, canvas: np.ndarray, card: TagCanvas, target_long: float,
                taken: list[tuple], clean: bool) -> TagTruth | None:
    if not clean and rng.random() < 0.3:
        card = _curl(rng, card)
    rgb = card.rgb if clean or rng.random() > 0.25 else _crease(rng, card.rgb)
    h, w = card.alpha.shape
    H, W = canvas.shape[:2]
    m0 = _homography(rng, w, h, target_long)
    corners = cv2.perspectiveTransform(np.float32([[[0, 0], [w, 0], [w, h], [0, h]]]), m0)[0]
    lo, hi = corners.min(0), corners.max(0)
    if hi[0] - lo[0] > W - 4 or hi[1] - lo[1] > H - 4:
        return None
    for _ in range(20):
        cx = rng.uniform(2 - lo[0], W - 2 - hi[0])
        cy = rng.uniform(2 - lo[1], H - 2 - hi[1])
        box = (cx + lo[0], cy + lo[1], cx + hi[0], cy + hi[1])
        if not _overlaps(box, taken):
            break
    else:
        return None
    shadow = 0 if clean else int(rng.uniform(0, 0.04) * target_long)
    x0, y0 = max(0, int(box[0]) - 2 - 3 * shadow), max(0, int(box[1]) - 2 - 3 * shadow)
    x1, y1 = min(W, int(np.ceil(box[2])) + 3 + 3 * shadow), min(H, int(np.ceil(box[3])) + 3 + 3 * shadow)
    m = _translate(m0, cx - x0, cy - y0)
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(rgb, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    alpha = cv2.warpPerspective(card.alpha, m, size, flags=cv2.INTER_LINEAR, borderValue=0)
    labels = cv2.warpPerspective(card.label_map, m, size, flags=cv2.INTER_NEAREST, borderValue=0)
    roi = canvas[y0:y1, x0:x1]
    if shadow:
        soft = cv2.GaussianBlur(alpha.astype(np.float32) / 255, (0, 0), shadow + 0.5)
        soft = np.roll(soft, (shadow, shadow), axis=(0, 1))
        roi *= 1 - rng.uniform(0.2, 0.45) * soft[..., None]
    a = alpha.astype(np.float32)[..., None] / 255
    roi[:] = roi * (1 - a) + warped.astype(np.float32) * a

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
    if not clean:
        _string(rng, canvas, full, card, target_long)
    return TagTruth(tag_box, tuple((float(x), float(y)) for x, y in quad), card.side, card.fields, tuple(symbols))


def _string(rng: np.random.Generator, canvas: np.ndarray, m: np.ndarray, card: TagCanvas, target_long: float) -> None:
    """A cord, thread or plastic pin from the punched hole out past the card's edge."""
    h, w = card.alpha.shape
    hx, hy = card.hole_xy
    reach = max(w, h) * rng.uniform(0.4, 1.6)
    end = (hx, hy - reach) if h >= w else (hx - reach, hy)
    bend = rng.uniform(-0.5, 0.5) * reach
    ctrl = (hx + bend, (hy + end[1]) / 2) if h >= w else ((hx + end[0]) / 2, hy + bend)
    t = np.linspace(0, 1, 24)[:, None]
    pts = (1 - t) ** 2 * np.float32(card.hole_xy) + 2 * t * (1 - t) * np.float32(ctrl) + t ** 2 * np.float32(end)
    pts = cv2.perspectiveTransform(pts[None].astype(np.float32), m)[0]
    kind = rng.random()
    color = tuple(float(c) for c in rng.choice([(240, 240, 235), (20, 20, 20), (180, 30, 40), (200, 170, 100), (150, 150, 155)]))
    thick = max(1, int(target_long * (0.012 if kind < 0.6 else 0.005)))
    cv2.polylines(canvas, [np.round(pts * 4).astype(np.int32)], False, color, thick, cv2.LINE_AA, shift=2)


def _paste(rng: np.random.Generator, canvas: np.ndarray, patch: np.ndarray, center: tuple[float, float],
           angle: float) -> tuple[float, float, float, float] | None:
    """Rotate an RGBA patch and alpha-blend it at `center`; returns the box it covers."""
    ph, pw = patch.shape[:2]
    rot = cv2.getRotationMatrix2D((pw / 2, ph / 2), angle, 1.0)
    side = int(np.hypot(pw, ph)) + 2
    rot[:, 2] += (side - pw) / 2, (side - ph) / 2
    turned = cv2.warpAffine(patch, rot, (side, side), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
    H, W = canvas.shape[:2]
    x0, y0 = int(center[0] - side / 2), int(center[1] - side / 2)
    cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(W, x0 + side), min(H, y0 + side)
    if cx1 <= cx0 or cy1 <= cy0:
        return None
    part = turned[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0].astype(np.float32)
    a = part[..., 3:] / 255
    roi = canvas[cy0:cy1, cx0:cx1]
    roi[:] = roi * (1 - a) + part[..., :3] * a
    return _bbox(part[..., 3] > 0, cx0, cy0)


def _symbol_boxes(tags: list[TagTruth]) -> list[tuple]:
    return [s.xyxy for t in tags for s in t.symbols]


def generate_scene(seed: int, imgsz: int = 640, *, aspect: float | None = None, n_tags: int | None = None,
                   clean: bool = False) -> Scene:
    """Same seed, same bytes. `imgsz` is the long side; `clean` draws tags on flat cloth with no
    distractors, strings or camera effects, for tests that check label geometry."""
    rng = np.random.default_rng(seed)
    aspect = aspect or ASPECTS[int(rng.integers(len(ASPECTS)))]
    W, H = (imgsz, int(round(imgsz / aspect))) if aspect >= 1 else (int(round(imgsz * aspect)), imgsz)
    if clean:  # saturated cloth, far from every paper colour, so tests can find card pixels
        cloth = CLEAN_CLOTHS[int(rng.integers(len(CLEAN_CLOTHS)))]
        canvas = np.ones((H, W, 3), np.float32) * np.float32(cloth)
    else:
        canvas = garment_background(rng, H, W)
    n = n_tags if n_tags is not None else int(rng.choice(4, p=(0.08, 0.42, 0.32, 0.18)))
    short = min(W, H)

    if not clean:
        for _ in range(int(rng.poisson(1.0))):
            maker = DISTRACTORS[int(rng.integers(len(DISTRACTORS)))]
            _paste(rng, canvas, maker(rng, short), (rng.uniform(0, W), rng.uniform(0, H)), rng.uniform(0, 360))

    tags: list[TagTruth] = []
    taken: list[tuple] = []
    crowd = (1.0, 1.0, 0.8, 0.65)[n]
    for _ in range(n):
        target_long = short * rng.uniform(0.2, 0.85) * crowd
        px_per_mm = float(np.clip(1.6 * target_long / NOMINAL_CARD_MM, 3.0, 10.0))
        card = render_card(rng, px_per_mm, clean=clean)
        placed = _place_card(rng, canvas, card, target_long, taken, clean)
        if placed is not None:
            tags.append(placed)

    if not clean:
        _occlude(rng, canvas, tags, short)
        image = degrade(rng, canvas)
    else:
        image = np.clip(canvas, 0, 255).astype(np.uint8)

    boxes, classes = [], []
    for t in tags:
        boxes.append(t.xyxy)
        classes.append(HANGTAG)
        for s in t.symbols:
            boxes.append(s.xyxy)
            classes.append(s.class_id)
    xyxy = np.array(boxes, np.float32).reshape(-1, 4)
    return Scene(np.ascontiguousarray(image[..., ::-1]), xyxy, np.array(classes, np.int64), tuple(tags), seed)


def _occlude(rng: np.random.Generator, canvas: np.ndarray, tags: list[TagTruth], short: int) -> None:
    """Stickers beside the tags and, now and then, a hand over a tag's edge, never over a symbol."""
    H, W = canvas.shape[:2]
    symbols = _symbol_boxes(tags)
    tag_boxes = [t.xyxy for t in tags]
    for _ in range(int(rng.poisson(0.6))):
        patch = DISTRACTORS[int(rng.integers(len(DISTRACTORS)))](rng, short)
        for _ in range(5):
            center = (rng.uniform(0, W), rng.uniform(0, H))
            r = np.hypot(*patch.shape[:2]) / 2
            box = (center[0] - r, center[1] - r, center[0] + r, center[1] + r)
            if not _overlaps(box, tag_boxes, 0.0):
                _paste(rng, canvas, patch, center, rng.uniform(0, 360))
                break
    if tags and rng.random() < 0.2:
        tag = tags[int(rng.integers(len(tags)))]
        patch = hand(rng, short)
        x1, y1, x2, y2 = tag.xyxy
        for _ in range(5):
            edge = rng.integers(4)
            center = ((x1, (y1 + y2) / 2), (x2, (y1 + y2) / 2), ((x1 + x2) / 2, y1), ((x1 + x2) / 2, y2))[edge]
            angle = (270.0, 90.0, 180.0, 0.0)[edge] + rng.normal(0, 15)
            ph = patch.shape[0]
            shift = ph * 0.45
            direction = np.array(((-1, 0), (1, 0), (0, -1), (0, 1))[edge], np.float32)
            c = (center[0] + direction[0] * shift, center[1] + direction[1] * shift)
            r = np.hypot(*patch.shape[:2]) / 2
            box = (c[0] - r * 0.6, c[1] - r * 0.6, c[0] + r * 0.6, c[1] + r * 0.6)
            if not _overlaps(box, symbols, 0.0):
                _paste(rng, canvas, patch, c, angle)
                break
