"""The three designs added in the twenty-ninth session: an export tag with the colour and fibres in European
languages, values overprinted by a thermal-transfer printer with a worn ribbon and dead head elements, a tag set in
a slanted face throughout."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.tagset_groups import (assert_every_font_prints, check_defects_planted_where_the_truth_says,
                                 check_deterministic_with_one_ean, check_one_seed_one_card, printed_cards,
                                 source_characters)
from tests.test_tagsets import price_amount
from training.tagsets import DESIGNS
from training.tagsets.canvas import Card
from training.tagsets.fonts import font_names, latin_font_names
from training.tagsets.twentysixth_designs import (COLOUR_WORDS, FIBRE_WORDS, euro_price, in_language, ribbon_faults,
                                                  slanted_text)
from training.tagsets.values import COLORS, FIBRES, random_values

TWENTYSIXTH = ("euro_export", "ribbon_wrinkle", "slanted_face")
JUDGED = ("product_name", "style_number", "color", "size", "composition", "grade", "standard", "safety_category")


def test_twentysixth_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    check_deterministic_with_one_ean(tmp_path, TWENTYSIXTH, 261)


def test_twentysixth_designs_plant_every_defect_kind_where_the_truth_says_and_count_no_qr_code(tmp_path):
    check_defects_planted_where_the_truth_says(tmp_path, TWENTYSIXTH, 262)


@pytest.mark.parametrize("seed", range(1, 21))
def test_each_design_prints_the_recipes_values_and_its_price(seed):
    for design, art, values in printed_cards(TWENTYSIXTH, seed, JUDGED):
        assert price_amount(art.fields["price"]) == price_amount(values.price), (design, seed)
        assert art.fields["ean13"] == values.ean13, (design, seed)


@pytest.mark.parametrize("design", TWENTYSIXTH)
def test_one_seed_draws_one_card_and_another_seed_another(design):
    check_one_seed_one_card(design)


def test_every_colour_and_fibre_the_values_draw_has_its_european_names():
    assert set(COLOUR_WORDS) == set(COLORS) and set(FIBRE_WORDS) == set(FIBRES)
    assert all(len(words) == 4 for words in (*COLOUR_WORDS.values(), *FIBRE_WORDS.values()))
    assert in_language("棉 95% 氨纶 5%", 0) == "95% COTTON 5% ELASTANE"
    assert in_language("棉 95% 氨纶 5%", 1) == "95% COTON 5% ÉLASTHANNE"
    assert in_language("羊毛 100%", 2) == "100% WOLLE"


def test_a_euro_price_is_about_an_eighth_of_the_yuan_up_to_its_95_cents_with_a_decimal_comma():
    assert euro_price("399.00") == "EUR 49,95"
    assert euro_price("88.00") == "EUR 11,95"  # 11.00 exactly goes up to its ,95
    assert euro_price("1599.00") == "EUR 199,95" and euro_price("69.90") == "EUR 8,95"


def test_the_export_tag_prints_the_colour_twice_apart_the_chinese_row_and_its_european_names():
    # the colour the tag is printed with drives the Latin names: a wrong colour planted on the tag shows in them too
    values = random_values(np.random.default_rng(5))
    a = DESIGNS["euro_export"](5, values, 6.0).rgba
    other = next(c for c in COLORS if COLOUR_WORDS[c][0] != COLOUR_WORDS[values.color][0])
    b = DESIGNS["euro_export"](5, values.replace(color=other), 6.0).rgba
    rows_changed = np.where(np.abs(a[..., :3].astype(int) - b[..., :3]).sum(axis=(1, 2)) > 0)[0]
    assert rows_changed.max() - rows_changed.min() > 20 * 6.0 / 10  # the Chinese row and the Latin lines, apart


def test_ribbon_faults_void_a_line_along_the_feed_but_spare_the_codes_columns():
    shape = (940, 560)  # a 56×94 mm card at 10 px/mm
    for seed in range(12):
        density = ribbon_faults(shape, 10.0, np.random.default_rng(seed), (8.0, 48.0), (22.0, 70.0))
        assert density.min() == 0.0 and density.max() <= 1.0
        dead_columns = np.where(density.max(axis=0) == 0.0)[0]
        assert len(dead_columns) >= 1, seed  # a dead element: no ink top to bottom along the feed
        assert not ((dead_columns >= 79) & (dead_columns <= 481)).any(), seed  # never through the code's columns
        code_rows = density[800:, 80:480]
        assert code_rows.min() >= 0.55  # no wrinkle reaches the code: only the ribbon running low
        voids = float((density == 0.0).mean())
        assert voids < 0.03, (seed, voids)  # narrow faults, not a blank pass


def test_the_ribbon_tag_prints_its_values_thinner_than_a_full_pass_but_keeps_most_ink():
    values = random_values(np.random.default_rng(3))
    art = DESIGNS["ribbon_wrinkle"](3, values, 10.0)
    grey = art.rgba[..., :3].mean(axis=2)
    # the dead elements: columns through the value rows where the overprint's black is nowhere
    rows = grey[220:700]
    blackest = rows.min(axis=0)
    assert (blackest > 150).sum() >= 1
    assert float((rows < 90).mean()) > 0.01  # most values still print dark


def test_slanted_text_leans_its_top_to_the_right_and_keeps_its_foot():
    for face in font_names()[:2] + latin_font_names()[:1]:
        upright, slanted = (Card(40, 12, 10.0, (255, 255, 255)) for _ in range(2))
        slanted_text(upright, 2, 2, "品名 KX", 5.0, (0, 0, 0), face, 0.0)
        slanted_text(slanted, 2, 2, "品名 KX", 5.0, (0, 0, 0), face, 14.0)

        def centre_x(card, top, bottom):
            ink = np.asarray(card.image.convert("L"), np.float32)[top:bottom] < 128
            return np.nonzero(ink)[1].mean()

        shift_top = centre_x(slanted, 20, 40) - centre_x(upright, 20, 40)
        shift_foot = centre_x(slanted, 55, 70) - centre_x(upright, 55, 70)
        assert shift_top > shift_foot + 0.5 * 25 * math.tan(math.radians(14)), face


def test_every_character_the_twentysixth_designs_print_exists_in_every_face():
    from training.tagsets import fonts, twentysixth_designs

    chars = source_characters(twentysixth_designs, "—…→·×±¥°−")
    assert len(chars) > 40 and set("ÉÖÓ") <= set(chars)
    assert_every_font_prints(chars)
    latin = [c for c in chars if ord(c) < 0x2E80]
    for name in fonts.latin_font_names():  # the European lines are set in Liberation
        face = fonts.font(name, 40)
        box = np.asarray(face.getmask("\U000F0000")).tobytes()
        assert not [c for c in latin if np.asarray(face.getmask(c)).tobytes() == box], name
