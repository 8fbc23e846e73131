"""File → pixels. Non-ASCII paths work (np.fromfile + cv2.imdecode); huge images decode reduced."""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np

from inference.errors import ImageDecodeError

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"})

# Decode at 1/2, 1/4 or 1/8 while the result keeps at least this many pixels on its long side:
# enough for the detector and still legible for reading the tag.
KEEP_LONG_SIDE = 2400

_REDUCED = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}


def header_size(data: bytes) -> tuple[int, int] | None:
    """(height, width) from a PNG or JPEG header without decoding, or None if unknown."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(height), int(width)
    if data[:2] == b"\xff\xd8":
        i = 2
        while i + 9 < len(data):
            if data[i] != 0xFF:
                i += 1
                continue
            marker = data[i + 1]
            if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
                height, width = struct.unpack(">HH", data[i + 5:i + 9])
                return int(height), int(width)
            if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
                i += 2
                continue
            length = struct.unpack(">H", data[i + 2:i + 4])[0]
            i += 2 + length
    return None


def reduction_for(size_hw: tuple[int, int] | None, keep_long_side: int = KEEP_LONG_SIDE) -> int:
    if size_hw is None:
        return 1
    long_side = max(size_hw)
    factor = 1
    for f in (2, 4, 8):
        if long_side / f >= keep_long_side:
            factor = f
    return factor


def decode_image(data: bytes, name: str = "image", keep_long_side: int = KEEP_LONG_SIDE) -> np.ndarray:
    if len(data) == 0:
        raise ImageDecodeError(f"{name} is empty", expected="an image file (JPEG, PNG, BMP, TIFF, WebP)",
                               found="0 bytes", hint="the file may still be being written; re-run when complete")
    factor = reduction_for(header_size(data), keep_long_side)
    buffer = np.frombuffer(data, dtype=np.uint8)
    flags = _REDUCED.get(factor, cv2.IMREAD_COLOR)
    image = cv2.imdecode(buffer, flags)
    if image is None:
        kind = "truncated or corrupt image" if header_size(data) is not None else "not a recognised image format"
        raise ImageDecodeError(f"{name} could not be decoded", expected="a complete JPEG, PNG, BMP, TIFF or WebP",
                               found=f"{kind} ({len(data)} bytes, starts {data[:8].hex()})",
                               hint="re-export or re-capture the image; the run continues with the next file")
    return image


def read_image(path: Path | str, keep_long_side: int = KEEP_LONG_SIDE) -> np.ndarray:
    path = Path(path)
    try:
        data = np.fromfile(path, dtype=np.uint8).tobytes()
    except OSError as exc:
        raise ImageDecodeError(f"cannot read {path.name}", expected="a readable file", found=str(exc),
                               hint="check the path and its permissions") from exc
    return decode_image(data, path.name, keep_long_side)


def list_images(folder: Path | str) -> list[Path]:
    """Image files in a folder, in natural order (tag_2 before tag_10)."""
    import re

    def natural(p: Path) -> list:
        return [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", p.name)]

    folder = Path(folder)
    return sorted((p for p in folder.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES), key=natural)
