"""What a camera over a workbench does to a clean scene: light, glare, blur, noise, JPEG."""

from __future__ import annotations

import cv2
import numpy as np


def uneven_light(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    yy, xx = np.arange(h, dtype=np.float32)[:, None], np.arange(w, dtype=np.float32)[None, :]
    gx, gy = rng.uniform(-0.35, 0.35, 2)
    light = 1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    if rng.random() < 0.5:  # vignette
        r2 = ((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2) * 2
        light *= 1 - rng.uniform(0.1, 0.45) * r2
    light *= rng.uniform(0.65, 1.2)
    light = light.astype(np.float32)[..., None] * rng.uniform(0.9, 1.1, 3).astype(np.float32)
    return image * light


def glare(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    spot = np.zeros((h, w), np.float32)
    center = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
    axes = (int(rng.uniform(0.04, 0.25) * w), int(rng.uniform(0.02, 0.12) * h))
    cv2.ellipse(spot, center, axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
    spot = cv2.GaussianBlur(spot, (0, 0), max(axes) * 0.35 + 1)
    return image + spot[..., None] * rng.uniform(80, 220)


def motion_blur(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    length = int(rng.integers(3, 10))
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1
    rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), float(rng.uniform(0, 180)), 1)
    kernel = cv2.warpAffine(kernel, rot, (length, length))
    return cv2.filter2D(image, -1, kernel / max(kernel.sum(), 1e-6))


def defocus(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    return cv2.GaussianBlur(image, (0, 0), float(rng.uniform(0.6, 1.8)))


def sensor_noise(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    sigma = rng.uniform(1, 7)
    return image + rng.standard_normal(image.shape, dtype=np.float32) * np.float32(sigma)


def jpeg(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    quality = int(rng.integers(30, 90))
    ok, data = cv2.imencode(".jpg", np.clip(image, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(data, cv2.IMREAD_UNCHANGED).astype(np.float32)


def degrade(rng: np.random.Generator, image: np.ndarray) -> np.ndarray:
    """float32 RGB in, uint8 RGB out. Each degradation is drawn independently."""
    if rng.random() < 0.7:
        image = uneven_light(rng, image)
    if rng.random() < 0.2:
        image = glare(rng, image)
    if rng.random() < 0.15:
        image = motion_blur(rng, image)
    elif rng.random() < 0.2:
        image = defocus(rng, image)
    if rng.random() < 0.6:
        image = sensor_noise(rng, image)
    image = np.clip(image, 0, 255)
    if rng.random() < 0.4:
        image = jpeg(rng, image)
    return image.astype(np.uint8)
