"""Check boxes before a run's sizes: a row whose only box is the ticked one (the tick run out of it, the box no longer
a box's shape) still marks its size. And a 号型 whose girth runs on into its body type, read as the digit of its shape,
is mended to the letter."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from inference.reading.ocr.models import find_ocr_models
from inference.reading.ocr.recognizer import TextRecognizer
from inference.reading.size_marks import _cell_reads_other, _read_twice, marked_size, size_read_mended

FONT = cv2.FONT_HERSHEY_SIMPLEX
SCALE, THICK = 0.75, 2
RUN = [["155/80A", "160/84A"], ["165/88A", "170/92A"], ["175/96A"]]


@pytest.fixture(scope="module")
def recognizer():
    return TextRecognizer.open(find_ocr_models("fp32", "gb2312").rec, "onnxruntime-cpu", 1, squeeze=0.7)


def boxed_run(rows: list[list[str]], marked: str, mark: str):
    """A white card printing `rows` of sizes, an empty check box before each; `marked`'s box carries `mark`: 'tick'
    (a tick from inside the box out past its top right corner). Returns the image and the row boxes a text detector
    would give."""
    image = np.full((60 + 50 * len(rows), 520, 3), 255, np.uint8)
    (_, cap), _ = cv2.getTextSize("X", FONT, SCALE, THICK)
    row_boxes = []
    for r, sizes in enumerate(rows):
        base = 50 + 50 * r
        x = 20
        for size in sizes:
            (w, _), _ = cv2.getTextSize(size, FONT, SCALE, THICK)
            top = base - cap
            cv2.rectangle(image, (x, top), (x + cap, base), (0, 0, 0), 1)
            if size == marked and mark == "tick":
                cv2.line(image, (x + 3, top + cap // 2), (x + cap // 2, base - 3), (0, 0, 0), 2)
                cv2.line(image, (x + cap // 2, base - 3), (x + cap + 4, top - 6), (0, 0, 0), 2)
            x += cap + 5
            cv2.putText(image, size, (x, base), FONT, SCALE, (0, 0, 0), THICK, cv2.LINE_AA)
            x += w + 28
        pad = cap // 4 + 1
        row_boxes.append((14.0, float(base - cap - pad), float(x - 20), float(base + pad)))
    return cv2.GaussianBlur(image, (3, 3), 0.6), row_boxes


def test_a_tick_in_a_rows_only_box_marks_its_size(recognizer):
    """Twentieth 000035/000036: the run's last row prints one size, its box ticked, the tick running out of the box;
    the row has no box of a box's shape, yet its box sits where the run's others do."""
    image, rows = boxed_run(RUN, "175/96A", "tick")
    found = marked_size(image, rows, recognizer)
    assert found is not None and found.value == "175/96A"


def test_a_girth_run_on_into_its_body_type_is_mended_to_the_letter():
    assert size_read_mended("180/1048") == "180/104B"  # p20 000018: B read as 8 after a three-figure chest
    assert size_read_mended("165/888") == "165/88B"  # no girth is 888 cm
    assert size_read_mended("160/1044") == "160/104A"
    assert size_read_mended("160/104") == "160/104"  # a girth that may be printed so keeps its figures
    assert size_read_mended("160/148") == "160/148"
    assert size_read_mended("175/96B 180/1048") == "175/96B 180/104B"


def test_a_cells_own_read_run_on_into_its_body_type_is_the_marked_entrys_size():
    """twentyfourth 000041 (size_conversion): the tinted row's 170/96B read 170/968 on its own and in its cell's first
    read; the marked entry's read is mended to 170/96B, and the cell's read, mended alike, names the same size, not
    another (nor the same size twice with its neighbour 175/1008)."""
    reads = ["165/92B", "M L", "170/968", "175/1008", "XXL", "180/104B", "3XL", "185/1088"]
    assert not _cell_reads_other(reads, 2, "170/96B")
    assert not _read_twice(reads, "170/96B")
    assert _cell_reads_other(reads, 3, "170/96B")  # its neighbour's cell names another size, mended or not
    assert _read_twice(reads + ["170/96B"], "170/96B")
