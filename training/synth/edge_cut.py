"""Scenes whose frame edge cuts a tag: the tag is a positive with its box clipped to what is in view.

Neither generator ever draws a tag the image's border cuts (classic `_place_card` and wide `_place` keep every
card inside), and the trainer's `augment` cuts tags only at the letterboxed input's edge, rarely and never
against the letterbox's grey pad, where a camera's frame edge meets it. A camera over a line sees tags riding the
frame's top or bottom edge (training/conveyor.py "edge"), and a fine-tune that never shows one can forget them
(issue 17 / 18, BENCHMARKS.md "Tags cut by the frame's edge").

`cut_by_edge` crops a drawn scene: the window keeps the whole scene except the strip beyond a line through one
tag, so that a share f of that tag's box height (top, bottom) or width (left, right) falls outside, f uniform in
`FRACTION`. Truths are clipped to the window:

- a tag's box is the bounding box of its card quad clipped to the window, intersected with its box clipped to the
  window (exact for a flat card; a curled or folded card's quad is its flat outline, so the box may be a few
  pixels loose along the cut);
- a code (on a tag or on packaging) keeps its clipped box when at least `KEEP_AREA` of it is in view, as
  `augment` keeps boxes; less than that, it is dropped;
- no other tag may be cut below `KEEP_AREA` of its box (the window is drawn again, up to 8 times, else the
  scene is left whole), so a tag the crop cuts is always a positive, never an unlabelled piece.

The decision and the window come from a stream of their own (`[seed, 7]`), so a scene's drawing is untouched
and `EDGE_SHARE` 0 (the default, `HTS_SYNTH_EDGE_SHARE`, `python -m training.synth --edge-share`) keeps every
set's bytes.

`HOLE_END_SHARE` (`HTS_SYNTH_EDGE_HOLE_END`, `--edge-hole-end`): of the cut scenes, this share cuts the tag at its
punched-hole end (top of an upright card, left end of a landscape one, as benchmarks/edge_cut_tags.py places the
hole) by `HOLE_FRACTION` of its box, or deeper where a turned card's hole needs it, so the hole is out of view.
Fine-tunes with random sides kept losing the line's tags cut at their top (issue 18, BENCHMARKS.md "p trained once
more"); this puts more of the cuts there without more edge scenes. 0 (the default) draws nothing extra, so sets
keep their bytes.

A tag's fields and quad stay as drawn (the quad may reach outside the image): these scenes are
for the detector, not for reading benches.
"""

from __future__ import annotations

import os

import numpy as np

from training.synth.scene import Scene, SymbolTruth, TagTruth
from training.synth.tag import HANGTAG

EDGE_SHARE = float(os.environ.get("HTS_SYNTH_EDGE_SHARE", "0"))
HOLE_END_SHARE = float(os.environ.get("HTS_SYNTH_EDGE_HOLE_END", "0"))
FRACTION = (0.05, 0.4)
HOLE_FRACTION = (0.1, 0.4)  # the line's top-cut tags lose 10-33 % of their height
HOLE_DEPTH = 0.12  # the hole's far edge, along the card from its hole end (benchmarks/edge_cut_tags.py: centre 0.08)
KEEP_AREA = 0.6
MIN_KEEP = 0.5  # the window keeps at least half the scene's width and height
MIN_TAG_PX = 24
SIDES = ("top", "bottom", "left", "right")


def hole_end_side(quad) -> str:
    """The frame side the card's hole end faces: its top edge (upright card) or left end (landscape), TL TR BR BL."""
    return _hole_end(quad)[0]


def _hole_end(quad) -> tuple[str, np.ndarray]:
    """(the side the hole end faces, the point `HOLE_DEPTH` in from that end along the card's axis)."""
    tl, tr, br, bl = (np.float64(p) for p in quad)
    upright = np.linalg.norm(tl - bl) + np.linalg.norm(tr - br) >= np.linalg.norm(tl - tr) + np.linalg.norm(bl - br)
    end, far = ((tl + tr) / 2, (bl + br) / 2) if upright else ((tl + bl) / 2, (tr + br) / 2)
    dx, dy = end - far
    side = ("top" if dy < 0 else "bottom") if abs(dy) >= abs(dx) else ("left" if dx < 0 else "right")
    return side, end + HOLE_DEPTH * (far - end)


def _hole_cut_fraction(box, quad, rng: np.random.Generator) -> tuple[str, float]:
    """A side and a share of the box that put the hole out of view: at least `HOLE_FRACTION`'s low end, and deep
    enough along the box's axis that a turned card's hole is gone too."""
    side, point = _hole_end(quad)
    x1, y1, x2, y2 = box
    reach = {"top": (point[1] - y1) / (y2 - y1), "bottom": (y2 - point[1]) / (y2 - y1),
             "left": (point[0] - x1) / (x2 - x1), "right": (x2 - point[0]) / (x2 - x1)}[side]
    return side, min(max(float(reach), float(rng.uniform(*HOLE_FRACTION))), 0.5)


def window_cutting(box, side: str, f: float, w: int, h: int) -> tuple[int, int, int, int]:
    """The window of a w x h frame whose `side` edge cuts a share f of `box` (x1, y1, x2, y2) off."""
    x1, y1, x2, y2 = box
    if side == "top":
        return 0, int(round(y1 + f * (y2 - y1))), w, h
    if side == "bottom":
        return 0, 0, w, int(round(y2 - f * (y2 - y1)))
    if side == "left":
        return int(round(x1 + f * (x2 - x1))), 0, w, h
    return 0, 0, int(round(x2 - f * (x2 - x1))), h


