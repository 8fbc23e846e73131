"""File → pixels. Non-ASCII paths work (np.fromfile + cv2.imdecode); huge images decode reduced.

Decoding allocates by what the header declares, not by the file's size: a 2.6 MB PNG can declare
30 000 × 30 000 px (2.7 GB of pixels). The header is read first and an image over the pixel budget
is refused with an ImageDecodeError (one error record; the source goes on with the next file).
"""

from __future__ import annotations

import errno
import os
import re
import stat
import struct
from pathlib import Path

import cv2
import numpy as np

from inference.errors import ImageDecodeError

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"})

# Decode at 1/2, 1/4 or 1/8 while the result keeps at least this many pixels on its long side:
# enough for the detector and still legible for reading the tag.
KEEP_LONG_SIDE = 2400

# Pixels a decode may allocate (after JPEG's reduced decoding): 100 MP is 300 MB of BGR, four times the
# largest line-scan capture we know of. HANGTAG_MAX_IMAGE_PIXELS overrides it.
DEFAULT_MAX_PIXELS = 100_000_000

_REDUCED = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}


def max_pixels() -> int:
    text = os.environ.get("HANGTAG_MAX_IMAGE_PIXELS", "")
    return int(text) if text.isdigit() and int(text) > 0 else DEFAULT_MAX_PIXELS


def header_size(data: bytes) -> tuple[int, int] | None:
    """(height, width) from a PNG, JPEG, BMP, WebP or TIFF header without decoding, or None if unknown."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(height), int(width)
    if data[:2] == b"BM" and len(data) >= 26:
        width, height = struct.unpack("<ii", data[18:26])
        return abs(int(height)), abs(int(width))
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp_size(data)
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return _tiff_size(data)
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


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X" and len(data) >= 30:
        width = 1 + int.from_bytes(data[24:27], "little")
        height = 1 + int.from_bytes(data[27:30], "little")
        return height, width
    if chunk == b"VP8L" and len(data) >= 25:
        bits = int.from_bytes(data[21:25], "little")
        return ((bits >> 14) & 0x3FFF) + 1, (bits & 0x3FFF) + 1
    if chunk == b"VP8 " and len(data) >= 30:
        width, height = struct.unpack("<HH", data[26:30])
        return height & 0x3FFF, width & 0x3FFF
    return None


def _tiff_size(data: bytes) -> tuple[int, int] | None:
    """ImageWidth (256) and ImageLength (257) from the first IFD."""
    order = "<" if data[:2] == b"II" else ">"
    try:
        (offset,) = struct.unpack(order + "I", data[4:8])
        (count,) = struct.unpack(order + "H", data[offset:offset + 2])
        size: dict[int, int] = {}
        for i in range(min(count, 512)):
            entry = data[offset + 2 + 12 * i:offset + 14 + 12 * i]
            tag, kind = struct.unpack(order + "HH", entry[:4])
            if tag in (256, 257):
                fmt = order + ("H" if kind == 3 else "I")
                size[tag] = struct.unpack(fmt, entry[8:8 + struct.calcsize(fmt)])[0]
        return (size[257], size[256]) if len(size) == 2 else None
    except (struct.error, KeyError):
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
    size = header_size(data)
    factor = reduction_for(size, keep_long_side)
    _check_budget(size, factor if data[:2] == b"\xff\xd8" else 1, name)  # only JPEG decodes reduced in place
    buffer = np.frombuffer(data, dtype=np.uint8)
    flags = _REDUCED.get(factor, cv2.IMREAD_COLOR)
    try:
        image = cv2.imdecode(buffer, flags)
    except cv2.error as exc:  # out of memory for a header we could not read, or a decoder's own refusal
        raise ImageDecodeError(f"{name} could not be decoded", expected="an image that fits in memory",
                               found=str(exc).strip().splitlines()[-1][:200],
                               hint="check the file; the run continues with the next file") from None
    if image is None:
        kind = "truncated or corrupt image" if header_size(data) is not None else "not a recognised image format"
        raise ImageDecodeError(f"{name} could not be decoded", expected="a complete JPEG, PNG, BMP, TIFF or WebP",
                               found=f"{kind} ({len(data)} bytes, starts {data[:8].hex()})",
                               hint="re-export or re-capture the image; the run continues with the next file")
    return image


def _check_budget(size_hw: tuple[int, int] | None, factor: int, name: str) -> None:
    if size_hw is None:
        return
    pixels = (size_hw[0] // factor) * (size_hw[1] // factor)
    budget = max_pixels()
    if pixels > budget:
        raise ImageDecodeError(f"{name} is too large to decode", expected=f"at most {budget / 1e6:g} megapixels",
                               found=f"{size_hw[1]} × {size_hw[0]} px declared in its header "
                                     f"({pixels / 1e6:.0f} MP to decode)",
                               hint="check the camera's resolution setting; HANGTAG_MAX_IMAGE_PIXELS raises the "
                                    "limit; the run continues with the next file")


def read_image(path: Path | str, keep_long_side: int = KEEP_LONG_SIDE) -> np.ndarray:
    path = Path(path)
    try:
        data = np.fromfile(path, dtype=np.uint8).tobytes()
    except OSError as exc:
        raise ImageDecodeError(f"cannot read {path.name}", expected="a readable file", found=str(exc),
                               hint="check the path and its permissions") from exc
    return decode_image(data, path.name, keep_long_side)


def natural_key(path: Path) -> list:
    return [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", path.name)]


def list_images(folder: Path | str) -> list[Path]:
    """Image files in a folder, in natural order (tag_2 before tag_10)."""
    return scan_images(folder)[0]


def scan_images(folder: Path | str) -> tuple[list[Path], dict[Path, str]]:
    """(image files in natural order, {entry named like an image that is not a readable file: why}): a
    directory called x.jpg, a symlink loop or a dangling link gets a record instead of vanishing."""
    images, skipped = [], {}
    for path in Path(folder).iterdir():
        if path.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        reason = _not_a_file(path)
        if reason:
            skipped[path] = reason
        else:
            images.append(path)
    return sorted(images, key=natural_key), skipped


def _not_a_file(path: Path) -> str:
    try:
        mode = path.stat().st_mode  # follows links: a loop raises ELOOP, a dangling link ENOENT
    except OSError as exc:
        kind = "a symbolic link loop" if exc.errno == errno.ELOOP else \
            "a link to nothing" if path.is_symlink() else "an entry that cannot be read"
        return f"{kind} ({exc.strerror})"
    if stat.S_ISDIR(mode):
        return "a folder, not an image file"
    if not stat.S_ISREG(mode):
        return "not a regular file (a device, pipe or socket)"
    return ""


def skipped_error(path: Path, reason: str) -> ImageDecodeError:
    return ImageDecodeError(f"{path.name} skipped", expected="an image file", found=reason,
                            hint="remove or rename it; the run continues with the next file")
