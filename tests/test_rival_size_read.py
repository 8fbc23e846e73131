"""A second guess for the recipe's size under a character another read shows surely as another size's is doubt.

fifteenth_b 000040 (halftone_photo, 170/84Y printed): the first read '规络 170/841' allowed 175/84Y, its 5 a 3.5 % guess
under the 0; the unsqueezed second read showed '规络 170/84Y', the 0 at 98 %. A recipe of 175/84Y passed."""

from __future__ import annotations

from inference.reading.rival_reads import rival_size_read_surely
from inference.reading.types import OcrLine


def line(text: str, confidences: list[float]) -> OcrLine:
    return OcrLine(text, min(confidences), (0.0, 0.0, 1.0, 1.0), char_confidences=tuple(confidences))


FIRST = line("规络 170/841", [0.58, 0.58, 0.8, 0.97, 0.99, 0.86, 1.0, 0.84, 1.0, 0.46])
AGAIN = line("规络 170/84Y", [0.89, 0.6, 0.71, 0.98, 1.0, 0.98, 1.0, 1.0, 1.0, 0.63])


def test_another_size_read_surely_where_it_differs_is_shown():
    assert rival_size_read_surely("175/84Y", 0.8, [FIRST, AGAIN]) == "170/84Y"


def test_a_rival_read_unsurely_where_it_differs_is_not():
    unsure = line("规络 170/84Y", [0.89, 0.6, 0.71, 0.98, 1.0, 0.55, 1.0, 1.0, 1.0, 0.63])
    assert rival_size_read_surely("175/84Y", 0.8, [FIRST, unsure]) is None  # the 0 at 55 %: a slip it may be
    assert rival_size_read_surely("175/84Y", 0.8, [FIRST]) is None  # '170/841' is no size printed so


def test_the_expected_size_and_other_systems_are_no_rivals():
    assert rival_size_read_surely("170/84Y", 0.8, [AGAIN]) is None
    assert rival_size_read_surely("XL", 0.8, [AGAIN]) is None
    assert rival_size_read_surely("XL", 0.8, [line("尺码 XS", [0.9, 0.9, 0.9, 0.95, 0.9])]) == "XS"
    assert rival_size_read_surely("XL", 0.8, [line("尺码 XXL", [0.9, 0.9, 0.9, 0.9, 0.9, 0.9])]) is None  # not its length
