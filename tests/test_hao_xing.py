"""The 号型 grammar (GB/T 1335) the reader's size evidence, rivals and marked-run reads share."""

from __future__ import annotations

import pytest

from inference.reading import hao_xing


@pytest.mark.parametrize("value, parts", [("170/92A", (170, 92, "A")), (" 165/84y ", (165, 84, "Y")),
                                          ("90/48", (90, 48, "")), ("XL", None), ("170/92A(L)", None), ("1700/92A", None)])
def test_a_value_is_taken_apart_into_height_girth_and_body_type(value, parts):
    assert hao_xing.parse(value) == parts


def test_the_neighbours_of_a_size_are_its_series_steps_and_its_other_body_types():
    assert hao_xing.neighbours("170/92A") == ["160/84A", "165/88A", "175/96A", "180/100A",
                                              "170/88A", "170/90A", "170/94A", "170/96A",
                                              "170/92Y", "170/92B", "170/92C"]
    assert "170/92A" not in hao_xing.neighbours("170/92A")
    assert hao_xing.neighbours("90/48") == ["80/40", "85/44", "95/52", "100/56", "90/44", "90/46", "90/50", "90/52"]
    assert hao_xing.neighbours("XL") == []


def test_a_size_is_found_inside_a_line_with_the_letter_size_beside_it():
    found = [(m.group(1), m.group(2)) for m in hao_xing.IN_TEXT.finditer("号型:170/92A(L) 175/96A")]
    assert found == [("170/92A", "L"), ("175/96A", None)]
    assert not list(hao_xing.IN_TEXT.finditer("GB/T 1335.1-2008"))  # a standard's number is no size


@pytest.mark.parametrize("read, mended", [("175/B4A", "175/84A"), ("I7O/92A", "I7O/92A"), ("170/9ZA", "170/9ZA"), ("160/S2A", "160/52A"),
                                          ("尺码 1S5/80A", "尺码 155/80A"), ("XL", "XL")])
def test_a_digit_read_as_a_letter_of_its_shape_is_put_back_only_where_a_digit_must_stand(read, mended):
    """A height starts and a girth ends with a real digit: 9ZA cannot be told from a girth of 9 and a body ZA."""
    assert hao_xing.digits_mended(read) == mended
    assert len(hao_xing.digits_mended(read)) == len(read)
