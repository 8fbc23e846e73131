"""The symbol stage of a tag: which way is up, and what its barcodes and QR codes decode to.

Linear barcode boxes set the angle (the bars' gradient), a decoded linear code says which end is
the top; with no symbol the tag's text lines give the angle and leave top and bottom open.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, replace

import cv2
import numpy as np

from inference.reading import barcodes as bc
from inference.reading.lines import Box, union
from inference.reading.rectify import bars_down_angle, crop_box, text_down_angle, turn_from_down_angle
from inference.reading.symbol_views import BarMeasure, measure_bars

# Bars this strong (share of gradient energy across them; noise gives ~0.1) set the angle.
MIN_BAR_STRENGTH = 0.3
# Focus is measured with the patch's longer side at most this many pixels.
FOCUS_SIDE = 256


@dataclass(frozen=True)
class TagSymbols:
    """A tag's barcode stage: the grey crop its symbols were read from (the tag box joined with the
    symbol boxes: a tag box short of its barcode's end cuts the bars) and where it sits in the frame,
    the tag's turn and whether top and bottom are known, and the codes decoded (frame pixels)."""

    gray: np.ndarray
    offset: tuple[int, int]
    turn: float
    sure: bool
    codes: tuple[bc.DecodedCode, ...]

    def focus(self, barcode_boxes: Sequence[Box]) -> float:
        """The tag's sharpness where its largest barcode box lies (frame pixels)."""
        ox, oy = self.offset
        return focus_of(self.gray, [shift_box(b, -ox, -oy) for b in barcode_boxes])

    def bars(self, barcode_boxes: Sequence[Box], codes: Sequence[bc.DecodedCode]) -> BarMeasure | None:
        """The bars of the barcode boxes no linear code was decoded in: why they would not decode
        (blur, a run too short), measured on the largest that shows bars, and the profiles of all of
        them, largest first, for the recipe's code to be verified against (bar_verify.py)."""
        linear = [np.asarray(c.quad, np.float64).mean(axis=0) for c in codes if c.is_linear]
        return self._measured([b for b in barcode_boxes if not any(_inside(b, x, y) for x, y in linear)])

    def decoded_bars(self, barcode_boxes: Sequence[Box], codes: Sequence[bc.DecodedCode], text: str) -> BarMeasure | None:
        """The bars of the boxes a linear code `text` was decoded in, measured as `bars` measures unread ones."""
        centres = [np.asarray(c.quad, np.float64).mean(axis=0) for c in codes if c.is_linear and c.text == text]
        return self._measured([b for b in barcode_boxes if any(_inside(b, x, y) for x, y in centres)])

    def _measured(self, boxes: Sequence[Box]) -> BarMeasure | None:
        ox, oy = self.offset
        measured = [measure_bars(self.gray, shift_box(b, -ox, -oy), self.turn)
                    for b in sorted(boxes, key=lambda b: -(b[2] - b[0]) * (b[3] - b[1]))]
        shown = [m for m in measured if m is not None]
        if not shown:
            return None
        return replace(shown[0], profiles=tuple(box for m in shown for box in m.profiles))


def _inside(box: Box, x: float, y: float) -> bool:
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def read_symbols(image_bgr: np.ndarray, tag_box: Box, barcode_boxes: Sequence[Box] = (), qr_boxes: Sequence[Box] = (),
                 notes: list[str] | None = None, matrix_search: tuple[float, ...] = (1.0,), *,
                 on_turn: Callable[[float], object] | None = None, pool: Executor | None = None) -> TagSymbols:
    """Turn the tag by its bars (else a whole-crop zxing read, else its text lines) and decode every
    symbol box on it; a linear code's orientation then says which way is up.

    `on_turn` is told the turn before the symbols are decoded (the tag's final turn is that or
    `flipped_turn` of it: the reader warps the tag both ways meanwhile); `pool` decodes the symbol
    boxes side by side (barcodes.decode_symbols)."""
    crop, (ox, oy) = crop_box(image_bgr, union([tag_box, *barcode_boxes, *qr_boxes]))
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    turn, sure, codes = _orientation(gray, [shift_box(b, -ox, -oy) for b in barcode_boxes], notes if notes is not None else [])
    if on_turn is not None:
        on_turn(turn)
    if barcode_boxes or qr_boxes:
        codes = bc.decode_symbols(gray, [shift_box(b, -ox, -oy) for b in (*barcode_boxes, *qr_boxes)], turn,
                                  matrix_search=matrix_search, pool=pool)
    flip = bc.upside_down(codes)
    if flip is None:
        flip = qr_upside_down(codes, turn)
    if flip is not None:
        sure = True
        if flip:
            turn = flipped_turn(turn)
    return TagSymbols(gray, (ox, oy), turn, sure, tuple(_shift_code(c, ox, oy) for c in codes))


