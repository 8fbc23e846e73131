"""Box geometry the tracker matches with: which sides the frame's edge cut, overlaps (of union, of the smaller box,
along one axis), and greedy pairing. Boxes are (x1, y1, x2, y2) in pixels."""

from __future__ import annotations

import numpy as np

Box = tuple[float, float, float, float]


def cut_sides(box: np.ndarray, frame_wh: tuple[int, int], edge_px: float) -> np.ndarray:
    """Which of x1, y1, x2, y2 the frame's edge set (that side of the tag is out of view)."""
    w, h = frame_wh
    return np.array([box[0] <= edge_px, box[1] <= edge_px, box[2] >= w - edge_px, box[3] >= h - edge_px])


def iou_matrix(a: np.ndarray, b: np.ndarray, *, of_smaller: np.ndarray | None = None) -> np.ndarray:
    """Intersection over union; where `of_smaller` (rows x cols, bool) says so, over the smaller box instead:
    a tag coming in at the edge shows a sliver that grows, and the sliver lies inside the next box."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)))
    ix = np.clip(np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0]), 0, None)
    iy = np.clip(np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1]), 0, None)
    inter = ix * iy
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    union = area_a[:, None] + area_b[None, :] - inter
    if of_smaller is not None:
        union = np.where(of_smaller, np.minimum(area_a[:, None], area_b[None, :]), union)
    return inter / np.maximum(union, 1e-9)


def greedy_pairs(overlap: np.ndarray, minimum: float) -> list[tuple[int, int]]:
    """(row, col) pairs, best overlap first, each row and column once (a few tags per frame: greedy is exact
    enough, and needs no solver)."""
    pairs = []
    if overlap.size == 0:
        return pairs
    rows, cols = set(), set()
    for flat in np.argsort(-overlap, axis=None):
        r, c = divmod(int(flat), overlap.shape[1])
        if overlap[r, c] < minimum:
            break
        if r not in rows and c not in cols:
            pairs.append((r, c))
            rows.add(r)
            cols.add(c)
    return pairs


def overlap_1d(a: np.ndarray, b: np.ndarray, axis: int) -> float:
    """How much of the shorter of two boxes' extents along `axis` (0: x, 1: y) the other covers."""
    inter = min(a[axis + 2], b[axis + 2]) - max(a[axis], b[axis])
    shorter = min(a[axis + 2] - a[axis], b[axis + 2] - b[axis])
    return max(0.0, float(inter)) / max(1e-6, float(shorter))


def centre(box: np.ndarray) -> np.ndarray:
    return np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2])


def alike(a: np.ndarray, b: np.ndarray) -> bool:
    """Two boxes a belt could have carried one tag between: of a size (a fifth either way) and in one row or one
    column (seven tenths of the shorter's extent across the belt shared)."""
    sized = all(0.8 <= (b[k + 2] - b[k]) / max(1e-6, a[k + 2] - a[k]) <= 1.25 for k in (0, 1))
    return sized and max(overlap_1d(a, b, 0), overlap_1d(a, b, 1)) >= 0.7


def touches_edge(box: Box | np.ndarray, frame_wh: tuple[int, int], edge_px: float = 2.0) -> bool:
    x1, y1, x2, y2 = (float(v) for v in box)
    w, h = frame_wh
    return x1 <= edge_px or y1 <= edge_px or x2 >= w - edge_px or y2 >= h - edge_px
