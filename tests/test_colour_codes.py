"""A colour printed with the maker's colour code beside its name ('09#藏青', '藏青（C09）', 'C09 藏青') is the recipe's
colour when the recipe names the colour alone: the code is the maker's number for it, not part of the name. Read as
a whole, '09#藏青' was 'color uncertain … expected 藏青' on good tags (the twenty-fifth session's colour_code set)."""

from __future__ import annotations

import pytest

from inference.reading import TagReading, Verdict, judge, parse_recipe
from inference.reading.evidence import _colour_name
from inference.reading.fields import lines_from_text

from tests.one_tag import one_tag

TAG = "品名：男士夹克\n货号：QL9018923\n{colour}\n号型：160/96B\n成分：棉 60% 羊毛 40%"


def verdict_of(colour: str, line: str) -> Verdict:
    detections = one_tag()
    text = TAG.format(colour=line)
    reading = TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=lines_from_text(text, 0.98),
                         reread_lines=lines_from_text(text, 0.98))
    return judge(parse_recipe(f'[fields]\ncolor = "{colour}"\n'), detections, [reading]).verdict


@pytest.mark.parametrize(("read", "name"), [
    ("09#藏青", "藏青"), ("C09 藏青", "藏青"), ("藏青（C09）", "藏青"), ("藏青 C09", "藏青"), ("12号 藏青", "藏青"),
    ("藏青", "藏青"), ("C09", "C09"),  # a code alone is no colour name
])
def test_a_colour_code_beside_the_name_is_not_part_of_it(read, name):
    assert _colour_name("藏青", read) == name


def test_a_recipe_holding_the_code_keeps_it():
    assert _colour_name("C09 藏青", "C10 藏青") == "C10 藏青"


@pytest.mark.parametrize("line", ["色号：09#藏青", "颜色：藏青（C09）", "颜色：C09 藏青", "颜色/色号：09 藏青"])
def test_the_recipes_colour_printed_with_its_code_is_ok(line):
    assert verdict_of("藏青", line) is Verdict.OK


@pytest.mark.parametrize(("colour", "line"), [
    ("黑色", "色号：09#藏青"), ("黑色", "颜色：藏青（C09）"), ("C10 藏青", "颜色：C09 藏青"), ("C10 藏青", "色号：09#藏青"),
])
def test_another_colour_or_another_code_is_not_ok(colour, line):
    assert verdict_of(colour, line) is not Verdict.OK
