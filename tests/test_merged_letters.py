"""A CTC recognizer writes a letter printed twice once where it misses the step between them: XXL reads 'XL' with its
one X faint. An XL recipe passed a tag printing XXL so (twentieth 000028, slash_pairs: '色号/规格：浅灰/XL', X at
46 %, passed on the mean of its characters over two reads). A letter size with an X is printed as expected only
where some read shows every character of it as surely as the recipe asks."""

from __future__ import annotations


from inference.reading import TagReading, Verdict, judge, parse_recipe
from inference.reading.types import OcrLine

from tests.one_tag import one_tag

BOX = (0.0, 0.0, 0.0, 0.0)


def line(text: str, weak: dict[int, float] | None = None) -> OcrLine:
    confidences = [0.99] * len(text)
    for index, value in (weak or {}).items():
        confidences[index] = value
    return OcrLine(text, min(confidences), BOX, tuple(confidences))


def verdict_of(size: str, first: OcrLine, again: OcrLine) -> tuple[Verdict, tuple[str, ...]]:
    detections = one_tag()
    others = (line("品名：女士针织衫"), line("货号：H8961"))
    reading = TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=(*others, first), reread_lines=(*others, again))
    result = judge(parse_recipe(f'[fields]\nsize = "{size}"\nstyle_number = "H8961"\n'), detections, [reading])
    return result.verdict, result.reasons


def test_an_xl_read_with_its_x_faint_does_not_pass_an_xl_recipe():
    faint = line("规格：XL", {3: 0.46})  # the X at 46 %, the L sure: the mean is 72 %, two reads together 92 %
    verdict, reasons = verdict_of("XL", faint, faint)
    assert verdict is Verdict.REVIEW
    assert any("size" in reason for reason in reasons)


def test_an_xl_read_surely_passes():
    assert verdict_of("XL", line("规格：XL"), line("规格：XL"))[0] is Verdict.OK


def test_a_faint_xl_is_no_xxl_either():
    faint = line("规格：XL", {3: 0.46})
    assert verdict_of("XXL", faint, faint)[0] is Verdict.REVIEW


def test_the_reread_showing_both_xs_surely_passes_an_xxl_recipe():
    assert verdict_of("XXL", line("规格：XL", {3: 0.46}), line("规格：XXL"))[0] is Verdict.OK


def test_sizes_without_an_x_keep_the_mean():
    # M has no larger size a merge makes it of: one faint character of the line is no doubt about the size
    assert verdict_of("M", line("规格：M", {0: 0.5}), line("规格：M", {0: 0.5}))[0] is Verdict.OK
