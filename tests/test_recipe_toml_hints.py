"""A recipe TOML that does not parse gets a hint for what went wrong: a key given twice was told to 'quote text
values, e.g. size = "L"', although its values were quoted."""

from __future__ import annotations

import pytest

from inference.reading.recipe import RecipeError, parse_recipe

FIELDS = '[recipe]\nname = "t"\n[fields]\nprice = "¥1.00"\n'


@pytest.mark.parametrize(("text", "hint"), [
    (FIELDS + 'price = "¥2.00"\n', "given twice"),
    (FIELDS + '[fields]\ncolor = "白色"\n', "given twice"),
    (FIELDS + "size = L\n", 'quote text values'),
])
def test_a_recipe_that_is_not_toml_says_what_to_do_about_it(text, hint):
    with pytest.raises(RecipeError) as caught:
        parse_recipe(text, "job.toml")
    said = str(caught.value)
    assert "is not valid TOML" in said and hint in said.split("hint:")[1]
