"""A letter size printed letter-spaced or full-width ('Ｘ Ｓ', read 'X S') is the whole size, never its last letter.

The sixteenth set's full-width tag printed ＸＳ; the recognizer read its two em-wide letters as 'X S', the reader
dropped the lone X as an English label's remnant and found the recipe's S standing alone after the space: a tag
of XS passed a job of S."""

from __future__ import annotations

import numpy as np
import pytest

from inference.detections import Detections
from inference.reading import TagReading, Verdict, judge, parse_recipe
from inference.reading.fields import lines_from_text
from inference.reading.matching import Found, haystacks, search
from inference.reading.repairs import drop_label_remnant


def judged(size: str, text: str) -> Verdict:
    tags = Detections(np.array([[10, 10, 200, 300]], np.float32), np.array([0.9], np.float32), np.array([0]),
                      ("hangtag", "barcode", "qr_code"))
    reading = TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=lines_from_text(text, 0.97))
    return judge(parse_recipe(f'[counts]\nhangtag = 1\n[fields]\nsize = "{size}"\n'), tags, [reading]).verdict


@pytest.mark.parametrize(("value", "kept"), [
    ("X S", "XS"), ("X X L", "XXL"), ("Size X L", "XL"), ("X L (170/92A)", "XL (170/92A)"),
    ("Size M", "M"), ("Sz XL", "XL"), ("S", "S"), ("Size S M L", "S M L"),  # a label's remnant is still dropped
])
def test_a_letter_spaced_size_is_kept_whole_and_a_labels_remnant_dropped(value, kept):
    assert drop_label_remnant("size", value) == kept


@pytest.mark.parametrize(("expected", "line", "found"), [
    ("S", "尺码：X S", Found.ABSENT), ("L", "尺码：X X L", Found.ABSENT), ("L", "号型 X L", Found.ABSENT),
    ("XS", "尺码：X S", Found.MATCH), ("XL", "Size: X L", Found.MATCH),
    ("S", "尺码：S", Found.MATCH), ("M", "号型：170/92A M", Found.MATCH), ("S", "S 码", Found.MATCH),
    ("B类", "GB 18401-2010 B类", Found.MATCH),
])
def test_a_short_code_one_space_from_a_lone_letter_is_a_letter_of_a_spaced_word(expected, line, found):
    assert search(expected, haystacks(lines_from_text(line))).found is found


@pytest.mark.parametrize(("size", "text", "verdict"), [
    ("S", "尺码：Ｘ Ｓ", Verdict.NG), ("L", "尺码：Ｘ Ｌ", Verdict.NG), ("XS", "尺码：Ｘ Ｓ", Verdict.OK),
    ("XL", "规格：X L", Verdict.OK), ("S", "尺码：Ｓ", Verdict.OK),
])
def test_a_full_width_size_read_letter_by_letter_is_judged_whole(size, text, verdict):
    assert judged(size, text) is verdict
