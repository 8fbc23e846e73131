"""The three designs added in the twenty-third session: full-width print, a correction sticker, a tag upside down."""

from __future__ import annotations

import unicodedata

import numpy as np
import pytest

from tests.tagset_groups import (assert_every_font_prints, check_defects_planted_where_the_truth_says,
                                 check_one_seed_one_card, source_characters)
from tests.test_tagsets import deterministic_rows, price_amount

from training.tagsets import DESIGNS  # noqa: E402  (test_tagsets skips the module where the fonts are missing)
from training.tagsets.canvas import MIN_PRINT_MM  # noqa: E402
from training.tagsets.designs import HUNG_UPSIDE_DOWN  # noqa: E402
from training.tagsets.values import random_values  # noqa: E402

SIXTEENTH = ("fullwidth_print", "correction_sticker", "hung_upside_down")
JUDGED = ("product_name", "style_number", "color", "size", "composition", "grade", "standard", "safety_category")


def nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def test_sixteenth_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    for row in deterministic_rows(tmp_path, SIXTEENTH, 161):
        (tag,) = row["tags"]
        assert [c["format"] for c in tag["barcodes"]] == ["EAN-13"]
        assert tag["barcodes"][0]["text"] == tag["fields"]["ean13"]
        assert tag["qr"] == []
        for name in JUDGED:  # truth's values in the recipe's form: a full-width print folded
            assert tag["values"][name] == nfkc(tag["fields"][name]), (row["design"], name)
        if row["design"] == "fullwidth_print":
            assert tag["fields"]["standard"] != tag["values"]["standard"]
        if row["bucket"] == "nominal":
            assert row["condition"]["smallest_print_px"] >= 5.0, (row["image"], row["design"])


def test_the_upside_down_tag_is_photographed_turned_150_to_210_degrees_and_the_others_upright(tmp_path):
    rows = deterministic_rows(tmp_path, SIXTEENTH, 162)
    for row in rows:
        (tag,) = row["tags"]
        quad = np.asarray(tag["quad"])  # clockwise from the card's own top-left
        turn = row["condition"]["rotation_deg"]
        if row["design"] in HUNG_UPSIDE_DOWN:
            assert 150.0 <= turn <= 210.0
            assert quad[0][1] > quad[3][1] and quad[1][1] > quad[2][1]  # its top edge lies below its foot
        else:
            assert -35.0 <= turn <= 35.0
            assert quad[0][1] < quad[3][1] and quad[1][1] < quad[2][1]
    assert any(r["design"] in HUNG_UPSIDE_DOWN for r in rows)


def test_sixteenth_designs_plant_every_defect_kind_where_the_truth_says_and_count_no_qr_code(tmp_path):
    check_defects_planted_where_the_truth_says(tmp_path, SIXTEENTH, 163)


@pytest.mark.parametrize("seed", range(1, 31))
def test_sixteenth_designs_print_the_recipes_values_and_never_below_the_smallest_legal_print(seed):
    values = random_values(np.random.default_rng(seed))
    for design in SIXTEENTH:
        art = DESIGNS[design](seed, values, 10.0)
        assert art.smallest_print_px >= MIN_PRINT_MM * 10.0, (design, seed)
        for name in JUDGED:
            assert nfkc(art.fields[name]) == getattr(values, name), (design, seed, name)
        assert price_amount(art.fields["price"]) == price_amount(values.price)


@pytest.mark.parametrize("seed", range(12))
def test_the_full_width_tag_prints_no_ascii_letter_or_digit_in_a_value(seed):
    values = random_values(np.random.default_rng(seed))
    art = DESIGNS["fullwidth_print"](seed, values, 6.0)
    for name in ("style_number", "size", "composition", "standard", "safety_category", "price"):
        assert not any(c.isascii() and c.isalnum() for c in art.fields[name]), (name, art.fields[name])


@pytest.mark.parametrize(("text", "printed"), [
    ("GB/T 2664-2017", "ＧＢ／Ｔ\u3000２６６４－２０１７"), ("170/92A", "１７０／９２Ａ"), ("¥399.00", "￥３９９．００"),
    ("棉 95% 氨纶 5%", "棉\u3000９５％\u3000氨纶\u3000５％"), ("KX-2031", "ＫＸ－２０３１"),
])
def test_full_width_print_folds_back_to_the_recipes_value(text, printed):
    from training.tagsets.sixteenth_designs import fullwidth

    assert fullwidth(text) == printed
    assert nfkc(printed) == text


@pytest.mark.parametrize("seed", range(40))
def test_the_correction_sticker_covers_the_old_value_but_a_sliver_and_reprints_another(seed):
    from training.tagsets.canvas import Card
    from training.tagsets.fonts import font_names
    from training.tagsets.sixteenth_designs import _ink_box, _old_value, _sticker

    rng = np.random.default_rng(seed)
    values = random_values(rng)
    name = ("size", "price")[seed % 2]
    old = _old_value(rng, name, values)
    assert old != getattr(values, name)
    face = font_names()[seed % len(font_names())]
    old_box = _ink_box(Card(60, 40, 10.0, (255, 255, 255)), 10, 10, old, 3.4, face)
    sticker, cx, cy = _sticker(old_box, getattr(values, name), 10.0, rng, face, (0, 0, 0), 3.4)
    left, top = cx - sticker.width_mm / 2, cy - sticker.height_mm / 2
    right, bottom = left + sticker.width_mm, top + sticker.height_mm
    slivers = [top - old_box[1], old_box[3] - bottom, left - old_box[0], old_box[2] - right]
    assert max(slivers) <= 0.31  # no more than the edge of the old ink shows
    assert sum(s > 0 for s in slivers) <= 1
    assert sticker.smallest_print_px >= MIN_PRINT_MM * 10.0 - 1


@pytest.mark.parametrize("design", SIXTEENTH)
def test_one_seed_draws_one_card_and_another_seed_another(design):
    check_one_seed_one_card(design)


def test_every_character_the_sixteenth_designs_print_exists_in_every_font():
    from training.tagsets import sixteenth_designs
    from training.tagsets.sixteenth_designs import fullwidth

    chars = source_characters(sixteenth_designs, "—…→·×±") + list(
        fullwidth("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/-.%¥:,"))
    assert len(chars) > 60
    assert_every_font_prints(chars)
