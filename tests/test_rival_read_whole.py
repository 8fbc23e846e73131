"""A closed field's value voted likeliest on a line without its label is no read of it where its labelled line reads
a rival, whether that line reads the rival alone ('C类') or whole ('GB 18401-2010 C类').

sixteenth_b 000106 (clear_pvc), a good tag of C类 judged against a recipe of B类: on the fibre content's line a
misread share held B and 类 far behind other glyphs, B类 was the likeliest of the three classes there (at 0.5 %),
and the class's own line, '安全类别 GB18401:2010C类' read at 98 %, was compared whole with 'C类' and so read no
rival: the wrong class passed."""

from __future__ import annotations

from inference.reading.expected import spot_fields
from inference.reading.types import OcrLine
from tests.test_spotting import read, recipe

VOCAB = "0123456789ABC类米"


def fibre_line() -> OcrLine:
    frames = [{"8": 0.7, "B": 0.2}, {"": 0.98}, {"米": 0.8, "类": 0.1}, {"": 0.98}]  # B类 behind 8米, A and C nowhere
    return OcrLine("羊毛 8米", 0.9, (0, 0, 1, 1), posteriors=read(frames, VOCAB))


def test_a_class_voted_likeliest_off_its_line_stands_where_no_labelled_line_reads_another() -> None:
    r = recipe('safety_category = "GB 18401-2010 B类"')
    assert [s.expected for s in spot_fields(r.fields, rivals_too=True, lines=[fibre_line()])] == ["GB 18401-2010 B类"]


def test_a_class_voted_likeliest_off_its_line_is_no_read_where_its_labelled_line_reads_another_whole() -> None:
    r = recipe('safety_category = "GB 18401-2010 B类"')
    for text in ("安全类别 GB18401:2010C类", "安全类别：GB 18401-2010 C类", "安全技术类别：C类"):
        labelled = OcrLine(text, 0.98, (0, 0, 1, 1))
        assert spot_fields(r.fields, rivals_too=True, lines=[labelled, fibre_line()]) == (), text


def test_a_labelled_line_reading_the_expected_class_whole_leaves_the_vote_standing() -> None:
    r = recipe('safety_category = "GB 18401-2010 B类"')
    labelled = OcrLine("安全类别：GB 18401-2010 B类", 0.98, (0, 0, 1, 1))
    assert [s.expected for s in spot_fields(r.fields, rivals_too=True, lines=[labelled, fibre_line()])] == ["GB 18401-2010 B类"]
