"""A column of print set top to bottom among lying lines: its pieces joined, its crop laid down for the recognizer."""

from __future__ import annotations

import numpy as np
import pytest

from inference.reading.columns import is_column, lying_crop, stacked_columns


def piece(x1: float, y1: float, x2: float, y2: float):
    return ((x1, y1, x2, y2), (x1, y1, x2, y2))


@pytest.mark.parametrize(("box", "column"), [
    ((10, 10, 30, 80), True),     # three glyphs down
    ((10, 10, 30, 40), False),    # one glyph and a half: no column yet
    ((10, 10, 90, 30), False),    # a lying line
    ((10, 10, 13, 80), False),    # a rule, not print
])
def test_a_column_is_a_box_much_taller_than_wide(box, column):
    assert is_column(box) == column


def test_a_column_cut_at_the_gap_between_its_glyphs_is_joined_whole():
    """vertical_name 000035: 工装 and 裤 boxed apart, one under the other."""
    pieces = [piece(100, 20, 124, 70), piece(20, 30, 90, 44), piece(101, 74, 125, 98), piece(20, 50, 90, 64)]
    out = stacked_columns(pieces)
    assert len(out) == 3
    assert ((100, 20, 125, 98), (100, 20, 125, 98)) in out
    assert pieces[1] in out and pieces[3] in out


@pytest.mark.parametrize("pieces", [
    [piece(20, 30, 90, 44), piece(20, 50, 90, 64), piece(20, 70, 90, 84)],   # lying lines one under another
    [piece(100, 20, 124, 44), piece(100, 80, 124, 104)],                      # two glyphs far apart
    [piece(100, 20, 124, 44), piece(101, 47, 112, 58)],                       # a glyph over a smaller one
    [piece(100, 20, 124, 44), piece(130, 47, 154, 71)],                       # side by side, not stacked
])
def test_pieces_that_are_no_column_stay_as_they_were(pieces):
    assert stacked_columns(pieces) == pieces


def test_a_columns_small_label_over_its_value_joins_the_column():
    """vertical_name 000072: 品名 set small over 男式休闲裤, its box holding the top of 男 the column's box lacks."""
    label, value = piece(257, 94, 288, 145), piece(251, 173, 299, 329)
    assert stacked_columns([label, value]) == [((251, 94, 299, 329), (251, 94, 299, 329))]


def test_two_glyphs_one_under_the_other_that_make_no_column_stay_apart():
    pieces = [piece(100, 20, 130, 50), piece(100, 52, 130, 70)]  # 30 wide, 50 tall together: under COLUMN_ASPECT
    assert stacked_columns(pieces) == pieces


def test_a_column_is_laid_down_with_its_top_first():
    crop = np.zeros((60, 20, 3), np.uint8)
    crop[:20] = 10   # the top glyph
    crop[40:] = 200  # the bottom one
    lying = lying_crop(crop)
    assert lying.shape == (20, 60, 3) and lying.flags["C_CONTIGUOUS"]
    assert (lying[:, :20] == 10).all() and (lying[:, 40:] == 200).all()


class BoxesDetector:
    """Finds the boxes it is given, as the text detector boxed a column beside lying rows."""

    def __init__(self, boxes) -> None:
        self.boxes = boxes

    def detect(self, image: np.ndarray):
        return [(box, 0.9) for box in self.boxes]


class ShapeRecognizer:
    """Reads every crop as '行' and keeps the crops' shapes."""

    def __init__(self) -> None:
        self.shapes: list[tuple[int, int]] = []

    def recognize(self, crops, vocabulary: str = ""):
        from inference.reading.ocr.recognizer import Recognized

        self.shapes += [c.shape[:2] for c in crops]
        return [Recognized("行", 0.9, (0.9,)) for _ in crops]


def test_the_read_stage_joins_a_cut_column_and_hands_the_recognizer_its_crop_lying():
    """Without it the column's two pieces went to the recognizer standing, each scaled to a line's height."""
    from inference.reading.rectify import make_upright
    from inference.reading.text_lines import read_lines

    image = np.full((240, 240, 3), 235, np.uint8)
    rows = [(20.0, 30.0 + 26 * k, 160.0, 46.0 + 26 * k) for k in range(6)]
    for x1, y1, x2, y2 in rows:
        image[int(y1) + 3:int(y2) - 3, int(x1) + 2:int(x2) - 2:6] = 30
    column = [(190.0, 30.0, 222.0, 100.0), (190.0, 104.0, 222.0, 136.0)]  # 工装 / 裤, cut apart by the detector
    for top in (31, 66, 105):  # three glyphs down the column, 30 px each with a gap between
        image[top:top + 30:4, 193:219] = 30
        image[top:top + 30, 195:217:5] = 30
    frame = np.full((320, 320, 3), 120, np.uint8)
    frame[40:280, 40:280] = image
    upright = make_upright(frame, (40.0, 40.0, 280.0, 280.0), 0.0, margin=0.0)
    recognizer = ShapeRecognizer()
    read = read_lines(BoxesDetector(rows + column), recognizer, upright, [], ambiguous=False)
    assert len(read.pieces.boxes) == 7, read.pieces.boxes[6:]
    joined = [b for b in read.pieces.boxes if b[0] >= 180]
    assert len(joined) == 1 and joined[0][3] - joined[0][1] >= 100
    assert joined[0][1] <= 30.0 - 0.3 * 32 + 0.01 and joined[0][3] >= 136.0 + 0.3 * 32 - 0.01  # room at both ends
    lying = [shape for shape in recognizer.shapes if shape[1] > 2 * shape[0] and shape[0] >= 32 and shape[1] >= 100]
    assert any(h >= 32 and w >= 3 * h for h, w in recognizer.shapes), recognizer.shapes
    assert lying


def test_a_column_is_a_line_of_its_own_and_never_parts_the_row_beside_it():
    """A column whose middle falls between a label's and its value's (group_rows takes boxes by their middles) would
    part them, and the label would lose its value."""
    from inference.reading.ocr.recognizer import Recognized
    from inference.reading.text_lines import join_rows

    boxes = [(20.0, 100.0, 80.0, 116.0), (250.0, 38.0, 280.0, 179.0), (90.0, 101.0, 200.0, 117.0)]
    reads = [Recognized(t, 0.99, (0.99,) * len(t)) for t in ("执行标准：", "男式休闲裤", "GB/T 2664-2017")]
    assert [line.text for line in join_rows(boxes, reads)] == ["男式休闲裤", "执行标准： GB/T 2664-2017"]


def test_a_column_that_reads_as_a_label_alone_takes_no_line_after_it():
    from inference.reading.ocr.recognizer import Recognized
    from inference.reading.text_lines import join_rows

    boxes = [(250.0, 20.0, 270.0, 60.0), (20.0, 30.0, 120.0, 46.0)]
    reads = [Recognized(t, 0.99, (0.99,) * len(t)) for t in ("品名", "LANXI")]
    assert [line.text for line in join_rows(boxes, reads)] == ["LANXI"]
