"""The three designs added in the twenty-seventh session: a field among others no earlier design sets beside it (a
size-conversion table with the garment's row marked, rows across the fold of a tag photographed half open, the RMB
price beside a yen price under the same ¥ sign and a won price)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.tagset_groups import (assert_every_font_prints, check_defects_planted_where_the_truth_says,
                                 check_deterministic_with_one_ean, check_one_seed_one_card, printed_cards,
                                 source_characters)
from tests.test_tagsets import price_amount
from training.tagsets import DESIGNS
from training.tagsets.twentyfourth_designs import (HANGUL_FACES, conversion_rows, fold_map, letter_of, won_price,
                                                   yen_price)
from training.tagsets.values import neighbour_size
from training.tagsets.values import random_values

TWENTYFOURTH = ("size_conversion", "fold_across", "east_asia_export")
AS_THE_RECIPE = ("product_name", "style_number", "color", "size", "composition", "grade", "standard",
                 "safety_category")


def test_twentyfourth_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    check_deterministic_with_one_ean(tmp_path, TWENTYFOURTH, 241)


def test_twentyfourth_designs_plant_every_defect_kind_where_the_truth_says_and_count_no_qr_code(tmp_path):
    check_defects_planted_where_the_truth_says(tmp_path, TWENTYFOURTH, 242)


@pytest.mark.parametrize("seed", range(1, 25))
def test_each_design_prints_the_recipes_values_and_its_price(seed):
    for design, art, values in printed_cards(TWENTYFOURTH, seed, AS_THE_RECIPE):
        assert price_amount(art.fields["price"]) == price_amount(values.price), (design, seed)
        assert art.fields["ean13"] == values.ean13


@pytest.mark.parametrize("design", TWENTYFOURTH)
def test_one_seed_draws_one_card_and_another_seed_another(design):
    check_one_seed_one_card(design)


@pytest.mark.parametrize(("size", "menswear", "marked_row"), [
    ("M", False, ("M", "165/88A", "6", "38", "10")),
    ("2XL", True, ("2XL", "180/100A", "44", "54", "44")),
    ("170/92B", False, ("L", "170/92B", "8", "40", "12")),
    ("155/80Y", True, ("XS", "155/80Y", "34", "44", "34")),
    ("190/108A", False, ("4XL", "190/108A", "16", "48", "20")),  # a mix-up's neighbour past the run's end
])
def test_the_conversion_tables_marked_row_holds_the_garments_size_in_every_system(size, menswear, marked_row):
    for seed in range(6):
        rows, marked = conversion_rows(size, menswear, np.random.default_rng(seed))
        assert len(rows) == 5 and rows[marked] == marked_row
        assert len({row[0] for row in rows}) == 5  # five sizes of one run, no size twice
        assert ("XXS" in {row[0] for row in rows}) == (size == "XXS") and ("4XL" in {row[0] for row in rows}) == (
            size.startswith("190/"))  # a run's extra ends only where the garment's size is one


def test_a_fold_keeps_the_crease_in_place_and_foreshortens_the_panel_turned_further():
    x, scale = fold_map(1000, 500.0, math.radians(5), math.radians(40), 2500.0)
    assert float(x(500.0)) == pytest.approx(0.0)
    left_width, right_width = float(x(500.0) - x(0.0)), float(x(1000.0) - x(500.0))
    assert right_width < 0.9 * left_width  # the steeper panel is seen narrower, though its edge is nearer
    xs = x(np.linspace(0, 1000, 101))
    assert np.all(np.diff(xs) > 0)  # nothing folds over: every column lands right of the one before
    assert float(scale(1000.0)) == pytest.approx(1.0) and float(scale(500.0)) < 1.0  # rows taper to the crease


def test_the_folded_card_is_darker_on_one_panel_and_its_code_stays_on_the_card():
    values = random_values(np.random.default_rng(4))
    art = DESIGNS["fold_across"](4, values, 8.0)
    x1, y1, x2, y2 = art.barcodes[0].box
    h, w = art.rgba.shape[:2]
    assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
    assert w < 112 * 8.0 - 8  # two 56 mm panels, at least one seen foreshortened
    paper = art.rgba[..., :3].astype(np.float32).mean(axis=2)
    band = slice(int(0.05 * h), int(0.12 * h))
    left, right = np.median(paper[band, : w // 4]), np.median(paper[band, 3 * w // 4:])
    assert abs(left - right) > 5  # the panels meet the lamp at different angles


@pytest.mark.parametrize(("price", "yen", "won"), [("399.00", 8390, 76000), ("69.90", 1490, 14000),
                                                   ("1299.00", 27290, 247000)])
def test_the_yen_and_won_prices_are_another_amount_than_the_yuan_price(price, yen, won):
    assert yen_price(price) == yen and won_price(price) == won
    assert yen != round(float(price)) and won != round(float(price))


@pytest.mark.parametrize("size", ["155/80A", "185/104B", "XS", "3XL", "2XL"])
def test_every_neighbour_a_mix_up_gives_is_printed_too(size):
    for seed in range(8):
        wrong = neighbour_size(np.random.default_rng(seed), size)
        rows, marked = conversion_rows(wrong, seed % 2 == 0, np.random.default_rng(seed))
        assert wrong in rows[marked] and letter_of(wrong) in rows[marked]


def test_the_export_tag_prints_the_yen_price_with_the_same_sign_but_only_the_yuan_price_in_the_truth():
    for seed in range(1, 9):
        values = random_values(np.random.default_rng(seed))
        art = DESIGNS["east_asia_export"](seed, values, 6.0)
        assert price_amount(art.fields["price"]) == price_amount(values.price)
        assert set(art.fields) >= set(AS_THE_RECIPE) | {"price", "ean13", "brand"}
        assert letter_of(values.size) in ("XS", "S", "M", "L", "XL", "XXL", "2XL", "3XL")


def test_every_character_the_twentyfourth_designs_print_exists_in_the_faces_that_print_it():
    from training.tagsets import fonts, twentyfourth_designs

    chars = source_characters(twentyfourth_designs, "—…→·×±¥°−")
    hangul = [c for c in chars if 0xAC00 <= ord(c) <= 0xD7A3]
    assert len(hangul) > 20 and len(chars) - len(hangul) > 20
    assert_every_font_prints(c for c in chars if c not in hangul)
    box_of = {name: np.asarray(fonts.font(name, 40).getmask("\U000F0000")).tobytes() for name in HANGUL_FACES}
    for name in HANGUL_FACES:
        face = fonts.font(name, 40)
        assert not [c for c in hangul if np.asarray(face.getmask(c)).tobytes() == box_of[name]], name
