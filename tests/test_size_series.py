"""The 号型 a printed run puts at its marked place (size_series.py), where the marked entry itself is misread: the
run's order and its siblings' reads name it, and the marked entry's own reads must bear it out."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import pytest

from inference.reading.matching import Found, compare
from inference.reading.size_marks import marked_size
from inference.reading.size_series import placed_size, run_places, size_in_order

FONT = cv2.FONT_HERSHEY_SIMPLEX
SCALE, THICK = 0.75, 2
RUN = ["155/80Y", "160/84Y", "165/88Y", "170/92Y", "175/96Y"]


def column(n: int, skip: int | None = None) -> list[tuple[float, float, float, float]]:
    """A chart column's cell boxes, one size each, 20 px apart; `skip`: a cell the text detector did not box."""
    return [(100.0, 40.0 + 20 * i, 160.0, 56.0 + 20 * i) for i in range(n) if i != skip]


def test_a_misread_marked_cell_takes_the_size_its_place_in_the_column_names():
    """Twentyfourth 000005: the chart's marked row bold on a shaded band, its 号型 read '175/06T' on its own and
    '175/067' in its line; its siblings read 155/80Y 160/84Y 165/88Y and '170/02'. The fifth place of that series is
    175/96Y, and the marked reads lie nearer it than any other size of the run."""
    reads = ["155/80Y", "160/84Y", "165/88Y", "170/02", "175/067"]
    placed = placed_size(column(5), reads, 4, ["175/06T", "175/067"])
    assert placed is not None and placed.value == "175/96Y" and placed.support == 1.0


def test_a_read_nearer_another_size_of_the_run_places_nothing():
    """Twentyfourth 000008: the marked cell read '195/80R' on its own, four slips from 175/96Y, the size at its place,
    and from 160/84Y, its sibling misread '100/61Y': the read does not bear the place out. 155/80Y, two slips from it,
    is no rival: the first place reads it whole, and a run prints each size once. With the marked line's own read
    '175/00T' (three slips from 175/96Y, more from every rival) the place is borne out."""
    reads = ["155/80Y", "100/61Y", "165/88Y", "170/92Y", "175/00T"]
    assert placed_size(column(5), reads, 4, ["195/80R"]) is None
    placed = placed_size(column(5), reads, 4, ["195/80R", "175/00T"])
    assert placed is not None and placed.value == "175/96Y" and placed.read == "175/00T"
    # where no place reads 155/80Y whole, it stays the nearer rival
    assert placed_size(column(5), ["150/00Y", "160/84Y", "165/88Y", "170/92Y", "175/00T"], 4, ["195/80R"]) is None


def test_siblings_that_fit_no_series_place_nothing():
    """Twentyfourth 000016: '155/021', '163/100Y', '170/101Y', '175/108Y' — no two read a step of a 号型 series
    apart at their places, so the run's order names no size."""
    places, at = run_places(column(5), ["155/021", "10/007", "163/100Y", "170/101Y", "175/108Y"], 1)
    assert size_in_order(places, at) is None


def test_a_cell_the_detector_missed_keeps_its_place():
    """A column whose second cell the text detector did not box: the gap of two spacings keeps its place, and the
    marked last cell is the fifth size, not the fourth."""
    boxes = column(5, skip=1)
    reads = ["155/80Y", "165/88Y", "170/92Y", "175/96T"]
    places, at = run_places(boxes, reads, 3)
    assert places == ["155/80Y", None, "165/88Y", "170/92Y", "175/96T"] and at == 4
    placed = placed_size(boxes, reads, 3, ["175/96T"])
    assert placed is not None and placed.value == "175/96Y"


def test_the_body_type_is_the_one_most_siblings_read():
    """Twentyfourth 000044: '175/100E' beside 180/104B and 185/108B: the series' body type is B."""
    reads = ["185/926", "170/008", "175/100E", "180/104B", "185/108B"]
    places, at = run_places(column(5), reads, 1)
    value, support, every = size_in_order(places, at)
    assert value == "170/96B" and every[0] == "165/92B" and support == 1.0


