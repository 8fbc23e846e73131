"""A shoe's tag names its materials by part (QB/T 2673 鞋类产品标识): the upper (帮面, 鞋面材料) is its composition, the
lining (内里) and the sole (外底, 鞋底, 大底) are parts no recipe judges. Before these labels were known the upper's
line gave nothing and the lining's (`里料`, or `内里` misread one character off 面料) was taken for the composition
(twentyfifth_b 000014: `羊皮革` read for a recipe's `头层牛皮革`)."""

from __future__ import annotations

import pytest

from inference.reading.fields import extract_fields
from inference.reading.types import OcrLine


def _fields(texts: list[str]) -> dict[str, str]:
    lines = [OcrLine(t, 0.99, (0.0, 20.0 * k, 300.0, 20.0 * k + 18)) for k, t in enumerate(texts)]
    return {name: reading.value for name, reading in extract_fields(lines).items()}


@pytest.mark.parametrize(("upper", "lining", "sole"), [
    ("帮面材质：牛皮革", "内里材质：纺织物", "外底材质：橡胶"),
    ("帮面：头层牛皮革", "内里：猪皮革", "鞋底：橡胶/EVA"),
    ("鞋面材料：超细纤维合成革", "里料：网布", "大底材料：EVA"),
    ("帮面材料: 纺织物/合成革", "内里材料: 网布", "鞋底材质: TPR"),
])
def test_the_upper_is_a_shoes_composition_and_the_lining_and_sole_are_not(upper, lining, sole):
    fields = _fields(["品名：休闲鞋", "货号：D5377-01", "尺码：39", upper, lining, sole, "等级：合格品"])
    assert fields["composition"] == upper.split("：")[-1].split(": ")[-1]
    assert fields["size"] == "39" and fields["grade"] == "合格品"


def test_a_lining_read_one_character_off_never_stands_for_the_upper_read_whole():
    fields = _fields(["品名：男士皮鞋", "帮面：头品牛龙羊", "塑料：羊皮举", "大底材料：TK"])
    assert fields["composition"] == "头品牛龙羊"  # the upper's line, however misread: never the lining's 羊皮革


@pytest.mark.parametrize(("line", "size"), [("鞋码：245", "245"), ("码数：39", "39"), ("鞋码: 42", "42")])
def test_a_shoe_size_under_its_own_label(line, size):
    assert _fields(["品名：运动鞋", line, "帮面：网布"])["size"] == size


def test_a_garments_face_fabric_and_lining_read_as_before():
    assert _fields(["品名：羽绒服", "面料：锦纶 100%", "里料：聚酯纤维 100%"])["composition"] == "锦纶 100%"
    assert _fields(["成分：面料 棉 60% 里料 涤纶 100%"])["composition"] == "面料 棉 60% 里料 涤纶 100%"
