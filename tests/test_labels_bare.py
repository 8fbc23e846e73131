"""Labels printed without a colon in the middle of a line (labels.py `_bare_label_at`)."""

from __future__ import annotations

import numpy as np
import pytest

from inference.detections import Detections
from inference.reading import TagReading, Verdict, judge, parse_recipe
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
