"""Barcode and QR module patterns from zxing-cpp's writer, painted here at any (fractional) module width.

Each pixel gets the share of its area the dark modules cover, as a camera's sensor would see print:
rounding every bar to whole pixels would make a 2-px module 1 or 3 px wide, a flaw no real tag has.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
import zxingcpp

FORMATS = {"EAN-13": zxingcpp.BarcodeFormat.EAN13, "Code128": zxingcpp.BarcodeFormat.Code128,
           "Code93": zxingcpp.BarcodeFormat.Code93, "QRCode": zxingcpp.BarcodeFormat.QRCode}
SUBSAMPLES = 8


@lru_cache(maxsize=256)
def modules(text: str, fmt: str) -> np.ndarray:
    """Dark modules as booleans: one row for linear codes, a square for QR (no quiet zone)."""
    code = zxingcpp.create_barcode(text, FORMATS[fmt])
    image = np.asarray(zxingcpp.write_barcode_to_image(code, scale=1, add_hrt=False, add_quiet_zones=False))
    dark = image < 128
    return dark[:1] if fmt != "QRCode" else dark


def _coverage(start: float, stop: float, count: int) -> tuple[int, np.ndarray]:
    """First whole pixel and, per pixel from there, which module each of its subsamples falls in (-1: outside)."""
    first, last = int(np.floor(start)), int(np.ceil(stop))
    fine = first + (np.arange((last - first) * SUBSAMPLES) + 0.5) / SUBSAMPLES
    index = np.floor((fine - start) / (stop - start) * count).astype(np.int64)
    index[(index < 0) | (index >= count)] = -1
    return first, index.reshape(last - first, SUBSAMPLES)


def _dark_share(pattern: np.ndarray, index: np.ndarray) -> np.ndarray:
    padded = np.concatenate([pattern.astype(np.float32), [0.0]])  # index -1 reads the appended 0
    return padded[index].mean(axis=-1)


def paint_linear(pixels: np.ndarray, row: np.ndarray, box: tuple[float, float, float, float], ink) -> None:
    """Bars of `row` (booleans) filling `box` of an RGB float array, in place."""
    x1, y1, x2, y2 = box
    first, index = _coverage(x1, x2, len(row))
    share = _dark_share(row, index)
    top, bottom = int(round(y1)), int(round(y2))
    left, right = max(first, 0), min(first + len(share), pixels.shape[1])
    share = share[left - first:right - first][None, :, None]
    region = pixels[top:bottom, left:right]
    pixels[top:bottom, left:right] = region * (1 - share) + np.asarray(ink, np.float32) * share


def paint_grid(pixels: np.ndarray, grid: np.ndarray, box: tuple[float, float, float, float], ink) -> None:
    """A square module grid (QR) filling `box`, in place."""
    x1, y1, x2, y2 = box
    fx, cols = _coverage(x1, x2, grid.shape[1])
    fy, rows = _coverage(y1, y2, grid.shape[0])
    padded = np.pad(grid.astype(np.float32), ((0, 1), (0, 1)))  # row/col -1 reads the zero pad
    share = padded[rows[:, :, None, None], cols[None, None, :, :]].mean(axis=(1, 3))
    h, w = share.shape
    region = pixels[fy:fy + h, fx:fx + w]
    share = share[: region.shape[0], : region.shape[1], None]
    pixels[fy:fy + h, fx:fx + w] = region * (1 - share) + np.asarray(ink, np.float32) * share
