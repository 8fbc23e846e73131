"""The three designs added in the twenty-fifth session: a colour code beside the name, a grouped style number, a
three-fibre blend printed with its lining."""

from __future__ import annotations

import numpy as np
import pytest

from tests.tagset_groups import (check_defects_planted_where_the_truth_says, check_deterministic_with_one_ean,
                                 check_one_seed_one_card, assert_every_font_prints,
                                 source_characters)
from tests.test_tagsets import price_amount, truth_rows
from training.tagsets import DESIGNS
from training.tagsets.canvas import MIN_PRINT_MM
from training.tagsets.designs import JOB_VALUES
from training.tagsets.twentyfirst_designs import blend_print, colour_print, grouped, grouped_money
from training.tagsets.values import random_values
from training.tagsets.writer import _recipe_form, generate

TWENTYFIRST = ("colour_code", "grouped_style", "blend_lining")
AS_THE_RECIPE = ("product_name", "grade", "standard", "safety_category")


def _job(design: str, seed: int):
    rng = np.random.default_rng(seed)
    values = random_values(rng)
    return JOB_VALUES[design](rng, values) if design in JOB_VALUES else values


def test_twentyfirst_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    check_deterministic_with_one_ean(tmp_path, TWENTYFIRST, 211)


def test_twentyfirst_designs_plant_every_defect_kind_where_the_truth_says_and_count_no_qr_code(tmp_path):
    check_defects_planted_where_the_truth_says(tmp_path, TWENTYFIRST, 212)


@pytest.mark.parametrize("seed", range(1, 31))
def test_each_design_prints_its_field_in_its_own_grammar_and_the_truth_gives_the_recipes_form(seed):
    for design in TWENTYFIRST:
        values = _job(design, seed)
        art = DESIGNS[design](seed, values, 10.0)
        assert art.smallest_print_px >= MIN_PRINT_MM * 10.0, (design, seed)
        for name in AS_THE_RECIPE:
            assert art.fields[name] == getattr(values, name), (design, seed, name)
        for name in ("style_number", "color", "composition", "size"):
            assert _recipe_form(name, art.fields[name], values) == getattr(values, name), (design, seed, name)
        assert price_amount(art.fields["price"]) == price_amount(values.price)
    assert DESIGNS["colour_code"](seed, values, 10.0).fields["color"] != values.color
    assert "%" in DESIGNS["blend_lining"](seed, _job("blend_lining", seed), 10.0).fields["composition"]


@pytest.mark.parametrize(("name", "form", "printed"), [
    ("藏青", "c_code", "C{} 藏青"), ("藏青", "hash", "{}#藏青"), ("藏青", "after", "藏青（C{}）"), ("藏青", "digits", "{} 藏青"),
])
def test_a_colour_prints_with_its_makers_code_and_keeps_it_on_every_style(name, form, printed):
    from training.tagsets.twentyfirst_designs import COLOUR_CODE

    assert colour_print(name, form) == printed.format(COLOUR_CODE[name])
    assert len(set(COLOUR_CODE.values())) == len(COLOUR_CODE)


@pytest.mark.parametrize(("number", "printed"), [
    ("10350218", "1035 02 18"), ("2410350218", "24 1035 02 18"), ("2024/AW-1035", "2024/AW-1035"),
    ("24SS/1035/02", "24SS/1035/02"), ("KX-2188-05", "KX-2188-05"),
])
def test_a_digits_only_style_number_is_grouped_and_any_other_printed_as_it_is(number, printed):
    assert grouped(number) == printed


@pytest.mark.parametrize(("form", "printed"), [
    ("glued", "棉65% 聚酯纤维30% 氨纶5%"), ("share_first", "65%棉 30%聚酯纤维 5%氨纶"),
    ("slashes", "棉65%/聚酯纤维30%/氨纶5%"),
])
def test_a_blend_prints_in_fz_t_01053_forms_and_reads_back_as_the_recipes(form, printed):
    assert blend_print("棉 65% 聚酯纤维 30% 氨纶 5%", form) == printed
    assert _recipe_form("composition", printed, random_values(np.random.default_rng(0)).replace(
        composition="棉 65% 聚酯纤维 30% 氨纶 5%")) == "棉 65% 聚酯纤维 30% 氨纶 5%"


def test_a_blend_of_other_shares_keeps_its_print_in_the_truth():
    values = random_values(np.random.default_rng(0)).replace(composition="棉 65% 聚酯纤维 30% 氨纶 5%")
    assert _recipe_form("composition", "棉60% 聚酯纤维35% 氨纶5%", values) == "棉60% 聚酯纤维35% 氨纶5%"


@pytest.mark.parametrize(("price", "form", "printed"), [
    ("1299.00", "yuan", "1,299.00元"), ("1299.00", "yen", "¥1,299.00"), ("399.00", "yuan", "399.00元"),
])
def test_a_price_is_printed_with_a_thousands_separator(price, form, printed):
    assert grouped_money(price, form) == printed


def test_grouped_style_numbers_come_in_both_schemes_and_blends_have_three_fibres():
    numbers = {_job("grouped_style", s).style_number for s in range(60)}
    assert any(n.isdigit() and len(n) == 8 for n in numbers) and any(n.isdigit() and len(n) == 10 for n in numbers)
    assert any("/" in n for n in numbers)
    assert all(_job("blend_lining", s).composition.count("%") == 3 for s in range(30))


def test_a_wrong_colour_or_style_number_is_printed_in_the_designs_grammar_and_its_truth_is_the_wrong_value(tmp_path):
    generate(tmp_path, 60, 213, defect_share=0.5, designs=["colour_code", "grouped_style"])
    seen = set()
    for row in truth_rows(tmp_path):
        defect = row["defect"]
        if not defect or (defect["field"], row["design"]) not in {("color", "colour_code"), ("style_number", "grouped_style")}:
            continue
        (tag,) = row["tags"]
        printed, value = tag["fields"][defect["field"]], tag["values"][defect["field"]]
        if defect["field"] == "color":
            assert value in printed and value not in defect["expected"] and printed != value, row["image"]
        else:
            assert value == printed.replace(" ", "") != defect["expected"].replace(" ", ""), row["image"]
            assert " " in printed or "/" in printed, printed
        seen.add(row["design"])
    assert seen == {"colour_code", "grouped_style"}


@pytest.mark.parametrize("design", TWENTYFIRST)
def test_one_seed_draws_one_card_and_another_seed_another(design):
    check_one_seed_one_card(design)


def test_every_character_the_twentyfirst_designs_print_exists_in_every_font():
    from training.tagsets import twentyfirst_designs

    chars = source_characters(twentyfirst_designs, "—…→·×±¥")
    assert len(chars) > 20
    assert_every_font_prints(chars)
