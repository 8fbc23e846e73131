"""Turning a hangtag upright: one affine warp from the original image into the tag's own frame.

The angle comes from the tag's barcode when one decodes (its bars say where "down" is, to a degree
or so); otherwise from the text lines' direction, which leaves 0° vs 180° to the recognizer.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

Box = tuple[float, float, float, float]

# Within this many degrees of a quarter turn the warp is snapped to it: exact, and sharper text.
SNAP_DEG = 2.0
# Hangtags are at most this much longer than wide (a 3 x 9 cm tag is 3): a tighter fit of a box
# at an angle is a box that does not hold a whole tag.
MAX_TAG_ASPECT = 4.0
# A small line is resampled from the frame at most this much larger.
MAX_LINE_SCALE = 4.0
# Printed lines still tilted this much after the barcode's angle (perspective, a loose box), and
# clearly sharper level, are levelled before text detection.
MIN_SKEW_DEG = 1.0
MIN_SKEW_GAIN = 1.05


@dataclass(frozen=True)
class Upright:
    """The upright crop, and the affine that maps original image pixels into it."""

    image: np.ndarray
    matrix: np.ndarray  # 2x3, image → upright
    angle_deg: float  # counter-clockwise turn applied to the tag
    frame: np.ndarray | None = None  # the original image, for crops resampled once from it
    box: Box | None = None  # the frame box the crop was cut from (make_upright's), to cut it again at another turn
    size: tuple[float, float] | None = None  # the tag's own width and height, where known (its paper's outline)
    margin: float = 0.03  # the share of the tag's size the crop keeps beyond each of its edges

    def line_crop(self, box: Box, min_height: int = 0) -> np.ndarray:
        """The crop of `box` (upright pixels). A line lower than `min_height` px is resampled
        straight from the frame, enlarged to it with one cubic interpolation: the upright crop is
        already one interpolation away from the frame, and enlarging that smears small strokes."""
        x1, y1, x2, y2 = int(box[0]), int(box[1]), int(np.ceil(box[2])), int(np.ceil(box[3]))
        h = y2 - y1
        if self.frame is None or h >= min_height or h < 4 or x2 - x1 < 4:
            return self.image[y1:y2, x1:x2]
        scale = min(MAX_LINE_SCALE, min_height / h)
        out_w, out_h = int(round((x2 - x1) * scale)), int(round(h * scale))
        to_line = np.array([[scale, 0.0, -scale * x1], [0.0, scale, -scale * y1], [0.0, 0.0, 1.0]])
        edges = (to_line @ np.vstack([self.matrix, [0.0, 0.0, 1.0]]))[:2]
        centres = edges.copy()  # as in make_upright: the warp works on pixel centres
        centres[:, 2] += edges[:, :2].sum(axis=1) * 0.5 - 0.5
        return cv2.warpAffine(self.frame, centres, (out_w, out_h), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)

    def to_image_box(self, box: Box) -> Box:
        inverse = cv2.invertAffineTransform(self.matrix)
        x1, y1, x2, y2 = box
        corners = np.array([[x1, y1, 1], [x2, y1, 1], [x2, y2, 1], [x1, y2, 1]], np.float64)
        pts = corners @ inverse.T
        return (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max()))

    def flipped(self) -> Upright:
        """The same tag turned half a turn more: exact, no resampling."""
        h, w = self.image.shape[:2]
        half = np.array([[-1.0, 0.0, w], [0.0, -1.0, h], [0.0, 0.0, 1.0]])
        matrix = (half @ np.vstack([self.matrix, [0.0, 0.0, 1.0]]))[:2]
        angle = (self.angle_deg + 360.0) % 360.0 - 180.0
        return Upright(np.ascontiguousarray(self.image[::-1, ::-1]), matrix, angle, self.frame, self.box, self.size, self.margin)

    def quarter_turned(self) -> Upright:
        """The same tag turned a quarter more, clockwise: exact, no resampling."""
        h = self.image.shape[0]
        quarter = np.array([[0.0, -1.0, h], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
        matrix = (quarter @ np.vstack([self.matrix, [0.0, 0.0, 1.0]]))[:2]
        angle = (self.angle_deg - 90.0 + 180.0) % 360.0 - 180.0
        size = None if self.size is None else (self.size[1], self.size[0])
        return Upright(np.ascontiguousarray(np.rot90(self.image, -1)), matrix, angle, self.frame, self.box, size, self.margin)

    def turned_by(self, degrees: float) -> Upright:
        """The same tag cut again from the frame, turned `degrees` more (counter-clockwise): one
        interpolation from the frame, the crop sized to the tag at its new angle. Itself when it
        was not cut from a frame box."""
        if self.frame is None or self.box is None:
            return self
        size = self.size
        if size is None:
            x1, y1, x2, y2 = self.box
            if told_size(x2 - x1, y2 - y1, self.angle_deg + degrees) is None:
                # turned towards 45° the box no longer tells the tag's size (the crop would be the whole box, with
                # whatever lies round the tag): the size it told at this turn stays
                size = told_size(x2 - x1, y2 - y1, self.angle_deg)
        return make_upright(self.frame, self.box, self.angle_deg + degrees, self.margin, size=size)

    def box_from(self, other: Upright, box: Box) -> Box:
        """A box of `other`'s crop (the same tag at another turn), as the bounds of its corners here."""
        x1, y1, x2, y2 = box
        corners = np.array([[x1, y1, 1], [x2, y1, 1], [x2, y2, 1], [x1, y2, 1]], np.float64)
        pts = self.to_upright_points(corners @ cv2.invertAffineTransform(other.matrix).T)
        return (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max()))

    def to_upright_box(self, box: Box) -> Box:
        """An image box drawn around something that turned with the tag (a barcode), as that
        thing's own rectangle in the upright crop: tighter than the box's rotated corners."""
        x1, y1, x2, y2 = box
        t = math.radians(self.angle_deg)
        if abs(math.cos(t) ** 2 - math.sin(t) ** 2) >= 0.6:
            (cx, cy), = self.to_upright_points(np.array([[(x1 + x2) / 2, (y1 + y2) / 2]]))
            w, h = tag_size(x2 - x1, y2 - y1, self.angle_deg)
            return (float(cx - w / 2), float(cy - h / 2), float(cx + w / 2), float(cy + h / 2))
        # near 45° the size is ill-determined: the rotated box's bounds, loose but safe
        pts = self.to_upright_points(np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]]))
        return (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max()))

    def to_upright_points(self, points: np.ndarray) -> np.ndarray:
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        return pts @ self.matrix[:, :2].T + self.matrix[:, 2]


