"""Small check boxes (issue 14): at 15-20 px lines a run's boxes are ~8 px, and blur thickens their 1 px outline to
a third of the box each side. Measured a fixed share in from the box's sides, an empty box then reads a third full
and a thin tick a quarter; measured inside the run's own outline, as the share of the inside a stroke crosses, an
empty box reads empty and a ticked one stands out, and a run with no box ticked still names no size."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from inference.imageio import read_image
from inference.reading.ocr.models import find_ocr_models
from inference.reading.ocr.recognizer import TextRecognizer
from inference.reading.size_marks import _box_fill, _outline, _RunBox, marked_size

FONT = cv2.FONT_HERSHEY_SIMPLEX
DATA = Path(__file__).parent / "data" / "size_marks"
RUN = [["155/68Y", "160/72Y"], ["165/76Y", "170/80Y"], ["175/84Y", "180/88Y"], ["185/92Y"]]


@pytest.fixture(scope="module")
def recognizer():
    return TextRecognizer.open(find_ocr_models("fp32", "gb2312").rec, "onnxruntime-cpu", 1, squeeze=0.7)


def small_boxed_run(ticked: str | None, blur: float = 0.8, scale: int = 3):
    """A run with a 10 px check box (1 px outline) before each size on 18 px lines, drawn `scale` times larger and
    shrunk, then blurred; the box before `ticked` carries a tick of 1 px strokes. Returns the image and the row
    boxes a text detector would give."""
    s, line = scale, 18 * scale
    image = np.full((20 * s + line * len(RUN), 200 * s, 3), 255, np.uint8)
    (_, cap), _ = cv2.getTextSize("1", FONT, 0.38 * s, 2)
    rows = []
    for r, sizes in enumerate(RUN):
        base = 10 * s + line * r + (line + cap) // 2
        x = 8 * s
        for size in sizes:
            side = 8 * s
            top = base - cap + (cap - side) // 2
            cv2.rectangle(image, (x, top), (x + side - 1, top + side - 1), (0, 0, 0), s)
            if size == ticked:
                cv2.line(image, (x + 2 * s, top + side // 2), (x + side // 2 - s, top + side - 2 * s), (0, 0, 0), s)
                cv2.line(image, (x + side // 2 - s, top + side - 2 * s), (x + side + s, top - s), (0, 0, 0), s)
            x += side + 3 * s
            (w, _), _ = cv2.getTextSize(size, FONT, 0.38 * s, 2)
            cv2.putText(image, size, (x, base), FONT, 0.38 * s, (0, 0, 0), 2, cv2.LINE_AA)
            x += w + 10 * s
        rows.append((4.0, (10 * s + line * r) / s, x / s, (10 * s + line * (r + 1)) / s))
    small = cv2.resize(image, (image.shape[1] // s, image.shape[0] // s), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (0, 0), blur), rows


@pytest.mark.parametrize("ticked", ["185/92Y", "160/72Y", "170/80Y"])
def test_a_tick_in_a_small_blurred_box_marks_its_size(recognizer, ticked):
    image, rows = small_boxed_run(ticked)
    found = marked_size(image, rows, recognizer)
    assert found is not None and found.value == ticked
    assert found.entries == 7


@pytest.mark.parametrize("blur", [0.6, 0.8, 1.0])
def test_a_small_run_with_no_box_ticked_names_no_size(recognizer, blur):
    image, rows = small_boxed_run(None, blur)
    assert marked_size(image, rows, recognizer) is None


def test_an_empty_blurred_box_reads_empty_inside_its_outline():
    """A 10 px box whose blurred outline is 2-3 px each side: a quarter in from its sides the measure still takes in
    the outline's rounded inside corners; inside the outline nothing crosses it."""
    ink = np.zeros((10, 10), bool)
    ink[:3], ink[-3:], ink[:, :2], ink[:, -2:] = True, True, True, True
    ink[3, 2], ink[-4, -3] = True, True  # the outline's inside corners, rounded by blur
    assert _outline(ink) == 3
    fill, found = _box_fill(ink, [(0, 0, 10, 10)], 0, 8.0, _RunBox(10, 10, 0, 3))
    assert found and fill == 0.0
    ticked = ink.copy()
    for y, x in ((7, 3), (6, 4), (5, 5), (4, 6), (3, 7)):  # one thin stroke corner to corner
        ticked[y, x] = True
    fill, _ = _box_fill(ticked, [(0, 0, 10, 10)], 0, 8.0, _RunBox(10, 10, 0, 3))
    assert fill >= 0.75  # it crosses the inside side to side, though it inks under half of it


@pytest.mark.parametrize(("name", "rows", "ruled"), [
    # twentieth 000038 (the tag's whole upright crop): ~8 px boxes blurred, the empty ones measured 0.4 full a quarter
    # in from their sides
    ("ticked_small_boxes_blurred.png", [(29.0, 151.5, 143.2, 167.5), (29.0, 167.5, 143.2, 183.5),
                                        (27.0, 183.5, 142.1, 199.2), (27.4, 199.8, 89.1, 214.2)], False),
    # twentieth 000039 (the run's part of the crop): a thin tick in a 12 px box inked a quarter of its inside
    # (z 3.97 against the 4 needed)
    ("ticked_small_boxes_thin_tick.png", [(47.7, 20.0, 213.7, 40.5), (47.9, 40.7, 215.7, 61.6),
                                          (47.8, 61.6, 215.8, 82.8), (48.1, 82.8, 140.8, 104.8)], True),
])
def test_a_photographed_small_ticked_box_marks_its_size(recognizer, name, rows, ruled):
    image = read_image(DATA / name)
    reads = ["155/68Y 160/72Y", "165/76Y 170/80Y", "175/84Y 180/88Y", "185/92Y"]
    found = marked_size(image, rows, recognizer, letter=False, ruled=ruled, reads=reads)
    assert found is not None and found.value == "185/92Y"
