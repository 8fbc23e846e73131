"""A form's options over its size run (option_marks.py), found where a text detector's box or a narrow size would
have hidden them: the box reaching up into the options, a size of one narrow letter under an option wider than it,
a radio button's dot inside its ring, and one entry's box taller than the others' taking in its empty option."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from inference.imageio import read_image
from inference.reading.ocr.models import find_ocr_models
from inference.reading.ocr.recognizer import TextRecognizer
from inference.reading.size_marks import marked_size

FONT = cv2.FONT_HERSHEY_SIMPLEX
SCALE, THICK = 0.75, 2


@pytest.fixture(scope="module")
def recognizer():
    return TextRecognizer.open(find_ocr_models("fp32", "gb2312").rec, "onnxruntime-cpu", 1, squeeze=0.7)


def form_run(sizes: list[str], marked: str, radius: int, box_reach: int = 0, dot: bool = False):
    """A row of sizes, a ring of `radius` over each (its centre over the size's), the marked one inked in (`dot`: a
    dot inked inside its ring, paper between them, as a radio button is); the row's box as a text detector gives it,
    reaching `box_reach` px up into the rings' row. Returns the image and the box."""
    image = np.full((140, 640, 3), 255, np.uint8)
    (_, cap), _ = cv2.getTextSize("X", FONT, SCALE, THICK)
    base, x = 110, 20
    ring_bottom = 0
    for size in sizes:
        (w, _), _ = cv2.getTextSize(size, FONT, SCALE, THICK)
        centre = (x + w // 2, base - cap - 8 - radius)
        ring_bottom = centre[1] + radius
        if size == marked:
            cv2.circle(image, centre, radius // 2 if dot else radius, (0, 0, 0), -1)
        cv2.circle(image, centre, radius, (0, 0, 0), 1)
        cv2.putText(image, size, (x, base), FONT, SCALE, (0, 0, 0), THICK, cv2.LINE_AA)
        x += w + 40
    pad = cap // 4 + 1
    top = min(base - cap - pad, ring_bottom - box_reach)
    return cv2.GaussianBlur(image, (3, 3), 0.6), [(14.0, float(top), float(x - 40 + pad), float(base + pad))]


def test_options_are_looked_for_past_the_print_not_past_the_detectors_box(recognizer):
    """p20 000031: the text detector's box round 'XXL 3XL' reached up into the rings over them, so the window over
    the box cut each ring short (no closed mark: no option) and the run had too few options to count."""
    image, rows = form_run(["S", "M", "L", "XL"], "XL", 11, box_reach=6)
    found = marked_size(image, rows, recognizer)
    assert found is not None and found.value == "XL"


def test_a_one_letter_size_narrower_than_its_option_is_marked_by_it(recognizer):
    """p20 000020: an L under a punched ring wider than it; the window over the L, as wide as the L and half of it
    again each side, cut the ring at its sides (too narrow for an option's shape)."""
    image, rows = form_run(["L", "XL", "XXL"], "L", 17)
    found = marked_size(image, rows, recognizer)
    assert found is not None and found.value == "L"


def test_a_dot_inside_its_option_marks_it_and_is_no_glyph_beside_it(recognizer):
    """p20 000041: a radio button's dot inked inside the ring over 170/80Y, paper between the dot and the ring. The
    dot is ink of a glyph's size level with the ring over the entry, and was taken for a word's glyph beside it: the
    marked option was no option, and the run's mark was not read."""
    image, rows = form_run(["165/76Y", "170/80Y", "175/84Y", "180/88Y"], "170/80Y", 12, dot=True)
    found = marked_size(image, rows, recognizer)
    assert found is not None and found.value == "170/80Y"


def test_an_empty_option_inside_one_entrys_taller_box_is_no_ring_round_it(recognizer):
    """p20 000057 (a generated tag, its upright crop round the run): the text detector boxed '规格 165/76Y' with its
    label's cell, taller than the other sizes' boxes, so the band round it took in the empty ring over 165/76Y and
    the cell's rules: a mark past the print, standing out as far as the inked option of 170/80Y — two marks, no
    answer. Where the run prints options, the ink past the print is the options'; the inked one is the mark (its
    size read '170/802' beside its line's '170/80': placed by the run's order)."""
    image = read_image(Path(__file__).parent / "data" / "size_marks" / "option_run_label_box.png")
    rows = [(30.1, 50.6, 202.4, 93.3), (185.4, 62.7, 262.4, 89.3), (246.5, 61.4, 322.9, 86.3), (308.0, 59.2, 383.3, 84.1),
            (370.6, 57.3, 446.9, 81.9)]
    reads = ["规格 165/76Y1", "170/80", "175/84Y", "180/881", "185/92Y"]
    found = marked_size(image, rows, recognizer, letter=False, ruled=True, reads=reads)
    assert found is not None and found.value == "170/80Y"
