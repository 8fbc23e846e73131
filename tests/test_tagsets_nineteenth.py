"""The three designs added in the twenty-fourth session: sizes by a child's height, a jeans waist, a bra's cup."""

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
from training.tagsets.values import neighbour_size, random_values
from training.tagsets.writer import generate

NINETEENTH = ("kids_height", "jeans_waist", "bra_cup")
JUDGED = ("product_name", "style_number", "color", "composition", "grade", "standard", "safety_category")


def test_nineteenth_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    check_deterministic_with_one_ean(tmp_path, NINETEENTH, 191)


def test_nineteenth_designs_plant_every_defect_kind_where_the_truth_says_and_count_no_qr_code(tmp_path):
    check_defects_planted_where_the_truth_says(tmp_path, NINETEENTH, 192)


@pytest.mark.parametrize("seed", range(1, 31))
def test_nineteenth_designs_print_the_recipes_values_in_their_own_size_system(seed):
    for design in NINETEENTH:
        rng = np.random.default_rng(seed)
        values = JOB_VALUES[design](rng, random_values(rng))
        art = DESIGNS[design](seed, values, 10.0)
        assert art.smallest_print_px >= MIN_PRINT_MM * 10.0, (design, seed)
        for name in JUDGED:
            assert art.fields[name] == getattr(values, name), (design, seed, name)
        size = art.fields["size"]
        assert size == values.size or size.startswith(values.size + "(") or size.startswith(values.size + "/") \
            or size.startswith(values.size + "（"), (design, size, values.size)
        assert price_amount(art.fields["price"]) == price_amount(values.price)


def test_each_design_draws_its_own_size_system():
    drawn = {d: {JOB_VALUES[d](rng, random_values(rng)).size for rng in map(np.random.default_rng, range(60))}
             for d in NINETEENTH}
    assert all(s.split("/")[0].isdigit() and not s[-1].isalpha() for s in drawn["kids_height"])
    assert any(s.isdigit() for s in drawn["jeans_waist"]) and any(s.startswith("W") for s in drawn["jeans_waist"])
    assert any(s.endswith("A") and "/" in s for s in drawn["jeans_waist"])
    assert all(s[0].isalpha() != s[-1].isalpha() and "/" not in s for s in drawn["bra_cup"])


def test_a_babys_size_is_gb_31701_class_a_and_says_so_on_the_tag():
    for seed in range(40):
        rng = np.random.default_rng(seed)
        values = JOB_VALUES["kids_height"](rng, random_values(rng))
        height = int(values.size.split("/")[0])
        assert values.safety_category.startswith("GB 31701-2015 ")
        assert values.safety_category.endswith("A类") == (height <= 90), values


@pytest.mark.parametrize(("size", "either"), [
    ("29", {"28", "30"}), ("W29 L32", {"W28 L32", "W30 L32"}), ("75B", {"70B", "80B"}), ("B75", {"B70", "B80"}),
    ("110/56", {"100/52", "120/60"}), ("110", {"100", "120"}), ("170/74A", {"165/70A", "175/78A"}),
])
def test_a_wrong_size_is_the_next_size_of_the_same_system(size, either):
    assert {neighbour_size(np.random.default_rng(k), size) for k in range(20)} == either


@pytest.mark.parametrize(("size", "height", "printed"), [
    ("29", 170, (29, 32, "170/74A")), ("W31 L34", 170, (31, 34, "180/78A")), ("175/80A", 165, (32, 32, "175/80A")),
])
def test_a_jeans_tag_prints_the_waist_and_the_hao_xing_of_one_body(size, height, printed):
    from training.tagsets.nineteenth_designs import jeans_sizes

    assert jeans_sizes(size, height) == printed


@pytest.mark.parametrize(("cm", "said"), [(74, "2尺2"), (66, "2尺"), (80, "2尺4"), (90, "2尺7")])
def test_a_waist_in_shi_chi_is_said_as_a_tailor_says_it(cm, said):
    from training.tagsets.nineteenth_designs import shi_chi

    assert shi_chi(cm) == said


def test_older_designs_draw_the_same_jobs_as_before(tmp_path):
    """The size systems are drawn after a job's style seed, for these designs only: an older design's set is
    unchanged (its recipe names a letter size or an adult 号型)."""
    generate(tmp_path, 10, 5, defect_share=0.0, designs=["vertical_classic"])
    rows = truth_rows(tmp_path)
    assert rows[0]["tags"][0]["fields"]["size"] in {"S", "M", "L", "XL", "XXL", "XS", "2XL", "3XL"} or \
        rows[0]["tags"][0]["fields"]["size"][-1] in "ABY"


@pytest.mark.parametrize("design", NINETEENTH)
def test_one_seed_draws_one_card_and_another_seed_another(design):
    check_one_seed_one_card(design)


def test_every_character_the_nineteenth_designs_print_exists_in_every_font():
    from training.tagsets import nineteenth_designs

    chars = source_characters(nineteenth_designs, "—…→·×±¥")
    assert len(chars) > 20
    assert_every_font_prints(chars)


@pytest.mark.parametrize("design", NINETEENTH)
def test_values_drawn_for_another_design_render_with_a_size_of_the_designs_own_system(design):
    from training.tagsets.nineteenth_designs import CUP_SIZE, JEANS_SIZE, KIDS_SIZE

    system = {"kids_height": KIDS_SIZE, "jeans_waist": JEANS_SIZE, "bra_cup": CUP_SIZE}[design]
    for size in ("2XL", "170/92A", "M"):
        values = random_values(np.random.default_rng(3)).replace(size=size)
        printed = DESIGNS[design](5, values, 6.0).fields["size"]
        assert any(system.match(printed[:n]) for n in range(2, len(printed) + 1)), (design, size, printed)
