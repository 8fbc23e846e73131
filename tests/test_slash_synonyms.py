"""Two names of one field joined by a slash ('色号/颜色：', '颜色/色号：', '货号/款号：') are one label, not a pair of
fields: read label by label, the first name's value was the slash alone and the colour read '/' (the twenty-fifth
session's colour_code set, 000055: 'color not found', read '/')."""

from __future__ import annotations

import pytest

from inference.reading.fields import extract_fields, lines_from_text
from inference.reading.slash_pairs import parted


@pytest.mark.parametrize(("line", "name", "value"), [
    ("颜色/色号：白色", "color", "白色"),
    ("色号/颜色：藏青（C09）", "color", "藏青（C09）"),
    ("货号/款号：KX-203188", "style_number", "KX-203188"),
    ("颜色/号型：咖啡色/155/84A", "color", "咖啡色"),  # two fields still parted
])
def test_two_names_of_one_field_read_the_whole_value(line, name, value):
    fields = extract_fields(lines_from_text("品名：男士夹克\n" + line, 0.98))
    assert fields[name].value.replace("(", "（").replace(")", "）") == value


def test_the_whole_value_goes_to_each_name_of_one_field():
    assert parted(["color", "color"], "藏青") == [(0, 2), (0, 2)]
