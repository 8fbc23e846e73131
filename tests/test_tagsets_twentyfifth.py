"""The three designs added in the twenty-eighth session: a shoe's hangtag (a shoe size or mm, materials by part, no
安全类别), a tag partly in a shadow (a hanger's edge, a bar, a hand), a tag seen at a steep angle (turned 30-48°)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.tagset_groups import (assert_every_font_prints, check_defects_planted_where_the_truth_says,
                                 check_one_seed_one_card, source_characters)
from tests.test_tagsets import assert_recipes_describe_the_correct_tags, price_amount, truth_rows
from training.tagsets import DESIGNS
from training.tagsets.canvas import MIN_PRINT_MM
from training.tagsets.designs import JOB_VALUES
from training.tagsets.twentyfifth_designs import (SHOE_EU, other_system, shadow_cover, shoe_values, turn_map,
                                                  turned)
from training.tagsets.values import neighbour_size, random_values
from training.tagsets.writer import generate

TWENTYFIFTH = ("shoe_tag", "half_shadow", "steep_angle")
GARMENT_FIELDS = ("product_name", "style_number", "color", "size", "composition", "grade", "standard",
                  "safety_category")
SHOE_FIELDS = ("product_name", "style_number", "color", "size", "composition", "grade", "standard")


def _values(design: str, seed: int):
    rng = np.random.default_rng(seed)
    values = random_values(rng)
    return JOB_VALUES[design](rng, values) if design in JOB_VALUES else values


def test_twentyfifth_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    names = ("000000.jpg", "000013.jpg", "000029.jpg")
    for run in ("a", "b"):
        generate(tmp_path / run, 30, 251, defect_share=0.0, designs=list(TWENTYFIFTH))
    assert (tmp_path / "a" / "truth.jsonl").read_bytes() == (tmp_path / "b" / "truth.jsonl").read_bytes()
    for name in names:
        assert (tmp_path / "a" / "images" / name).read_bytes() == (tmp_path / "b" / "images" / name).read_bytes()
    assert_recipes_describe_the_correct_tags(tmp_path / "a")
    rows = truth_rows(tmp_path / "a")
    assert {r["design"] for r in rows} == set(TWENTYFIFTH)
    for row in rows:
        (tag,) = row["tags"]
        judged = SHOE_FIELDS if row["design"] == "shoe_tag" else GARMENT_FIELDS
        assert set(tag["fields"]) >= set(judged) | {"price"}, row["design"]
        assert [c["format"] for c in tag["barcodes"]] == ["EAN-13"] and tag["qr"] == []
        assert tag["barcodes"][0]["text"] == tag["fields"]["ean13"]
        if row["bucket"] == "nominal":
            assert row["condition"]["smallest_print_px"] >= 5.0, (row["image"], row["design"])
    recipe = (tmp_path / "a" / next(r["recipe"] for r in rows if r["design"] == "shoe_tag")).read_text("utf-8")
    assert "safety_category" not in recipe  # GB 18401 covers textiles: an adult shoe's tag has no 安全类别


def test_twentyfifth_designs_plant_every_defect_kind_where_the_truth_says_and_count_no_qr_code(tmp_path):
    check_defects_planted_where_the_truth_says(tmp_path, TWENTYFIFTH, 252)


@pytest.mark.parametrize("seed", range(1, 21))
def test_each_design_prints_the_recipes_values_and_its_price(seed):
    for design in TWENTYFIFTH:
        values = _values(design, seed)
        art = DESIGNS[design](seed, values, 10.0)
        assert art.smallest_print_px >= MIN_PRINT_MM * 10.0 * 0.6, (design, seed)  # a steep turn shrinks it
        for name in SHOE_FIELDS if design == "shoe_tag" else GARMENT_FIELDS:
            assert art.fields[name] == getattr(values, name), (design, seed, name)
        assert price_amount(art.fields["price"]) == price_amount(values.price)
        assert art.fields["ean13"] == values.ean13


@pytest.mark.parametrize("design", TWENTYFIFTH)
def test_one_seed_draws_one_card_and_another_seed_another(design):
    check_one_seed_one_card(design)


def test_a_shoe_size_is_a_shoe_size_or_mm_and_the_other_system_beside_it_agrees():
    sizes = {shoe_values(np.random.default_rng(seed), random_values(np.random.default_rng(seed))).size
             for seed in range(60)}
    assert sizes & set(SHOE_EU) and {s for s in sizes if len(s) == 3}
    assert all(s in SHOE_EU or (230 <= int(s) <= 270 and int(s) % 5 == 0) for s in sizes)
    assert other_system("39") == ("39", "245") == other_system("245")
    assert other_system("36") == ("36", "230") and other_system("270") == ("44", "270")
    for size in ("39", "245", "36", "270"):  # a mix-up's neighbour stays in the system and still prints
        for seed in range(4):
            wrong = neighbour_size(np.random.default_rng(seed), size)
            assert wrong.isdigit() and len(wrong) == len(size) and wrong != size
            values = _values("shoe_tag", 5).replace(size=wrong)
            assert DESIGNS["shoe_tag"](5, values, 6.0).fields["size"] == wrong


def test_a_shoe_tag_names_the_upper_as_its_composition_and_prints_a_footwear_standard():
    for seed in range(12):
        values = _values("shoe_tag", seed)
        art = DESIGNS["shoe_tag"](seed, values, 6.0)
        assert "safety_category" not in art.fields
        assert "%" not in art.fields["composition"]  # a material, not a fibre content
        assert art.fields["standard"] in ("QB/T 1002-2015", "GB/T 15107-2013", "QB/T 2955-2017")


def test_a_garments_values_handed_to_the_shoe_tag_become_a_shoes():
    art = DESIGNS["shoe_tag"](3, random_values(np.random.default_rng(3)), 6.0)
    assert art.fields["size"].isdigit()


@pytest.mark.parametrize("kind", ["edge", "bar", "hand"])
def test_a_shadow_covers_part_of_the_card_with_a_soft_edge(kind):
    for seed in range(6):
        cover = shadow_cover((960, 540), 10.0, kind, np.random.default_rng(seed))
        shaded = float((cover > 0.5).mean())
        assert 0.05 < shaded < 0.8, (kind, seed, shaded)  # part of the card, never all of it
        partial = float(((cover > 0.05) & (cover < 0.95)).mean())
        assert partial > 0.005  # a penumbra, not a cut edge


def test_the_shadowed_card_is_darker_where_the_shadow_lies_but_keeps_the_print_readable():
    values = _values("half_shadow", 4)
    plain = np.asarray(DESIGNS["half_shadow"](4, values, 6.0).rgba[..., :3], np.float32).mean(axis=2)
    paper = np.percentile(plain, 90)
    darkest_paper = np.percentile(plain, 10)
    assert paper - darkest_paper > 60  # the shade shows
    lit = plain > 0.8 * paper
    assert 0.1 < float(lit.mean()) < 0.95


def test_a_turn_foreshortens_the_card_and_tapers_it_to_the_far_edge():
    x, scale = turn_map(1000, math.radians(40), 3000.0, far_first=True)
    assert float(scale(1000.0)) == pytest.approx(1.0) and float(scale(0.0)) < 0.82  # (3 − ½ sin 40°) / (3 + ½ sin 40°)
    width = float(x(1000.0) - x(0.0))
    assert width < math.cos(math.radians(30)) * 1000  # steeper than 30°: seen narrower than cos 30° of it
    assert np.all(np.diff(x(np.linspace(0, 1000, 101))) > 0)


@pytest.mark.parametrize("far", ["left", "right", "top", "bottom"])
def test_a_turned_card_keeps_its_code_on_the_card_and_shrinks_towards_the_far_edge(far):
    values = _values("half_shadow", 2)
    flat = DESIGNS["half_shadow"](2, values, 6.0)
    art = turned(flat, math.radians(40), 3.0, far, 0.9)
    h, w = art.rgba.shape[:2]
    x1, y1, x2, y2 = art.barcodes[0].box
    assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
    alpha = art.rgba[..., 3] > 128
    if far in ("left", "right"):
        assert w < 0.85 * flat.rgba.shape[1] and h == flat.rgba.shape[0]
        edges = alpha[:, 2].sum(), alpha[:, w - 3].sum()
    else:
        assert h < 0.85 * flat.rgba.shape[0] and w == flat.rgba.shape[1]
        edges = alpha[2].sum(), alpha[h - 3].sum()
    far_edge, near_edge = edges if far in ("left", "top") else edges[::-1]
    assert far_edge < 0.92 * near_edge
    assert art.smallest_print_px < flat.smallest_print_px


def test_every_character_the_twentyfifth_designs_print_exists_in_every_face():
    from training.tagsets import twentyfifth_designs

    chars = source_characters(twentyfifth_designs, "—…→·×±¥°−")
    assert len(chars) > 40
    assert_every_font_prints(chars)
