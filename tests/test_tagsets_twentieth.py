"""The three layouts added in the twenty-fifth session: the product name top to bottom, the size punched in a grid of
sizes, the fields run on as one paragraph."""

from __future__ import annotations

import numpy as np
import pytest

from tests.tagset_groups import (check_defects_planted_where_the_truth_says, check_deterministic_with_one_ean,
                                 check_one_seed_one_card, printed_cards, assert_every_font_prints,
                                 source_characters)
from tests.test_tagsets import price_amount
from training.tagsets import DESIGNS
from training.tagsets.twentieth_designs import paragraph_lines, size_window
from training.tagsets.values import random_values

TWENTIETH = ("vertical_name", "punched_size", "run_on_text")
JUDGED = ("product_name", "style_number", "color", "size", "composition", "grade", "standard", "safety_category")


def test_twentieth_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    check_deterministic_with_one_ean(tmp_path, TWENTIETH, 201)


def test_twentieth_designs_plant_every_defect_kind_where_the_truth_says_and_count_no_qr_code(tmp_path):
    check_defects_planted_where_the_truth_says(tmp_path, TWENTIETH, 202)


@pytest.mark.parametrize("seed", range(1, 31))
def test_twentieth_designs_print_the_recipes_values(seed):
    for design, art, values in printed_cards(TWENTIETH, seed, JUDGED):
        assert price_amount(art.fields["price"]) == price_amount(values.price), (design, seed)


@pytest.mark.parametrize("design", TWENTIETH)
def test_one_seed_draws_one_card_and_another_seed_another(design):
    check_one_seed_one_card(design)


@pytest.mark.parametrize(("size", "run"), [
    ("M", ("XS", "S", "M", "L", "XL", "XXL", "3XL")), ("2XL", ("XS", "S", "M", "L", "XL", "2XL", "3XL")),
    ("170/92A", ("155/80A", "160/84A", "165/88A", "170/92A", "175/96A", "180/100A", "185/104A")),
])
def test_the_grid_lists_five_sizes_of_the_run_in_order_and_holds_the_garments(size, run):
    for k in range(20):
        window = size_window(size, np.random.default_rng(k))
        assert len(window) == 5 and size in window
        start = run.index(window[0])
        assert window == run[start:start + 5]


def test_the_punched_size_is_a_hole_in_the_card_inside_one_printed_circle_of_the_size_row():
    """The size is marked by what is missing (the card's alpha), nothing printed: one hole besides the hang hole."""
    values = random_values(np.random.default_rng(4))
    art = DESIGNS["punched_size"](4, values, 10.0)
    alpha = art.rgba[..., 3]
    holes = alpha[60:600, 20:760] == 0  # inside the table: below the title, left of the brand column and the hang hole
    ys, xs = np.nonzero(holes)
    assert len(ys) > 0
    assert ys.max() - ys.min() <= 32 and xs.max() - xs.min() <= 32  # one punch, about 2.4–3 mm across


def test_a_paragraph_breaks_only_where_a_piece_may_and_keeps_every_piece_in_order():
    pieces = [("品名：", True), ("连衣裙  ", True), ("成分：", True), ("棉 ", True), ("95% ", True), ("氨纶 ", True),
              ("5%", True)]
    lines = paragraph_lines(pieces, 8.0, len)
    assert all(len(line) <= 8 for line in lines)
    assert "".join(lines).replace(" ", "") == "".join(p for p, _ in pieces).replace(" ", "")
    assert lines[0] == "品名：连衣裙"
    assert paragraph_lines([("GB/T", True), ("2664-2017", False)], 4.0, len) == ["GB/T2664-2017"]


def test_some_run_on_tags_end_a_line_with_a_label_and_start_the_next_with_its_value(monkeypatch):
    """The layout's point: across jobs, a label's colon ends a line on some tags (its value opens the next)."""
    from training.tagsets import twentieth_designs

    lines: list[str] = []
    original = twentieth_designs.paragraph_lines

    def recording(pieces, room, width):
        got = original(pieces, room, width)
        lines.append(got)
        return got

    monkeypatch.setattr(twentieth_designs, "paragraph_lines", recording)
    for seed in range(30):
        DESIGNS["run_on_text"](seed, random_values(np.random.default_rng(seed)), 6.0)
    assert len(lines) == 30
    assert sum(any(line.endswith(("：", ":")) for line in tag[:-1]) for tag in lines) >= 3


def test_every_character_the_twentieth_designs_print_exists_in_every_font():
    from training.tagsets import twentieth_designs

    chars = source_characters(twentieth_designs, "—…→·×±¥（）")
    assert len(chars) > 20
    assert_every_font_prints(chars)
