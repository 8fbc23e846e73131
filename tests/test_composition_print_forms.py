"""Fibre contents in print forms the reader first met on the twenty-fifth session's blend_lining tags.

A fibre content may print each share before its fibre (`65%棉 30%聚酯纤维 5%氨纶`, FZ/T 01053 allows it) or part its
components by slashes (`棉65%/聚酯纤维30%/氨纶5%`): the same content as the recipe's `棉 65% 聚酯纤维 30% 氨纶 5%`.
Read fibre-first, a share-first print pairs each share with the next fibre and a good tag was judged NG (the
twenty-fifth session's blend_lining set, 000073 and 000080: '48%莫代尔 47%棉 5%氨纶' ≠ '莫代尔 48% 棉 47% 氨纶 5%')."""

from __future__ import annotations

import pytest

from inference.reading import TagReading, Verdict, judge, parse_recipe
from inference.reading.evidence import _components, other_part
from inference.reading.fields import lines_from_text

from tests.one_tag import one_tag

RECIPE = "莫代尔 48% 棉 47% 氨纶 5%"


def verdict_of(composition: str, text: str):
    reading = TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=lines_from_text(text, 0.98),
                         reread_lines=lines_from_text(text, 0.98))
    return judge(parse_recipe(f'[fields]\ncomposition = "{composition}"\n'), one_tag(), [reading])


@pytest.mark.parametrize(("text", "components"), [
    ("48% 莫代尔47% 棉 5% 氨纶", [("莫代尔", 48), ("棉", 47), ("氨纶", 5)]),
    ("面料：65%棉/35%聚酯纤维", [("棉", 65), ("聚酯纤维", 35)]),
    ("棉65% 聚酯纤维30% 氨纶5%", [("棉", 65), ("聚酯纤维", 30), ("氨纶", 5)]),
    ("棉 95% 氨纶 5%", [("棉", 95), ("氨纶", 5)]),
])
def test_each_share_goes_with_its_own_fibre_in_either_print_order(text, components):
    assert [(fibre, int(share)) for fibre, share in _components(text)] == components


@pytest.mark.parametrize("printed", [
    "面料：48%莫代尔 47%棉 5%氨纶\n里料：100%聚酯纤维",
    "面料成分：48%莫代尔/47%棉/5%氨纶\n里料成分：100%聚酯纤维",
    "面料：莫代尔48%/棉47%/氨纶5%\n里料：聚酯纤维100%",
])
def test_the_recipes_content_printed_share_first_or_parted_by_slashes_is_ok(printed):
    assert verdict_of(RECIPE, printed).verdict is Verdict.OK


@pytest.mark.parametrize("recipe", [
    "莫代尔 47% 棉 48% 氨纶 5%",  # the shares swapped
    "莫代尔 48% 锦纶 47% 氨纶 5%",  # another fibre
    "聚酯纤维 100%",  # the lining's
])
def test_another_content_than_the_share_first_print_is_not_ok(recipe):
    assert verdict_of(recipe, "面料：48%莫代尔 47%棉 5%氨纶\n里料：100%聚酯纤维").verdict is not Verdict.OK


# A lining's label read with its first character wrong ('里料成分' as '塑料成分', twenty-fifth session, blend_lining
# 000037, small print): the line was no part's, and a recipe holding the lining's content passed on it.
LINING_MISREAD = "品名：毛呢大衣\n面料成分：聚撒纤维72%/起杆24%/氨论4%\n塑料成分：聚酯纤维65%/棉35%\n等级：合格品"


@pytest.mark.parametrize(("line", "shell_elsewhere", "part"), [
    ("塑料成分：聚酯纤维65%/棉35%", True, "塑料"),  # 里料成分 misread, 面料 read on another line
    ("图料成分：聚酯纤维65%/棉35%", False, ""),  # the shell's 面料成分 misread (fifteenth_b 000011): no other shell
    ("面料成分：聚酯纤维65%/棉35%", True, ""),
    ("材料成分：聚酯纤维65%/棉35%", True, ""),  # the whole content, as some tags name it
    ("成分：聚酯纤维65%/棉35%", True, ""),
])
def test_a_part_label_read_with_its_first_character_wrong_is_a_part_where_the_shell_is_read_elsewhere(
        line, shell_elsewhere, part):
    assert other_part(line, "聚酯纤维 65% 棉 35%", shell_elsewhere) == part


def test_the_shells_content_under_its_own_misread_label_stays_ok():
    text = "品名：毛呢大衣\n图料成分：棉 90% 桑蚕丝 7% 粘纤 3%\n等级：合格品"
    assert verdict_of("棉 90% 桑蚕丝 7% 粘纤 3%", text).verdict is Verdict.OK


def test_the_linings_content_under_a_misread_label_does_not_pass_for_the_shells():
    result = verdict_of("聚酯纤维 65% 棉 35%", LINING_MISREAD)
    assert result.verdict is Verdict.REVIEW
    assert result.reasons == ("composition uncertain: 聚酯纤维 65% 棉 35% is printed on the 塑料 line, not as the shell's"
                              " (面料) content, which was not read as it",)
    assert verdict_of("聚酯纤维 72% 粘纤 24% 氨纶 4%", LINING_MISREAD.replace("聚撒纤维72%/起杆24%/氨论4%",
                                                                      "聚酯纤维72%/粘纤24%/氨纶4%")).verdict is Verdict.OK


def test_the_linings_content_after_its_label_is_no_match_where_the_line_search_finds_nothing():
    """000037 in the pipeline: the line search missed the lining's line in every read, and the value after its label
    ('塑料成分:' read for 里料成分) matched the recipe's as the garment's own content."""
    from inference.reading.evidence import ANOTHER_PART, _expected
    from inference.reading.fields import extract_fields
    from inference.reading.matching import Found
    from inference.reading.recipe import parse_recipe as parse

    lines = lines_from_text("品名：毛呢大衣\n面料：\n塑料成分:聚酯纤维65%/棉35%", 0.9)
    (rule,) = parse('[fields]\ncomposition = "聚酯纤维 65% 棉 35%"\n').fields
    evidence = _expected(rule, (), [lines], [extract_fields(lines)], 1)
    assert (evidence.found, evidence.how) == (Found.NEAR, ANOTHER_PART)