def test_the_place_names_what_is_marked_not_what_the_recipe_expects():
    """A defect tag marking 170/92Y for a job of 175/96Y: its place names 170/92Y, surely, and the comparison
    with the recipe finds a different size (NG), not the expected one."""
    reads = ["155/80Y", "160/84Y", "165/88Y", "170/02", "175/96Y"]
    placed = placed_size(column(5), reads, 3, ["170/02", "170/02"])
    assert placed is not None and placed.value == "170/92Y"
    assert compare("175/96Y", placed.value, placed.support, 0.8) is Found.DIFFERENT


@dataclass
class _Read:
    text: str
    confidence: float
    char_confidences: tuple[float, ...]


class MisreadingRecognizer:
    """Reads every crop as one fixed text (a bold entry's filled counters), as the recognizer's read would be."""

    def __init__(self, text: str) -> None:
        self.text = text

    def recognize(self, images, squeeze: float = 1.0):
        return [_Read(self.text, 0.9, (0.9,) * len(self.text)) for _ in images]


def chart_column(marked: str):
    """A chart's column of 号型, one cell a line, the marked one's cell shaded and its print bold. Returns the image
    and each line's box."""
    image = np.full((60 + 40 * len(RUN), 260, 3), 255, np.uint8)
    (_, cap), _ = cv2.getTextSize("0", FONT, SCALE, THICK)
    boxes = []
    for i, size in enumerate(RUN):
        base = 50 + 40 * i
        if size == marked:
            cv2.rectangle(image, (10, base - cap - 12), (250, base + 12), (150, 150, 150), -1)
        cv2.putText(image, size, (30, base), FONT, SCALE, (0, 0, 0), THICK + (2 if size == marked else 0), cv2.LINE_AA)
        (w, _), _ = cv2.getTextSize(size, FONT, SCALE, THICK)
        pad = cap // 4 + 1
        boxes.append((30.0 - pad, float(base - cap - pad), 30.0 + w + pad, float(base + pad)))
    return cv2.GaussianBlur(image, (3, 3), 0.6), boxes


@pytest.mark.parametrize(("marked", "misread", "line", "expected"), [
    ("175/96Y", "175/06T", "175/067", "175/96Y"),  # twentyfourth 000005
    ("175/96Y", "175/06T", "175/06T", "175/96Y"),  # read alike twice, but printed so by no tag (a girth of 6, body T)
    ("160/84Y", "100/04T", "100/64Y", "160/84Y"),  # twentyfourth 000015's kind: the height's 6 closed up too
    ("175/96Y", "155/80R", "195/80R", None),  # reads pointing at another size of the run: no answer
])
def test_a_marked_entry_misread_is_the_size_at_its_place(marked, misread, line, expected):
    """The mark stands out (a shaded band, bold print) but its entry reads as no size of the run, or as another than
    its line's read: before, that was no answer ('which one is marked is not read'); now the run's order names it,
    where the reads bear it out."""
    image, boxes = chart_column(marked)
    reads = [line if size == marked else size for size in RUN]
    found = marked_size(image, boxes, MisreadingRecognizer(misread), letter=False, reads=reads)
    if expected is None:
        assert found is None
    else:
        assert found is not None and found.value == expected and (misread in found.read or line in found.read)


def test_a_size_read_as_printed_stays_the_answer():
    """A marked entry read as a well-formed size its line reads too is the answer as before, even off the series:
    the run's order only stands in for a misread."""
    image, boxes = chart_column("170/92Y")
    found = marked_size(image, boxes, MisreadingRecognizer("170/92Y"), letter=False, reads=RUN)
    assert found is not None and found.value == "170/92Y" and found.read == "170/92Y"


def test_a_size_line_far_over_the_chart_is_no_place_of_its_column():
    """Twentyfourth 000075: '尺码：185/88A' printed eight rows over a chart of 165/72A … 185/88A whose marked last row
    reads '165/80A'. Counted as the column's first place (eight cells the detector 'missed' between), it fitted no
    series and the place stood at 3 of 4; it is no place of the run, and the chart alone names 185/88A."""
    rows = [(100.0, 40.0, 180.0, 58.0)] + [(100.0, 208.0 + 19 * i, 160.0, 224.0 + 19 * i) for i in range(5)]
    reads = ["尺码:185/88A", "165/72A", "170/76A", "175/80A", "180/84A", "165/80A"]
    placed = placed_size(rows, reads, 5, ["185/", "165/80A"])
    assert placed is not None and placed.value == "185/88A" and placed.support == 1.0
    places, at = run_places(rows, reads, 5)
    assert at == 4 and places[0] == "165/72A"
