"""The letterbox kernel's arithmetic in numpy: what the GPU computes, checkable on any machine.

Resizing is separable, so it is two weight matrices: rows = Wy @ image @ Wx.T per channel. The CPU test
holds this reference to OpenCV (the CPU path) within 1/255; the GPU test holds the kernel to both.
"""

from __future__ import annotations

import numpy as np

from inference.gpu.preprocess import uses_area
from inference.preprocess import PAD_VALUE, LetterboxTransform, plan_letterbox


def area_weights(src: int, dst: int) -> np.ndarray:
    """(dst, src): each output pixel is the exact average of the source interval it covers."""
    scale = src / dst
    starts = np.arange(dst) * scale
    ends = np.minimum(starts + scale, src)
    idx = np.arange(src)
    overlap = np.minimum(idx[None, :] + 1, ends[:, None]) - np.maximum(idx[None, :], starts[:, None])
    return np.clip(overlap, 0, None) / (ends - starts)[:, None]


def linear_weights(src: int, dst: int) -> np.ndarray:
    """(dst, src): OpenCV's INTER_LINEAR sampling (half-pixel centres, edges clamped), in float."""
    f = (np.arange(dst) + 0.5) * (src / dst) - 0.5
    s = np.floor(f).astype(np.int64)
    a = f - s
    a[s < 0], s[s < 0] = 0.0, 0
    high = s >= src - 1
    a[high], s[high] = 0.0, src - 1
    weights = np.zeros((dst, src))
    rows = np.arange(dst)
    np.add.at(weights, (rows, s), 1.0 - a)
    np.add.at(weights, (rows, np.minimum(s + 1, src - 1)), a)
    return weights


def reference_letterbox(image_bgr: np.ndarray, input_hw: tuple[int, int]) -> tuple[np.ndarray, LetterboxTransform]:
    """(3, H, W) float32 RGB in [0, 1], pad 114/255: the kernel's output for one frame."""
    transform, (rh, rw) = plan_letterbox(image_bgr.shape[:2], input_hw)
    sh, sw = image_bgr.shape[:2]
    weights = area_weights if uses_area((sh, sw), (rh, rw)) else linear_weights
    wy, wx = weights(sh, rh), weights(sw, rw)
    out = np.full((3, *input_hw), PAD_VALUE / 255.0, np.float64)
    top, left = int(transform.pad_y), int(transform.pad_x)
    for c in range(3):
        out[c, top:top + rh, left:left + rw] = wy @ image_bgr[:, :, 2 - c].astype(np.float64) @ wx.T / 255.0
    return out.astype(np.float32), transform
