"""The three designs added in the twenty-third session: three fibre blocks, joined fields, a size chart."""

from __future__ import annotations

import numpy as np
import pytest

from tests.test_tagsets import deterministic_rows, price_amount, rows_with_planted_defects

from training.tagsets import DESIGNS  # noqa: E402  (test_tagsets skips the module where the fonts are missing)
from training.tagsets.canvas import MIN_PRINT_MM  # noqa: E402
from training.tagsets.designs import HAS_QR  # noqa: E402
from training.tagsets.values import random_values  # noqa: E402

FIFTEENTH = ("down_fill", "slash_pairs", "size_chart")
JUDGED = ("product_name", "style_number", "color", "size", "composition", "grade", "standard", "safety_category")


def test_fifteenth_designs_are_deterministic_and_their_recipes_describe_the_printed_fields(tmp_path):
    for row in deterministic_rows(tmp_path, FIFTEENTH, 151):
        (tag,) = row["tags"]
        assert [c["format"] for c in tag["barcodes"]] == ["EAN-13"]
        assert tag["barcodes"][0]["text"] == tag["fields"]["ean13"]
        assert tag["qr"] == []
        if row["bucket"] == "nominal":
            assert row["condition"]["smallest_print_px"] >= 5.0, (row["image"], row["design"])


def test_fifteenth_designs_plant_every_defect_kind_where_the_truth_says(tmp_path):
    for row in rows_with_planted_defects(tmp_path, FIFTEENTH, 152):
        defect = row["defect"]
        if defect and defect["field"] == "ean13":
            (tag,) = row["tags"]
            assert {c["text"] for c in tag["barcodes"]} == {defect["printed"]}


def test_no_fifteenth_design_counts_a_qr_code():
    assert not set(FIFTEENTH) & HAS_QR


@pytest.mark.parametrize("seed", range(1, 31))
def test_fifteenth_designs_print_the_recipes_values_and_never_below_the_smallest_legal_print(seed):
    values = random_values(np.random.default_rng(seed))
    for design in FIFTEENTH:
        art = DESIGNS[design](seed, values, 10.0)
        assert art.smallest_print_px >= MIN_PRINT_MM * 10.0, (design, seed)
        for name in JUDGED:
            assert art.fields[name] == getattr(values, name), (design, seed, name)
        assert price_amount(art.fields["price"]) == price_amount(values.price)


@pytest.mark.parametrize("design", FIFTEENTH)
def test_one_seed_draws_one_card_and_another_seed_another(design):
    values = random_values(np.random.default_rng(7))
    first, again, other = (DESIGNS[design](s, values, 6.0).rgba for s in (7, 7, 8))
    assert np.array_equal(first, again)
    assert not np.array_equal(first, other)


@pytest.mark.parametrize(("size", "column"), [
    ("L", ("L", "170/92A")), ("2XL", ("2XL", "180/100A")), ("XS", ("XS", "155/80A")), ("3XL", ("3XL", "185/104A")),
    ("170/92A", ("L", "170/92A")), ("155/84B", ("XS", "155/84B")), ("185/96Y", ("3XL", "185/96Y")),
])
def test_the_size_chart_marks_a_column_that_holds_the_jobs_size(size, column):
    from training.tagsets.fifteenth_designs import chart_columns

    for seed in range(6):
        columns, marked = chart_columns(size, np.random.default_rng(seed))
        assert len(columns) == 5 and 0 <= marked < 5
        assert columns[marked][:2] == column
        assert len({c[1] for c in columns}) == 5  # every other size printed beside it


@pytest.mark.parametrize("seed", range(8))
def test_the_padded_tag_prints_a_lining_other_than_the_face_fabric(seed):
    from training.tagsets.fifteenth_designs import _lining

    face = random_values(np.random.default_rng(seed)).composition
    assert _lining(np.random.default_rng(seed), face) != face


def test_every_character_the_fifteenth_designs_print_exists_in_every_font():
    import inspect

    from training.tagsets import fifteenth_designs, fonts

    chars = sorted({c for c in inspect.getsource(fifteenth_designs) if ord(c) > 127 and c not in "—…→·×±"})
    assert len(chars) > 40
    for name in fonts.font_names():
        face = fonts.font(name, 40)
        box = np.asarray(face.getmask("\U000F0000")).tobytes()
        missing = [c for c in chars if np.asarray(face.getmask(c)).tobytes() == box]
        assert not missing, (name, "".join(missing))
