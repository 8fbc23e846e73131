"""A size row naming one size, on a tag that also prints a run of sizes (a conversion table, a size chart): it
confirms the recipe's size, never contradicts it on its own (twentyfourth size_conversion 000075/000076: `尺码：185/88A`
read surely over a table of five sizes, REVIEW for the run)."""

from __future__ import annotations

import pytest

from inference.reading import OcrLine, TagReading, Verdict, judge, parse_recipe
from inference.reading.fields import lines_from_text
from inference.reading.size_rows import named_size
from tests.one_tag import TAG_BOX, one_tag

TABLE = "尺码对照表\n尺码 号型 US EU UK\nS 160/80Y 4 36 8\n165/84Y\n170/88Y\n175/92Y\n180/96Y"


def verdict(first: str, expected: str, again: str | None = None) -> tuple[Verdict, tuple[str, ...]]:
    reading = TagReading(0, TAG_BOX, ocr_lines=lines_from_text(first, 0.99),
                         reread_lines=lines_from_text(first if again is None else again, 0.99))
    result = judge(parse_recipe(f'[counts]\nhangtag = 1\n[fields]\nsize = "{expected}"\n'), one_tag(), [reading])
    return result.verdict, result.reasons


@pytest.mark.parametrize(("text", "size"), [
    ("尺码：165/84Y", "165/84Y"),
    ("号型: 175/96A", "175/96A"),
    ("规格： XL ", "XL"),
    ("尺码 XL", None),  # no colon: a table's head and a cell joined, not a row
    ("尺码：S M L", None),  # a run after the label
    ("号型：175/96A 颜色：黑色", None),  # two fields on the line
    ("尺码 号型 US EU UK", None),
    ("尺码：185/884", "185/88A"),  # the body type run on into the girth, read as the digit of its shape, mended
])
def test_a_size_row_names_one_size_after_its_label_and_colon(text, size):
    found = named_size(OcrLine(text, 0.98, (0.0, 0.0, 1.0, 1.0)))
    assert (found[0] if found else None) == size


def test_a_size_row_beside_a_conversion_table_confirms_the_recipes_size():
    assert verdict("品名：打底衫\n尺码：165/84Y\n" + TABLE, "165/84Y") == (Verdict.OK, ())


def test_a_size_row_naming_another_size_leaves_the_runs_doubt():
    result, reasons = verdict("品名：打底衫\n尺码：165/84Y\n" + TABLE, "170/88Y")
    assert result is Verdict.REVIEW and "prints a run of sizes" in reasons[0]


def test_reads_of_the_row_that_disagree_confirm_nothing():
    result, reasons = verdict("尺码：165/84Y\n" + TABLE, "165/84Y", again="尺码：160/84Y\n" + TABLE)
    assert result is Verdict.REVIEW and "prints a run of sizes" in reasons[0]


def test_without_a_size_row_the_run_is_still_doubt():
    result, reasons = verdict("品名：打底衫\n" + TABLE, "165/84Y")
    assert result is Verdict.REVIEW and "prints a run of sizes" in reasons[0]


def test_reads_naming_the_same_size_confirm_it_though_one_doubted_a_character():
    """twentyfourth_b 000024: the row `尺码：165/80Y` read with its 5 at 54 % in the first read and at 99 % in the
    second; the reads agree on the size, and the surer one confirms it."""
    row = "尺码：165/80Y"
    doubted = OcrLine(row, 0.9, (0.0, 0.0, 0.0, 0.0), tuple(0.54 if ch == "5" else 1.0 for ch in row))
    sure = OcrLine(row, 0.99, (0.0, 0.0, 0.0, 0.0), tuple(0.99 for _ in row))
    table = lines_from_text(TABLE.replace("165/84Y", "165/80Y"), 0.99)
    recipe = parse_recipe('[counts]\nhangtag = 1\n[fields]\nsize = "165/80Y"\n')
    reading = TagReading(0, TAG_BOX, ocr_lines=(doubted, *table), reread_lines=(sure, *table))
    assert judge(recipe, one_tag(), [reading]).verdict is Verdict.OK
    alone = TagReading(0, TAG_BOX, ocr_lines=(doubted, *table), reread_lines=(doubted, *table))
    assert judge(recipe, one_tag(), [alone]).verdict is Verdict.REVIEW  # never read surely: still doubt


def test_a_row_read_with_its_body_type_as_a_digit_agrees_with_its_reads_that_show_the_letter():
    """twentyfourth 000076: the first read gave `尺码：185/884` (A read as 4), the second and the small-print reads
    `尺码：185/88A`; no girth is 884 cm, so the reads agree on 185/88A."""
    table = TABLE.replace("165/84Y", "185/88A")
    assert verdict("尺码：185/884\n" + table, "185/88A", again="尺码：185/88A\n" + table) == (Verdict.OK, ())
