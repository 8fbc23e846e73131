"""A printed size run's 号型 stand whole (evidence.py `run_entries`): misreads of small lines are no run.

twentysixth 000072 (euro_export, 12 px lines, one size 160/100A printed): the old reader found a "run of sizes"
'100/100 108/128 01/128' in three misreads — the size itself with its A read as a 4 ('100/1004'), and a standard's
number read as '108/1 2853-3' and '01/12813-20' — and held the size for review as "which one is marked is not read".
"""

from __future__ import annotations

from inference.reading import TagReading, Verdict, judge, parse_recipe
from inference.reading.evidence import run_entries, size_run
from inference.reading.fields import lines_from_text

from tests.one_tag import one_tag

# the reads of twentysixth 000072 that gave the old "run", with the lines around them
FIRST = "MUIAN\nY880400\n100/1004\n的名 打选衫\n执行行准 108/1 2853-3\n流一零售价 ¥888元"
AGAIN = "MUIAN\nV880600\n100/1004\n的名 打感衫\n找行标准 01/12813-20\n流一零售价 ¥888元"


def test_misreads_of_one_size_and_a_standards_number_are_no_run():
    assert size_run(lines_from_text(FIRST) + lines_from_text(AGAIN)) == ()


def test_digits_running_on_past_the_girth_are_part_of_a_longer_number():
    assert run_entries("执行行准 108/1 2853-3") == []  # a standard's number: 108/12853 is no 号型
    assert run_entries("01/12813-20") == []
    assert run_entries("175/96Y180/100Y") == ["175/96Y", "180/100Y"]  # two entries run together, each whole
    assert run_entries("165/88A(M)") == ["165/88A"]


def test_one_digit_after_the_girth_is_a_body_type_read_as_a_digit():
    """twentyfourth 000042 (a size chart's 号型 column of 165/92B … 185/108B in 16 px cells): its B read as an 8
    ('175/1008', '180/1048'). The run is still a run."""
    assert run_entries("175/1008") == ["175/100"]
    assert run_entries("100/1004") == ["100/100"]
    chart = lines_from_text("尺码对照表\n165/928\n$70/08\n175/1008\n10\n180/1048\n185/108")
    assert len(size_run(chart)) >= 3


def test_marks_read_as_digits_after_a_space_leave_the_entry_whole():
    """p20 000004 (punched_size, 22 px): the run's rings read as digits between the entries, '155/8481 8160/88' for
    155/84B ○ 160/88B. Counted as a longer number, the first read held two entries, no run: the marked size was never
    looked for, and the tag, its size verified before, was held for review."""
    assert run_entries("155/8481 8160/88") == ["155/848"]
    first = lines_from_text("规格\n155/8481 8160/88\n8165/92B1 B170/968\n175/100B")
    assert len(size_run(first)) == 3


def test_entries_parted_by_spaces_are_found_apart():
    assert run_entries("110/56 120/60") == ["110/56", "120/60"]  # squashed, '110/56120/60' holds no entry whole
    assert size_run(lines_from_text("110/56 120/60\n130/64 140/68")) == ("110/56", "120/60", "130/64", "140/68")


def test_printed_runs_are_still_runs():
    assert size_run(lines_from_text("155/80A 160/84A\n165/88A 170/92A")) == ("155/80A", "160/84A", "165/88A", "170/92A")
    assert size_run(lines_from_text("155/80A\n160/84A\n165/88A")) == ("155/80A", "160/84A", "165/88A")
    assert size_run(lines_from_text("号型 165/92B 170/96B 175/100B")) == ("165/92B", "170/96B", "175/100B")
    assert size_run(lines_from_text("XS S M L XL")) == ("XS", "S", "M", "L", "XL")


def test_the_one_size_read_from_the_small_print_verifies_once_no_run_is_seen():
    lines = lines_from_text(FIRST)
    reading = TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=lines, reread_lines=lines_from_text(AGAIN),
                         small_print_lines=lines_from_text("160/100A"))
    assert judge(parse_recipe('[fields]\nsize = "160/100A"\n'), one_tag(), [reading]).verdict is Verdict.OK
    wrong = judge(parse_recipe('[fields]\nsize = "165/104A"\n'), one_tag(), [reading])
    assert wrong.verdict is not Verdict.OK
