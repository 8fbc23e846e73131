"""A closed set printed as options to mark (a pre-printed 合格证's 等级 and 安全类别 boxes): the expected option printed
among the others is no evidence; the one marked is. The lines are as the recognizer read the fourteenth set's
tick_form tags (an empty box read 口, the ticked one read as nothing)."""

from __future__ import annotations

import pytest

from inference.reading import OcrLine, TagReading, Verdict, judge, parse_recipe
from inference.reading.fields import lines_from_text
from inference.reading.options import printed_options

from tests.one_tag import one_tag


def verdict_of(fields: str, first: str, again: str | None = None, confidence: float = 0.98):
    reading = TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=lines_from_text(first, confidence),
                         reread_lines=lines_from_text(first if again is None else again, confidence))
    return judge(parse_recipe(fields), one_tag(), [reading])


@pytest.mark.parametrize(
    ("text", "listed", "marked"),
    [
        ("等级：口优等品一等品 口合格品", ("优等品", "一等品", "合格品"), "一等品"),  # 9414 000060: the tick gave no glyph
        ("等级：口优等品 一等品 口合格品", ("优等品", "一等品", "合格品"), "一等品"),  # 9415 000024
        ("等级：☑优等品 □一等品 □合格品", ("优等品", "一等品", "合格品"), "优等品"),  # a tick read as its own glyph
        ("等级：口优等品 口一等品 口合格品", ("优等品", "一等品", "合格品"), None),  # a filled box read as an empty one
        ("等级：囗优等品 一等品 □合格品", ("优等品", "一等品", "合格品"), "一等品"),  # any of the box glyphs is a box
        ("等级：优等品 一等品 合格品", ("优等品", "一等品", "合格品"), None),  # ringed by hand, no boxes: not read
        ("GB 18401-2010 口A类 B类 口C类", ("A类", "B类", "C类"), "B类"),
        ("等级：一等品", None, None),  # one value printed: no options
        ("GB 18401-2010 B类", None, None),
    ],
)
def test_the_option_marked_is_the_one_without_its_box(text: str, listed, marked) -> None:
    name = "grade" if "等级" in text else "safety_category"
    found = printed_options(name, lines_from_text(text, 0.98))
    if listed is None:
        assert found is None
    else:
        assert found is not None and found.listed == listed and found.marked == marked


def test_options_split_over_two_lines_are_one_set() -> None:
    lines = (OcrLine("等级：口优等品", 0.98, (0, 0, 1, 1)), OcrLine("一等品 口合格品", 0.98, (0, 2, 1, 3)))
    found = printed_options("grade", lines)
    assert found is not None and found.marked == "一等品"


@pytest.mark.parametrize(
    ("expected", "verdict", "reason"),
    [
        ("合格品", Verdict.NG, "grade marked on the tag is 一等品, expected 合格品"),  # the wrong recipe that passed
        ("优等品", Verdict.NG, "grade marked on the tag is 一等品, expected 优等品"),
        ("一等品", Verdict.OK, None),
    ],
)
def test_a_grade_printed_among_its_options_is_judged_by_the_mark(expected: str, verdict: Verdict, reason) -> None:
    result = verdict_of(f'[fields]\ngrade = "{expected}"\n', "等级：口优等品一等品 口合格品")
    assert result.verdict is verdict
    if reason is not None:
        assert result.reasons == (reason,)


@pytest.mark.parametrize("expected, verdict", [("GB 18401-2010 A类", Verdict.NG), ("GB 18401-2010 C类", Verdict.NG),
                                               ("GB 18401-2010 B类", Verdict.OK)])
def test_a_safety_class_printed_among_its_options_is_judged_by_the_mark(expected: str, verdict: Verdict) -> None:
    """The probe on tick_form: B类 tags passed recipes of A类 and C类 every time, the class found among the options."""
    assert verdict_of(f'[fields]\nsafety_category = "{expected}"\n', "安全类别：GB 18401-2010\n口A类 B类 口C类").verdict is verdict


def test_options_whose_mark_is_not_read_are_doubt_never_a_pass() -> None:
    result = verdict_of('[fields]\ngrade = "合格品"\n', "等级：口优等品 口一等品 口合格品")
    assert result.verdict is Verdict.REVIEW
    assert result.reasons == ("grade uncertain: the tag prints every option (优等品 一等品 合格品), and which one is marked"
                              " is not read; expected 合格品",)


def test_another_option_shown_by_one_read_only_is_doubt() -> None:
    """The first read shows 一等品 marked; the re-read read every box: a difference is NG only where each read shows
    the same mark, so a filled box read as empty in one read leaves doubt."""
    result = verdict_of('[fields]\ngrade = "合格品"\n', "等级：口优等品 一等品 口合格品", "等级：口优等品 口一等品 口合格品")
    assert result.verdict is Verdict.REVIEW
    # the expected one marked in one read, and no read showing another: the mark is read
    assert verdict_of('[fields]\ngrade = "一等品"\n', "等级：口优等品 一等品 口合格品",
                      "等级：口优等品 口一等品 口合格品").verdict is Verdict.OK


def test_the_small_print_read_can_show_the_expected_option_marked_never_another() -> None:
    """9414 000060: a hand tick over the B of 'B类' read it at 57 % and 69 %; the small-print recognizer's read of the
    line shows it surely. That read confirms the expected option; it never shows another."""
    weak = OcrLine("口A类 B类 口C类", 0.9, (0, 0, 1, 1), (0.9, 1.0, 1.0, 0.56, 0.57, 1.0, 0.91, 0.9, 0.98, 1.0))
    sure = OcrLine("口A类 B类 口C类", 0.97, (0, 0, 1, 1), (0.9, 1.0, 1.0, 0.9, 0.97, 1.0, 0.91, 0.9, 0.98, 1.0))
    reading = TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=(weak,), reread_lines=(weak,))
    rules = parse_recipe('[fields]\nsafety_category = "GB 18401-2010 B类"\n')
    assert judge(rules, one_tag(), [reading]).verdict is Verdict.REVIEW
    confirmed = TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=(weak,), reread_lines=(weak,), small_print_lines=(sure,))
    assert judge(rules, one_tag(), [confirmed]).verdict is Verdict.OK
    other = parse_recipe('[fields]\nsafety_category = "GB 18401-2010 A类"\n')
    assert judge(other, one_tag(), [confirmed]).verdict is not Verdict.OK


def test_a_tick_drawn_over_the_marked_word_dims_a_character_not_the_mark() -> None:
    """9414 000063: the printed tick over 合格品's 品 read it at 55 %; here one box read at 55 % too: the marked option
    is judged on its word's characters together, not on its dimmest one nor on how sure the boxes were."""
    line = OcrLine("等级：□优等品 □一等品 合格品", 0.9, (0, 0, 1, 1),
                   (1.0, 1.0, 1.0, 0.83, 1.0, 1.0, 1.0, 0.9, 0.55, 0.93, 1.0, 1.0, 0.9, 1.0, 1.0, 0.55))
    reading = TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=(line,), reread_lines=(line,))
    assert judge(parse_recipe('[fields]\ngrade = "合格品"\n'), one_tag(), [reading]).verdict is Verdict.OK
    assert judge(parse_recipe('[fields]\ngrade = "一等品"\n'), one_tag(), [reading]).verdict is Verdict.NG
