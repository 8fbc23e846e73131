"""Barcode and QR module patterns from zxing-cpp's writer, drawn here at any module width."""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import zxingcpp
from PIL import ImageDraw

FORMATS = {"EAN-13": zxingcpp.BarcodeFormat.EAN13, "Code128": zxingcpp.BarcodeFormat.Code128,
           "Code93": zxingcpp.BarcodeFormat.Code93, "QRCode": zxingcpp.BarcodeFormat.QRCode}


@lru_cache(maxsize=256)
def modules(text: str, fmt: str) -> np.ndarray:
    """Dark modules as booleans: one row for linear codes, a square for QR (no quiet zone)."""
    code = zxingcpp.create_barcode(text, FORMATS[fmt])
    image = np.asarray(zxingcpp.write_barcode_to_image(code, scale=1, add_hrt=False, add_quiet_zones=False))
    dark = image < 128
    return dark[:1] if fmt != "QRCode" else dark


def draw_linear(draw: ImageDraw.ImageDraw, text: str, fmt: str, box: tuple[float, float, float, float],
                ink: tuple[int, ...]) -> tuple[float, float, float, float]:
    """Bars filling `box` (x1, y1, x2, y2); returns the box the bars really cover (whole modules)."""
    row = modules(text, fmt)[0]
    x1, y1, x2, y2 = box
    module = (x2 - x1) / len(row)
    edges = np.flatnonzero(np.diff(np.concatenate(([0], row.astype(np.int8), [0]))))
    for start, stop in zip(edges[::2], edges[1::2]):
        left = x1 + start * module
        draw.rectangle((left, y1, max(left, x1 + stop * module - 1), y2), fill=ink)
    return x1, y1, x2, y2


def draw_qr(draw: ImageDraw.ImageDraw, text: str, origin: tuple[float, float], side: float,
            ink: tuple[int, ...]) -> tuple[float, float, float, float]:
    grid = modules(text, "QRCode")
    cell = side / grid.shape[0]
    x0, y0 = origin
    for r, c in zip(*np.nonzero(grid)):
        draw.rectangle((x0 + c * cell, y0 + r * cell, x0 + max(c * cell, (c + 1) * cell - 1), y0 + max(r * cell, (r + 1) * cell - 1)), fill=ink)
    return x0, y0, x0 + side, y0 + side
