"""A price read with a repeated digit written fewer times: merged by the recognizer, or printed so?

A CTC recognizer writes a digit printed twice once where it misses the blank between the two glyphs, so '¥88.00'
read where ¥888.00 is expected is doubt, not a misprint (REVIEW). Where the line's own posteriors show the shorter
amount surely and leave no room for the lost digit (no step between the glyphs where a blank was likely), the tag
prints the other amount: NG. The conveyor's planted ¥88.00 on a ¥888.00 job was REVIEW at every look (issue 18,
seed-18 recording s1.25, tag 15)."""

from __future__ import annotations

from inference.reading import parse_recipe
from inference.reading.evidence import RIVAL_SHOWN, gather
from inference.reading.expected import _repeats_shortened, spot_fields
from inference.reading.matching import Found
from inference.reading.types import OcrLine, TagReading
from tests.test_spotting import VOCAB, read, sure

RECIPE = parse_recipe('[fields]\nprice = "¥888.00"\n')


def price_line(frames: list[dict[str, float]]) -> OcrLine:
    return OcrLine("零售价：¥88.00", 0.99, (0, 0, 1, 1), posteriors=read(frames, VOCAB))


def printed_twice() -> list[dict[str, float]]:
    return sure("¥88.00")  # each 8 and a sure blank between them


def printed_thrice_two_merged() -> list[dict[str, float]]:
    """¥888.00 whose last two 8s ran together: the step between them was a blank at 40 %, the 8 won it."""
    return [*sure("¥8"), {"8": 0.98}, {"8": 0.6}, {"8": 0.98}, {"": 0.98}, *sure(".00")]


def test_the_repeats_a_merge_leaves():
    assert _repeats_shortened("888", "88") and _repeats_shortened("1299", "129") and _repeats_shortened("888", "8")
    assert not _repeats_shortened("1199", "99")  # a run lost whole: no merge
    assert not _repeats_shortened("888", "888") and not _repeats_shortened("1299", "1290")


def test_two_eights_printed_and_read_surely_are_another_price():
    line = price_line(printed_twice())
    assert spot_fields(RECIPE.fields, [line]) == ()  # the expected amount is not on the line
    spotted = spot_fields(RECIPE.fields, [line], rivals_too=True)
    assert [(s.name, s.expected) for s in spotted] == [("price", "¥88.00")]
    evidence = gather(RECIPE, TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=(line,), spotted=spotted))["price"]
    assert (evidence.found, evidence.value, evidence.how) == (Found.DIFFERENT, "¥88.00", RIVAL_SHOWN)


def test_three_eights_of_which_the_recognizer_merged_two_stay_in_doubt():
    line = price_line(printed_thrice_two_merged())
    spotted = spot_fields(RECIPE.fields, [line], rivals_too=True)
    assert all(s.expected != "¥88.00" for s in spotted)
    evidence = gather(RECIPE, TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=(line,), spotted=spotted))["price"]
    assert evidence.found is not Found.DIFFERENT


def test_another_line_leaving_room_for_the_lost_digit_keeps_the_doubt():
    """The squeezed first read merged the 8s surely; the unsqueezed second read leaves a likely blank between them."""
    lines = [price_line(printed_twice()), price_line(printed_thrice_two_merged())]
    assert all(s.expected != "¥88.00" for s in spot_fields(RECIPE.fields, lines, rivals_too=True))
