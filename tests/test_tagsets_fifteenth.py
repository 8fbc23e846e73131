"""The three designs added in the twenty-third session: three fibre blocks, joined fields, a size chart."""

from __future__ import annotations

import numpy as np
import pytest

from tests.tagset_groups import (check_defects_planted_where_the_truth_says, check_deterministic_with_one_ean,
                                 check_one_seed_one_card, printed_cards, assert_every_font_prints,
                                 source_characters)
from tests.test_tagsets import price_amount

from training.tagsets.values import random_values  # noqa: E402  (test_tagsets skips the module where the fonts are missing)

FIFTEENTH = ("down_fill", "slash_pairs", "size_chart")
JUDGED = ("product_name", "style_number", "color", "size", "composition", "grade", "standard", "safety_category")


def test_fifteenth_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    check_deterministic_with_one_ean(tmp_path, FIFTEENTH, 151)


def test_fifteenth_designs_plant_every_defect_kind_where_the_truth_says_and_count_no_qr_code(tmp_path):
    check_defects_planted_where_the_truth_says(tmp_path, FIFTEENTH, 152)


@pytest.mark.parametrize("seed", range(1, 31))
def test_fifteenth_designs_print_the_recipes_values_and_never_below_the_smallest_legal_print(seed):
    for design, art, values in printed_cards(FIFTEENTH, seed, JUDGED):
        assert price_amount(art.fields["price"]) == price_amount(values.price)


@pytest.mark.parametrize("design", FIFTEENTH)
def test_one_seed_draws_one_card_and_another_seed_another(design):
    check_one_seed_one_card(design)


@pytest.mark.parametrize(("size", "column"), [
    ("L", ("L", "170/92A")), ("2XL", ("2XL", "180/100A")), ("XS", ("XS", "155/80A")), ("3XL", ("3XL", "185/104A")),
    ("170/92A", ("L", "170/92A")), ("155/84B", ("XS", "155/84B")), ("185/96Y", ("3XL", "185/96Y")),
])
def test_the_size_chart_marks_a_column_that_holds_the_jobs_size(size, column):
    from training.tagsets.fifteenth_designs import chart_columns

    for seed in range(6):
        columns, marked = chart_columns(size, np.random.default_rng(seed))
        assert len(columns) == 5 and 0 <= marked < 5
        assert columns[marked][:2] == column
        assert len({c[1] for c in columns}) == 5  # every other size printed beside it


@pytest.mark.parametrize("seed", range(8))
def test_the_padded_tag_prints_a_lining_other_than_the_face_fabric(seed):
    from training.tagsets.fifteenth_designs import _lining

    face = random_values(np.random.default_rng(seed)).composition
    assert _lining(np.random.default_rng(seed), face) != face


def test_every_character_the_fifteenth_designs_print_exists_in_every_font():
    from training.tagsets import fifteenth_designs

    chars = source_characters(fifteenth_designs, "—…→·×±")
    assert len(chars) > 40
    assert_every_font_prints(chars)
