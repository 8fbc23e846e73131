"""A producer's raw buffer → the station's BGR frame, written into a given array: the one host copy."""

from __future__ import annotations

import cv2
import numpy as np

from inference.errors import SourceError

# GenICam's PFNC names → (bytes per pixel, OpenCV conversion to BGR or None for a straight copy)
_CONVERSIONS: dict[str, tuple[int, int | None]] = {
    "Mono8": (1, cv2.COLOR_GRAY2BGR),
    "BayerRG8": (1, cv2.COLOR_BayerRGGB2BGR),
    "BayerGR8": (1, cv2.COLOR_BayerGRBG2BGR),
    "BayerGB8": (1, cv2.COLOR_BayerGBRG2BGR),
    "BayerBG8": (1, cv2.COLOR_BayerBGGR2BGR),
    "RGB8": (3, cv2.COLOR_RGB2BGR),
    "RGB8Packed": (3, cv2.COLOR_RGB2BGR),
    "BGR8": (3, None),
    "BGR8Packed": (3, None),
    "RGBa8": (4, cv2.COLOR_RGBA2BGR),
    "BGRa8": (4, cv2.COLOR_BGRA2BGR),
}
PIXEL_FORMATS = tuple(_CONVERSIONS)


def frame_shape(width: int, height: int) -> tuple[int, int, int]:
    return (int(height), int(width), 3)


def to_bgr(raw: np.ndarray, pixel_format: str, width: int, height: int, out: np.ndarray | None) -> np.ndarray:
    """`raw` (the producer's bytes, any length ≥ one image) as an H×W×3 BGR image in `out` when given
    (a lent frame of that shape), else in a new array. Reads the producer's buffer exactly once."""
    known = _CONVERSIONS.get(pixel_format)
    if known is None:
        raise SourceError(f"pixel format {pixel_format} is not supported", expected=", ".join(PIXEL_FORMATS),
                          found=pixel_format, hint="set the camera's pixel format to Mono8, BayerRG8, RGB8 or BGR8")
    channels, code = known
    size = width * height * channels
    flat = np.asarray(raw, dtype=np.uint8).reshape(-1)
    if flat.size < size:
        raise SourceError("the camera delivered a short image", expected=f"{size} bytes ({width}x{height} "
                          f"{pixel_format})", found=f"{flat.size} bytes", hint="an incomplete transfer; check the link")
    pixels = flat[:size].reshape((height, width) if channels == 1 else (height, width, channels))
    target = out if out is not None and out.shape == frame_shape(width, height) else None
    if code is None:
        if target is None:
            return pixels.copy()
        np.copyto(target, pixels)
        return target
    return cv2.cvtColor(pixels, code) if target is None else cv2.cvtColor(pixels, code, dst=target)
