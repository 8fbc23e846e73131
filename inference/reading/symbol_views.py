"""Images of one symbol box made for the decoder: the bars' averaged profile, square upscaled views.

At 1-2 px per module, with a pixel or so of blur, zxing's own binarizer loses the thin bars of a
linear code: they come out grey, lighter than the local mean. The bars are long, though, so the box
is turned upright by the tag's angle, the residual slant of the bars (perspective leaves a few
degrees that vary along the symbol) is measured column strip by column strip and taken out, and
the rows across the bars are averaged into one profile: noise falls by the square root of the bar
height, which pays for a strong 1-D sharpening that gives the thin bars their contrast back. The
profile and its sharpened versions are drawn as a few rows of a small clean image that zxing
reads like a printed test symbol. Nothing here depends on a symbology or a tag design; the sizes
are in frame pixels, so they follow the camera, not the tag.

Matrix codes (QR) get square views: upscaled 2x and 3x with a cubic kernel and sharpened, which
brings back the modules of a worn stamp on kraft stock.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np

Box = tuple[float, float, float, float]

# Across the bars the box is resampled at this many pixels per frame pixel, then the profile again.
PROFILE_SCALE = 2.0
PROFILE_UPSAMPLE = 3.0
# 1-D sharpenings of the profile, (amount, Gaussian sigma in frame pixels): unsharp masks; the
# profile itself is drawn too.
PROFILE_SHARPENINGS = ((3.0, 1.0), (8.0, 0.8))
# A row belongs to the bars when its gradient runs across them (coherence) and is strong.
BAR_COHERENCE = 0.5
BAR_ENERGY = 0.2
MIN_BAR_ROWS = 4
# The bars' residual slant is measured in this many column strips and fitted linearly along x.
SLANT_STRIPS = 6
# Each profile is drawn this many rows tall, with white rows between; a quiet margin at the ends.
ROWS_PER_PROFILE = 6
MARGIN_PX = 40
MATRIX_SCALES = (2.0, 3.0)


@dataclass(frozen=True)
class BarProfileView:
    """Profiles of one linear symbol drawn as rows of `image`, and the way back to the frame."""

    image: np.ndarray
    back: np.ndarray  # 3x3, upright view pixels -> frame (tag crop) pixels
    rows: tuple[int, int]  # the bars' rows in the upright view
    upsample: float
    fill: float  # the bars' share of the view's height: most of it for a barcode's own box

    def to_frame(self, quad: np.ndarray, upside_down: bool = False) -> np.ndarray:
        """A decoded quad of `image` (top-left, top-right, bottom-right, bottom-left in the code's
        own frame; x along the profile) in frame pixels, spanning the bars' rows: the rows that were
        averaged have no place of their own in the drawn image."""
        pts = np.asarray(quad, np.float64).reshape(4, 2)
        x = (pts[:, 0] - MARGIN_PX) / self.upsample
        top, bottom = float(self.rows[0]), float(self.rows[1] - 1)
        if upside_down:
            top, bottom = bottom, top
        y = np.array([top, top, bottom, bottom])
        return np.stack([x, y, np.ones_like(x)], axis=1) @ self.back[:2].T


def upright_matrix(box: Box, turn_deg: float, sx: float, sy: float, pad_x: float, pad_y: float) -> tuple[np.ndarray, tuple[int, int]]:
    """3x3 matrix taking frame pixels into a view of the box turned by `turn_deg` and scaled (sx
    across the bars, sy along), sized to the symbol's own turned rectangle plus the pads."""
    x1, y1, x2, y2 = box
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    w, h = _turned_size(x2 - x1, y2 - y1, turn_deg)
    w, h = w * (1 + 2 * pad_x) + 8, h * (1 + 2 * pad_y) + 4
    rot = np.vstack([cv2.getRotationMatrix2D((cx, cy), turn_deg, 1.0), [0.0, 0.0, 1.0]])
    matrix = np.diag([sx, sy, 1.0]) @ rot
    out_w, out_h = max(8, int(w * sx)), max(8, int(h * sy))
    matrix[0, 2] += out_w / 2 - sx * cx
    matrix[1, 2] += out_h / 2 - sy * cy
    return matrix, (out_w, out_h)


