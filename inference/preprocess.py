"""Letterbox preprocessing into a buffer the engine owns, and the exact transform back to image pixels."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from inference.errors import InputShapeError

PAD_VALUE = 114


@dataclass(frozen=True)
class LetterboxTransform:
    """Maps boxes between original image pixels and model input pixels: input = original * scale + pad."""

    scale: float
    pad_x: float
    pad_y: float
    source_hw: tuple[int, int]
    input_hw: tuple[int, int]

    def to_original(self, xyxy: np.ndarray) -> np.ndarray:
        """Input pixels → original pixels, clipped to the image (float32; a new array)."""
        h, w = self.source_hw
        out = np.asarray(xyxy, dtype=np.float32) - np.array([self.pad_x, self.pad_y] * 2, np.float32)
        out /= np.float32(self.scale)
        return np.clip(out, 0, np.array([w, h, w, h], np.float32), out=out)

    def to_input(self, xyxy: np.ndarray) -> np.ndarray:
        out = np.asarray(xyxy, dtype=np.float32).copy()
        out[..., [0, 2]] = out[..., [0, 2]] * self.scale + self.pad_x
        out[..., [1, 3]] = out[..., [1, 3]] * self.scale + self.pad_y
        return out


def plan_letterbox(source_hw: tuple[int, int], input_hw: tuple[int, int], *, stride: int = 32,
                   minimal_pad: bool = False) -> tuple[LetterboxTransform, tuple[int, int]]:
    """Scale and padding for one source size; returns the transform and the resized (h, w).

    With `minimal_pad`, the padded canvas shrinks to the nearest stride multiple (dynamic-shape models).
    """
    sh, sw = source_hw
    if sh < 1 or sw < 1:
        raise InputShapeError("image has no pixels", expected="height and width ≥ 1", found=f"{sh}×{sw}")
    ih, iw = input_hw
    scale = min(ih / sh, iw / sw)
    rh, rw = max(1, int(round(sh * scale))), max(1, int(round(sw * scale)))
    canvas_h, canvas_w = ih, iw
    if minimal_pad:
        canvas_h = int(np.ceil(rh / stride) * stride)
        canvas_w = int(np.ceil(rw / stride) * stride)
    pad_y, pad_x = (canvas_h - rh) / 2, (canvas_w - rw) / 2
    top, left = int(round(pad_y - 0.1)), int(round(pad_x - 0.1))
    # Exact per-axis scale of what cv2.resize produced, so the round trip stays within 0.5 px.
    transform = LetterboxTransform(scale=scale, pad_x=float(left), pad_y=float(top),
                                   source_hw=(sh, sw), input_hw=(canvas_h, canvas_w))
    return transform, (rh, rw)


class Letterboxer:
    """Owns the engine's input tensor and fills it in place for each frame (no per-frame allocation)."""

    def __init__(self, input_hw: tuple[int, int], dtype: np.dtype | type = np.float32, batch: int = 1) -> None:
        self.input_hw = (int(input_hw[0]), int(input_hw[1]))
        self.dtype = np.dtype(dtype)
        self.tensor = np.empty((batch, 3, *self.input_hw), dtype=self.dtype)
        self._canvas = np.empty((*self.input_hw, 3), dtype=np.uint8)

    def __call__(self, image_bgr: np.ndarray, slot: int = 0) -> LetterboxTransform:
        if image_bgr.ndim == 2:
            image_bgr = cv2.cvtColor(image_bgr, cv2.COLOR_GRAY2BGR)
        elif image_bgr.ndim != 3 or image_bgr.shape[2] not in (3, 4):
            raise InputShapeError("frame is not a colour image", expected="H×W×3 BGR uint8",
                                  found=f"shape {image_bgr.shape}")
        if image_bgr.shape[2] == 4:
            image_bgr = cv2.cvtColor(image_bgr, cv2.COLOR_BGRA2BGR)
        transform, (rh, rw) = plan_letterbox(image_bgr.shape[:2], self.input_hw)
        top, left = int(transform.pad_y), int(transform.pad_x)
        self._canvas.fill(PAD_VALUE)
        interp = cv2.INTER_AREA if rh < image_bgr.shape[0] else cv2.INTER_LINEAR
        cv2.resize(image_bgr, (rw, rh), dst=self._canvas[top:top + rh, left:left + rw], interpolation=interp)
        # BGR→RGB, HWC→CHW and /255 written straight into the engine's tensor.
        chw = self.tensor[slot]
        for c in range(3):
            np.multiply(self._canvas[:, :, 2 - c], 1.0 / 255.0, out=chw[c], casting="unsafe")
        return transform
