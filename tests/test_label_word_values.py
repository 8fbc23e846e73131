"""A label's word is never a field's value: a row of column heads over an unlabelled line of values reads as a label
followed by the next head ('颜色 SIZE'), and the head is no colour (twentieth_b 000042, spec_line: 'color SIZE ≠
expected 咖啡色' judged a good tag NG)."""

from __future__ import annotations

import pytest

from inference.reading.fields import extract_fields, lines_from_text


@pytest.mark.parametrize(("text", "expected"), [
    ("颜色 SIZE\n货号", {}),                                # the heads' row: no colour read
    ("颜色 Colour\n黑色", {"color": "黑色"}),               # a bilingual label alone takes the line under it
    ("尺码 SIZE\nM", {"size": "M"}),
    ("SIZE M", {"size": "M"}),
    ("颜色：黑色", {"color": "黑色"}),
    ("品名 PRODUCT\n货号 STYLE NO", {}),
])
def test_a_value_that_is_a_labels_word_is_no_value(text, expected):
    fields = extract_fields(lines_from_text(text))
    assert {name: reading.value for name, reading in fields.items() if name != "brand"} == expected