# A QR code is printed upright on its tag (generators draw it so, and it is set with the print, not turned): where
# no linear code says which way is up, its finder patterns do — unless it stands a quarter turn from the tag's turn
# (a sideways layout), when it says nothing. Within this many degrees of the turn, or of its half turn, it speaks.
QR_AGREES_DEG = 45.0


def qr_upside_down(codes: Sequence[bc.DecodedCode], turn: float) -> bool | None:
    """Whether the tag turned by `turn` stands upside down by its QR code's own up; None where no QR code
    decoded, or it stands sideways."""
    qr = next((c for c in codes if "QR" in c.format), None)
    if qr is None:
        return None
    apart = abs((turn_from_down_angle(qr.down_angle_deg()) - turn + 180.0) % 360.0 - 180.0)
    if apart <= QR_AGREES_DEG:
        return False
    if apart >= 180.0 - QR_AGREES_DEG:
        return True
    return None


def flipped_turn(turn: float) -> float:
    """The turn that stands the tag the other way up (degrees in (-180, 180])."""
    return (turn + 360.0) % 360.0 - 180.0


def _orientation(gray: np.ndarray, barcode_boxes: Sequence[Box], notes: list[str]) -> tuple[float, bool, list[bc.DecodedCode]]:
    """(turn in degrees, whether top and bottom are known, codes decoded on the way), all in
    the pixels of `gray`, the tag's crop."""
    # The largest patch whose bars are strong sets the angle (the first of equal ones): patches are measured
    # largest first, in a stable order, until one is strong, so no smaller patch is measured in vain.
    patches = [gray[int(max(0, y1)) : int(y2) + 1, int(max(0, x1)) : int(x2) + 1] for x1, y1, x2, y2 in barcode_boxes]
    for patch in sorted((p for p in patches if p.size >= 64), key=lambda p: -p.size):
        down, strength = bars_down_angle(patch)
        if strength >= MIN_BAR_STRENGTH:
            return turn_from_down_angle(down), False, []
    codes = bc.decode(gray)
    linear = [c for c in codes if c.is_linear]
    anchor = next((c for c in linear if c.format == "EAN-13"), linear[0] if linear else None)
    if anchor is not None:
        # zxing's own frame: the code already reads upright after this turn
        return turn_from_down_angle(anchor.down_angle_deg()), True, []
    notes.append("no barcode to orient the tag; orientation from text lines")
    down, _strength = text_down_angle(gray)
    return turn_from_down_angle(down), False, []


def focus_of(gray: np.ndarray, barcode_boxes: Sequence[Box]) -> float:
    """Sharpness where it matters most: the largest barcode box (else the whole tag), as the
    variance of the Laplacian at a fixed working size, so numbers compare across cameras."""
    patch = gray
    if barcode_boxes:
        x1, y1, x2, y2 = max(barcode_boxes, key=lambda b: (b[2] - b[0]) * (b[3] - b[1]))
        cut = gray[int(max(0, y1)) : int(y2) + 1, int(max(0, x1)) : int(x2) + 1]
        if cut.size >= 64:
            patch = cut
    side = max(patch.shape[:2])
    if side > FOCUS_SIDE:
        scale = FOCUS_SIDE / side
        patch = cv2.resize(patch, (max(1, int(patch.shape[1] * scale)), max(1, int(patch.shape[0] * scale))), interpolation=cv2.INTER_AREA)
    return float(cv2.Laplacian(patch, cv2.CV_64F).var())


def shift_box(box: Box, dx: float, dy: float) -> Box:
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def _shift_code(code: bc.DecodedCode, dx: float, dy: float) -> bc.DecodedCode:
    return bc.DecodedCode(code.format, code.text, code.valid_checksum, tuple((x + dx, y + dy) for x, y in code.quad), code.orientation)

