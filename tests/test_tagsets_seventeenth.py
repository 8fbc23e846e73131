"""The three designs added in the twenty-third session: a woven label, a CIJ coder's dot print, a SKU line."""

from __future__ import annotations

import numpy as np
import pytest

from tests.tagset_groups import (check_defects_planted_where_the_truth_says, check_deterministic_with_one_ean,
                                 check_one_seed_one_card, printed_cards, assert_every_font_prints,
                                 source_characters)
from tests.test_tagsets import price_amount


SEVENTEENTH = ("woven_label", "cij_inkjet", "spec_line")
JUDGED = ("product_name", "style_number", "color", "composition", "grade", "standard", "safety_category")


def test_seventeenth_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    check_deterministic_with_one_ean(tmp_path, SEVENTEENTH, 171)


def test_seventeenth_designs_plant_every_defect_kind_where_the_truth_says_and_count_no_qr_code(tmp_path):
    check_defects_planted_where_the_truth_says(tmp_path, SEVENTEENTH, 172)


@pytest.mark.parametrize("seed", range(1, 31))
def test_seventeenth_designs_print_the_recipes_values_and_never_below_the_smallest_legal_print(seed):
    for design, art, values in printed_cards(SEVENTEENTH, seed, JUDGED):
        size = art.fields["size"]
        assert size == values.size or values.size in size.replace("(", " ").replace(")", " ").split(), (design, size)
        assert price_amount(art.fields["price"]) == price_amount(values.price)


@pytest.mark.parametrize("design", SEVENTEENTH)
def test_one_seed_draws_one_card_and_another_seed_another(design):
    check_one_seed_one_card(design)


@pytest.mark.parametrize(("size", "form", "men", "printed"), [
    ("L", "space", False, "L 170/92A"), ("2XL", "paren", True, "2XL(180/100A)"), ("XS", "after", False, "155/80A (XS)"),
    ("170/92A", "space", True, "L 170/92A"), ("165/84A", "eu", False, "EU 38 / CN 165/84A"),
    ("175/96A", "eu", True, "EU 50 / CN 175/96A"), ("190/108B", "paren", True, "4XL(190/108B)"),
    ("150/76A", "after", False, "150/76A (XXS)"), ("M", "eu", False, "M 165/88A"),
])
def test_the_sku_line_prints_the_size_with_its_twin_in_the_other_system(size, form, men, printed):
    from training.tagsets.seventeenth_designs import both_systems

    assert both_systems(size, form, men) == printed


@pytest.mark.parametrize("char", "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-./:%()¥ ")
def test_the_coders_5x7_matrix_draws_every_sign_a_coded_field_needs(char):
    from training.tagsets.seventeenth_designs import DOTS_5X7, _matrix

    dots = _matrix(DOTS_5X7[char])
    assert dots.shape == (7, 5)
    assert dots.any() == (char != " ")


def test_the_coder_draws_a_chinese_character_as_a_16_dot_matrix_with_ink_in_it():
    from training.tagsets.seventeenth_designs import cij_columns

    (latin, cjk) = cij_columns("A色")
    assert latin.shape == (7, 6) and cjk.shape == (16, 18)
    assert 30 < cjk.sum() < 200


def test_a_woven_labels_print_steps_at_the_picks_pitch():
    from training.tagsets.seventeenth_designs import weave

    mask = np.zeros((200, 200), np.float32)
    yy, xx = np.mgrid[0:200, 0:200]
    mask[(xx - 100) ** 2 + (yy - 100) ** 2 < 60 ** 2] = 1.0  # a disc: its edge is a smooth curve
    cloth = weave(mask, (0, 0, 0), (255, 255, 255), 20.0, 0.4, np.random.default_rng(1))
    lit = cloth.mean(axis=2) > 100
    rows = [tuple(np.nonzero(r)[0][[0, -1]]) if r.any() else None for r in lit]
    runs = sum(1 for a, b in zip(rows, rows[1:]) if a != b)
    assert runs <= 200 / 8 + 2  # the edge moves only from one pick (8 px) to the next


def test_every_character_the_seventeenth_designs_print_exists_in_every_font():
    from training.tagsets import seventeenth_designs

    chars = source_characters(seventeenth_designs, "—…→·×±¥")
    assert len(chars) > 20
    assert_every_font_prints(chars)
