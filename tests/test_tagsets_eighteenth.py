"""The three designs added in the twenty-fourth session: a tag inside its polybag, held by an operator's thumbs, and
stamped in foil on dark card."""

from __future__ import annotations

import numpy as np
import pytest

from tests.tagset_groups import (assert_every_font_prints, check_defects_planted_where_the_truth_says,
                                 check_deterministic_with_one_ean, check_one_seed_one_card, printed_cards)
from tests.test_tagsets import price_amount

EIGHTEENTH = ("polybag_sealed", "held_fingers", "foil_stamped")
JUDGED = ("product_name", "style_number", "color", "size", "composition", "grade", "standard", "safety_category")


def test_eighteenth_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    check_deterministic_with_one_ean(tmp_path, EIGHTEENTH, 181)


def test_eighteenth_designs_plant_every_defect_kind_where_the_truth_says_and_count_no_qr_code(tmp_path):
    check_defects_planted_where_the_truth_says(tmp_path, EIGHTEENTH, 182)


@pytest.mark.parametrize("seed", range(1, 31))
def test_eighteenth_designs_print_the_recipes_values_and_never_below_the_smallest_legal_print(seed):
    for _design, art, values in printed_cards(EIGHTEENTH, seed, JUDGED):
        assert price_amount(art.fields["price"]) == price_amount(values.price)


@pytest.mark.parametrize("design", EIGHTEENTH)
def test_one_seed_draws_one_card_and_another_seed_another(design):
    check_one_seed_one_card(design)


def test_the_bag_prints_the_suffocation_warning_word_for_word():
    from training.tagsets.eighteenth_designs import BAG_WARNING

    assert "".join(BAG_WARNING) == "警告：请将包装袋远离婴儿及儿童，以免发生窒息危险"


def test_a_crease_glares_no_brighter_than_its_peak_and_only_along_its_line():
    from training.tagsets.eighteenth_designs import crease_cover

    glare, shoulder = crease_cover((400, 200), 4.0, (0.0, 50.0), (50.0, 50.0), 0.0, 0.6, 0.45)
    assert glare.max() <= 0.45 + 1e-6 and glare.max() > 0.3
    assert glare[:100].max() < 0.01 and glare[300:].max() < 0.01  # 25 mm off the crease: nothing
    assert shoulder.max() > 0.3


def _rows_card(seed: int):
    from training.tagsets.canvas import Card
    from training.tagsets.fonts import font_names
    from training.tagsets.layout import BLACK, ean_block
    from training.tagsets.seventh_designs import field_rows, printed_rows
    from training.tagsets.values import random_values

    rng = np.random.default_rng(seed)
    values = random_values(rng)
    card = Card(50, 100, 6.0, (250, 250, 250))
    boxes, _ = printed_rows(card, 5, 22.0, field_rows(values, rng), 2.9, 4.8, BLACK, BLACK, font_names()[0],
                            font_names()[0], 41)
    ean_block(card, values.ean13, 7, 77.0, 36, 9.0, BLACK, font_names()[0])
    return card, boxes


def test_a_thumb_holds_the_card_off_every_value_and_the_code():
    from training.tagsets.eighteenth_designs import place_thumb

    placed = 0
    for seed in range(10):
        card, boxes = _rows_card(seed)
        taken = np.zeros((card.image.size[1], card.image.size[0]), np.float32)
        spot = place_thumb(card, boxes, card.barcodes[0].box, taken, 17.0, np.random.default_rng(seed))
        if spot is None:
            continue
        placed += 1
        cover = spot[3]
        assert cover.max() >= 0.5
        for x1, y1, x2, y2 in boxes.values():
            assert cover[card.px(y1):card.px(y2), card.px(x1):card.px(x2)].max(initial=0.0) <= 0.02
        bx1, by1, bx2, by2 = (int(v) for v in card.barcodes[0].box)
        assert cover[by1:by2, bx1:bx2].max() <= 0.02
    assert placed >= 7


@pytest.mark.parametrize("seed", range(6))
def test_foil_catches_the_lamp_in_a_band_and_falls_to_the_cards_tone_elsewhere(seed):
    from training.tagsets.eighteenth_designs import foil_light

    light = foil_light((960, 540), 10.0, np.random.default_rng(seed))
    assert 0.0 <= light.min() and light.max() <= 1.0
    assert light.max() > 0.85 and light.min() < 0.35


def test_every_character_the_eighteenth_designs_print_exists_in_every_font():
    from training.tagsets import eighteenth_designs

    chars = {c for c in "".join(eighteenth_designs.BAG_WARNING) + "：零售价吊牌价" if ord(c) > 127}
    assert len(chars) > 20
    assert_every_font_prints(chars)
