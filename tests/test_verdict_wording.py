"""How the reasons write numbers an operator compares: a value below a threshold never reads as the threshold."""

from __future__ import annotations

import pytest

from inference.reading.types import TagReading
from inference.reading.verdict import SMALL_TEXT_PX, Check, Verdict, _small_print_check, small_px


@pytest.mark.parametrize("text_px, expected", [(14.2, "14"), (20.4, "20"), (20.5, "20"), (20.6, "20.6"),
                                               (20.96, "20.9"), (20.99, "20.9")])
def test_a_line_height_below_the_threshold_is_never_written_as_the_threshold(text_px, expected):
    assert text_px < SMALL_TEXT_PX and small_px(text_px) == expected


def test_the_print_size_reason_does_not_contradict_itself():
    """History, s5150 000081: 'print too small to read surely (21 px lines, needs 21)', read '21 px' in orange
    against '>= 21 px lines'."""
    tag = TagReading(0, (0.0, 0.0, 100.0, 200.0), text_px=20.7)
    doubt = Check("size", 0, "S", "M", 0.72, "ocr", Verdict.REVIEW, "size uncertain")
    check = _small_print_check(tag, [doubt], "")
    assert check is not None and check.read == "20.7 px"
    assert "(20.7 px lines, needs 21)" in check.reason
