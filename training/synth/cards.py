"""Flat cards for reading benchmarks: one rendered tag per image, ~N px high, turned seed % 4 quarter turns.

`python -m training.synth --cards --tag-px 570 --out DIR --count N --seed S` writes them in the same
layout as scenes (images/, truth/, labels/), so `hangtag-inspect read-bench --data DIR` reads either.
"""

from __future__ import annotations

import numpy as np

from training.synth import render_tag
from training.synth.scene import Scene, SymbolTruth, TagTruth


def _turn(image: np.ndarray, boxes: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Quarter turns counter-clockwise, boxes turned with the image."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = boxes.T
    for _ in range(k % 4):
        image = np.ascontiguousarray(np.rot90(image))
        x1, y1, x2, y2 = y1, w - x2, y2, w - x1
        h, w = w, h
    return image, np.stack([x1, y1, x2, y2], axis=1)


def card_scene(seed: int, tag_px: int) -> Scene:
    probe = render_tag(seed, px_per_mm=10.0, back_side=False)
    x1, y1, x2, y2 = probe.xyxy[0]
    tag = render_tag(seed, px_per_mm=10.0 * tag_px / max(y2 - y1, 1.0), back_side=False)
    image, boxes = _turn(tag.image, tag.xyxy.astype(np.float64), seed % 4)
    box = [tuple(float(v) for v in b) for b in boxes]
    symbols = tuple(SymbolTruth(s.class_id, s.format, s.text, b) for s, b in zip(tag.symbols, box[1:]))
    x1, y1, x2, y2 = box[0]
    quad = ((x1, y1), (x2, y1), (x2, y2), (x1, y2))
    truth = TagTruth(box[0], quad, tag.side, dict(tag.fields), symbols)
    return Scene(image, np.asarray(box, np.float32), tag.class_id.copy(), (truth,), seed)
