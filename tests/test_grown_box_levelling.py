"""A box grown past the tag (lines ran into its first crop's edge) takes in what lies round it: a receipt's or a
printed sheet's rows, level on the desk while the tag is turned. Their ink outweighs a small tag's own, and levelled
by it the tag's rows stood aslant (twentyfifth 000029, a steeply turned tag by receipts: the first crop levelled at
−22.9°, the grown one at −5.9°, every row then read across two). Without the paper's outline only the print on the
ground of the first, ungrown crop tells the grown crop's tilt."""

from __future__ import annotations

import cv2
import numpy as np

from inference.reading.levelling import level_tag
from inference.reading.symbols import TagSymbols
from inference.reading.tag_extent import FirstRead
from inference.reading.text_lines import Pieces

DESK = 225
TAG_TILT_DEG = 6.0  # the tag's rows, turned on the desk; within what levelling by lines looks for
TAG_BOX = (90.0, 220.0, 330.0, 480.0)
GROWN_BOX = (60.0, 30.0, 880.0, 670.0)  # takes in the sheet beside the tag


def _rows(image: np.ndarray, x0: int, y0: int, width: int, rows: int, pitch: int, height: int) -> None:
    """Rows of word-like dashes, as printed lines look to levelling."""
    for r in range(rows):
        y = y0 + r * pitch
        x = x0
        while x < x0 + width:
            w = 10 + (7 * r + x) % 23
            cv2.rectangle(image, (x, y), (min(x + w, x0 + width), y + height), 30, -1)
            x += w + 6


def _frame() -> np.ndarray:
    frame = np.full((700, 900), DESK, np.uint8)
    tag = np.full((240, 200), DESK, np.uint8)
    _rows(tag, 20, 20, 160, 8, 26, 10)
    turn = cv2.getRotationMatrix2D((100.0, 120.0), TAG_TILT_DEG, 1.0)
    tag = cv2.warpAffine(tag, turn, (200, 240), borderValue=DESK)
    frame[230:470, 110:310] = tag
    _rows(frame, 360, 50, 500, 38, 16, 7)  # the sheet beside it: level, and far more ink than the tag
    return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)


def _level(frame: np.ndarray, box, tag_ground=None):
    symbols = TagSymbols(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (0, 0), 0.0, False, ())
    level = level_tag(frame, box, symbols, tag_ground=tag_ground)
    assert level.outline is None  # no paper edge shows: the print alone levels the tag
    return level


def test_a_grown_box_is_levelled_by_the_print_on_the_first_crops_ground_not_by_the_sheet_beside_the_tag():
    frame = _frame()
    first = _level(frame, TAG_BOX)
    assert abs(abs(first.upright.angle_deg) - TAG_TILT_DEG) <= 1.0  # the tag's own crop levels by its rows
    by_everything = _level(frame, GROWN_BOX)
    assert abs(by_everything.upright.angle_deg) <= 1.0  # the sheet's rows outweigh the tag's: the trap
    ground = FirstRead(first.upright, Pieces((), (), ())).tag_ground()
    grown = _level(frame, GROWN_BOX, tag_ground=ground)
    assert abs(grown.upright.angle_deg - first.upright.angle_deg) <= 1.0


def test_a_box_grown_twice_keeps_the_first_crops_ground():
    frame = _frame()
    first = _level(frame, TAG_BOX)
    ground = FirstRead(first.upright, Pieces((), (), ())).tag_ground()
    once = _level(frame, (80.0, 150.0, 400.0, 550.0), tag_ground=ground)
    again = FirstRead(once.upright, Pieces((), (), ()), ground=ground)
    assert np.allclose(again.tag_ground(), ground)