def _turned_size(box_w: float, box_h: float, turn_deg: float) -> tuple[float, float]:
    """The rectangle that, turned by the angle, has this axis-aligned box; near 45° (ill-posed)
    the turned box's own bounds."""
    t = np.radians(turn_deg)
    c, s = abs(float(np.cos(t))), abs(float(np.sin(t)))
    det = c * c - s * s
    if abs(det) >= 0.35:
        w, h = (box_w * c - box_h * s) / det, (box_h * c - box_w * s) / det
        if w > 0 and h > 0:
            return w, h
    return box_w * c + box_h * s, box_w * s + box_h * c


def bar_rows(view: np.ndarray) -> tuple[tuple[int, int], np.ndarray, np.ndarray]:
    """The longest run of rows crossing upright bars, and the view's x and y gradients."""
    gx = cv2.Sobel(view, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(view, cv2.CV_32F, 0, 1, ksize=3)
    ex = cv2.blur(np.square(gx).sum(axis=1)[:, None], (1, 5)).ravel()
    ey = cv2.blur(np.square(gy).sum(axis=1)[:, None], (1, 5)).ravel()
    good = ((ex - ey) > BAR_COHERENCE * (ex + ey + 1e-6)) & (ex > BAR_ENERGY * ex.max())
    best, start = (0, 0), None
    for i, g in enumerate((*good.tolist(), False)):
        if g and start is None:
            start = i
        elif not g and start is not None:
            if i - start > best[1] - best[0]:
                best = (start, i)
            start = None
    return best, gx, gy


def _slant(gx: np.ndarray, gy: np.ndarray) -> np.ndarray:
    """Polynomial (in view x) of the bars' residual slant, view-x pixels per row."""
    w = gx.shape[1]
    xs, slopes, weights = [], [], []
    for i in range(SLANT_STRIPS):
        a, b = i * w // SLANT_STRIPS, (i + 1) * w // SLANT_STRIPS
        sx, sy = gx[:, a:b], gy[:, a:b]
        energy = float(np.square(sx).sum())
        if energy > 0:
            xs.append((a + b) / 2)
            slopes.append(-float((sx * sy).sum()) / energy)
            weights.append(energy)
    if not xs:
        return np.zeros(2)
    weights_a = np.array(weights)
    keep = weights_a >= 0.1 * weights_a.max()
    if keep.sum() < 2:
        return np.array([0.0, float(np.array(slopes)[keep][0])])
    fit = np.polyfit(np.array(xs)[keep], np.array(slopes)[keep], 1, w=np.sqrt(weights_a[keep]))
    return np.clip(fit, -0.5, 0.5)


@dataclass(frozen=True)
class BarProfiles:
    """The bars of one box averaged across their rows, in the upright view (PROFILE_SCALE samples
    per frame pixel): the whole run first, then its halves when the run is long enough."""

    profiles: tuple[np.ndarray, ...]
    matrix: np.ndarray  # 3x3, frame (tag crop) pixels -> upright view
    rows: tuple[int, int]
    fill: float  # the bars' share of the view's height


def bar_profiles(gray: np.ndarray, box: Box, turn_deg: float, pad: float = 0.25) -> BarProfiles | None:
    """None when the box holds no run of upright bars (a QR code, text, a blur)."""
    matrix, size = upright_matrix(box, turn_deg, PROFILE_SCALE, 1.0, pad, 0.1)
    view = cv2.warpAffine(gray, matrix[:2], size, flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    (r0, r1), gx, gy = bar_rows(view)
    if r1 - r0 < MIN_BAR_ROWS:
        return None
    slant = _slant(gx[r0:r1], gy[r0:r1])
    w = view.shape[1]
    xs = np.arange(w, dtype=np.float32)
    ys = np.arange(r0, r1, dtype=np.float32)
    map_x = xs[None, :] + (ys[:, None] - (r0 + r1 - 1) / 2) * np.polyval(slant, xs).astype(np.float32)[None, :]
    map_y = np.repeat(ys[:, None], w, axis=1)
    bars = cv2.remap(view, map_x.astype(np.float32), map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    n = r1 - r0
    profiles = [bars.mean(axis=0)]
    if n >= 3 * MIN_BAR_ROWS:  # halves too: perspective bends long bars more than the fit follows
        profiles += [bars[: n // 2].mean(axis=0), bars[n // 2 :].mean(axis=0)]
    return BarProfiles(tuple(profiles), matrix, (r0, r1), n / view.shape[0])


def bar_profile_view(gray: np.ndarray, box: Box, turn_deg: float, pad: float = 0.25) -> BarProfileView | None:
    """The bars of the symbol in `box` averaged into profiles, drawn for the decoder; None when
    the box holds no run of upright bars."""
    found = bar_profiles(gray, box, turn_deg, pad)
    if found is None:
        return None
    rows = []
    for profile in found.profiles:
        for drawn in _drawn(profile):
            rows.extend([drawn] * ROWS_PER_PROFILE)
            rows.extend([np.ones_like(drawn)] * 2)
    image = np.pad(np.stack(rows), ((2, 0), (MARGIN_PX, MARGIN_PX)), mode="edge")
    return BarProfileView((image * 255).astype(np.uint8), np.linalg.inv(found.matrix), found.rows, PROFILE_UPSAMPLE, found.fill)


def _drawn(profile: np.ndarray) -> list[np.ndarray]:
    """The profile upsampled, stretched to 0..1 by its 2nd and 98th percentiles, and sharpened."""
    p = cv2.resize(profile[None, :], (int(len(profile) * PROFILE_UPSAMPLE), 1), interpolation=cv2.INTER_CUBIC).ravel()
    lo, hi = np.percentile(p, (2, 98))
    p = np.clip((p - lo) / max(1e-3, float(hi - lo)), 0.0, 1.0)
    frame_px = PROFILE_SCALE * PROFILE_UPSAMPLE  # one frame pixel in profile samples
    out = [p]
    for amount, sigma in PROFILE_SHARPENINGS:
        smooth = cv2.GaussianBlur(p[None, :], (0, 0), sigma * frame_px).ravel()
        out.append(np.clip(p + amount * (p - smooth), 0.0, 1.0))
    return out


def matrix_views(gray: np.ndarray, box: Box, turn_deg: float, pad: float = 0.25) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Square views of the box for matrix codes, upscaled and sharpened: (image, 3x3 back to frame)."""
    for scale in MATRIX_SCALES:
        matrix, size = upright_matrix(box, turn_deg, scale, scale, pad, pad)
        image = cv2.warpAffine(gray, matrix[:2], size, flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)
        image = cv2.addWeighted(image, 2.0, cv2.GaussianBlur(image, (0, 0), 1.5 * scale), -1.0, 0)
        yield image, np.linalg.inv(matrix)


@dataclass(frozen=True)
class BarMeasure:
    """What the bars' averaged profile says about focus, in frame pixels: the Gaussian sigma of
    their sharpest edges (a step blurred by sigma rises at most contrast / (sigma * sqrt(2 pi))
    per pixel), and the run from the first bar edge to the last. `profiles`: the bars' averaged
    profiles themselves, one tuple per box measured (the whole run, then its halves: PROFILE_SCALE
    samples per frame pixel, as BarProfiles), for the expected code to be verified against (bar_verify.py)."""

    blur_px: float
    length_px: float
    profiles: tuple[tuple[np.ndarray, ...], ...] = field(default=(), compare=False, repr=False)


def measure_bars(gray: np.ndarray, box: Box, turn_deg: float, pad: float = 0.25) -> BarMeasure | None:
    """None when the box shows no upright bars, or too few edges to measure."""
    found = bar_profiles(gray, box, turn_deg, pad)
    if found is None:
        return None
    profile = found.profiles[0].astype(np.float64)
    lo, hi = np.percentile(profile, (2, 98))
    slope = np.abs(np.diff(profile))
    peak = (slope[1:-1] >= slope[:-2]) & (slope[1:-1] > slope[2:]) & (slope[1:-1] > 0.25 * slope.max())
    edges = np.flatnonzero(peak) + 1
    if len(edges) < 8 or hi - lo <= 0:
        return None
    steepest = float(np.percentile(slope[edges], 90))  # the wide bars' edges reach full contrast
    blur = (hi - lo) / (steepest * np.sqrt(2 * np.pi)) / PROFILE_SCALE
    return BarMeasure(float(blur), float(edges[-1] - edges[0]) / PROFILE_SCALE, (found.profiles,))