def turn_from_down_angle(down_deg: float) -> float:
    """Counter-clockwise turn (cv2 convention) that makes a 'down' direction point down again."""
    return snapped((down_deg - 90.0 + 180.0) % 360.0 - 180.0)


def snapped(turn_deg: float) -> float:
    """A turn within SNAP_DEG of a quarter turn, as that quarter turn."""
    nearest = round(turn_deg / 90.0) * 90.0
    return nearest if abs(turn_deg - nearest) <= SNAP_DEG else turn_deg


def tag_size(box_w: float, box_h: float, angle_deg: float) -> tuple[float, float]:
    """Size of a rectangle that, turned by angle, has this axis-aligned bounding box; where the box does not
    tell it (near 45°, or no tag's shape fits), the whole box turned."""
    size = told_size(box_w, box_h, angle_deg)
    if size is None:
        t = math.radians(angle_deg)
        c, s = abs(math.cos(t)), abs(math.sin(t))
        return (box_w * c + box_h * s, box_w * s + box_h * c)
    return size


def told_size(box_w: float, box_h: float, angle_deg: float) -> tuple[float, float] | None:
    """The size of the one rectangle that, turned by angle, has this bounding box; None near 45° (the system is
    ill-conditioned) and where it would be a strip (the detector cut the tag, or the angle is off)."""
    t = math.radians(angle_deg)
    c, s = abs(math.cos(t)), abs(math.sin(t))
    det = c * c - s * s
    if abs(det) < 0.35:
        return None
    w = (box_w * c - box_h * s) / det
    h = (box_h * c - box_w * s) / det
    if w <= 0 or h <= 0 or max(w, h) > MAX_TAG_ASPECT * min(w, h):
        return None
    return w, h


