"""The three designs added in the twenty-sixth session: print processes that change how the characters look (labels
reversed out of solid cells beside values off register, a halftone photograph under the print, letterpress)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.tagset_groups import (assert_every_font_prints, check_defects_planted_where_the_truth_says,
                                 check_deterministic_with_one_ean, check_one_seed_one_card, printed_cards,
                                 source_characters)
from tests.test_tagsets import price_amount
from training.tagsets import DESIGNS
from training.tagsets.twentythird_designs import debossed, halftone, letterpress_ink, spread
from training.tagsets.values import random_values

TWENTYTHIRD = ("reverse_cells", "halftone_photo", "letterpress")
AS_THE_RECIPE = ("product_name", "style_number", "color", "size", "composition", "grade", "standard",
                 "safety_category")


def test_twentythird_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    check_deterministic_with_one_ean(tmp_path, TWENTYTHIRD, 231)


def test_twentythird_designs_plant_every_defect_kind_where_the_truth_says_and_count_no_qr_code(tmp_path):
    check_defects_planted_where_the_truth_says(tmp_path, TWENTYTHIRD, 232)


@pytest.mark.parametrize("seed", range(1, 25))
def test_each_design_prints_the_recipes_values_and_its_price(seed):
    for design, art, values in printed_cards(TWENTYTHIRD, seed, AS_THE_RECIPE):
        assert price_amount(art.fields["price"]) == price_amount(values.price), (design, seed)
        assert art.fields["ean13"] == values.ean13


@pytest.mark.parametrize("design", TWENTYTHIRD)
def test_one_seed_draws_one_card_and_another_seed_another(design):
    check_one_seed_one_card(design)


def test_the_labels_are_reversed_out_of_dark_cells_and_the_values_sit_dark_on_paper():
    values = random_values(np.random.default_rng(3))
    art = DESIGNS["reverse_cells"](3, values, 10.0)
    grey = art.rgba[..., :3].astype(np.float32).mean(axis=2)
    paper = float(np.median(grey[grey > 200]))
    # the first row's label cell (x 3…19 mm, y 25…30 mm) is mostly the form's ink; its value cell mostly paper
    label_cell, value_cell = grey[255:290, 40:150], grey[255:290, 230:540]
    assert np.mean(label_cell < paper - 80) > 0.6
    assert np.mean(value_cell > paper - 40) > 0.7 and value_cell.min() < 90


def test_a_solids_spread_chokes_a_reversed_stroke_and_a_wider_spread_chokes_it_more():
    solid = np.ones((20, 40), np.float32)
    solid[:, 18:22] = 0.0  # a white stroke four pixels wide reversed out of the solid
    gaps = [float((1.0 - spread(solid, px)[10]).sum()) for px in (0.0, 0.5, 1.0, 1.5)]
    assert gaps[0] == pytest.approx(4.0)
    assert gaps[0] > gaps[1] > gaps[2] > gaps[3] >= 0.9


@pytest.mark.parametrize("tone", [0.1, 0.3, 0.5])
def test_a_halftone_covers_as_much_of_the_paper_as_its_tone_asks(tone):
    cover = halftone(np.full((400, 400), tone, np.float32), 16.0, 85.0, 45.0, np.random.default_rng(0))
    assert float(cover.mean()) == pytest.approx(tone, abs=0.06)
    assert 0.0 < float(np.mean((cover > 0.05) & (cover < 0.95))) < 0.6  # dots with edges, not a flat tint


def test_the_halftone_leaves_the_codes_zone_clear():
    values = random_values(np.random.default_rng(5))
    art = DESIGNS["halftone_photo"](5, values, 10.0)
    x1, y1, x2, y2 = (int(round(c)) for c in art.barcodes[0].box)
    quiet = art.rgba[y1:y2, max(0, x1 - 20):x1 - 2, :3].astype(np.float32)
    assert quiet.size and quiet.std() < 4.0  # the clear zone: paper only, no screen dots


def test_letterpress_ink_is_uneven_but_never_thin_outside_the_salt_and_the_bite_lights_one_edge():
    cover = np.zeros((120, 120), np.float32)
    cover[30:90, 30:90] = 1.0
    ink = letterpress_ink(cover, 16.0, np.random.default_rng(0))
    inside = ink[34:86, 34:86]
    assert inside.std() > 0.03 and np.mean(inside >= 0.55) > 0.85 and ink[:20].max() == 0.0
    assert ink[30:90, 30].mean() > inside.mean()  # the ink squeezed to the stroke's edge
    lit = debossed(np.full((120, 120, 3), 200.0, np.float32), cover, 16.0, 0.15, 0.0)[..., 0]
    assert lit[60, 24:36].max() > 201.0 and lit[60, 84:96].min() < 199.0 or \
        lit[60, 24:36].min() < 199.0 and lit[60, 84:96].max() > 201.0


def test_every_character_the_twentythird_designs_print_exists_in_every_font():
    from training.tagsets import twentythird_designs

    chars = source_characters(twentythird_designs, "—…→·×±¥°−")
    assert len(chars) > 20
    assert_every_font_prints(chars)
