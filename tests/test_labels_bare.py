"""Labels printed without a colon in the middle of a line (labels.py `_bare_label_at`)."""

from __future__ import annotations

import numpy as np
import pytest

from inference.detections import Detections
from inference.reading import TagReading, Verdict, judge, parse_recipe
from inference.reading.types import OcrLine
from inference.reading.fields import lines_from_text
from inference.reading.labels import split_labeled


@pytest.mark.parametrize(("text", "fields"), [
    # eleventh bar_lines: fields parted by bars, a space or nothing after each label, the bars read or lost
    ("品名 半身裙 | 款号 A0657B | 颜色 墨绿", ["product_name", "style_number", "color"]),
    ("品名半身裙 款号A0657B 颜色墨绿", ["product_name", "style_number", "color"]),
    ("规格180/92A 等级优等品 品|产品标准GB/T2664-2017", ["size", "grade", "standard"]),
    # a part of the content is no other field, a label word at the start of a value is the value, and a label
    # without a value after it is not taken
    ("成分 面料 棉 60% 里料 涤纶 100%", ["composition"]),
    ("品名 颜色拼接T恤", ["product_name"]),
    ("品名 半身裙 颜色", ["product_name"]),
    # a table's header row (tenth two_row_table): labels over the values of the row below, none of them a value
    ("款号 颜色 号型 等级", ["style_number"]),
    # glued to a value its own grammar closes (nineteenth_b 000083, the bar before 产品标准 lost): a grade, a size, a
    # standard's number and year, a safety class end where the next label begins; an open value (a name) does not
    ("规格165/88Y|等级一等品产品标准GB/T14272-2021", ["size", "grade", "standard"]),
    ("规格165/88Y等级一等品", ["size", "grade"]),
    ("执行标准GB/T 14272-2021安全类别GB18401-2010B类", ["standard", "safety_category"]),
    ("品名羽绒服执行标准GB/T 14272-2021", ["product_name"]),
])
def test_a_label_after_another_field_s_value_needs_no_colon(text: str, fields: list[str]) -> None:
    assert [field for field, *_ in split_labeled(text)] == fields


def test_the_last_field_of_a_bar_parted_line_is_read_against_another_job() -> None:
    # eleventh 000064: 颜色 墨绿 at the end of the line, another job's 姜黄 asked: was "color not found"
    recipe = parse_recipe('[counts]\nhangtag = 1\n[fields]\ncolor = "姜黄"\n')
    lines = lines_from_text("品名半身裙 款号A0657B 颜色墨绿", 0.99)
    reading = TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=lines, reread_lines=lines)
    boxes = Detections(np.array([[10, 10, 200, 300]], np.float32), np.array([0.9], np.float32), np.array([0]),
                       ("hangtag", "barcode", "qr_code"))
    assert judge(recipe, boxes, [reading]).verdict is Verdict.NG


def _line(text: str, faint: dict[int, float] | None = None) -> OcrLine:
    chars = tuple((faint or {}).get(i, 0.999) for i in range(len(text)))
    return OcrLine(text, min(chars), (10.0, 40.0, 190.0, 60.0), chars)


def test_a_safety_class_read_surely_is_borne_out_by_a_read_of_the_whole_value_with_a_faint_year() -> None:
    """s6001 000105 against a recipe of C类: B类 printed. The first read and the re-read both show B类 surely, but
    the re-read's whole value had a faint year digit (76 %): that read's doubt about the whole value held the sure
    class beside it in doubt (REVIEW; the first read's sure class, a hair surer than its whole value, was the
    difference it showed). Both reads say B, so the class differs (NG); the tag's own class is OK."""
    text = "安全类别 GB 18401-2010 B类"
    first, reread = _line(text, {text.index("18401"): 0.99}), _line(text, {text.index("2010") + 1: 0.76})
    boxes = Detections(np.array([[10, 10, 200, 300]], np.float32), np.array([0.9], np.float32), np.array([0]),
                       ("hangtag", "barcode", "qr_code"))
    reading = TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=(first,), reread_lines=(reread,))
    other = parse_recipe('[counts]\nhangtag = 1\n[fields]\nsafety_category = "GB 18401-2010 C类"\n')
    own = parse_recipe('[counts]\nhangtag = 1\n[fields]\nsafety_category = "GB 18401-2010 B类"\n')
    assert judge(other, boxes, [reading]).verdict is Verdict.NG
    assert judge(own, boxes, [reading]).verdict is Verdict.OK
