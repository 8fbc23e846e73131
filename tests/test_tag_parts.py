"""One tag the detector outlined as two (an open two-panel tag): judged as one tag, never two tags as one."""

from __future__ import annotations

import numpy as np

from inference.detections import Detections
from inference.reading.recipe import parse_recipe
from inference.reading.tag_parts import JOINED_NOTE, one_tag_in_parts, touching
from inference.reading.types import BarcodeReading, FieldReading, TagReading
from inference.reading.verdict import Verdict, judge

RECIPE_TEXT = """\
[counts]
hangtag = 1
barcode = 1

[fields]
product_name = "羊毛针织衫"
style_number = "AB2301-05"
color = "藏青"
price = "¥259.00"
grade = "一等品"

[barcode]
expected = "6901234567892"
"""
RECIPE = parse_recipe(RECIPE_TEXT)
EAN = BarcodeReading("EAN-13", "6901234567892", True, (330, 300, 520, 360))
LEFT, RIGHT = (0.0, 0.0, 300.0, 600.0), (296.0, 4.0, 590.0, 604.0)  # two panels meeting at the fold


LABELS = {"product_name": "品名", "style_number": "款号", "color": "颜色", "price": "零售价", "grade": "等级",
          "composition": "成分", "size": "号型", "safety_category": "安全类别"}


def part(index: int, box, values: dict[str, str], barcodes=(), unlabelled=()) -> TagReading:
    """A box's reading, each field read after its own label on its line (`unlabelled`: read with no label)."""
    fields = {name: FieldReading(name, value, 0.97, "ocr", value if name in unlabelled else f"{LABELS[name]}：{value}")
              for name, value in values.items()}
    return TagReading(index, box, fields, tuple(barcodes))


def boxes(*tags: tuple[float, float, float, float], barcodes: int = 1) -> Detections:
    rows = [*tags] + [EAN.xyxy] * barcodes
    return Detections(np.array(rows, np.float32), np.full(len(rows), 0.9), np.array([0] * len(tags) + [1] * barcodes),
                      ("hangtag", "barcode", "qr_code"))


def test_two_panels_of_one_tag_are_judged_as_that_tag():
    left = part(0, LEFT, {"product_name": "羊毛针织衫", "style_number": "AB2301-05", "color": "藏青"})
    right = part(1, RIGHT, {"price": "¥259.00", "grade": "一等品"}, barcodes=(EAN,))
    verdict = judge(RECIPE, boxes(LEFT, RIGHT), [left, right])
    assert verdict.verdict is Verdict.OK, verdict.reasons
    count = next(c for c in verdict.checks if c.subject == "count:hangtag")
    assert count.read == "1 (one tag boxed in two parts)" and verdict.parts == ((0, 1),)
    (joined,), taken = one_tag_in_parts(RECIPE, [left, right])
    assert taken == 1 and joined.xyxy == (0.0, 0.0, 590.0, 604.0) and any(JOINED_NOTE in n for n in joined.notes)


def test_a_row_of_one_part_read_after_the_other_parts_label_repeats_nothing():
    """A box over the left panel that takes in the right panel's label column reads 成分 beside the left panel's
    product-name row: no share and no fibre, so no composition of its own, and the parts are still one tag."""
    recipe = parse_recipe(RECIPE_TEXT.replace('grade = "一等品"', 'grade = "一等品"\ncomposition = "亚麻 100%"'))
    left = part(0, LEFT, {"product_name": "羊毛针织衫", "style_number": "AB2301-05", "color": "藏青",
                          "composition": "品 polo杉"})
    right = part(1, RIGHT, {"price": "¥259.00", "grade": "一等品", "composition": "亚麻 100%"}, barcodes=(EAN,))
    assert one_tag_in_parts(recipe, [left, right])[1] == 1
    left = part(0, LEFT, {"product_name": "羊毛针织衫", "style_number": "AB2301-05", "composition": "棉 100%"})
    assert one_tag_in_parts(recipe, [left, right])[1] == 0  # a fibre content on each: two tags


