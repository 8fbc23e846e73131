"""A chart's row of sizes marked by a frame: the rules above and below the garment's row drawn heavier than the
grid's (size_marks._framed_row), as a chart may frame its column (size_marks._framed_column)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from inference.reading.ocr.models import find_ocr_models
from inference.reading.ocr.recognizer import TextRecognizer
from inference.reading.size_marks import marked_size

FONT = cv2.FONT_HERSHEY_SIMPLEX
SCALE, THICK = 0.6, 1
RUN = ["155/100A", "160/104A", "165/108A", "170/112A", "175/116A"]
ROW = 30  # px from one rule to the next


@pytest.fixture(scope="module")
def recognizer():
    return TextRecognizer.open(find_ocr_models("fp32", "gb2312").rec, "onnxruntime-cpu", 1, squeeze=0.7)


def chart(framed: str | None, frame: int = 3):
    """A ruled chart: a letter column, the 号型 column, a measure column; the row of `framed` between rules `frame`
    px thick (the grid's are 1 px) and its print bold. Returns the image and the 号型 cells' boxes."""
    image = np.full((60 + ROW * (len(RUN) + 1), 360, 3), 255, np.uint8)
    walls = (20, 70, 200, 260, 330)
    top = 20
    (_, cap), _ = cv2.getTextSize("0", FONT, SCALE, THICK)
    boxes = []
    for i in range(len(RUN) + 2):
        y = top + ROW * i
        heavy = framed is not None and i in (RUN.index(framed) + 1, RUN.index(framed) + 2)
        cv2.line(image, (walls[0], y), (walls[-1], y), (0, 0, 0), frame if heavy else 1)
    for x in walls:
        cv2.line(image, (x, top), (x, top + ROW * (len(RUN) + 1)), (0, 0, 0), 1)
    for i, (letter, size) in enumerate(zip(["XS", "S", "M", "L", "XL"], RUN)):
        base = top + ROW * (i + 1) + (ROW + cap) // 2
        bold = THICK + (1 if size == framed else 0)
        cv2.putText(image, letter, (walls[0] + 12, base), FONT, SCALE, (0, 0, 0), bold, cv2.LINE_AA)
        cv2.putText(image, size, (walls[1] + 20, base), FONT, SCALE, (0, 0, 0), bold, cv2.LINE_AA)
        cv2.putText(image, str(2 * i + 2), (walls[2] + 20, base), FONT, SCALE, (0, 0, 0), bold, cv2.LINE_AA)
        (w, _), _ = cv2.getTextSize(size, FONT, SCALE, THICK)
        pad = cap // 4 + 1
        boxes.append((float(walls[1] + 20 - pad), float(base - cap - pad), float(walls[1] + 20 + w + pad), float(base + pad)))
    return cv2.GaussianBlur(image, (3, 3), 0.6), boxes


@pytest.mark.parametrize("framed", ["160/104A", "170/112A"])
def test_a_row_framed_by_heavier_rules_is_the_marked_size(recognizer, framed):
    """Twentyfourth_b 000080: the chart frames the garment's row (S, 160/104A) with rules three times the grid's
    and sets its print bold; the bold print alone stands out too little from its siblings, and the frame's rules were
    taken out of the row as the grid's are: no mark was read."""
    image, boxes = chart(framed)
    found = marked_size(image, boxes, recognizer, letter=False, ruled=True, reads=RUN)
    assert found is not None and found.value == framed


def test_a_chart_whose_rules_are_all_alike_marks_no_row(recognizer):
    """Every rule of the grid's weight: no row framed, no answer (REVIEW stays)."""
    image, boxes = chart(None)
    assert marked_size(image, boxes, recognizer, letter=False, ruled=True, reads=RUN) is None
