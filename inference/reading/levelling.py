"""The rectify stage of a tag: its crop turned upright once and levelled.

The symbol stage's turn gives the first warp. With no symbol decoded in the frame's pixels, zxing
looks again in the upright crop (a code there also says which end is the top). Printed lines still
tilted after that (perspective, a loose box) and clearly sharper level are levelled by a second warp;
where the tag's paper outline shows (outline.py), only the print on it counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from inference.detections import centre_inside
from inference.reading import barcodes as bc
from inference.reading.lines import Box, SymbolZone, symbol_zone, union
from inference.reading.outline import Outline, find_outline
from inference.reading.rectify import Upright, level_by_lines, make_upright, snapped
from inference.reading.symbols import TagSymbols

# Bars stand at most this share of their width above and below the rows zxing scanned (an EAN-13
# with its digits is 0.7 of its width tall).
BARS_HALF_HEIGHT = 0.45
# A tag whose paper outline shows is cut again round it where its edges turn it this much more (degrees) than the
# symbols did (then turned by the edges), or where the crop from the detector's box does not hold the whole paper
# (then at the symbols' turn); a crop that holds it stays as it was, the same pixels.
OUTLINE_TURN_DEG = 1.0
# The crop cut round the paper keeps this share of its size beyond each edge: a line printed up to the paper's edge
# is cut with room at its end (what lies round the paper is kept out of the read by the outline, not the crop).
OUTLINE_MARGIN = 0.06
# The box's crop holds the paper when the outline's corners lie within this share of the crop's size of it (a
# rounded corner's edges meet outside the paper).
HOLD_SLACK = 0.03


@dataclass(frozen=True)
class Levelled:
    """The upright tag, the codes known on it (frame pixels), whether top and bottom are known,
    where the decoded symbols sit in the upright crop, and the tag's paper outline where its four edges show."""

    upright: Upright
    codes: tuple[bc.DecodedCode, ...]
    sure: bool
    zones: tuple[SymbolZone, ...]
    outline: Outline | None = None


def level_tag(image_bgr: np.ndarray, tag_box: Box, symbols: TagSymbols, barcode_boxes: Sequence[Box] = (), qr_boxes: Sequence[Box] = (),
              upright: Upright | None = None, tag_ground: np.ndarray | None = None) -> Levelled:
    """The tag warped upright by the symbol stage's turn, or where its paper's four edges show and that crop does
    not hold them or they turn the tag otherwise, cut round that outline; then levelled by its printed lines;
    `barcode_boxes` (frame pixels) give the bars' height to the zones of the codes they hold, and
    with `qr_boxes` keep the symbols out of the levelling. `upright`: that first warp made already
    (`make_upright(image_bgr, tag_box, symbols.turn)`, while the symbols were decoded). `tag_ground`: where the box
    was grown past the tag's first crop, that crop's corners (frame pixels): without the paper's outline, only the
    print on it levels the tag (the grown box took in what lies round the tag, whose rows run their own way)."""
    sure, codes = symbols.sure, list(symbols.codes)
    if upright is None or upright.angle_deg != symbols.turn:
        upright = make_upright(image_bgr, tag_box, symbols.turn)
    if not codes:
        found = bc.decode(cv2.cvtColor(upright.image, cv2.COLOR_BGR2GRAY))
        codes = [_map_code(c, upright) for c in found]
        flip = bc.upside_down(found)
        if flip is not None:
            sure = True
            if flip:
                upright = upright.flipped()
    outline = find_outline(image_bgr, tag_box, upright.angle_deg)
    if outline is not None:
        by_edges = snapped(outline.turn_deg)
        turned = abs(by_edges - upright.angle_deg) > OUTLINE_TURN_DEG
        if turned or not holds(upright, outline):  # cut round the tag's paper, turned by its edges where they disagree
            upright = make_upright(image_bgr, outline.xyxy, by_edges if turned else upright.angle_deg, OUTLINE_MARGIN,
                                   size=outline.size)
    zones = symbol_zones(codes, upright, barcode_boxes)
    symbols_seen = _symbol_areas(zones, upright, (*barcode_boxes, *qr_boxes))
    levelled = level_by_lines(upright, symbols_seen, tag_ground if outline is None else outline.corners)
    if levelled is not upright:
        upright, zones = levelled, symbol_zones(codes, levelled, barcode_boxes)
    return Levelled(upright, tuple(codes), sure, tuple(zones), outline)


def holds(upright: Upright, outline: Outline) -> bool:
    """Whether the crop holds the tag's paper: its outline's corners within HOLD_SLACK of it."""
    corners = upright.to_upright_points(outline.corners)
    h, w = upright.image.shape[:2]
    slack = HOLD_SLACK * max(h, w)
    return bool((corners >= -slack).all() and (corners[:, 0] <= w + slack).all() and (corners[:, 1] <= h + slack).all())


def _symbol_areas(zones: Sequence[SymbolZone], upright: Upright, symbol_boxes: Sequence[Box]) -> list[Box]:
    """Where the tag's symbols lie in the upright crop: decoded codes with their captions, and the
    detector's barcode and QR boxes, decoded or not."""
    areas = [zone.bars for zone in zones] + [zone.text for zone in zones if zone.text is not None]
    return areas + [upright.to_upright_box(box) for box in symbol_boxes]


def symbol_zones(codes: Sequence[bc.DecodedCode], upright: Upright, barcode_boxes: Sequence[Box] = ()) -> list[SymbolZone]:
    """Where decoded symbols sit in the upright crop. zxing's quad of a linear code spans only the
    rows it scanned, so a barcode box of the detector that holds the code gives the bars' height —
    within the bars' own columns and at most `BARS_HALF_HEIGHT` of their width above and below, as a
    detector box drawn around a turned code is loose and would take in the lines printed beside it.
    A matrix code's quad is its four corners already: no box is added to it."""
    boxes = [upright.to_upright_box(b) for b in barcode_boxes]
    zones = []
    for code in codes:
        pts = upright.to_upright_points(np.array(code.quad))
        area = (float(pts[:, 0].min()), float(pts[:, 1].min()), float(pts[:, 0].max()), float(pts[:, 1].max()))
        if not code.is_linear:
            zones.append(symbol_zone(area, "matrix", carries=code.text))
            continue
        cy = (area[1] + area[3]) / 2
        reach = BARS_HALF_HEIGHT * (area[2] - area[0])
        for box in boxes:
            if centre_inside(area, box):
                grown = union([area, box])
                area = (area[0], max(grown[1], cy - reach), area[2], min(grown[3], cy + reach))
                break
        kind = "ean" if code.format in ("EAN-13", "EAN-8", "UPC-A", "UPC-E") else "code"
        zones.append(symbol_zone(area, kind, carries=code.text))
    return zones


def _map_code(code: bc.DecodedCode, upright: Upright) -> bc.DecodedCode:
    """A code decoded in the upright crop, with its quad in frame pixels."""
    inverse = cv2.invertAffineTransform(upright.matrix)
    pts = np.array(code.quad, np.float64) @ inverse[:, :2].T + inverse[:, 2]
    return bc.DecodedCode(code.format, code.text, code.valid_checksum, tuple((float(x), float(y)) for x, y in pts), code.orientation)
