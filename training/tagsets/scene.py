"""A photograph of one or two cards: placed with rotation and mild perspective on a surface, lit unevenly,
blurred (focus or motion), noisy and JPEG-compressed. Truth is mapped through the same homography."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from training.tagsets.backgrounds import KINDS, background
from training.tagsets.canvas import TagArt

WIDTH, HEIGHT = 1280, 960
MARGIN = 12


@dataclass(frozen=True)
class Placement:
    """Where one card lands: its outline corners (clockwise from the card's top-left) and homography."""

    quad: np.ndarray  # (4, 2) float
    homography: np.ndarray

    @property
    def tag_height_px(self) -> float:
        q = self.quad
        return float((np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2)


@dataclass(frozen=True)
class Shot:
    blur_px: float
    blur_kind: str  # "gaussian" (blur_px is sigma) or "motion" (blur_px is the streak length)
    rotation_deg: float
    perspective: float
    background: str
    jpeg_quality: int


def place(rng: np.random.Generator, art: TagArt, rotation_deg: float, perspective: float,
          slot: tuple[float, float, float, float]) -> Placement | None:
    """A placement inside `slot` (x1, y1, x2, y2), or None when the card cannot fit there."""
    h, w = art.rgba.shape[:2]
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    theta = np.deg2rad(rotation_deg)
    turn = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
    quad = (corners - [w / 2, h / 2]) @ turn.T
    quad += rng.uniform(-perspective, perspective, (4, 2)) * max(w, h)
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    x1, y1, x2, y2 = slot
    free_x = (x2 - x1) - (hi[0] - lo[0]) - 2 * MARGIN
    free_y = (y2 - y1) - (hi[1] - lo[1]) - 2 * MARGIN
    if free_x < 0 or free_y < 0:
        return None
    origin = np.array([x1 + MARGIN + rng.uniform(0, free_x), y1 + MARGIN + rng.uniform(0, free_y)]) - lo
    quad = quad + origin
    homography = cv2.getPerspectiveTransform(corners.astype(np.float32), quad.astype(np.float32))
    return Placement(quad, homography)


def _motion_kernel(length: float, angle_deg: float) -> np.ndarray:
    size = int(np.ceil(length)) | 1
    kernel = np.zeros((size, size), np.float32)
    c = size // 2
    dx, dy = np.cos(np.deg2rad(angle_deg)), np.sin(np.deg2rad(angle_deg))
    for t in np.linspace(-length / 2, length / 2, max(2, int(length * 3))):
        kernel[int(round(c + t * dy)), int(round(c + t * dx))] = 1.0
    return kernel / kernel.sum()


def photograph(rng: np.random.Generator, cards: list[tuple[TagArt, Placement]], shot: Shot) -> tuple[bytes, list[tuple[float, float, float, float]]]:
    """The frame as JPEG bytes and each card's visible box (from its warped outline)."""
    image = background(rng, shot.background, HEIGHT, WIDTH)
    boxes = []
    for art, placement in cards:
        rgba = cv2.warpPerspective(art.rgba, placement.homography, (WIDTH, HEIGHT), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        ys, xs = np.nonzero(rgba[..., 3] > 127)
        boxes.append((float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1)))
        pad = 40
        x1, y1 = max(0, int(xs.min()) - pad), max(0, int(ys.min()) - pad)
        x2, y2 = min(WIDTH, int(xs.max()) + pad), min(HEIGHT, int(ys.max()) + pad)
        alpha = rgba[y1:y2, x1:x2, 3].astype(np.float32) / 255.0
        offset = rng.uniform(3, 12, 2)
        shadow = cv2.GaussianBlur(alpha, (0, 0), rng.uniform(4, 10))
        shadow = cv2.warpAffine(shadow, np.float32([[1, 0, offset[0]], [0, 1, offset[1]]]), (x2 - x1, y2 - y1))
        region = image[y1:y2, x1:x2] * (1 - rng.uniform(0.25, 0.5) * shadow)[..., None]
        a = alpha[..., None]
        image[y1:y2, x1:x2] = region * (1 - a) + rgba[y1:y2, x1:x2, :3].astype(np.float32) * a
    image *= _light(rng)[..., None]
    if shot.blur_px > 0.05:
        if shot.blur_kind == "motion":
            image = cv2.filter2D(image, -1, _motion_kernel(shot.blur_px, rng.uniform(0, 180)))
        else:
            image = cv2.GaussianBlur(image, (0, 0), shot.blur_px)
    noise = np.empty_like(image)
    cv2.setRNGSeed(int(rng.integers(2**31)))
    cv2.randn(noise, 0.0, float(rng.uniform(1.5, 5.0)))
    image += noise
    bgr = cv2.cvtColor(np.clip(image, 0, 255, out=image).astype(np.uint8), cv2.COLOR_RGB2BGR)
    ok, jpeg = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, shot.jpeg_quality])
    return jpeg.tobytes(), boxes


def _light(rng: np.random.Generator) -> np.ndarray:
    """Gain of a lamp off to one side: a smooth brightness ramp plus a soft hot spot (computed coarse)."""
    step = 8
    y, x = np.mgrid[0:HEIGHT:step, 0:WIDTH:step].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = ((x / WIDTH - 0.5) * np.cos(angle) + (y / HEIGHT - 0.5) * np.sin(angle))
    gain = 1.0 + rng.uniform(0.1, 0.35) * ramp
    cx, cy = rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT)
    spot = np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * rng.uniform(200, 500) ** 2))
    gain += rng.uniform(0.0, 0.15) * spot
    gain *= rng.uniform(0.85, 1.1)
    return cv2.resize(gain.astype(np.float32), (WIDTH, HEIGHT), interpolation=cv2.INTER_LINEAR)


def map_box(homography: np.ndarray, box: tuple[float, float, float, float]) -> list[float]:
    x1, y1, x2, y2 = box
    pts = np.array([[[x1, y1], [x2, y1], [x2, y2], [x1, y2]]], np.float32)
    mapped = cv2.perspectiveTransform(pts, homography)[0]
    lo, hi = mapped.min(axis=0), mapped.max(axis=0)
    return [round(float(lo[0]), 1), round(float(lo[1]), 1), round(float(hi[0]), 1), round(float(hi[1]), 1)]


__all__ = ["HEIGHT", "KINDS", "Placement", "Shot", "WIDTH", "map_box", "photograph", "place"]
