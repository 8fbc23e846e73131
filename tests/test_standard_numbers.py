"""A standard's number read where no label was read before it: the recipe's own standard is the grammar that finds it."""

from __future__ import annotations

import numpy as np
import pytest

from inference.detections import Detections
from inference.reading import TagReading, Verdict, judge, parse_recipe
from inference.reading.types import OcrLine

BOXES = Detections(np.array([[10, 10, 200, 300]], np.float32), np.array([0.9], np.float32), np.array([0]),
                   ("hangtag", "barcode", "qr_code"))


def _tag(*texts: str) -> TagReading:
    lines = tuple(OcrLine(text, 0.995, (10.0, 40.0 + 20 * k, 190.0, 58.0 + 20 * k), (0.995,) * len(text))
                  for k, text in enumerate(texts))
    return TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=lines, reread_lines=lines)


def _judged(standard: str, *texts: str) -> Verdict:
    recipe = parse_recipe(f'[counts]\nhangtag = 1\n[fields]\nstandard = "{standard}"\n')
    return judge(recipe, BOXES, [_tag(*texts)]).verdict


@pytest.mark.parametrize("printed", ["GB/T 22849-2014", "GB/T22849-2014"])
def test_a_standard_printed_without_a_label_read_a_digit_off_the_recipes_is_ng(printed: str) -> None:
    """s6001 000066: every label reversed out of a tiny black box, none read; GB/T 22849-2014 printed, 22846 asked,
    both reads sure of every digit. Before: no read had a candidate after a label, so the difference stayed REVIEW."""
    assert _judged("GB/T 22846-2014", "真丝衬衫", printed, "GB 18401-2010 A类") is Verdict.NG
    assert _judged("GB/T 22849-2014", "真丝衬衫", printed, "GB 18401-2010 A类") is Verdict.OK


def test_another_standard_the_tag_prints_is_no_difference_from_the_recipes() -> None:
    """The safety standard and a second product standard differ from the recipe's in more than a digit or two:
    neither is read as the recipe's standard misprinted."""
    assert _judged("GB/T 22846-2014", "FZ/T 73020-2019", "GB 18401-2010 A类") is not Verdict.NG


@pytest.mark.parametrize("printed", ["68/T22849-2014", "6B/T 22849-2014"])
def test_a_standard_whose_code_was_read_with_a_slip_is_still_a_standard(printed: str) -> None:
    """s6001 000066's first read and the twentieth designs' wrong recipes: GB read 68 or 6B (G as 6), FZ read F2. The
    value was no standard by its grammar (two letters first), so a number one digit off the recipe's stayed REVIEW."""
    assert _judged("GB/T 22846-2014", "真丝衬衫", printed, "GB 18401-2010 A类") is Verdict.NG
    assert _judged("GB/T 22849-2014", "真丝衬衫", printed, "GB 18401-2010 A类") is Verdict.OK


def test_a_product_standard_read_f2_for_fz_is_still_fz() -> None:
    assert _judged("FZ/T 73008-2021", "执行标准：F2/T73005-2021") is Verdict.NG
    assert _judged("FZ/T 73005-2021", "执行标准：F2/T73005-2021") is Verdict.OK
