"""Where a tag ends when the detector's box cut it: the box grown past printed lines (or the tag's own paper)
that ran into its edge, and the reads of both boxes merged, the first trusted where it saw the whole line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from inference.detections import centre_inside, intersection
from inference.reading.lines import Box
from inference.reading.ocr.recognizer import Recognized
from inference.reading.rectify import Upright
from inference.reading.text_lines import Pieces

# A printed line this close to the crop's edge (share of its size) runs into it; the tag box then
# grows by this share of the crop that way (each growth; reader.MAX_GROWTHS says how many).
EDGE_SHARE = 0.01
GROW_SHARE = 0.35
# A side is not grown when that would take in this share of another tag box's area.
NEIGHBOUR_SHARE = 0.05
# The tag's paper (colour within this L1 distance in 8-bit Lab of the median over its printed lines, from at least
# this many lines) over this share of a crop edge's outer band: the box cut the tag there, unless every edge's band
# is more than GROUND_EDGE_SHARE paper (no ground seen anywhere: a white tag on a white table).
PAPER_DISTANCE = 24
MIN_PAPER_LINES = 3
PAPER_BAND_SHARE = 0.015
PAPER_EDGE_SHARE = 0.5
GROUND_EDGE_SHARE = 0.3
# A line of the first read within this share of the crop's side from its edge ran into it: the
# grown read's line is taken instead.
MERGE_EDGE_SHARE = 0.02
# A box narrower than two line heights at the edge is a cut line only where it was read this surely.
SURE_GLYPHS = 0.8
# Two reads of a tag levelled further apart than this are not merged line by line.
MERGE_MAX_TURN_DEG = 2.0


@dataclass(frozen=True)
class FirstRead:
    """The read of the detector's own box, kept when the box is grown past lines (or paper) that ran into its
    edge. The grown crop takes in what lies around the tag (other papers, the belt) and shows the tag
    smaller to the text detector: it is trusted only for what the first crop could not see."""

    upright: Upright
    pieces: Pieces
    # The first crop's sides printed lines ran into (cut_sides): its lines within MERGE_EDGE_SHARE of those sides
    # may be cut, and the grown read's are taken there. None cut (the box grew because the paper ran on): every
    # line the first read saw stands. Every side where not said (a caller that knows no better).
    cut: frozenset[str] = frozenset(("left", "right", "top", "bottom"))
    # The ground the first, ungrown crop covered (its four corners, frame pixels) where this read is itself of a grown
    # box (a box grown twice); None: this read's own crop.
    ground: np.ndarray | None = None

    def tag_ground(self) -> np.ndarray:
        """The four corners (frame pixels) of the first, ungrown crop: the tag's own print, which alone tells a grown
        crop's tilt (what the grown box took in round the tag, a receipt's or a printed sheet's rows, lies otherwise)."""
        if self.ground is not None:
            return self.ground
        h, w = self.upright.image.shape[:2]
        corners = np.array([[0.0, 0.0], [w, 0.0], [w, h], [0.0, h]], np.float64)
        inverse = cv2.invertAffineTransform(self.upright.matrix)
        return corners @ inverse[:, :2].T + inverse[:, 2]

    def merged_into(self, grown: Pieces, upright: Upright) -> Pieces:
        """The first read's lines that did not run into its edge, and the grown read's lines none of
        them covers (what the first crop cut or missed), all in the grown crop's pixels. If the two reads turned the
        tag differently (opposite ways, or levelled a few degrees apart) one of them is wrong: the one whose lines
        read less surely is taken for it (a crop levelled wrong sets lines aslant, and its text detector glues
        neighbours), the grown read whole, or the first read merged as above."""
        kept = self._kept(grown.boxes, upright)
        if kept is None:
            # compared on the first crop's ground only: what the grown crop took in round the tag (a receipt, a
            # printed sheet under it) reads surely, and levelled by it, the tag's own lines stand aslant
            region = self._region_in(upright)
            on_tag = [r for b, r in zip(grown.boxes, grown.recognized) if centre_inside(b, region)]
            if _sureness(on_tag) >= _sureness(self.pieces.recognized):
                return grown
            kept = self._kept(grown.boxes, upright, across_turn=True)
        first_boxes, kept_first, kept_grown = kept
        return Pieces(
            tuple(first_boxes[i] for i in kept_first) + tuple(grown.boxes[j] for j in kept_grown),
            tuple(self.pieces.crops[i] for i in kept_first) + tuple(grown.crops[j] for j in kept_grown),
            tuple(self.pieces.recognized[i] for i in kept_first) + tuple(grown.recognized[j] for j in kept_grown),
        )

    def lines_used(self, grown_boxes: Sequence[Box], upright: Upright) -> list[int]:
        """Which of the grown read's lines `merged_into` keeps: only they need recognizing (the
        merge goes by boxes alone; where the reads were turned apart, all, to tell which read better)."""
        kept = self._kept(grown_boxes, upright)
        return list(range(len(grown_boxes))) if kept is None else kept[2]

    def _kept(self, grown_boxes: Sequence[Box], upright: Upright,
              across_turn: bool = False) -> tuple[dict[int, Box], list[int], list[int]] | None:
        """(the first read's boxes in the grown crop, its lines kept, the grown read's lines kept), or
        None where the reads were turned apart (and `across_turn` is not asked). Grown because the paper ran on
        (no line of the first read was cut), the first read's lines stand whatever the turn: the boxes map
        across it exactly."""
        turn = (upright.angle_deg - self.upright.angle_deg + 180.0) % 360.0 - 180.0
        if abs(turn) > MERGE_MAX_TURN_DEG and self.cut and not across_turn:
            return None
        fh, fw = self.upright.image.shape[:2]
        mapped = self._mapping(upright)
        band = MERGE_EDGE_SHARE * max(fw, fh)
        region = mapped((0.0, 0.0, float(fw), float(fh)))
        def near_a_cut(b: Box) -> bool:
            x1, y1, x2, y2 = b
            return any((side == "left" and x1 <= band) or (side == "right" and x2 >= fw - band)
                       or (side == "top" and y1 <= band) or (side == "bottom" and y2 >= fh - band) for side in self.cut)

        inside = [i for i, b in enumerate(self.pieces.boxes) if not near_a_cut(b)]
        # a line the first read found nothing in (a sliver of paper) is no reason to pass over the grown read's
        whole = [i for i in inside if self.pieces.recognized[i].text.strip()]
        first_boxes = {i: mapped(self.pieces.boxes[i]) for i in whole}
        cut = [mapped(box) for i, box in enumerate(self.pieces.boxes) if i not in inside]

        def reaches_out(b: Box) -> bool:
            return b[0] < region[0] - band or b[1] < region[1] - band or b[2] > region[2] + band or b[3] > region[3] + band

        def replaces(g: Box, f: Box) -> bool:
            """The same line seen longer (not two lines glued into one box): reaching past the first crop, or
            over a line the first crop cut (two columns of one row, the left one cut, are one box in the grown read)."""
            longer = reaches_out(g) or any(_overlap(c, g) > 0.3 for c in cut)
            return longer and _overlap(f, g) > 0.3 and g[3] - g[1] <= 1.6 * (f[3] - f[1])

        # the first read's whole lines stand, unless the grown read, levelled alike, found one reaching past the
        # first crop over them (a line the first crop cut without its ink touching the edge)
        kept_first = list(whole) if across_turn else [i for i in whole if not any(replaces(g, first_boxes[i]) for g in grown_boxes)]
        kept_grown = [j for j, g in enumerate(grown_boxes) if not any(_overlap(first_boxes[i], g) > 0.3 for i in kept_first)]
        # a line by a cut edge that the grown read has nothing over stays as the first read saw it (the grown box,
        # clipped at the frame's edge, can show less of the tag that way than the first did)
        for i, box in enumerate(self.pieces.boxes):
            if i not in inside and self.pieces.recognized[i].text.strip():
                there = mapped(box)
                if not any(_overlap(there, g) > 0.3 for g in grown_boxes):
                    first_boxes[i] = there
                    kept_first.append(i)
        return first_boxes, kept_first, kept_grown


    def _mapping(self, upright: Upright) -> Callable[[Box], Box]:
        """A box of the first crop as a box of the grown crop (`upright`)."""
        turn = (upright.angle_deg - self.upright.angle_deg + 180.0) % 360.0 - 180.0
        to_grown = np.vstack([upright.matrix, [0.0, 0.0, 1.0]]) @ np.vstack([cv2.invertAffineTransform(self.upright.matrix), [0.0, 0.0, 1.0]])
        level = abs((turn + 90.0) % 180.0 - 90.0) < 45.0  # both crops hold the lines level (or upside down)

        def mapped(box: Box) -> Box:
            x1, y1, x2, y2 = box
            pts = np.array([[x1, y1, 1.0], [x2, y1, 1.0], [x2, y2, 1.0], [x1, y2, 1.0]]) @ to_grown[:2].T
            if level:  # the line keeps its size around its centre: its bounds turned a few degrees would reach into its neighbours' rows
                cx, cy = pts[:, 0].mean(), pts[:, 1].mean()
                return (float(cx - (x2 - x1) / 2), float(cy - (y2 - y1) / 2), float(cx + (x2 - x1) / 2), float(cy + (y2 - y1) / 2))
            return (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max()))

        return mapped

    def _region_in(self, upright: Upright) -> Box:
        """The first crop's bounds in the grown crop."""
        fh, fw = self.upright.image.shape[:2]
        return self._mapping(upright)((0.0, 0.0, float(fw), float(fh)))