def make_upright(image_bgr: np.ndarray, xyxy: Box, turn_deg: float, margin: float = 0.03,
                 size: tuple[float, float] | None = None) -> Upright:
    """Warp the tag box into an upright crop, trimmed to the tag itself (plus a small margin): the tag's `size`
    (width, height once turned) where known, else the rectangle whose bounds at that turn are the box."""
    x1, y1, x2, y2 = (float(v) for v in xyxy)
    bw, bh = max(1.0, x2 - x1), max(1.0, y2 - y1)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    tw, th = size if size is not None else tag_size(bw, bh, turn_deg)
    tw, th = tw * (1 + 2 * margin), th * (1 + 2 * margin)
    out_w, out_h = max(8, int(round(tw))), max(8, int(round(th)))
    rot = cv2.getRotationMatrix2D((cx, cy), turn_deg, 1.0)
    rot[0, 2] += out_w / 2 - cx
    rot[1, 2] += out_h / 2 - cy
    quarter = turn_deg % 90 == 0
    if quarter:  # whole-pixel shifts, so the turn is an exact permutation of pixels
        rot = np.round(rot)
    # `rot` maps pixel edges (a pixel spans [i, i+1]); warpAffine works on pixel centres
    centres = rot.copy()
    centres[:, 2] += rot[:, :2].sum(axis=1) * 0.5 - 0.5
    crop = cv2.warpAffine(
        image_bgr, centres, (out_w, out_h), flags=cv2.INTER_NEAREST if quarter else cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return Upright(crop, rot, turn_deg, image_bgr, (x1, y1, x2, y2), size, margin)


def crop_box(image: np.ndarray, xyxy: Box, margin: float = 0.02) -> tuple[np.ndarray, tuple[int, int]]:
    h, w = image.shape[:2]
    x1, y1, x2, y2 = xyxy
    mx, my = (x2 - x1) * margin, (y2 - y1) * margin
    a, b = int(max(0, math.floor(x1 - mx))), int(max(0, math.floor(y1 - my)))
    c, d = int(min(w, math.ceil(x2 + mx))), int(min(h, math.ceil(y2 + my)))
    return image[b:d, a:c], (a, b)


def _ink_points(gray: np.ndarray, work_side: int, exclude: Sequence[Box] = (),
                paper: np.ndarray | None = None, within: Sequence[Box] = ()) -> tuple[np.ndarray, np.ndarray] | None:
    """Centred (x, y) of the printed pixels at a small working size, dark or light print alike,
    outside the `exclude` boxes, inside the `paper` polygon where given and inside the `within` boxes where
    given (crop pixels); None when there is too little print to measure anything by."""
    h, w = gray.shape[:2]
    scale = min(1.0, work_side / max(h, w))
    small = cv2.resize(gray, (max(8, int(w * scale)), max(8, int(h * scale))), interpolation=cv2.INTER_AREA)
    binary = cv2.adaptiveThreshold(small, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 15, 10)
    ink = binary == 0 if (binary == 0).mean() < 0.5 else binary != 0
    sx, sy = small.shape[1] / w, small.shape[0] / h
    for x1, y1, x2, y2 in exclude:
        ink[max(0, int(y1 * sy)) : max(0, int(np.ceil(y2 * sy))), max(0, int(x1 * sx)) : max(0, int(np.ceil(x2 * sx)))] = False
    if paper is not None:
        on_paper = np.zeros(ink.shape, np.uint8)
        cv2.fillConvexPoly(on_paper, np.rint(np.asarray(paper, np.float64) * (sx, sy)).astype(np.int32), 1)
        ink &= on_paper.astype(bool)
    if within:
        inside = np.zeros(ink.shape, bool)
        for x1, y1, x2, y2 in within:
            inside[max(0, int(y1 * sy)) : max(0, int(np.ceil(y2 * sy))), max(0, int(x1 * sx)) : max(0, int(np.ceil(x2 * sx)))] = True
        ink &= inside
    ys, xs = np.nonzero(ink)
    if len(xs) < 50:
        return None
    return xs.astype(np.float32) - xs.mean(), ys.astype(np.float32) - ys.mean()


def text_down_angle(gray: np.ndarray, work_side: int = 200) -> tuple[float, float]:
    """(down direction in degrees, modulo 180 — 90 means horizontal lines; strength 0..1).

    Ink pixels are projected on candidate directions; printed lines give the sharpest profile
    across them. Cheap (a few ms) and enough to choose between lying and standing tags.
    """
    points = _ink_points(gray, work_side)
    if points is None:
        return 90.0, 0.0
    xs, ys = points
    best_angle, best_score, scores = 90.0, -1.0, []
    for angle in range(0, 180, 3):
        t = math.radians(angle)
        # distance across lines whose normal ("down") points along angle
        proj = xs * math.cos(t) + ys * math.sin(t)
        hist = np.bincount((proj - proj.min()).astype(np.int32))
        score = float((hist.astype(np.float32) ** 2).sum() / max(1, len(proj)))
        scores.append(score)
        if score > best_score:
            best_score, best_angle = score, float(angle)
    scores_arr = np.array(scores)
    strength = float(1.0 - np.median(scores_arr) / best_score) if best_score > 0 else 0.0
    return best_angle, strength


def residual_skew(gray: np.ndarray, span: float = 10.0, step: float = 0.5, work_side: int = 240, exclude: Sequence[Box] = (),
                  paper: np.ndarray | None = None, within: Sequence[Box] = ()) -> tuple[float, float]:
    """(degrees, gain) of the tilt left in an upright crop, from its printed lines: the angle
    within ±span whose projection across the lines is sharpest, and how much sharper it is
    than level (1.0 = no better). The barcode's angle can be a few degrees off under perspective,
    and a tilted line's box takes in pieces of its neighbours. `exclude` (crop pixels) keeps the
    symbols out: a barcode's bars and a QR code are most of a tag's ink, and under perspective
    they lie level while the text above them is still tilted. `paper` (the tag's outline, crop pixels) keeps
    out what lies around the tag: the lines of printed sheets beside it outweigh a small tag's own."""
    points = _ink_points(gray, work_side, exclude, paper, within)
    if points is None:
        return 0.0, 1.0
    xs, ys = points

    def sharpness(angle: float) -> float:
        t = math.radians(angle)
        proj = ys * math.cos(t) - xs * math.sin(t)
        hist = np.bincount((proj - proj.min()).astype(np.int32))
        return float((hist.astype(np.float32) ** 2).sum())

    level = sharpness(0.0)
    angles = np.arange(-span, span + step / 2, step)
    scores = [sharpness(float(a)) for a in angles]
    best = int(np.argmax(scores))
    return float(angles[best]), scores[best] / max(level, 1e-9)


def level_by_lines(upright: Upright, exclude: Sequence[Box] = (), paper: np.ndarray | None = None) -> Upright:
    """The crop cut again level when its printed lines (outside `exclude`, the symbols, and on the `paper`
    outline where known, frame pixels) are still tilted and clearly sharper level; else itself."""
    on_crop = None if paper is None else upright.to_upright_points(paper)
    skew, gain = residual_skew(cv2.cvtColor(upright.image, cv2.COLOR_BGR2GRAY), exclude=exclude, paper=on_crop)
    if abs(skew) >= MIN_SKEW_DEG and gain >= MIN_SKEW_GAIN:
        return upright.turned_by(skew)
    return upright


def bars_down_angle(gray_patch: np.ndarray) -> tuple[float, float]:
    """(direction along the bars in degrees modulo 180, strength 0..1) of a linear barcode patch.

    Gradient directions, weighted by magnitude, pile up across the bars. A histogram finds that
    pile even when the patch also holds its white surround's edges or the digits (which pull a
    structure-tensor average off); strength is the share of gradient energy within ±6° of it,
    about 0.13 for noise and 0.9 for clean bars.
    """
    patch = cv2.GaussianBlur(gray_patch, (0, 0), 1.0).astype(np.float32)
    gx = cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3)
    # not cv2.magnitude: its last bits follow where its output lands in memory, and a tag then read two ways
    magnitude = np.sqrt(gx * gx + gy * gy).ravel()
    angle = (np.degrees(np.arctan2(gy, gx)).ravel() + 180.0) % 180.0
    hist = np.bincount(np.minimum(np.round(angle).astype(np.int32), 180) % 180, weights=magnitude, minlength=180)
    total = float(hist.sum())
    if total <= 0:
        return 90.0, 0.0
    window = np.convolve(np.concatenate([hist[-6:], hist, hist[:6]]), np.ones(13), mode="valid")
    peak = int(np.argmax(window))
    idx = np.arange(peak - 6, peak + 7) % 180
    doubled = np.radians(idx * 2.0)
    centre = float(np.degrees(np.arctan2((hist[idx] * np.sin(doubled)).sum(), (hist[idx] * np.cos(doubled)).sum())) / 2) % 180
    return (centre + 90.0) % 180.0, float(window[peak] / total)
