"""A field read as another value is evidence of a misprint only where the reads agree on what was printed instead, or
one of them is sure of it. Reads that each show a different other value, none surely, show a line read poorly: in
15-px print a standards line 'GB/T 2664-2017 GB 18401-2010 C类' was read 'OB/T 2004-2017 …' at 84 % and
'OE/T 2504-2017 …' at 83 %, and the good tag was judged NG (s6001 000034, the twenty-seventh session)."""

from __future__ import annotations


from inference.reading import TagReading, Verdict, judge, parse_recipe
from inference.reading.evidence import _difference_key
from inference.reading.fields import lines_from_text

from tests.one_tag import one_tag

TAG = "品名：男士夹克\n货号：QL9018923\n{standard}\n号型：160/96B"
RECIPE = '[fields]\nstandard = "GB/T 2664-2017"\n'


def verdict_of(first: str, again: str, confidence: float = 0.84) -> Verdict:
    detections = one_tag()
    reading = TagReading(0, (10.0, 10.0, 200.0, 300.0),
                         ocr_lines=lines_from_text(TAG.format(standard=first), confidence),
                         reread_lines=lines_from_text(TAG.format(standard=again), confidence))
    return judge(parse_recipe(RECIPE), detections, [reading]).verdict


def test_reads_showing_two_other_standards_unsurely_are_doubt():
    assert verdict_of("产品标准：OB/T 2004-2017 O8 18401-2010", "产品标准：OE/T 2504-2017 E138401-2010") is Verdict.REVIEW


def test_reads_agreeing_on_another_standard_are_a_difference_whatever_follows_its_year():
    # the second standard on the line is read differently each time; the product standard itself the same
    assert verdict_of("产品标准：GB/T 2660-2017 GB 18401-2010", "产品标准：GB/T 2660-2017 G8 1840I-2010") is Verdict.NG


def test_a_sure_read_of_another_standard_is_a_difference_though_a_weaker_read_differs():
    detections = one_tag()
    reading = TagReading(0, (10.0, 10.0, 200.0, 300.0),
                         ocr_lines=lines_from_text(TAG.format(standard="产品标准：GB/T 2660-2017"), 0.99),
                         reread_lines=lines_from_text(TAG.format(standard="产品标准：GB/T 2860-2017"), 0.84))
    assert judge(parse_recipe(RECIPE), detections, [reading]).verdict is Verdict.NG


def test_a_standards_difference_is_keyed_by_its_code_alone():
    assert _difference_key("standard", "OB/T 2004-2017O 818401-2010") == "OB/T2004-2017"
    assert _difference_key("standard", "FZ/T73020-2019") == "FZ/T73020-2019"
    assert _difference_key("standard", "GB/T 2664.1-2017 x") == "GB/T2664.1-2017"


STYLE = "品名：儿童卫衣\n款号：{code}\n尺码：155/88A"
STYLE_RECIPE = '[fields]\nstyle_number = "FS-39937"\n'


def style_verdict(small_print: str | None) -> Verdict:
    """FS-39937 in a thin face, read FS-39987 surely twice by the stock recognizer (twentyfourth_b 000010)."""
    stock = lines_from_text(STYLE.format(code="FS-39987"), 0.97)
    small = lines_from_text(STYLE.format(code=small_print), 0.86) if small_print else ()
    reading = TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=stock, reread_lines=stock, small_print_lines=small)
    return judge(parse_recipe(STYLE_RECIPE), one_tag(), [reading]).verdict


def test_a_second_recognizer_showing_another_character_where_the_reads_differ_leaves_doubt():
    assert style_verdict(None) is Verdict.NG  # the stock reads alone agree surely: a misprint
    assert style_verdict("F8-39967") is Verdict.REVIEW  # the small-print read shows a third character there
    assert style_verdict("FS-39937") is Verdict.OK  # the expected value read whole is evidence for it, as before


def test_a_second_recognizer_reading_the_misprint_alike_leaves_it_standing():
    assert style_verdict("F8-39987") is Verdict.NG  # it differs elsewhere, not where the misprint is
    assert style_verdict("FS-3998") is Verdict.NG  # a line it did not read whole says nothing of the character


def test_another_code_differing_in_several_places_stands_where_the_second_recognizer_bears_out_one():
    stock = lines_from_text(STYLE.format(code="FS-21987"), 0.97)  # 9, 3 -> 2, 1 (expected FS-39937)
    for small, verdict in (("FS-21967", Verdict.NG), ("FS-36967", Verdict.REVIEW)):
        reading = TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=stock, reread_lines=stock,
                             small_print_lines=lines_from_text(STYLE.format(code=small), 0.86))
        assert judge(parse_recipe(STYLE_RECIPE), one_tag(), [reading]).verdict is verdict, small
