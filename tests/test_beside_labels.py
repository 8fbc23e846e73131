"""A value the text detector missed beside a label it found alone (issue 14): a size 'L' printed a few character
widths right of 规格 was never boxed, so the size was 'not found' on a tag printed right. The strip beside the label
is searched on its own; what it holds is evidence of the expected value only, never of a difference."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest

from inference.detections import Detections
from inference.imageio import read_image
from inference.reading.beside_labels import _strip, label_alone
from inference.reading.recipe import parse_recipe
from inference.reading.verdict import Verdict, judge

CLASSES = ("hangtag", "barcode", "qr_code")
# s5153 000037 (training.tagsets, design brand_band): the tag's box in the crop, its barcode's box
TAG = (24.0, 24.0, 656.0, 394.0)
BARCODE = (445.2, 237.2, 632.8, 306.5)
# the rest of the tag's recipe, all read on this tag before the change: only the size was missing
FIELDS = ('product_name = "运动短裤"\nstyle_number = "ZS864138A"\ncolor = "咖啡色"\ncomposition = "桑蚕丝 100%"\n'
          'standard = "GB/T 2660-2017"\nsafety_category = "GB 18401-2010 A类"\ngrade = "一等品"\nprice = "¥549.00"\n')


@functools.lru_cache(maxsize=None)
def reader():
    from inference.reading.reader import TagReader

    return TagReader.open(precision="fp32")


def frame():
    image = read_image(Path(__file__).parent / "data" / "beside_labels" / "brand_band_size_alone.jpg")
    detections = Detections(np.array([TAG, BARCODE], np.float32), np.array([0.9, 0.9], np.float32), np.array([0, 1]), CLASSES)
    return image, detections


def recipe(size: str):
    return parse_recipe(f'[counts]\nhangtag = 1\n[fields]\n{FIELDS}size = "{size}"\n')


def test_a_label_alone_and_the_strip_beside_it() -> None:
    assert label_alone("规格", "size") and label_alone("尺码：", "size")
    assert not label_alone("规格 L", "size") and not label_alone("颜色", "size")
    label = (100.0, 50.0, 150.0, 70.0)  # 20 px high
    assert _strip(label, [label], (400, 600)) == (152, 45, 310, 75)  # 8 line heights, a margin above and below
    beside = (200.0, 52.0, 260.0, 69.0)  # the next box on the row bounds it
    assert _strip(label, [label, beside], (400, 600))[2] == 200
    below = (160.0, 80.0, 300.0, 100.0)  # a box on the next row does not
    assert _strip(label, [label, below], (400, 600))[2] == 310
    assert _strip(label, [label, (155.0, 50.0, 200.0, 70.0)], (400, 600)) is None  # no room for a character


def test_a_size_the_detector_left_unboxed_beside_its_label_is_read_there() -> None:
    image, detections = frame()
    readings = reader().read(image, detections, recipe=recipe("L"))
    verdict = judge(recipe("L"), detections, readings)
    assert verdict.verdict is Verdict.OK, verdict.reasons
    (tag,) = [t for t in readings if t.is_tag]
    assert [line.text.split() for line in tag.confirm_only_lines] == [["规格", "L"]]
    assert any(note.startswith("read beside its label") for note in tag.notes)
    assert tag.to_record()["confirm_only_lines"][0]["text"] == "规格 L"


def test_a_read_beside_a_label_never_shows_a_difference() -> None:
    """The recipe expects M where L is printed: the strip's read is no evidence against M (a ruled line may read
    as a letter there), so the size stays not found and the frame REVIEW, as without the strip."""
    image, detections = frame()
    readings = reader().read(image, detections, recipe=recipe("M"))
    verdict = judge(recipe("M"), detections, readings)
    assert verdict.verdict is Verdict.REVIEW, verdict.reasons
    assert "size not found (尺码)" in verdict.reasons


@pytest.mark.parametrize("text", ["规格：", "规格 /"])
def test_a_label_with_only_punctuation_after_it_is_alone(text: str) -> None:
    assert label_alone(text, "size")


def test_a_label_boxed_off_the_crop_has_a_strip_on_it_or_none() -> None:
    # set 5153 000052, sharpened: a first read's label mapped into the grown read's crop at x -67..-30 (270 px wide);
    # its strip began left of the crop and the slice was empty, which OpenCV's resize refused with an exception
    shape = (729, 270)
    left, top, right, bottom = _strip((-67.5, 425.3, -30.3, 439.6), [(-67.5, 425.3, -30.3, 439.6)], shape)
    assert (left, right) == (0, 85) and 0 <= top < bottom <= 729  # what of it lies on the crop
    assert _strip((-200.0, 425.3, -160.0, 439.6), [], shape) is None  # nothing of its reach on the crop
    left, top, right, bottom = _strip((-40.0, 100.0, 10.0, 120.0), [], shape)
    assert 0 <= left < right <= 270 and 0 <= top < bottom <= 729
    assert _strip((10.0, 740.0, 60.0, 760.0), [], shape) is None  # below the crop
