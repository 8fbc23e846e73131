"""Print helpers every tag design shares: a label/value row, a price as printed, an EAN-13 with its digits."""

from __future__ import annotations

import numpy as np

from training.tagsets.canvas import Card, Color

BLACK: Color = (24, 24, 28)


def pick(rng: np.random.Generator, items):
    return items[int(rng.integers(len(items)))]


def money(price: str, form: str) -> str:
    """A price as printed: '¥399.00', '￥199元', 'RMB 1,099.00', 'RMB 299' (whole yuan), '¥ 459.00'."""
    units, cents = price.split(".")
    if form == "yuan" and cents == "00":
        return f"￥{units}元"
    if form == "rmb":
        return f"RMB {int(units):,}.{cents}"
    if form == "rmb_whole":
        return f"RMB {int(units):,}" if cents == "00" else f"RMB {int(units):,}.{cents}"
    if form == "yen_spaced":
        return f"¥ {price}"
    return f"¥{price}"


def row(card: Card, x: float, y: float, label: str, value: str, size: float, ink: Color, label_ink: Color,
        face: str, value_face: str, max_w: float, pitch: float | None = None, label_size: float | None = None) -> float:
    """A label and its value on one baseline band; returns the width used, label included (mm)."""
    label_size = label_size or size
    used = card.text(x, y + (size - label_size) * 0.55, label, label_size, label_ink, face)
    gap = size * 0.2
    return used + gap + card.text(x + used + gap, y, value, size, ink, value_face, max_w_mm=max_w - used - gap, wrap_mm=pitch)


def ean_block(card: Card, ean: str, x: float, y: float, w: float, h: float, ink: Color, face: str) -> None:
    card.linear_code(ean, "EAN-13", x, y, w, h, ink)
    card.text(x + w / 2, y + h + 0.6, f"{ean[0]} {ean[1:7]} {ean[7:]}", w / 11.5, ink, face, anchor="ma")
