"""A tag folded between its labels and their values, outlined as a label column and a value column: one tag, judged
on the value column's values; a second tag is never taken for a column."""

from __future__ import annotations

import numpy as np
import pytest

from inference.detections import Detections
from inference.reading.label_columns import bare_labels, label_and_value_columns, unlabelled
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
