"""The three designs added in the twenty-sixth session, each printing two candidates for one field: a retail price
beside an offer price, the product standard beside GB 18401's, the product's EAN-13 beside the shop's own code."""

from __future__ import annotations

import numpy as np
import pytest

from tests.tagset_groups import (assert_every_font_prints, check_defects_planted_where_the_truth_says,
                                 check_deterministic_with_one_ean, check_one_seed_one_card, printed_cards,
                                 source_characters)
from tests.test_tagsets import deterministic_rows, price_amount, rows_with_planted_defects
from training.tagsets import DESIGNS
from training.tagsets.twentysecond_designs import offer_price, sku, store_code
from training.tagsets.values import PRICES, random_values

TWENTYSECOND = ("promo_price", "standards_line", "twin_codes")
ONE_CODE = ("promo_price", "standards_line")
AS_THE_RECIPE = ("product_name", "style_number", "color", "size", "composition", "grade", "standard",
                 "safety_category")


def test_the_one_code_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    check_deterministic_with_one_ean(tmp_path, ONE_CODE, 221)


def test_the_one_code_designs_plant_every_defect_kind_where_the_truth_says(tmp_path):
    check_defects_planted_where_the_truth_says(tmp_path, ONE_CODE, 222)


def test_twin_codes_carries_the_products_ean_and_the_shops_code_and_its_recipe_counts_both(tmp_path):
    rows = deterministic_rows(tmp_path, ["twin_codes"], 223)
    shop_formats = set()
    for row in rows:
        (tag,) = row["tags"]
        product, shop = tag["barcodes"]
        assert product["format"] == "EAN-13" and product["text"] == tag["fields"]["ean13"]
        assert shop["text"] != product["text"]
        if shop["format"] == "EAN-13":  # GS1 restricted circulation: never a product's GTIN
            assert shop["text"][0] == "2" and len(shop["text"]) == 13
        else:
            assert shop["format"] == "Code128" and shop["text"].isdigit() and len(shop["text"]) == 10
        shop_formats.add(shop["format"])
    assert shop_formats == {"EAN-13", "Code128"}


def test_a_wrong_ean_on_twin_codes_is_the_products_code_and_the_shops_code_follows_it(tmp_path):
    seen = 0
    for row in rows_with_planted_defects(tmp_path, ["twin_codes"], 224):
        defect = row["defect"]
        if defect and defect["field"] == "ean13":
            (tag,) = row["tags"]
            assert tag["barcodes"][0]["text"] == defect["printed"] != defect["expected"]
            assert defect["expected"] not in {c["text"] for c in tag["barcodes"]}
            seen += 1
    assert seen


@pytest.mark.parametrize("seed", range(1, 25))
def test_each_design_prints_the_recipes_values_and_its_price_is_the_retail_one(seed):
    for design, art, values in printed_cards(TWENTYSECOND, seed, AS_THE_RECIPE):
        assert price_amount(art.fields["price"]) == price_amount(values.price), (design, seed)


@pytest.mark.parametrize("price", PRICES)
@pytest.mark.parametrize("discount", ("9折", "8.5折", "8折", "7.5折", "7折", "6折", "5折"))
def test_an_offer_price_is_lower_whole_yuan_and_never_a_price_the_value_list_holds(price, discount):
    offer = offer_price(price, discount)
    assert offer.endswith(".00") and offer not in PRICES
    assert float(offer) < float(price) and float(offer) <= float(price) * float(discount.rstrip("折")) / 10


@pytest.mark.parametrize(("price", "discount", "offer"), [("399.00", "8折", "319.00"), ("1299.00", "7.5折", "974.00"),
                                                           ("69.90", "5折", "34.00")])
def test_an_offer_price_is_the_discount_cut_to_whole_yuan(price, discount, offer):
    assert offer_price(price, discount) == offer


def test_the_shops_codes_are_valid_and_follow_the_item():
    values = random_values(np.random.default_rng(3))
    code = store_code(values.ean13)
    check = (10 - sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(code[:12])) % 10) % 10
    assert code[0] == "2" and int(code[12]) == check
    assert sku(values) != sku(values.replace(style_number=values.style_number + "1"))
    assert sku(values) != sku(values.replace(color="黑色" if values.color != "黑色" else "白色"))


@pytest.mark.parametrize("design", TWENTYSECOND)
def test_one_seed_draws_one_card_and_another_seed_another(design):
    check_one_seed_one_card(design)


def test_the_designs_are_registered_with_an_ean13():
    from training.tagsets.designs import BARCODE_OF

    assert all(BARCODE_OF[d] == "EAN-13" and d in DESIGNS for d in TWENTYSECOND)


def test_every_character_the_twentysecond_designs_print_exists_in_every_font():
    from training.tagsets import twentysecond_designs

    chars = source_characters(twentysecond_designs, "—…→·×±¥°")
    assert len(chars) > 20
    assert_every_font_prints(chars)
