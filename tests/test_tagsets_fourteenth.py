"""The three designs added in the twenty-second session: option boxes, two columns, a hologram sticker."""

from __future__ import annotations

import numpy as np
import pytest

from tests.tagset_groups import assert_every_font_prints, source_characters
from tests.test_tagsets import deterministic_rows, price_amount, rows_with_planted_defects

from training.tagsets import DESIGNS  # noqa: E402  (test_tagsets skips the module where the fonts are missing)
from training.tagsets.canvas import MIN_PRINT_MM, Card  # noqa: E402
from training.tagsets.designs import HAS_QR  # noqa: E402
from training.tagsets.layout import BLACK  # noqa: E402
from training.tagsets.values import random_values  # noqa: E402

FOURTEENTH = ("tick_form", "split_columns", "hologram_seal")


def test_fourteenth_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    for row in deterministic_rows(tmp_path, FOURTEENTH, 141):
        (tag,) = row["tags"]
        assert [c["format"] for c in tag["barcodes"]] == ["EAN-13"]
        assert tag["barcodes"][0]["text"] == tag["fields"]["ean13"]
        assert len(tag["qr"]) == (row["design"] == "hologram_seal"), row["design"]
        if row["bucket"] == "nominal":
            assert row["condition"]["smallest_print_px"] >= 5.0, (row["image"], row["design"])


def test_fourteenth_designs_plant_every_defect_kind_where_the_truth_says(tmp_path):
    for row in rows_with_planted_defects(tmp_path, FOURTEENTH, 142):
        defect = row["defect"]
        if defect and defect["field"] == "ean13":
            (tag,) = row["tags"]
            assert {c["text"] for c in tag["barcodes"]} == {defect["printed"]}


def test_only_the_sticker_design_counts_a_qr_code():
    assert "hologram_seal" in HAS_QR and not {"tick_form", "split_columns"} & HAS_QR


@pytest.mark.parametrize("seed", range(1, 21))
def test_fourteenth_designs_print_the_recipes_values_and_never_below_the_smallest_legal_print(seed):
    values = random_values(np.random.default_rng(seed))
    for design in FOURTEENTH:
        art = DESIGNS[design](seed, values, 10.0)
        assert art.smallest_print_px >= MIN_PRINT_MM * 10.0, (design, seed)
        for name in ("product_name", "style_number", "color", "size", "composition", "grade", "standard",
                     "safety_category"):
            assert art.fields[name] == getattr(values, name), (design, seed, name)
        assert price_amount(art.fields["price"]) == price_amount(values.price)


def test_the_sticker_keeps_clear_of_every_judged_value_and_of_the_bars():
    from training.tagsets.fourteenth_designs import sticker_spots

    bands = [(60.0, 63.0, 40.0), (64.0, 69.0, 30.0)]  # a long row, then a price that ends short of the sticker
    spots = sticker_spots(bands, 32.0, 8.0, 90.0, 70.0)
    assert spots and spots[0] == 82.0  # lowest first, its foot on the bars' line
    assert all(cy - 8.0 >= 63.0 for cy in spots)  # never level with the long row
    assert min(spots) - 8.0 < 69.0  # beside the short price it may lie
    assert min(sticker_spots(bands, 42.0, 8.0, 90.0, 70.0)) - 8.0 < 63.0  # with room beside both, it may rise by them
    assert sticker_spots([(60.0, 90.0, 50.0)], 32.0, 8.0, 90.0, 70.0) == []


def test_a_sticker_is_found_room_for_on_every_job():
    import training.tagsets.fourteenth_designs as fourteenth

    found = []
    original = fourteenth.sticker_spots
    try:
        fourteenth.sticker_spots = lambda *a: found.append(len(original(*a))) or original(*a)
        for seed in range(60):
            fourteenth.hologram_seal(seed, random_values(np.random.default_rng(seed)), 4.0)
    finally:
        fourteenth.sticker_spots = original
    assert len(found) == 60 and min(found) > 0


@pytest.mark.parametrize("mark", ["tick", "filled", "pen_tick", "pen_ring"])
def test_option_boxes_print_every_option_and_mark_the_jobs_alone(mark):
    from training.tagsets.fourteenth_designs import option_marks

    def ink_by_option(marked: str) -> list[float]:
        card = Card(70, 8, 10.0, (255, 255, 255))
        option_marks(card, 2, 2, ("优等品", "一等品", "合格品"), marked, 3.0, BLACK, "wqy-microhei", mark, (28, 52, 150),
                     np.random.default_rng(3))
        dark = np.asarray(card.image, np.int16).min(axis=2) < 200
        columns = np.flatnonzero(dark.any(axis=0))
        gaps = np.flatnonzero(np.diff(columns) > 12)  # the wide gaps between options
        cuts = [columns[0], *[(columns[g] + columns[g + 1]) // 2 for g in gaps], columns[-1] + 1]
        return [float(dark[:, a:b].sum()) for a, b in zip(cuts, cuts[1:])]

    unmarked = ink_by_option("none")
    assert len(unmarked) == 3  # every option printed
    marked = ink_by_option("一等品")
    assert marked[1] > unmarked[1] + 40 and abs(marked[0] - unmarked[0]) < 40 and abs(marked[2] - unmarked[2]) < 40


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_the_columns_rows_stand_at_different_pitches(seed):
    """Each column's rows keep their own pitch, so the rows of one drift past the rows of the other."""
    values = random_values(np.random.default_rng(seed))
    art = DESIGNS["split_columns"](seed, values, 10.0)
    dark = art.rgba[..., :3].astype(np.int16).min(axis=2) < 120
    left, right = dark[130:340, 40:500].any(axis=1), dark[130:340, 540:1000].any(axis=1)

    def starts(rows: np.ndarray) -> np.ndarray:
        return np.flatnonzero(rows[1:] & ~rows[:-1])

    assert len(starts(left)) >= 4 and len(starts(right)) >= 3
    assert abs(np.median(np.diff(starts(left))) - np.median(np.diff(starts(right)))) >= 5  # 0.5 mm at 10 px/mm
    assert abs(starts(left)[0] - starts(right)[0]) >= 15  # and the right column starts lower


def test_every_character_the_fourteenth_designs_print_exists_in_every_font():
    from training.tagsets import fourteenth_designs

    chars = source_characters(fourteenth_designs, "—…→·×±")
    assert len(chars) > 40
    assert_every_font_prints(chars)
