"""Synthetic hangtag scenes with exact ground truth, deterministic from a seed.

    from training.synth import generate_scene, render_tag

    scene = generate_scene(seed=7)          # scene.image (BGR), scene.xyxy, scene.class_id, scene.tags
    tag = render_tag(seed=7)                # one flat card, barcodes large enough to decode
    tag.fields["ean13"], tag.fields["style_number"], tag.symbols

Classes: 0 hangtag, 1 barcode (every linear barcode: EAN-13 and Code 128), 2 qr_code.
A field the card does not print (the back of a tag, say) is None in `fields`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from training.synth.content import FIELD_KEYS, draw_fields
from training.synth.scene import Scene, SymbolTruth, TagTruth, generate_scene
from training.synth.tag import BARCODE, CLASS_NAMES, HANGTAG, QR_CODE, render_card

__all__ = [
    "BARCODE", "CLASS_NAMES", "FIELD_KEYS", "HANGTAG", "QR_CODE", "Scene", "SymbolTruth", "TagRender",
    "TagTruth", "draw_fields", "generate_scene", "render_tag",
]


@dataclass(frozen=True)
class TagRender:
    """A single card composited flat on a plain backdrop (BGR), with its truth in that image."""

    image: np.ndarray
    alpha: np.ndarray
    xyxy: np.ndarray
    class_id: np.ndarray
    fields: dict[str, str | None]
    symbols: tuple[SymbolTruth, ...]
    side: str


def render_tag(seed: int, *, px_per_mm: float = 10.0, fields: dict[str, str] | None = None,
               back_side: bool = False, margin_px: int = 40,
               backdrop: tuple[int, int, int] = (128, 128, 128)) -> TagRender:
    """`fields` (all FIELD_KEYS, values as printed) overrides the drawn content; the default
    resolution puts two or more pixels on every barcode module so zxing-cpp decodes them."""
    rng = np.random.default_rng(seed)
    card = render_card(rng, px_per_mm, fields, back_side=back_side, clean=True)
    h, w = card.alpha.shape
    image = np.empty((h + 2 * margin_px, w + 2 * margin_px, 3), np.uint8)
    image[:] = backdrop
    inner = image[margin_px:margin_px + h, margin_px:margin_px + w]
    a = card.alpha[..., None].astype(np.float32) / 255
    inner[:] = (inner * (1 - a) + card.rgb[..., ::-1] * a).astype(np.uint8)
    alpha = np.zeros(image.shape[:2], np.uint8)
    alpha[margin_px:margin_px + h, margin_px:margin_px + w] = card.alpha

    def box(mask: np.ndarray) -> tuple[float, float, float, float]:
        ys, xs = np.nonzero(mask)
        return (float(xs.min() + margin_px), float(ys.min() + margin_px),
                float(xs.max() + 1 + margin_px), float(ys.max() + 1 + margin_px))

    symbols = tuple(SymbolTruth(s.class_id, s.kind, s.text, box(card.label_map == k))
                    for k, s in enumerate(card.symbols, start=1))
    xyxy = np.array([box(card.alpha > 127)] + [s.xyxy for s in symbols], np.float32)
    class_id = np.array([HANGTAG] + [s.class_id for s in symbols], np.int64)
    return TagRender(image, alpha, xyxy, class_id, card.fields, symbols, card.side)