def _sureness(recognized: Sequence[Recognized]) -> float:
    """How surely a read's lines were read: the mean confidence per character over the lines read."""
    read = [r for r in recognized if r.text.strip()]
    chars = sum(len(r.text) for r in read)
    return sum(r.confidence * len(r.text) for r in read) / chars if chars else 0.0


def _overlap(a: Box, b: Box) -> float:
    """Intersection over the smaller box."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    return w * h / max(1e-9, min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1])))


def paper_sides(image_bgr: np.ndarray, line_boxes: Sequence[Box]) -> set[str]:
    """The crop's edges the tag's own paper runs into: the box stopped short of the tag on that side (a column
    without a line touching the edge, a price sticker below it). The paper's colour is the median over the
    printed lines' boxes (their ground outweighs their ink, light print on dark stock too). Where no edge shows
    the ground (a white tag on a white table) nothing is said: the cue cannot tell tag from ground there."""
    h, w = image_bgr.shape[:2]
    boxes = [(int(max(0, x1)), int(max(0, y1)), int(min(w, x2)), int(min(h, y2))) for x1, y1, x2, y2 in line_boxes]
    boxes = [b for b in boxes if b[2] - b[0] >= 2 and b[3] - b[1] >= 2]
    if len(boxes) < MIN_PAPER_LINES or min(h, w) < 16:
        return set()
    def lab(x1: int, y1: int, x2: int, y2: int) -> np.ndarray:
        # only the pixels compared are converted: the whole crop's conversion was most of this function's time
        return cv2.cvtColor(np.ascontiguousarray(image_bgr[y1:y2, x1:x2]), cv2.COLOR_BGR2LAB)

    paper = median_over_parts([lab(*box) for box in boxes]).astype(np.int16)

    def paper_share(band: np.ndarray) -> float:
        return float((np.abs(band.astype(np.int16) - paper).sum(axis=2) <= PAPER_DISTANCE).mean())

    # only the edge bands are compared with the paper's colour (the whole crop was, for the same shares)
    band_x, band_y = max(2, int(PAPER_BAND_SHARE * w)), max(2, int(PAPER_BAND_SHARE * h))
    share = {"left": paper_share(lab(0, 0, band_x, h)), "right": paper_share(lab(w - band_x, 0, w, h)),
             "top": paper_share(lab(0, 0, w, band_y)), "bottom": paper_share(lab(0, h - band_y, w, h))}
    if min(share.values()) > GROUND_EDGE_SHARE:
        return set()
    return {side for side, value in share.items() if value >= PAPER_EDGE_SHARE}


def median_over_boxes(image: np.ndarray, boxes: Sequence[tuple[int, int, int, int]]) -> np.ndarray:
    """Per channel, the median of a uint8 image's pixels over the boxes (x1, y1, x2, y2), a pixel counted once for
    each box it lies in: `np.median` of the boxes' pixels put end to end (the mean of the two middle values for an
    even count), from histograms instead of sorting them (a few ms less per read of a tag)."""
    return median_over_parts([image[y1:y2, x1:x2] for x1, y1, x2, y2 in boxes])


def median_over_parts(parts: Sequence[np.ndarray]) -> np.ndarray:
    """`median_over_boxes` of the boxes' pixels already cut out (each (h, w, channels) uint8)."""
    channels = parts[0].shape[2]
    counts = np.zeros((channels, 256), np.int64)
    for part in parts:
        for c in range(channels):
            counts[c] += np.rint(cv2.calcHist([part], [c], None, [256], [0, 256]).reshape(-1)).astype(np.int64)
    out = np.empty(channels, np.float64)
    for c, hist in enumerate(counts):
        cum = np.cumsum(hist)
        n = int(cum[-1])
        upper = int(np.searchsorted(cum, n // 2, side="right"))  # the value at 0-based rank n // 2
        lower = upper if n % 2 else int(np.searchsorted(cum, n // 2 - 1, side="right"))
        out[c] = (lower + upper) / 2
    return out


def cut_sides(upright: Upright, line_boxes: Sequence[Box], recognized: Sequence[Recognized] = ()) -> set[str]:
    """The crop's edges printed lines run into. A box of a glyph or two counts only where it was read as
    characters surely (the first digit of a price the box cut off), not a stray mark."""
    h, w = upright.image.shape[:2]
    edge_x, edge_y = EDGE_SHARE * w, EDGE_SHARE * h
    sides = set()
    for k, (x1, y1, x2, y2) in enumerate(line_boxes):
        read = recognized[k] if k < len(recognized) else None
        legible = read is not None and read.confidence >= SURE_GLYPHS and any(ch.isalnum() for ch in read.text)
        if x2 - x1 < 2 * (y2 - y1) and not legible:
            continue  # a stray glyph at the edge (a punched hole, a string) is not a cut line
        if x1 <= edge_x:
            sides.add("left")
        if x2 >= w - edge_x:
            sides.add("right")
        if y1 <= edge_y:
            sides.add("top")
        if y2 >= h - edge_y:
            sides.add("bottom")
    return sides


def grown_box(tag_box: Box, upright: Upright, sides: set[str], image_hw: tuple[int, int],
              neighbours: Sequence[Box] = ()) -> Box | None:
    """The tag box grown towards each of the crop's `sides` (cut_sides, paper_sides), or None if there are none.

    Never towards another tag's box (`neighbours`: the detector's other tag boxes): a tag touching its neighbour
    runs into that neighbour's paper, and a read grown into it verifies the neighbour's values. A defective tag
    beside a good one of the same job then passed (a wrong ¥88.00 read as the neighbour's ¥888.00 on a belt
    of touching tags)."""
    h, w = upright.image.shape[:2]
    # the upright crop's +x and +y as directions in the frame
    inverse = cv2.invertAffineTransform(upright.matrix)
    right, down = inverse[:, 0], inverse[:, 1]
    x1, y1, x2, y2 = tag_box
    corners = [np.array([x1, y1]), np.array([x2, y1]), np.array([x2, y2]), np.array([x1, y2])]
    grow_w, grow_h = GROW_SHARE * w, GROW_SHARE * h
    shift = {"left": -right * grow_w, "right": right * grow_w, "top": -down * grow_h, "bottom": down * grow_h}

    def bounds(points: list[np.ndarray]) -> Box:
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        return (max(0.0, min(xs)), max(0.0, min(ys)), min(float(image_hw[1]), max(xs)), min(float(image_hw[0]), max(ys)))

    sides = {side for side in sides
             if not any(_takes_in(tag_box, bounds(corners + [p + shift[side] for p in corners]), other) for other in neighbours)}
    if not sides:
        return None
    points = corners
    for side in sides:
        points = points + [p + shift[side] for p in points]
    return bounds(points)


def _takes_in(box: Box, grown: Box, other: Box) -> bool:
    """Whether growing `box` to `grown` takes in NEIGHBOUR_SHARE or more of `other`'s area that `box` did not hold."""
    area = max(0.0, other[2] - other[0]) * max(0.0, other[3] - other[1])
    return area > 0 and (intersection(grown, other) - intersection(box, other)) >= NEIGHBOUR_SHARE * area
