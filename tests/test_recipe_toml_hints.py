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


@pytest.mark.parametrize(("expected", "fmt", "refused"), [
    ("12345", "EAN-13", True), ("ABC-1", "EAN-13", True), ("6958924207750", "EAN-13", False),
    ("6958 9242 07750", "EAN-13", False), ("1234567", "EAN-8", True), ("96385074", "EAN-8", False),
    ("22HX-1489", "Code128", False), ("12345", None, False),
])
def test_an_expected_code_that_cannot_be_of_its_format_is_refused(expected, fmt, refused):
    """Teach job… saved 'expected = "12345"' with format EAN-13 (typed into the Barcode box), and no tag could match."""
    text = f'[recipe]\nname = "t"\n[barcode]\nexpected = "{expected}"\n' + (f'format = "{fmt}"\n' if fmt else "")
    if refused:
        with pytest.raises(RecipeError, match=f"cannot be an {fmt}"):
            parse_recipe(text, "job.toml")
    else:
        assert parse_recipe(text, "job.toml").barcode.expected
