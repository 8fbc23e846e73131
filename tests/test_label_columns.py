"""A tag folded between its labels and their values, outlined as a label column and a value column: one tag, judged
on the value column's values; a second tag is never taken for a column."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from inference.detections import Detections
from inference.reading.fields import lines_from_text
from inference.reading.label_columns import bare_labels, label_and_value_columns, labels_alone, unlabelled
from inference.reading.recipe import parse_recipe
from inference.reading.tag_parts import one_tag_in_parts
from inference.reading.types import BarcodeReading, FieldReading, OcrLine, TagReading
from inference.reading.verdict import Verdict, judge

RECIPE = parse_recipe("""\
[counts]
hangtag = 1
barcode = 1

[fields]
product_name = "男士夹克"
style_number = "KX-09897-01"
color = "宝蓝"
size = "2XL"
grade = "一等品"
price = "¥1599.00"

[barcode]
expected = "6947446626859"
""")
EAN = BarcodeReading("EAN-13", "6947446626859", True, (700, 560, 900, 640))
LABEL_PANEL, VALUE_PANEL = (240.0, 300.0, 770.0, 900.0), (640.0, 220.0, 1040.0, 750.0)  # overlapping at the fold
VALUES = {"product_name": "男士夹克", "style_number": "KX-09897-01", "color": "宝蓝", "size": "2XL", "grade": "一等品",
          "price": "¥1599.00"}


def lines(*texts: str) -> tuple[OcrLine, ...]:
    return tuple(OcrLine(text, 0.98, (0, 30 * k, 200, 30 * k + 24)) for k, text in enumerate(texts))


def tag(index: int, box, texts: tuple[str, ...], values: dict[str, str], barcodes=()) -> TagReading:
    fields = {name: FieldReading(name, value, 0.97, "ocr", value) for name, value in values.items()}
    return TagReading(index, box, fields, tuple(barcodes), ocr_lines=lines(*texts))


def detections(*boxes) -> Detections:
    rows = [*boxes, EAN.xyxy]
    return Detections(np.array(rows, np.float32), np.full(len(rows), 0.9), np.array([0] * len(boxes) + [1]),
                      ("hangtag", "barcode", "qr_code"))


def label_panel(index: int = 0, values: dict[str, str] | None = None) -> TagReading:
    # the heading 产品信息 cut at the fold leaves 产品 on this panel, which a reader may take for a product name
    return tag(index, LABEL_PANEL, ("Vel", "品名", "产品", "款号", "颜色·", "规格", "面料…", "等级", "吊牌价"),
               {"product_name": "产品"} if values is None else values)


def value_panel(index: int = 1) -> TagReading:
    return tag(index, VALUE_PANEL, ("eline", "信息", "男士夹克", "KX-09897-01", "宝蓝", "2XL", "一等品", "¥1599.00"),
               VALUES, barcodes=(EAN,))


@pytest.mark.parametrize(("text", "bare", "all_bare"), [
    ("品名", {"product_name"}, True),
    ("执行标准 ·········", {"standard"}, True),
    ("面料…", {"composition"}, True),
    ("等级：", {"grade"}, True),
    ("品名：男士夹克", set(), False),
    ("男士夹克", set(), True),
])
def test_a_label_with_nothing_after_it_is_bare(text, bare, all_bare):
    assert bare_labels(lines(text)) == (bare, all_bare)


def test_a_tag_folded_between_labels_and_values_is_one_tag_judged_on_its_values():
    verdict = judge(RECIPE, detections(LABEL_PANEL, VALUE_PANEL), [label_panel(), value_panel()])
    assert verdict.verdict is Verdict.OK, verdict.reasons
    count = next(c for c in verdict.checks if c.subject == "count:hangtag")
    assert count.read == "1 (one tag boxed in two parts)"
    (joined,), taken = one_tag_in_parts(RECIPE, [label_panel(), value_panel()])
    assert taken == 1 and joined.xyxy == (240.0, 220.0, 1040.0, 900.0) and joined.barcodes == (EAN,)
    assert "产品" not in {line.text for line in joined.ocr_lines}  # the heading's fragment is no product name
    columns = label_and_value_columns(RECIPE, value_panel(0), label_panel(1))
    assert columns is not None and columns[1].fields["style_number"].value == "KX-09897-01"


def test_a_wrong_value_in_the_value_column_is_still_ng():
    wrong = tag(1, VALUE_PANEL, ("eline", "信息", "男士夹克", "KX-09897-01", "宝蓝", "2XL", "一等品", "¥1299.00"),
                {**VALUES, "price": "¥1299.00"}, barcodes=(EAN,))
    verdict = judge(RECIPE, detections(LABEL_PANEL, VALUE_PANEL), [label_panel(), wrong])
    assert verdict.verdict is Verdict.NG and verdict.reasons == ("price ¥1299.00 ≠ expected ¥1599.00",)


def test_labels_beside_a_whole_tag_are_not_its_label_column():
    """A tag whose values another tag hides shows its labels; the tag over it reads its own labels and values, so it
    is no value column, and the frame is not judged as one tag."""
    whole = tag(1, VALUE_PANEL, ("品名：男士夹克", "款号：KX-09897-01", "颜色：宝蓝", "规格：2XL", "等级：一等品",
                                 "吊牌价：¥1599.00"), VALUES, barcodes=(EAN,))
    assert not unlabelled(whole.ocr_lines)
    assert label_and_value_columns(RECIPE, label_panel(), whole) is None
    verdict = judge(RECIPE, detections(LABEL_PANEL, VALUE_PANEL), [label_panel(values={}), whole])
    assert verdict.verdict is not Verdict.OK


def test_a_panel_reading_a_value_after_a_label_is_no_label_column():
    texts = ("品名", "款号", "颜色：宝蓝", "规格", "等级", "吊牌价")
    assert label_and_value_columns(RECIPE, tag(0, LABEL_PANEL, texts, {"color": "宝蓝"}), value_panel()) is None


def test_a_few_labels_are_no_label_column():
    few = tag(0, LABEL_PANEL, ("品名", "款号"), {})
    assert label_and_value_columns(RECIPE, few, value_panel()) is None


def test_a_box_reading_only_field_labels_beside_the_tag_is_held_for_review_not_a_second_tag():
    """p20 000072: a wide 合格证 boxed as its label column (品名 款号 颜色 … each alone on its line) and, apart, the rest
    of it (price panel and code): judged NG for "2 hangtags". Labels with no value and no code are no tag of their own,
    nor certainly none (a second tag's labels may show from under another): REVIEW, and nothing judged on them."""
    recipe = parse_recipe('[counts]\nhangtag = 1\n[fields]\nproduct_name = "女士羊毛针织衫"\nstyle_number = "FS-159249"\n'
                          'color = "藏青"\nprice = "¥339.00"\n')
    labels = TagReading(1, (100.0, 150.0, 250.0, 590.0), ocr_lines=lines_from_text("品名\n款号\n颜色\n零售价"))
    rest = TagReading(0, (400.0, 150.0, 990.0, 680.0), ocr_lines=lines_from_text("零售价：¥339.00\n品名：女士羊毛针织衫"),
                      fields={"price": FieldReading("price", "¥339.00", 0.99, "ocr", "零售价：¥339.00")})
    detections = Detections(np.array([rest.xyxy, labels.xyxy], np.float32), np.array([0.7, 0.3], np.float32),
                            np.array([0, 0]), ("hangtag", "barcode", "qr_code"))
    result = judge(recipe, detections, [rest, labels])
    count = next(check for check in result.checks if check.subject == "count:hangtag")
    assert count.verdict is Verdict.REVIEW and "box 2 reads only field labels" in count.reason
    assert not any(reason.startswith("tag 2") for reason in result.reasons)
    assert labels_alone(recipe, [rest, labels]) == [1]
    # labels with a value after them, or a code, are a tag's own print: a second tag, NG
    valued = replace(labels, ocr_lines=lines_from_text("品名：女士羊毛针织衫\n款号\n颜色\n零售价"))
    assert labels_alone(recipe, [rest, valued]) == []
    assert judge(recipe, detections, [rest, valued]).verdict is Verdict.NG
    coded = replace(labels, barcodes=(BarcodeReading("EAN-13", "6951451204711", True, (120.0, 500.0, 240.0, 560.0)),))
    assert labels_alone(recipe, [rest, coded]) == []
    # alone in view, labels are all there is: no box to set them beside
    assert labels_alone(recipe, [labels]) == []
