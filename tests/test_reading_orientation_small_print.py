"""Which way up a tag no code orients is read from its longest lines, read both ways. On print of 6-9 px the stock
recognizer reads garbage either way up, nearly as surely, and a hair's difference turned good tags upside down
(s6001 000066 and 000089, twentyfirst 000006, fifteenth_b 000035): the small-print recognizer reads them too."""

from __future__ import annotations

import numpy as np

from inference.reading.ocr.recognizer import Recognized
from inference.reading.rectify import make_upright
from inference.reading.text_lines import read_lines, reads_upside_down

ROWS, PITCH, ROW_H, WIDTH = 6, 24, 12, 180


def said(*confidences: float) -> list[Recognized]:
    return [Recognized("字字字", c, (c, c, c)) for c in confidences]


def test_the_small_print_recognizer_outweighs_the_stock_ones_hair_of_a_difference():
    stock_up, stock_turned = said(0.41, 0.40), said(0.43, 0.42)  # garbage both ways, a hair surer turned
    small_up, small_turned = said(0.62, 0.58), said(0.31, 0.29)
    assert reads_upside_down(stock_up, stock_turned)  # alone, the stock recognizer turns it
    assert not reads_upside_down(stock_up, stock_turned, small_up, small_turned)
    assert reads_upside_down(stock_turned, stock_up, small_turned, small_up)  # and the other way up, it is turned


def test_a_clear_stock_read_is_not_overruled_by_a_small_print_read_that_hardly_tells():
    assert not reads_upside_down(said(0.9, 0.85), said(0.3, 0.2), said(0.40, 0.40), said(0.45, 0.44))


class RowsDetector:
    def __init__(self, row_h: int = ROW_H) -> None:
        self.row_h = row_h

    def detect(self, image: np.ndarray):
        return [((10.0, float(10 + PITCH * k), 10.0 + WIDTH, float(10 + PITCH * k + self.row_h)), 0.9) for k in range(ROWS)]


def tag_crop(upside_down: bool) -> np.ndarray:
    """Rows of 'print', each with a heavy stroke at its top left: which way up it is, a glance tells."""
    image = np.full((20 + PITCH * (ROWS - 1) + ROW_H, WIDTH + 20, 3), 235, np.uint8)  # rows where they were, turned
    for k in range(ROWS):
        top = 10 + PITCH * k
        image[top + 2:top + ROW_H - 2, 14:10 + WIDTH - 4:6] = 60
        image[top + 1:top + 4, 12:40] = 20  # the heavy stroke, top left
    return np.ascontiguousarray(image[::-1, ::-1]) if upside_down else image


class Recognizer:
    """Reads a line `up` surely when its heavy stroke stands at its top left, `down` surely otherwise."""

    def __init__(self, up: float, down: float) -> None:
        self.up, self.down, self.calls = up, down, 0

    def recognize(self, crops, vocabulary: str = ""):
        self.calls += 1
        out = []
        for crop in crops:
            gray = crop.mean(axis=2)
            h, w = gray.shape
            upright = gray[: h // 2, : w // 3].mean() < gray[h // 2:, -(w // 3):].mean()
            c = self.up if upright else self.down
            out.append(Recognized("字字字", c, (c, c, c)))
        return out


def read(crop: np.ndarray, small_print: Recognizer | None, row_h: int = ROW_H, stock: Recognizer | None = None):
    frame = np.full((crop.shape[0] + 60, crop.shape[1] + 60, 3), 120, np.uint8)
    frame[30:30 + crop.shape[0], 30:30 + crop.shape[1]] = crop
    upright = make_upright(frame, (30.0, 30.0, 30.0 + crop.shape[1], 30.0 + crop.shape[0]), 0.0, margin=0.0)
    stock = stock or Recognizer(up=0.40, down=0.42)
    return read_lines(RowsDetector(row_h), stock, upright, [], ambiguous=True, small_print=small_print)


def test_a_small_print_tag_read_upright_stays_upright():
    assert read(tag_crop(upside_down=False), None).upright.angle_deg != 0.0  # the stock recognizer alone turns it
    lines = read(tag_crop(upside_down=False), Recognizer(up=0.6, down=0.3))
    assert lines.upright.angle_deg == 0.0


def test_a_small_print_tag_upside_down_in_its_crop_is_turned():
    lines = read(tag_crop(upside_down=True), Recognizer(up=0.6, down=0.3))
    assert abs(lines.upright.angle_deg) == 180.0
    assert all(r.confidence == 0.40 for r in lines.pieces.recognized)  # read upright: the stock recognizer's 'up'


def test_the_small_print_recognizer_reads_the_probe_lines_both_ways_in_one_call():
    small = Recognizer(up=0.6, down=0.3)
    read(tag_crop(upside_down=False), small)
    assert small.calls == 1  # the probe lines, both ways, in one call


def test_print_the_station_reads_surely_is_turned_by_the_stock_recognizer_alone():
    small = Recognizer(up=0.6, down=0.3)
    lines = read(tag_crop(upside_down=False), small, row_h=PITCH - 2)  # lines 22 px high: not small print
    assert small.calls == 0
    assert abs(lines.upright.angle_deg) == 180.0  # as before: the stock recognizer's hair of a difference decides


def test_stock_reads_that_tell_up_from_down_decide_alone():
    small = Recognizer(up=0.3, down=0.9)  # it would turn the tag: it is not asked
    lines = read(tag_crop(upside_down=False), small, stock=Recognizer(up=0.55, down=0.40))
    assert small.calls == 0
    assert lines.upright.angle_deg == 0.0
