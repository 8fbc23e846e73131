"""Print parted into cells: rules printed between fields keep them apart, and a label in a cell's
corner is parsed with the value printed under it (a grid's row of labels over its row of values)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from inference.reading.fields import extract_fields
from inference.reading.lines import group_rows
from inference.reading.reading_order import labels_over_values
from inference.reading.ruling import vertical_rules
from inference.reading.types import OcrLine

# three cells of one ruled row, 100 px tall, each with a value (a text box 30 px high) in it
CELL_BOXES = [(20.0, 45.0, 90.0, 75.0), (130.0, 45.0, 260.0, 75.0), (300.0, 45.0, 360.0, 75.0)]


def _grid(rules_x: list[int], rule_rows: tuple[int, int] = (10, 110), width: int = 420) -> np.ndarray:
    gray = np.full((130, width), 235, np.uint8)
    for x in rules_x:
        cv2.line(gray, (x, rule_rows[0]), (x, rule_rows[1]), 40, 2)
    cv2.line(gray, (5, rule_rows[0]), (width - 5, rule_rows[0]), 40, 2)
    cv2.line(gray, (5, rule_rows[1]), (width - 5, rule_rows[1]), 40, 2)
    for x1, y1, x2, y2 in CELL_BOXES:  # glyph-like strokes inside each box, none taller than the box
        for x in range(int(x1) + 6, int(x2) - 4, 12):
            cv2.line(gray, (x, int(y1) + 6), (x + 3, int(y2) - 6), 30, 2)
    return gray


def test_rules_between_cells_part_the_boxes_of_one_row() -> None:
    gray = _grid([110, 280])
    walls = vertical_rules(gray, CELL_BOXES)
    xs = sorted(round(x) for x, _top, _bottom in walls)
    assert any(abs(x - 110) <= 2 for x in xs) and any(abs(x - 280) <= 2 for x in xs)
    assert group_rows(CELL_BOXES) == [[0, 1, 2]]  # without the rules: one line over three cells
    assert group_rows(CELL_BOXES, walls=walls) == [[0], [1], [2]]


def test_glyph_strokes_are_no_rules() -> None:
    gray = _grid([])
    walls = vertical_rules(gray, CELL_BOXES)
    assert group_rows(CELL_BOXES, walls=walls) == [[0, 1, 2]]


def test_a_rule_above_or_below_the_row_does_not_part_it() -> None:
    """A rule that ends above the row's print (a cell border of the row above) stands between no two of its boxes."""
    gray = np.full((200, 420), 235, np.uint8)
    cv2.line(gray, (110, 0), (110, 40), 40, 2)
    boxes = [(20.0, 120.0, 90.0, 150.0), (130.0, 120.0, 260.0, 150.0)]
    walls = vertical_rules(gray, boxes)
    assert walls and group_rows(boxes, walls=walls) == [[0, 1]]


def test_too_few_boxes_or_a_blank_crop_have_no_rules() -> None:
    assert vertical_rules(np.full((50, 50), 255, np.uint8), [(0.0, 0.0, 10.0, 10.0)]) == ()
    assert vertical_rules(np.full((130, 420), 235, np.uint8), CELL_BOXES) == ()


def _line(text: str, box: tuple[float, float, float, float]) -> OcrLine:
    return OcrLine(text, 0.99, box)


def test_a_row_of_labels_in_cell_corners_is_parsed_with_the_values_under_them() -> None:
    lines = [
        _line("品名", (20, 10, 60, 30)), _line("货号", (130, 10, 170, 30)), _line("颜色", (300, 10, 340, 30)),
        _line("风衣", (20, 40, 70, 70)), _line("W30040A", (130, 40, 240, 70)), _line("花灰", (300, 40, 350, 70)),
    ]
    ordered = labels_over_values(lines)
    assert [line.text for line in ordered] == ["品名", "风衣", "货号", "W30040A", "颜色", "花灰"]
    fields = extract_fields(ordered)
    assert {name: fields[name].value for name in ("product_name", "style_number", "color")} == {
        "product_name": "风衣", "style_number": "W30040A", "color": "花灰"}


def test_a_label_whose_next_line_is_its_value_keeps_it() -> None:
    lines = [_line("颜色", (20, 10, 60, 30)), _line("藏青", (20, 40, 70, 70)), _line("尺码", (20, 80, 60, 100)),
             _line("XL", (20, 110, 50, 140))]
    assert labels_over_values(lines) == lines


@pytest.mark.parametrize(
    "under",
    [
        (200, 40, 260, 70),  # far to the right: another cell's value
        (20, 150, 70, 180),  # far below: not this cell's
    ],
)
def test_a_line_not_under_the_label_is_not_taken(under) -> None:
    lines = [_line("品名", (20, 10, 60, 30)), _line("颜色", (300, 10, 340, 30)), _line("风衣", under)]
    assert [line.text for line in labels_over_values(lines)][:2] == ["品名", "颜色"]
