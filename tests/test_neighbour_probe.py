"""benchmarks.neighbour_probe moves each asked field of a recipe to both its neighbours, one field at a time."""

from __future__ import annotations

from benchmarks.neighbour_probe import moved_recipes
from tests.test_spotting import recipe


def test_each_field_moves_up_and_down_alone_and_a_field_the_recipe_lacks_is_passed_over() -> None:
    r = recipe('size = "170/92A"\nprice = "¥399.00"\ncolor = "藏青"')
    moved = list(moved_recipes(r, ["size", "price", "style_number"]))
    assert [(f, right, wrong) for f, right, wrong, _ in moved] == [
        ("size", "170/92A", "175/92A"), ("size", "170/92A", "165/92A"),
        ("price", "¥399.00", "¥499.00"), ("price", "¥399.00", "¥299.00")]
    for field, _right, wrong, changed in moved:
        values = {rule.name: rule.expected for rule in changed.fields}
        assert values[field] == wrong and values["color"] == "藏青"
        assert sum(values[n] != rule.expected for n, rule in zip(values, r.fields)) == 1
