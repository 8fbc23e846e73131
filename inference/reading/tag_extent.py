"""Where a tag ends when the detector's box cut it: the box grown past printed lines that ran into
its edge, and the reads of both boxes merged, the first trusted where it saw the whole line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from inference.reading.lines import Box
from inference.reading.rectify import Upright
from inference.reading.text_lines import Pieces

# A printed line this close to the crop's edge (share of its size) runs into it; the tag box then
# grows by this share of the crop that way, once.
EDGE_SHARE = 0.01
GROW_SHARE = 0.35
# A line of the first read within this share of the crop's side from its edge ran into it: the
# grown read's line is taken instead.
MERGE_EDGE_SHARE = 0.02
# Two reads of a tag levelled further apart than this are not merged line by line.
MERGE_MAX_TURN_DEG = 2.0


@dataclass(frozen=True)
class FirstRead:
    """The read of the detector's own box, kept when the box is grown past lines that ran into its
    edge. The grown crop takes in what lies around the tag (other papers, the belt) and shows the tag
    smaller to the text detector: it is trusted only for what the first crop could not see."""

    upright: Upright
    pieces: Pieces

    def merged_into(self, grown: Pieces, upright: Upright) -> Pieces:
        """The first read's lines that did not run into its edge, and the grown read's lines none of
        them covers (what the first crop cut or missed), all in the grown crop's pixels. If the two reads turned the
        tag differently (opposite ways, or levelled a few degrees apart) one of them is wrong, and the
        grown read (more of the tag, more lines to level it by) is kept."""
        kept = self._kept(grown.boxes, upright)
        if kept is None:
            return grown
        first_boxes, kept_first, kept_grown = kept
        return Pieces(
            tuple(first_boxes[i] for i in kept_first) + tuple(grown.boxes[j] for j in kept_grown),
            tuple(self.pieces.crops[i] for i in kept_first) + tuple(grown.crops[j] for j in kept_grown),
            tuple(self.pieces.recognized[i] for i in kept_first) + tuple(grown.recognized[j] for j in kept_grown),
        )

    def lines_used(self, grown_boxes: Sequence[Box], upright: Upright) -> list[int]:
        """Which of the grown read's lines `merged_into` keeps: only they need recognizing (the
        merge goes by boxes alone). For text_lines.read_lines' `needed`."""
        kept = self._kept(grown_boxes, upright)
        return list(range(len(grown_boxes))) if kept is None else kept[2]

    def _kept(self, grown_boxes: Sequence[Box], upright: Upright) -> tuple[dict[int, Box], list[int], list[int]] | None:
        """(the first read's boxes in the grown crop, its lines kept, the grown read's lines kept), or
        None where the grown read is kept whole."""
        turn = (upright.angle_deg - self.upright.angle_deg + 180.0) % 360.0 - 180.0
        if abs(turn) > MERGE_MAX_TURN_DEG:
            return None
        fh, fw = self.upright.image.shape[:2]
        to_grown = np.vstack([upright.matrix, [0.0, 0.0, 1.0]]) @ np.vstack([cv2.invertAffineTransform(self.upright.matrix), [0.0, 0.0, 1.0]])

        def mapped(box: Box) -> Box:
            x1, y1, x2, y2 = box
            pts = np.array([[x1, y1, 1.0], [x2, y1, 1.0], [x2, y2, 1.0], [x1, y2, 1.0]]) @ to_grown[:2].T
            return (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max()))

        band = MERGE_EDGE_SHARE * max(fw, fh)
        region = mapped((0.0, 0.0, float(fw), float(fh)))
        whole = [i for i, (x1, y1, x2, y2) in enumerate(self.pieces.boxes)
                 if x1 > band and y1 > band and x2 < fw - band and y2 < fh - band]
        first_boxes = {i: mapped(self.pieces.boxes[i]) for i in whole}

        def reaches_out(b: Box) -> bool:
            return b[0] < region[0] - band or b[1] < region[1] - band or b[2] > region[2] + band or b[3] > region[3] + band

        def replaces(g: Box, f: Box) -> bool:  # the same line, seen longer: not two lines glued into one box
            return reaches_out(g) and _overlap(f, g) > 0.3 and g[3] - g[1] <= 1.6 * (f[3] - f[1])

        # the first read's whole lines stand, unless the grown read found one reaching past the first crop
        # over them (a line the first crop cut without its ink touching the edge)
        kept_first = [i for i in whole if not any(replaces(g, first_boxes[i]) for g in grown_boxes)]
        kept_grown = [j for j, g in enumerate(grown_boxes) if not any(_overlap(first_boxes[i], g) > 0.3 for i in kept_first)]
        return first_boxes, kept_first, kept_grown


def _overlap(a: Box, b: Box) -> float:
    """Intersection over the smaller box."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    return w * h / max(1e-9, min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1])))


def grown_box(tag_box: Box, upright: Upright, line_boxes: Sequence[Box], image_hw: tuple[int, int]) -> Box | None:
    """The tag box grown towards every crop edge a printed line runs into, or None if none does."""
    h, w = upright.image.shape[:2]
    edge_x, edge_y = EDGE_SHARE * w, EDGE_SHARE * h
    sides = set()
    for x1, y1, x2, y2 in line_boxes:
        if x2 - x1 < 2 * (y2 - y1):
            continue  # a stray glyph at the edge (a punched hole, a string) is not a cut line
        if x1 <= edge_x:
            sides.add("left")
        if x2 >= w - edge_x:
            sides.add("right")
        if y1 <= edge_y:
            sides.add("top")
        if y2 >= h - edge_y:
            sides.add("bottom")
    if not sides:
        return None
    # the upright crop's +x and +y as directions in the frame
    inverse = cv2.invertAffineTransform(upright.matrix)
    right, down = inverse[:, 0], inverse[:, 1]
    x1, y1, x2, y2 = tag_box
    points = [np.array([x1, y1]), np.array([x2, y1]), np.array([x2, y2]), np.array([x1, y2])]
    grow_w, grow_h = GROW_SHARE * w, GROW_SHARE * h
    shift = {"left": -right * grow_w, "right": right * grow_w, "top": -down * grow_h, "bottom": down * grow_h}
    for side in sides:
        points = points + [p + shift[side] for p in points]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return (max(0.0, min(xs)), max(0.0, min(ys)), min(float(image_hw[1]), max(xs)), min(float(image_hw[0]), max(ys)))
