"""A 号型 read as the expected height and girth with a digit where its body type letter stands ('160/884' for 160/88A)
is the expected size with its letter misread, not another size: no girth runs to a third digit past the expected
two. In a slanted face (twentysixth_b 000044, 18-px lines) a good 160/88A tag read '号型：160/884' at 99 % in every
read was judged NG."""

from __future__ import annotations

from inference.reading import TagReading, Verdict, judge, parse_recipe
from inference.reading.evidence import body_type_read_as_digit
from inference.reading.fields import lines_from_text

from tests.one_tag import one_tag

TAG = "品名：羽绒服\n款号：W87497B\n号型：{size}\n等级：合格品"


def verdict_of(read: str, expected: str = "160/88A") -> Verdict:
    lines = lines_from_text(TAG.format(size=read), 0.99)
    reading = TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=lines, reread_lines=lines)
    return judge(parse_recipe(f'[fields]\nsize = "{expected}"\n'), one_tag(), [reading]).verdict


def test_the_body_type_read_as_a_digit_is_doubt_not_another_size():
    assert verdict_of("160/884") is Verdict.REVIEW  # the A read as 4
    assert verdict_of("180/1048", "180/104B") is not Verdict.NG  # the B read as 8 after a three-digit girth


def test_another_height_girth_or_body_type_read_surely_is_still_another_size():
    assert verdict_of("165/884") is Verdict.NG  # another height, whatever the letter reads as
    assert verdict_of("160/84A") is Verdict.NG
    assert verdict_of("160/88B") is Verdict.NG
    assert verdict_of("160/88A") is Verdict.OK


def test_only_a_digit_in_the_body_types_place_after_the_expected_height_and_girth_is_the_slip():
    assert body_type_read_as_digit("160/88A", "160/884")
    assert body_type_read_as_digit("180/104B", "180/1048")
    assert not body_type_read_as_digit("160/88A", "160/88B")  # a letter: another body type
    assert not body_type_read_as_digit("160/88A", "160/844")  # the girth differs
    assert not body_type_read_as_digit("160/88A", "160/88")  # the letter lost: as long as the expected only
    assert not body_type_read_as_digit("M", "4")  # no 号型
    assert not body_type_read_as_digit("110/56", "110/564")  # a child's 号型 has no body type to misread