def test_values_one_part_holds_without_their_labels_are_the_other_parts_rows_running_on():
    """A wide tag boxed in two: the left box reads the labelled rows, 号型 with the first sizes of a printed run and
    安全类别 with the standard alone; the right box holds the run's marked size and the class 'C类' without their
    labels (p20 000036, NG for '2 hangtags' and 165/76Y). Values read with no label are no second tag's."""
    recipe = parse_recipe(RECIPE_TEXT.replace('grade = "一等品"', 'size = "185/92Y"\nsafety_category = "GB 18401-2010 C类"'))
    left = part(0, LEFT, {"product_name": "羊毛针织衫", "style_number": "AB2301-05", "color": "藏青", "size": "165/76Y",
                          "safety_category": "GB 18401-2010"})
    right = part(1, RIGHT, {"price": "¥259.00", "size": "185/92Y", "safety_category": "GB 18401-2010 C类"}, barcodes=(EAN,),
                 unlabelled=("size", "safety_category"))
    assert one_tag_in_parts(recipe, [left, right])[1] == 1
    # the same values each read after its own label: a second tag printing its own rows
    right = part(1, RIGHT, {"price": "¥259.00", "size": "185/92Y", "safety_category": "GB 18401-2010 C类"}, barcodes=(EAN,))
    assert one_tag_in_parts(recipe, [left, right])[1] == 0


def test_a_wrong_value_on_either_part_still_makes_the_tag_ng():
    left = part(0, LEFT, {"product_name": "羊毛针织衫", "style_number": "AB2301-05", "color": "藏青"})
    right = part(1, RIGHT, {"price": "¥199.00", "grade": "一等品"}, barcodes=(EAN,))
    verdict = judge(RECIPE, boxes(LEFT, RIGHT), [left, right])
    assert verdict.verdict is Verdict.NG and verdict.reasons == ("price ¥199.00 ≠ expected ¥259.00",)


def test_two_tags_side_by_side_stay_two_tags():
    """Each prints its own labels (and its own code): a second tag of the job, or of another, is NG."""
    first = part(0, LEFT, {"product_name": "羊毛针织衫", "style_number": "AB2301-05", "price": "¥259.00"}, barcodes=(EAN,))
    second = part(1, RIGHT, {"product_name": "羊毛针织衫", "color": "藏青", "grade": "一等品"})
    verdict = judge(RECIPE, boxes(LEFT, RIGHT), [first, second])
    assert verdict.verdict is Verdict.NG and "2 hangtags, expected 1" in verdict.reasons
    other = BarcodeReading("EAN-13", "6901234567885", True, (330, 300, 520, 360))
    a = part(0, LEFT, {"product_name": "羊毛针织衫", "style_number": "AB2301-05"}, barcodes=(EAN,))
    b = part(1, RIGHT, {"price": "¥259.00", "grade": "一等品"}, barcodes=(other,))
    assert one_tag_in_parts(RECIPE, [a, b])[1] == 0  # a code on each: two tags


def test_parts_that_add_nothing_together_or_lie_apart_are_not_joined():
    left = part(0, LEFT, {"product_name": "羊毛针织衫", "style_number": "AB2301-05", "color": "藏青"})
    blank = part(1, RIGHT, {})
    assert one_tag_in_parts(RECIPE, [left, blank])[1] == 0  # the other box verifies nothing more
    apart = (400.0, 0.0, 700.0, 600.0)
    right = part(1, apart, {"price": "¥259.00", "grade": "一等品"}, barcodes=(EAN,))
    assert one_tag_in_parts(RECIPE, [left, right])[1] == 0
    two = parse_recipe(RECIPE_TEXT_TWO)
    right = part(1, RIGHT, {"price": "¥259.00", "grade": "一等品"}, barcodes=(EAN,))
    assert one_tag_in_parts(two, [left, right])[1] == 0  # a job of two tags in view: each box is a tag


RECIPE_TEXT_TWO = """\
[counts]
hangtag = 2

[fields]
price = "¥259.00"
"""


def test_boxes_touch_when_they_meet_or_overlap_a_little_but_not_when_nested_or_apart():
    assert touching(LEFT, RIGHT)
    assert touching((0, 0, 300, 600), (330, 0, 630, 600))  # a 30-px seam on a 300-px panel
    assert touching((217, 14, 778, 645), (595, 0, 1264, 725))  # loose boxes of a turned booklet overlap
    assert not touching((0, 0, 300, 600), (360, 0, 660, 600))
    assert not touching((0, 0, 300, 600), (20, 20, 280, 300))  # a printed panel inside the tag's box


def test_one_symbol_decoded_from_both_boxes_is_one_code_and_the_same_code_twice_is_two_tags():
    """The code lies where a turned booklet's two loose boxes overlap: both reads decode it. Two tags of the job
    carry the same code at two places."""
    left = part(0, LEFT, {"product_name": "羊毛针织衫", "style_number": "AB2301-05", "color": "藏青"}, barcodes=(EAN,))
    right = part(1, RIGHT, {"price": "¥259.00", "grade": "一等品"}, barcodes=(EAN,))
    (joined,), taken = one_tag_in_parts(RECIPE, [left, right])
    assert taken == 1 and joined.barcodes == (EAN,)  # one symbol, one code
    elsewhere = BarcodeReading("EAN-13", EAN.text, True, (20, 300, 210, 360))
    left = part(0, LEFT, {"product_name": "羊毛针织衫", "style_number": "AB2301-05", "color": "藏青"}, barcodes=(elsewhere,))
    assert one_tag_in_parts(RECIPE, [left, right])[1] == 0


