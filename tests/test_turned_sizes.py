"""A letter size set across a vertical column (纵中横), read on a tag turned a quarter: its glyphs lie on their side
in the turned line and read as another size ('XS' read 'S'); read again turned back, they say what is printed."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from inference.detections import Detections
from inference.reading.ocr.models import find_ocr_models
from inference.reading.ocr.recognizer import TextRecognizer
from inference.reading.recipe import parse_recipe
from inference.reading.types import FieldReading, TagReading
from inference.reading.verdict import Verdict, judge
from inference.reading.verify import other_sizes_turned, turned_size_reads

CROP = Path(__file__).parent / "data" / "turned_size" / "xs_across_column.png"


@pytest.fixture(scope="module")
def recognizer():
    return TextRecognizer.open(find_ocr_models("fp32", "gb2312").rec, "onnxruntime-cpu", 1, squeeze=0.7)


def test_a_size_across_a_column_reads_as_printed_when_turned_back(recognizer):
    """s6001 000100 (vertical_columns): the line '尺码 XS' of the turned tag, 'XS' on its side, reads '尺码S' at 95 %;
    the part from the size on, turned back, reads 'XS'."""
    crop = cv2.imread(str(CROP))
    assert recognizer.recognize([crop], squeeze=1.0)[0].text.endswith("S")
    assert turned_size_reads(crop, "尺码S", recognizer) == ["XS"]
    assert turned_size_reads(crop, "尺码", recognizer) == []  # no size read: nothing to turn
    assert other_sizes_turned(crop, "尺码S", recognizer) == ["XS"]
    # fourth 000038: a logo's initial M, a letter alone, read M turned too: only a size after its label counts, and
    # only a size its line's read does not show
    assert other_sizes_turned(crop, "S", recognizer) == []
    assert other_sizes_turned(crop, "尺码XS", recognizer) == []


RECIPE = """\
[counts]
hangtag = 1

[fields]
size = "{size}"
color = "浅灰"
"""
BOX = (0.0, 0.0, 400.0, 600.0)


def tag(size_read: str, turned: tuple[str, ...]) -> TagReading:
    fields = {"size": FieldReading("size", size_read, 0.95, "ocr", f"尺码{size_read}"),
              "color": FieldReading("color", "浅灰", 0.99, "ocr", "颜色浅灰")}
    return TagReading(0, BOX, fields, turned_sizes=turned)


def judged(expected: str, size_read: str, turned: tuple[str, ...]):
    detections = Detections([BOX], [0.9], [0], ("hangtag", "barcode", "qr_code"))
    return judge(parse_recipe(RECIPE.format(size=expected)), detections, [tag(size_read, turned)])


def test_a_size_the_turned_read_contradicts_is_doubt_and_one_it_shows_is_verified():
    """A recipe of S passed the tag printing XS (its line read 'S'): with the turned read of XS it is REVIEW, naming
    both reads. The recipe of XS is verified by the turned read alone. Without a turned read, nothing changes."""
    wrong = judged("S", "S", ("XS",))
    assert wrong.verdict is Verdict.REVIEW and "as XS from its glyphs turned a quarter" in wrong.reasons[0]
    assert judged("XS", "S", ("XS",)).verdict is Verdict.OK
    assert judged("S", "S", ()).verdict is Verdict.OK
    assert judged("S", "S", ("S",)).verdict is Verdict.OK
    assert judged("L", "S", ("XS",)).verdict is Verdict.NG  # neither read is the recipe's: the difference stands
