"""Two fields under one label ('颜色/号型：咖啡色/155/84A'): each label gets its part of the value, cut where every part
reads as a value of its field (a 号型 keeps its own slash); nothing is parted where no cut, or more than one, fits."""

from __future__ import annotations

import pytest

from inference.reading.fields import extract_fields, lines_from_text
from inference.reading.slash_pairs import parted


def values(text: str) -> dict[str, str]:
    return {name: reading.value for name, reading in extract_fields(lines_from_text(text)).items()}


@pytest.mark.parametrize(("text", "expected"), [
    # fifteenth_b 000035: the colour was never found ('/'), the size was '咖哈色/155/84A'
    ("色号/号型：咖哈色/155/84A", {"color": "咖哈色", "size": "155/84A"}),
    ("号型/颜色：155/84A/咖啡色", {"size": "155/84A", "color": "咖啡色"}),
    ("颜色/尺码：浅蓝/S", {"color": "浅蓝", "size": "S"}),
    ("品名/货号：男士夹克/H71373062", {"product_name": "男士夹克", "style_number": "H71373062"}),
    ("等级/执行标准：合格品/GB/T 2660-2017", {"grade": "合格品", "standard": "GB/T 2660-2017"}),
    ("执行标准/安全类别：FZ/T 73005-2021/GB 18401-2010 B类", {"standard": "FZ/T 73005-2021", "safety_category": "GB 18401-2010 B类"}),
])
def test_each_label_of_a_slash_pair_gets_its_part(text, expected):
    found = values(text)
    assert {name: found.get(name) for name in expected} == expected


def test_a_value_that_parts_no_way_or_two_ways_is_not_parted():
    assert parted(["color", "size"], "浅蓝%S") is None  # no slash read between them
    assert parted(["color", "size"], "浅蓝/%S") is None  # the size is no size
    assert parted(["color", "product_name"], "浅蓝/衬衫") == [(0, 2), (3, 5)]
    assert parted(["color", "product_name"], "浅蓝/衬衫/外套") is None  # two cuts fit: which is which is unknown
    assert parted(["color", "address"], "浅蓝/杭州") is None  # a field with no grammar here
    assert values("品名/Name：女士羊毛针织衫") == {"product_name": "女士羊毛针织衫"}  # a bilingual label is one label
