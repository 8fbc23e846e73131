"""The three designs added in the thirtieth session: one dark ink straight on metallised board, the size printed
huge as the design with every other field in small print, a clear tamper-evident film stuck over the price or the
size."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageFilter

from tests.tagset_groups import (assert_every_font_prints, check_defects_planted_where_the_truth_says,
                                 check_deterministic_with_one_ean, check_one_seed_one_card, printed_cards,
                                 source_characters)
from tests.test_tagsets import price_amount
from training.tagsets import DESIGNS
from training.tagsets.twentyseventh_designs import ROOM_TONE, board_tone, film_cover, film_spot, lay_film
from training.tagsets.values import random_values

TWENTYSEVENTH = ("metallic_board", "big_numerals", "clear_film")
JUDGED = ("product_name", "style_number", "color", "size", "composition", "grade", "standard", "safety_category")


def test_twentyseventh_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    check_deterministic_with_one_ean(tmp_path, TWENTYSEVENTH, 271)


def test_twentyseventh_designs_plant_every_defect_kind_where_the_truth_says_and_count_no_qr_code(tmp_path):
    check_defects_planted_where_the_truth_says(tmp_path, TWENTYSEVENTH, 272)


@pytest.mark.parametrize("seed", range(1, 21))
def test_each_design_prints_the_recipes_values_and_its_price(seed):
    for design, art, values in printed_cards(TWENTYSEVENTH, seed, JUDGED):
        assert price_amount(art.fields["price"]) == price_amount(values.price), (design, seed)
        assert art.fields["ean13"] == values.ean13, (design, seed)


@pytest.mark.parametrize("design", TWENTYSEVENTH)
def test_one_seed_draws_one_card_and_another_seed_another(design):
    check_one_seed_one_card(design)


def test_metallised_board_is_bright_only_in_the_lamps_band_and_never_darker_than_the_room():
    for seed in range(8):
        tone, light = board_tone((960, 540), 10.0, (238, 240, 244), np.random.default_rng(seed))
        grey = tone.mean(axis=2)
        assert grey.min() >= ROOM_TONE[0] * 0.8  # the brushing's streaks aside, the room's grey at least
        bright, dim = grey[light > 0.9], grey[light < 0.3]
        assert bright.size and bright.mean() > 200, seed  # a mirror: white where it catches the lamp
        assert not dim.size or dim.mean() < 170, seed  # and the room's grey where it faces away


def test_print_on_metallised_board_stays_dark_against_the_board_where_the_board_is_darkest():
    for seed in range(6):
        values = random_values(np.random.default_rng(seed))
        grey = DESIGNS["metallic_board"](seed, values, 10.0).rgba[..., :3].astype(np.float32).mean(axis=2)
        rows = grey[215:700, 50:500]  # the colon rows
        ink, board = np.percentile(rows, 2), np.percentile(rows, 50)
        assert board - ink > 50, (seed, board, ink)  # the print keeps at least 50 levels off the board


def test_the_big_size_is_printed_many_times_taller_than_the_other_fields():
    for seed, size in ((1, "XL"), (2, "M"), (3, "170/92A")):
        values = random_values(np.random.default_rng(seed)).replace(size=size)
        grey = DESIGNS["big_numerals"](seed, values, 10.0).rgba[..., :3].astype(np.float32).mean(axis=2)
        inked_rows = np.nonzero((grey[120:600] < 140).sum(axis=1) > 3)[0] + 120
        runs = np.split(inked_rows, np.nonzero(np.diff(inked_rows) > 1)[0] + 1)
        tallest = max(len(r) for r in runs) / 10.0  # mm
        assert tallest > (18.0 if size.isalpha() else 8.0), (size, tallest)


def test_a_clear_film_leaves_the_values_under_it_readable_and_marks_its_edge():
    from training.tagsets.canvas import Card

    card = Card(50, 20, 10.0, (200, 200, 200))  # a grey card, where a bright rim shows too
    card.text(4, 7, "¥399.00", 5.0, (24, 24, 28), "wqy-zenhei")
    before = np.asarray(card.image, np.float32).mean(axis=2)
    cover = film_cover((200, 500), 10.0, (25, 10), (40, 14), 2.0, 1.5)
    assert cover.max() == 1.0 and 0.45 < cover.mean() < 0.65
    lay_film(card, cover, np.random.default_rng(4), None)
    after = np.asarray(card.image, np.float32).mean(axis=2)
    inside = cover > 0.99
    ink = before < 100
    assert (after[inside & ink].mean() - before[inside & ink].mean()) < 90  # the print shows through, darker than
    assert after[inside & ~ink].mean() - after[inside & ink].mean() > 100  # the film's paper by a wide margin
    edge = (cover > 0.05) & (cover < 0.95)
    near = np.asarray(Image.fromarray((edge * 255).astype(np.uint8)).filter(ImageFilter.MaxFilter(7))) > 0
    change = (after - before)[near & ~ink]
    assert change.max() > 25 and change.min() < -15  # the cut edge: lit on the lamp's side, its shadow on the other


def test_the_film_lies_over_the_value_it_seals_and_never_reaches_the_code():
    price = (20.0, 62.0, 38.0, 67.0)
    for seed in range(40):
        (cx, cy), (fw, fh), angle = film_spot(price, 54.0, 80.0, np.random.default_rng(seed))
        cover = film_cover((980, 540), 10.0, (cx, cy), (fw, fh), angle, 1.5)
        assert cover[int(price[1] * 10):int(price[3] * 10), int(price[0] * 10):int(price[2] * 10)].mean() > 0.5, seed
        assert cover[790:].max() == 0.0, seed  # nothing within 1 mm of the code's top


def test_every_character_the_twentyseventh_designs_print_exists_in_every_face():
    from training.tagsets import twentyseventh_designs

    chars = source_characters(twentyseventh_designs, "—…→·×±¥°−")
    assert len(chars) > 10
    assert_every_font_prints(chars)
