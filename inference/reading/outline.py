"""The tag's own outline: the four edges of its paper, found near the detector's box.

A tag is a card: whatever it prints, its paper ends in four straight edges, and those edges are the one
thing every design shares. The reader's other cues for the tag's turn and extent — the bars, the printed
lines, the paper's colour at the crop's edge — belong to whatever lies in the box, and a tag lying on printed
sheets shares its box with their lines. The outline says which part of the box is the tag.

Each side is searched on its own, turned within `SPAN_DEG` of the tag's turn so far and moved along its normal,
for the straight edge that runs along most of the side (`MIN_RUN`): print is broken, a paper edge is not.
Found on all four sides, the sides meet in a quadrilateral (perspective leaves opposite sides a little apart
in angle). Where a side is not found (cut by the frame, a tag on paper of its own colour) there is no outline,
and the reader goes on as without one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from inference.reading.lines import Box
from inference.reading.rectify import tag_size

# The search: the tag box grown by this share of its size on each side; worked at most this many pixels a side.
ROI_MARGIN = 0.12
WORK_SIDE = 240
# Turns tried around the tag's turn so far (degrees), first this coarsely, then each side by FINE_STEP_DEG.
SPAN_DEG = 8.0
COARSE_STEP_DEG = 1.0
FINE_STEP_DEG = 0.25
# How far from the box's own side (a share of the tag's size across it) a side is looked for: inwards (a loose
# box) and outwards (a box a little short of the paper; no further, where the next sheet's edge may run).
REACH_IN = 0.15
REACH_OUT = 0.03
# Opposite sides differ in turn by perspective only: at most this much (degrees); and the outline's bounds lie
# within this share of the box's size from the box's sides (the detector drew the box round this paper).
MAX_SPLAY_DEG = 4.0
MAX_BOUNDS_SHIFT = 0.05
# The middle share of a side along which its edge is measured (its ends are corners, shadows, a string's hole).
SIDE_MIDDLE = 0.6
# A side is found where an edge runs along at least this share of that middle, unbroken by the print.
MIN_RUN = 0.6
# An edge pixel's contrast across the side: at least this, and this share of the box's strong edges.
MIN_EDGE = 12.0
EDGE_SHARE = 0.3
# Of the edges along a side at least this share as strong as its strongest, the outermost is the paper's.
OUTER_SHARE = 0.7
# A side with the same colour this far (work pixels) inside and outside it, within this L1 distance in 8-bit Lab, is
# a line printed on the paper (a column's divider, a panel's rule), not its edge: the paper runs on past it.
BESIDE_PX = 5.0
SAME_PAPER = 24.0


@dataclass(frozen=True)
class Outline:
    """The tag's paper: four corners in frame pixels (top-left, top-right, bottom-right, bottom-left of the
    tag turned by `turn_deg`), the turn that levels its top and bottom edges (counter-clockwise, as `Upright`'s),
    and the share of each side (left, right, top, bottom) its edge ran along."""

    corners: np.ndarray  # (4, 2) float64
    turn_deg: float
    runs: tuple[float, float, float, float]

    @property
    def size(self) -> tuple[float, float]:
        """The paper's width and height turned by `turn_deg`: its opposite sides' mean lengths."""
        c = self.corners
        side = [float(np.linalg.norm(c[(k + 1) % 4] - c[k])) for k in range(4)]  # top, right, bottom, left
        return (side[0] + side[2]) / 2, (side[1] + side[3]) / 2

    @property
    def xyxy(self) -> Box:
        c = self.corners
        return (float(c[:, 0].min()), float(c[:, 1].min()), float(c[:, 0].max()), float(c[:, 1].max()))


@dataclass(frozen=True)
class _Side:
    score: float  # mean contrast across the side along its middle (capped), what the search maximizes
    run: float  # share of the middle where the contrast is an edge's
    turn: float  # degrees
    offset: float  # position along the side's normal from the centre, in the turned tag's pixels (work scale)


def find_outline(image_bgr: np.ndarray, box: Box, turn_deg: float) -> Outline | None:
    """The paper outline of the tag in `box` (frame pixels) turned about `turn_deg` (counter-clockwise, the
    turn that stands it upright), or None where one of its sides shows no edge."""
    h_img, w_img = image_bgr.shape[:2]
    x1, y1, x2, y2 = box
    bw, bh = x2 - x1, y2 - y1
    if bw < 16 or bh < 16:
        return None
    rx1, ry1 = max(0, int(x1 - ROI_MARGIN * bw)), max(0, int(y1 - ROI_MARGIN * bh))
    rx2, ry2 = min(w_img, int(math.ceil(x2 + ROI_MARGIN * bw))), min(h_img, int(math.ceil(y2 + ROI_MARGIN * bh)))
    scale = min(1.0, WORK_SIDE / max(rx2 - rx1, ry2 - ry1))
    roi = cv2.resize(image_bgr[ry1:ry2, rx1:rx2], None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    gx, gy = _gradient(cv2.GaussianBlur(roi, (0, 0), 0.8))
    strong = max(MIN_EDGE, EDGE_SHARE * float(np.percentile(np.hypot(gx, gy), 95)))
    centre = np.array([(x1 + x2) / 2 * scale - scale * rx1, (y1 + y2) / 2 * scale - scale * ry1])
    turns = np.arange(-SPAN_DEG, SPAN_DEG + 0.1, COARSE_STEP_DEG) + turn_deg
    args = (gx, gy, centre, bw * scale, bh * scale, strong)
    sides = {}
    for pair in (("left", "right"), ("top", "bottom")):  # opposite sides turn together, but for perspective
        first, second = (_search(*args, turns, name) for name in pair)
        at = max(range(len(turns)), key=lambda i: first[i].score + second[i].score)
        for name in pair:
            fine = np.arange(-MAX_SPLAY_DEG / 2, MAX_SPLAY_DEG / 2 + 1e-6, FINE_STEP_DEG) + turns[at]
            sides[name] = max(_search(*args, fine, name), key=lambda side: side.score)
    if min(s.run for s in sides.values()) < MIN_RUN:
        return None
    corners = _corners(sides, centre)
    if corners is None or _paper_beyond(roi, corners):
        return None
    frame_corners = corners / scale + np.array([rx1, ry1])
    low, high = frame_corners.min(axis=0), frame_corners.max(axis=0)
    shift = np.abs(np.array([low[0] - x1, low[1] - y1, high[0] - x2, high[1] - y2])) / np.array([bw, bh, bw, bh])
    if shift.max() > MAX_BOUNDS_SHIFT:
        return None
    turn = (sides["top"].turn + sides["bottom"].turn) / 2
    return Outline(frame_corners, turn, tuple(sides[k].run for k in ("left", "right", "top", "bottom")))


def _paper_beyond(roi: np.ndarray, corners: np.ndarray) -> bool:
    """Whether the paper runs on past one of the outline's sides: the same colour just inside and just outside the
    middle of it, so the edge found there is a line printed on the tag (a two-column tag's divider taken for its
    left edge, the box drawn round one column)."""
    lab = cv2.cvtColor(roi, cv2.COLOR_BGR2LAB).astype(np.float32) if roi.ndim == 3 else roi.astype(np.float32)[..., None]
    h, w = lab.shape[:2]
    centroid = corners.mean(axis=0)
    along = np.linspace(0.5 - SIDE_MIDDLE / 2, 0.5 + SIDE_MIDDLE / 2, 24)[:, None]
    for k in range(4):
        p, q = corners[k], corners[(k + 1) % 4]
        length = float(np.linalg.norm(q - p))
        if length < 1.0:
            continue
        normal = np.array([(q - p)[1], -(q - p)[0]]) / length
        if np.dot(normal, (p + q) / 2 - centroid) < 0:
            normal = -normal  # outwards
        points = p + along * (q - p)

        def colour(shift: float) -> np.ndarray:
            at = points + shift * normal
            xs = np.clip(np.rint(at[:, 0]).astype(np.intp), 0, w - 1)
            ys = np.clip(np.rint(at[:, 1]).astype(np.intp), 0, h - 1)
            return np.median(lab[ys, xs], axis=0)

        outside = points + BESIDE_PX * normal
        if not ((0 <= outside[:, 0]) & (outside[:, 0] < w) & (0 <= outside[:, 1]) & (outside[:, 1] < h)).all():
            continue  # the side lies at the search's edge: nothing beyond it to compare
        if float(np.abs(colour(-BESIDE_PX) - colour(BESIDE_PX)).sum()) < SAME_PAPER:
            return True
    return False


def _gradient(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per pixel, the gradient (8-bit steps per pixel) of the channel where it is strongest: a tag's edge can
    be a change of colour more than of brightness."""
    img = image.astype(np.float32)
    gx = cv2.Sobel(img, cv2.CV_32F, 1, 0, ksize=3) / 8.0
    gy = cv2.Sobel(img, cv2.CV_32F, 0, 1, ksize=3) / 8.0
    if gx.ndim == 2:  # a grey frame
        return gx, gy
    pick = np.argmax(gx * gx + gy * gy, axis=2)[..., None]
    return np.take_along_axis(gx, pick, axis=2)[..., 0], np.take_along_axis(gy, pick, axis=2)[..., 0]


def _search(gx: np.ndarray, gy: np.ndarray, centre: np.ndarray, bw: float, bh: float, strong: float,
            turns: np.ndarray, name: str) -> list[_Side]:
    """The named side's best placement at each of `turns`, over positions along its normal near the box's side."""
    h, w = gx.shape
    turns = np.asarray(turns, np.float64)
    sizes = [tag_size(bw, bh, float(t)) for t in turns]
    vertical = name in ("left", "right")
    normal, along = _side_axes(name, turns)
    half = np.array([(tw if vertical else th) / 2 for tw, th in sizes])
    length = np.array([th if vertical else tw for tw, th in sizes])
    sign = -1.0 if name in ("left", "top") else 1.0
    steps = np.arange(-REACH_IN * 2 * half.max(), REACH_OUT * 2 * half.max() + 1.0, 1.0)
    offsets = sign * (half[:, None] + steps[None, :])  # (T, K)
    samples = np.linspace(-SIDE_MIDDLE / 2, SIDE_MIDDLE / 2, 32)[None, :] * length[:, None]  # (T, S)
    at = [(centre[i] + offsets[:, :, None] * normal[:, None, None, i]) + samples[:, None, :] * along[:, None, None, i]
          for i in (0, 1)]  # x and y, (T, K, S)
    xs = np.clip(np.rint(at[0]).astype(np.intp), 0, w - 1)
    ys = np.clip(np.rint(at[1]).astype(np.intp), 0, h - 1)
    flat = ys * w + xs
    across = np.abs(gx.ravel().take(flat) * normal[:, None, None, 0] + gy.ravel().take(flat) * normal[:, None, None, 1])
    # capped, so a side is an edge all along, not a few hard strokes of print; the uncapped contrast breaks ties
    scores = np.minimum(across, 3 * strong).mean(axis=2) + 1e-3 * across.mean(axis=2)  # (T, K)
    # the paper's edge is the outermost of the strong edges along it: a printed panel or rule inside runs parallel
    strong_enough = scores >= OUTER_SHARE * scores.max(axis=1, keepdims=True)
    best_k = scores.shape[1] - 1 - np.argmax(strong_enough[:, ::-1], axis=1)
    rows = np.arange(len(turns))
    runs = (across[rows, best_k] >= strong).mean(axis=1)
    return [_Side(float(scores[i, k]), float(runs[i]), float(turns[i]), float(offsets[i, k])) for i, k in zip(rows, best_k)]


def _side_axes(name: str, turns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For the tag turned by each of `turns` (degrees), the named side's normal and its direction along the
    side, as (T, 2) frame directions."""
    rad = np.radians(turns)
    ax = np.stack([np.cos(rad), np.sin(rad)], axis=1)  # the tag's axes in the frame
    ay = np.stack([-np.sin(rad), np.cos(rad)], axis=1)
    return (ax, ay) if name in ("left", "right") else (ay, ax)


def _corners(sides: dict[str, _Side], centre: np.ndarray) -> np.ndarray | None:
    """The four sides met, in work pixels: top-left, top-right, bottom-right, bottom-left."""
    lines = {}
    for name, side in sides.items():
        normal, along = (axis[0] for axis in _side_axes(name, np.array([side.turn])))
        point = centre + side.offset * normal
        lines[name] = (point, point + along)
    pairs = (("top", "left"), ("top", "right"), ("bottom", "right"), ("bottom", "left"))
    corners = [_meet(lines[p], lines[q]) for p, q in pairs]
    if any(c is None for c in corners):
        return None
    return np.array(corners, np.float64)


def _meet(p: tuple[np.ndarray, np.ndarray], q: tuple[np.ndarray, np.ndarray]) -> np.ndarray | None:
    d1, d2 = p[1] - p[0], q[1] - q[0]
    denom = d1[0] * d2[1] - d1[1] * d2[0]
    if abs(denom) < 1e-9:
        return None
    t = ((q[0][0] - p[0][0]) * d2[1] - (q[0][1] - p[0][1]) * d2[0]) / denom
    return p[0] + t * d1