def test_a_line_parsed_as_a_field_it_is_not_does_not_make_a_second_tag():
    """'颜色浅灰' misread '醋色浅灰' and taken for a grade is no grade: the other panel's 一等品 is the tag's only one."""
    left = part(0, LEFT, {"product_name": "羊毛针织衫", "style_number": "AB2301-05", "grade": "醋色浅灰"})
    right = part(1, RIGHT, {"price": "¥259.00", "grade": "一等品"}, barcodes=(EAN,))
    assert one_tag_in_parts(RECIPE, [left, right])[1] == 1
    left = part(0, LEFT, {"product_name": "羊毛针织衫", "style_number": "AB2301-05", "grade": "合格品"})
    assert one_tag_in_parts(RECIPE, [left, right])[1] == 0  # a grade on each: two tags


WHOLE = (0.0, 0.0, 600.0, 600.0)
CHART = (300.0, 350.0, 640.0, 660.0)  # a second box over the whole tag's lower right (a size chart's grid)


def test_a_box_over_the_tag_reading_nothing_of_its_own_is_held_for_review_not_ng():
    """fifteenth_b 000131 (and 000110, three boxes): the detector boxed the tag whole and boxed its size chart
    again. The second box reads the price and the chart's size row — print the box under it reads too — and decodes
    the tag's code at the same place: not a second tag for certain, so REVIEW with the boxes named, not NG
    "2 hangtags"; the second box's own field checks are not listed (its print is the first box's)."""
    whole = part(0, WHOLE, {"product_name": "羊毛针织衫", "style_number": "AB2301-05", "color": "藏青",
                            "price": "¥259.00", "grade": "一等品"}, barcodes=(EAN,))
    chart = part(1, CHART, {"price": "¥259.00", "size": "170/88Y"}, barcodes=(EAN,))
    verdict = judge(RECIPE, boxes(WHOLE, CHART), [whole, chart])
    assert verdict.verdict is Verdict.REVIEW, verdict.reasons
    assert len(verdict.reasons) == 1 and "box 2 over box 1 reads nothing of its own" in verdict.reasons[0]
    assert not any(reason.startswith("tag 2:") for reason in verdict.reasons)


def test_a_box_over_the_tag_with_a_code_or_a_field_of_its_own_is_still_a_second_tag():
    """A second tag lying over the first decodes its own code at its own place, reads a checked field the first does
    not, or reads half a tag's fields: two tags, NG."""
    whole = part(0, WHOLE, {"product_name": "羊毛针织衫", "style_number": "AB2301-05", "price": "¥259.00"}, barcodes=(EAN,))
    own = BarcodeReading("EAN-13", "6901234567892", True, (420, 560, 620, 640))  # the same job's code, elsewhere
    second = part(1, CHART, {"price": "¥259.00"}, barcodes=(own,))
    verdict = judge(RECIPE, boxes(WHOLE, CHART, barcodes=2), [whole, second])
    assert verdict.verdict is Verdict.NG and "2 hangtags, expected 1" in verdict.reasons
    second = part(1, CHART, {"price": "¥259.00", "grade": "一等品"})  # the first box reads no grade
    verdict = judge(RECIPE, boxes(WHOLE, CHART), [whole, second])
    assert verdict.verdict is Verdict.NG and "2 hangtags, expected 1" in verdict.reasons
    # eleventh 000084, fourth 000056 (two tags of the job, their boxes meeting, neither code decoded): each reads
    # the job's fields, the same names and values; a box that reads half a tag's fields carries a tag's print
    twin = part(1, CHART, {"product_name": "羊毛针织衫", "style_number": "AB2301-05", "price": "¥259.00"})
    verdict = judge(RECIPE, boxes(WHOLE, CHART), [whole, twin])
    assert verdict.verdict is Verdict.NG and "2 hangtags, expected 1" in verdict.reasons
    apart = part(1, (700.0, 0.0, 1000.0, 600.0), {"price": "¥259.00"})  # nothing of its own, but not over the first
    verdict = judge(RECIPE, boxes(WHOLE, apart.xyxy), [whole, apart])
    assert verdict.verdict is Verdict.NG and "2 hangtags, expected 1" in verdict.reasons
