"""Frames for fine-tuning: the station's letterbox (inference/preprocess.py) and batch augmentation.

The same code trains the shipped model (training/model/data.py imports it), so a fine-tune sees
frames exactly as the detector was taught to.
"""

from __future__ import annotations

import cv2
import numpy as np
import torch
import torch.nn.functional as F

PAD_VALUE = 114
MAX_OBJECTS = 40  # a sheet of six tags with their codes, plus codes on packaging


def letterbox(image_bgr: np.ndarray, size: int) -> tuple[np.ndarray, float, int, int]:
    """The station's letterbox (inference/preprocess.py): area-resize, centre pad with 114.
    Returns RGB."""
    h, w = image_bgr.shape[:2]
    scale = min(size / h, size / w)
    rh, rw = max(1, int(round(h * scale))), max(1, int(round(w * scale)))
    top, left = int(round((size - rh) / 2 - 0.1)), int(round((size - rw) / 2 - 0.1))
    canvas = np.full((size, size, 3), PAD_VALUE, np.uint8)
    interp = cv2.INTER_AREA if rh < h else cv2.INTER_LINEAR
    resized = image_bgr if (rh, rw) == (h, w) else cv2.resize(image_bgr, (rw, rh), interpolation=interp)
    canvas[top:top + rh, left:left + rw] = resized[..., ::-1]
    return canvas, scale, left, top


def augment(images: torch.Tensor, gt: torch.Tensor, generator: torch.Generator,
            p_affine: float = 0.6, scale_range: tuple[float, float] = (0.55, 1.5)) -> tuple[torch.Tensor, torch.Tensor]:
    """uint8 NHWC batch -> float NCHW (channels-last memory) in 0..1, boxes moved to match.

    Zoom and shift only (no flips: mirrored print never reaches the camera), then brightness,
    contrast and saturation jitter, and now and then a channel shuffle for colour invariance.
    """
    b, s = images.shape[0], images.shape[1]
    dev = images.device
    x = images.permute(0, 3, 1, 2).float()

    def uniform(lo: float, hi: float, *shape: int) -> torch.Tensor:
        return torch.rand(*shape, device=dev, generator=generator) * (hi - lo) + lo

    gray = x.mean(1, keepdim=True)
    sat = uniform(0.6, 1.4, b, 1, 1, 1)
    x = gray + (x - gray) * sat
    mean = x.mean((1, 2, 3), keepdim=True)
    x = (x - mean) * uniform(0.7, 1.3, b, 1, 1, 1) + mean * uniform(0.7, 1.3, b, 1, 1, 1)
    shuffle = torch.rand(b, device=dev, generator=generator) < 0.1
    if shuffle.any():
        perm = torch.randperm(3, device=dev, generator=generator)
        x[shuffle] = x[shuffle][:, perm]

    do = torch.rand(b, device=dev, generator=generator) < p_affine
    log_lo, log_hi = np.log(scale_range[0]), np.log(scale_range[1])
    scale = torch.where(do, uniform(log_lo, log_hi, b).exp(), torch.ones(b, device=dev))
    shift = torch.where(do[:, None], uniform(-0.35, 0.35, b, 2), torch.zeros(b, 2, device=dev))
    theta = torch.zeros(b, 2, 3, device=dev)
    theta[:, 0, 0] = theta[:, 1, 1] = 1 / scale
    theta[:, :, 2] = -shift / scale[:, None]
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    x = F.grid_sample(x - PAD_VALUE, grid, mode="bilinear", padding_mode="zeros", align_corners=False) + PAD_VALUE
    x = (x.clamp_(0, 255) / 255).contiguous(memory_format=torch.channels_last)

    boxes = gt[..., 1:].clone()
    valid = gt[..., 0] >= 0
    for k, axis in ((0, 0), (1, 1), (2, 0), (3, 1)):
        u = boxes[..., k] / s * 2 - 1
        boxes[..., k] = ((u * scale[:, None] + shift[:, axis, None]) + 1) / 2 * s
    area = (boxes[..., 2] - boxes[..., 0]) * (boxes[..., 3] - boxes[..., 1])
    clipped = boxes.clamp(0, s)
    w, h = clipped[..., 2] - clipped[..., 0], clipped[..., 3] - clipped[..., 1]
    keep = valid & (w >= 2) & (h >= 2) & (w * h >= 0.6 * area)
    out = torch.cat((gt[..., :1], clipped), -1)
    out[~keep] = -1
    return x, out
