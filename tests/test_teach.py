"""Teaching a job from one golden tag: the draft recipe parses, carries the tag's values and
where each is printed, and the same tag verifies OK against it."""

from __future__ import annotations

from pathlib import Path

import pytest

from inference.inspection import Inspector
from inference.imageio import read_image
from inference.reading import Verdict, judge, parse_recipe
from inference.reading.teach import Lesson, TaughtField, lesson_from, region_from_pixels, region_in_pixels
from inference.resources import default_model_path

SAMPLE = Path("resources/samples/090000022.jpg")


@pytest.fixture(scope="module")
def inspected():
    image = read_image(SAMPLE)
    image = getattr(image, "image", image)
    with Inspector.open(default_model_path(), "onnxruntime-cpu") as inspector:
        yield image, inspector.inspect_image(image), inspector


def test_a_taught_recipe_carries_the_golden_tags_values_and_regions(inspected) -> None:
    image, result, _inspector = inspected
    tags = [t for t in result.readings if t.is_tag]
    lesson = lesson_from(image, tags[0], tags_in_frame=len(tags))
    recipe = lesson.recipe("taught.toml")
    expected = {rule.name: rule.expected for rule in recipe.fields}
    assert expected["size"] == "175/92A(XL)" and expected["price"] == "¥999.00" and expected["style_number"] == "22HX-1489"
    assert recipe.barcode.expected == "6958924207750" and recipe.barcode.format == "EAN-13"
    assert {c.class_name: c.min for c in recipe.counts} == {"hangtag": 1, "barcode": 2}
    size = recipe.field("size")
    assert size.region is not None and 0.0 <= size.region[0] < size.region[2] <= 1.0
    # regions run top to bottom as the tag prints them: brand above product name above price
    assert recipe.field("brand").region[1] < recipe.field("product_name").region[1] < recipe.field("price").region[1]


def test_the_golden_tag_is_ok_against_its_own_taught_recipe_and_a_changed_value_is_ng(inspected) -> None:
    image, result, inspector = inspected
    lesson = lesson_from(image, result.readings[0])
    inspector.recipe = lesson.recipe()
    try:
        judged = inspector.inspect_image(image)
        assert judged.verdict.verdict is Verdict.OK, judged.verdict.reasons
        inspector.recipe = lesson.with_field("size", value="170/88A").recipe()
        judged = inspector.inspect_image(image)
        assert judged.verdict.verdict is Verdict.NG
        # the tag prints 175/92A(XL); the recipe names a 号型, so the 号型 is what differs (evidence.size_part)
        assert "size 175/92A ≠ expected 170/88A" in judged.verdict.reasons
    finally:
        inspector.recipe = None


@pytest.mark.parametrize(
    "fields, text_has",
    [
        ((TaughtField("size", "M", 0.9, (0.1, 0.2, 0.4, 0.3), use=True),), 'size = { expected = "M", region = [0.100, 0.200, 0.400, 0.300] }'),
        ((TaughtField("color", "黑\"色", 0.9, None, use=True),), 'color = { expected = "黑\\"色" }'),  # quotes escaped
        ((TaughtField("color", "黑色", 0.9, None, use=False),), "[recipe]"),  # unticked fields are left out
    ],
)
def test_recipe_text_is_toml_the_station_loads(fields, text_has: str) -> None:
    lesson = Lesson("job 7", fields, counts={"hangtag": 1})
    text = lesson.recipe_text()
    assert text_has in text
    parse_recipe(text)
    if not fields[0].use:
        assert "[fields]" not in text


def test_regions_round_trip_through_pixels() -> None:
    region = region_from_pixels((150.0, 40.0, 30.0, 20.0), (300, 400))  # dragged right to left, bottom to top
    assert region == (0.1, 0.05, 0.5, 0.1)
    assert region_in_pixels(region, (300, 400)) == (30, 20, 150, 40)
    assert region_from_pixels((10.0, 10.0, 11.0, 11.0), (300, 400)) is None  # a click, not a box


def test_a_region_that_is_not_a_box_is_refused_with_the_line() -> None:
    from inference.reading import RecipeError

    with pytest.raises(RecipeError) as info:
        parse_recipe('[fields]\nsize = { expected = "M", region = [0.5, 0.2, 0.1, 0.3] }\n')
    assert "line 2" in str(info.value) and "not a box inside the tag" in str(info.value)


def test_a_value_read_less_surely_than_a_recipes_limit_is_taught_unticked_and_does_not_name_the_job() -> None:
    """Teach job… on a REVIEW tag ticked '691' (product name read at 29 %) and named the recipe '691':
    saved as is, every good tag of the job would have been NG."""
    import numpy as np

    from inference.reading.types import FieldReading, TagReading

    fields = {"product_name": FieldReading("product_name", "691", 0.29, "ocr"),
              "price": FieldReading("price", "¥1299.00", 0.83, "ocr"),
              "size": FieldReading("size", "L", 0.79, "ocr")}
    tag = TagReading(0, (10.0, 10.0, 190.0, 150.0), fields=fields)
    lesson = lesson_from(np.full((160, 200, 3), 200, np.uint8), tag)
    assert {f.name: f.use for f in lesson.fields if f.value} == {"product_name": False, "size": False, "price": True}
    assert lesson.field("product_name").value == "691"  # still offered, for the engineer to correct and tick
    assert lesson.name == "taught job"
    assert "691" not in lesson.recipe_text() and 'expected = "¥1299.00"' in lesson.recipe_text()