def clip_polygon(points, x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
    """Sutherland-Hodgman: the part of a polygon inside an axis-aligned window."""
    poly = [tuple(map(float, p)) for p in points]
    edges = ((0, x0, True), (0, x1, False), (1, y0, True), (1, y1, False))
    for axis, limit, lower in edges:
        if not poly:
            break
        inside = (lambda p: p[axis] >= limit) if lower else (lambda p: p[axis] <= limit)
        out = []
        for i, p in enumerate(poly):
            q = poly[i - 1]
            if inside(p) != inside(q):
                t = (limit - q[axis]) / (p[axis] - q[axis])
                cross = [q[0] + (p[0] - q[0]) * t, q[1] + (p[1] - q[1]) * t]
                cross[axis] = limit
                out.append(tuple(cross))
            if inside(p):
                out.append(p)
        poly = out
    return poly


def _area(b) -> float:
    return max(0.0, b[2] - b[0]) * max(0.0, b[3] - b[1])


def _clip_box(b, window) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = window
    return max(b[0], x0), max(b[1], y0), min(b[2], x1), min(b[3], y1)


def clipped_tag_box(tag, window) -> tuple[float, float, float, float] | None:
    """A tag's box (anything with .xyxy and .quad) clipped to `window`, in frame pixels; None if under 2 px."""
    box = _clip_box(tag.xyxy, window)
    poly = clip_polygon(tag.quad, *window)
    if poly:
        xs, ys = [p[0] for p in poly], [p[1] for p in poly]
        box = max(box[0], min(xs)), max(box[1], min(ys)), min(box[2], max(xs)), min(box[3], max(ys))
    return box if box[2] - box[0] >= 2 and box[3] - box[1] >= 2 else None


def _shift(b, x0: int, y0: int) -> tuple[float, float, float, float]:
    return (float(b[0] - x0), float(b[1] - y0), float(b[2] - x0), float(b[3] - y0))


def cut_by_edge(scene: Scene, rng: np.random.Generator, hole_end: float = 0.0) -> tuple[Scene, dict | None]:
    """(the cropped scene, {tag, side, fraction, window}) or (the scene unchanged, None) where no window fits;
    with share `hole_end` the side is the one the tag's hole end faces."""
    h, w = scene.image.shape[:2]
    usable = [i for i, t in enumerate(scene.tags)
              if t.xyxy[2] - t.xyxy[0] >= MIN_TAG_PX and t.xyxy[3] - t.xyxy[1] >= MIN_TAG_PX]
    if not usable:
        return scene, None
    for _ in range(8):
        index = usable[int(rng.integers(len(usable)))]
        if hole_end > 0 and rng.random() < hole_end:
            side, f = _hole_cut_fraction(scene.tags[index].xyxy, scene.tags[index].quad, rng)
        else:
            side, f = SIDES[int(rng.integers(len(SIDES)))], float(rng.uniform(*FRACTION))
        window = window_cutting(scene.tags[index].xyxy, side, f, w, h)
        x0, y0, x1, y1 = window
        if x1 - x0 < MIN_KEEP * w or y1 - y0 < MIN_KEEP * h:
            continue
        others_whole = all(_area(_clip_box(t.xyxy, window)) >= KEEP_AREA * _area(t.xyxy)
                           for i, t in enumerate(scene.tags) if i != index)
        if others_whole:
            break
    else:
        return scene, None
    return _crop(scene, window), {"tag": index, "side": side, "fraction": f, "window": window}


def _crop(scene: Scene, window) -> Scene:
    x0, y0, x1, y1 = window
    tags, boxes, classes = [], [], []
    for tag in scene.tags:
        box = clipped_tag_box(tag, window)
        if box is None:  # wholly outside (only possible for a tag under KEEP_AREA, which cut_by_edge refuses)
            continue
        symbols = tuple(SymbolTruth(s.class_id, s.format, s.text, _shift(_clip_box(s.xyxy, window), x0, y0))
                        for s in tag.symbols if _area(_clip_box(s.xyxy, window)) >= KEEP_AREA * _area(s.xyxy))
        quad = tuple((float(px - x0), float(py - y0)) for px, py in tag.quad)
        kept = TagTruth(_shift(box, x0, y0), quad, tag.side, tag.fields, symbols, tag.design)
        tags.append(kept)
        boxes.append(kept.xyxy)
        classes.append(HANGTAG)
        for s in symbols:
            boxes.append(s.xyxy)
            classes.append(s.class_id)
    on_tags = len(scene.tags) + sum(len(t.symbols) for t in scene.tags)
    for b, c in zip(scene.xyxy[on_tags:].tolist(), scene.class_id[on_tags:].tolist()):  # codes on packaging
        if _area(_clip_box(b, window)) >= KEEP_AREA * _area(b):
            boxes.append(_shift(_clip_box(b, window), x0, y0))
            classes.append(int(c))
    image = np.ascontiguousarray(scene.image[y0:y1, x0:x1])
    return Scene(image, np.array(boxes, np.float32).reshape(-1, 4), np.array(classes, np.int64), tuple(tags), scene.seed,
                 scene.class_names)


def maybe_cut(scene: Scene, share: float | None = None, hole_end: float | None = None) -> Scene:
    """`cut_by_edge` for a share of scenes, chosen by seed from a stream of their own; share 0 returns `scene`."""
    share = EDGE_SHARE if share is None else share
    hole_end = HOLE_END_SHARE if hole_end is None else hole_end
    if share <= 0 or not scene.tags:
        return scene
    rng = np.random.default_rng([scene.seed, 7])
    if rng.random() >= share:
        return scene
    return cut_by_edge(scene, rng, hole_end)[0]
