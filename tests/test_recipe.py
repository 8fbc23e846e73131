"""Recipes load from TOML, and a malformed one is refused with its file, line and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from inference.errors import ConfigError, HangtagError
from inference.reading.recipe import RecipeError, load_recipe, locate_key, parse_recipe
from inference.resources import resource_path

GOOD = """\
[recipe]
name = "AB2301 navy L"

[counts]
hangtag = 1
barcode = { min = 1, max = 2 }

[confidence]
field = 0.85

[fields]
style_number = "AB23O1-O5"
price = "￥259"
size = { pattern = "^(L|XL)$", min_confidence = 0.9 }
grade = { required = true }

[barcode]
expected = "6901234567892"
match_style_number = true
"""


def write(tmp_path: Path, text: str, name: str = "job.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_the_shipped_example_recipe_loads() -> None:
    recipe = load_recipe(resource_path("recipes", "example.toml"))
    assert recipe.field("price").expected == "¥899.00"
    assert recipe.barcode.expected == "6914385446510"
    assert {rule.class_name for rule in recipe.counts} == {"hangtag", "barcode"}


def test_values_are_normalized_like_the_reader_normalizes_them(tmp_path: Path) -> None:
    recipe = load_recipe(write(tmp_path, GOOD))
    assert recipe.name == "AB2301 navy L"
    assert recipe.field("style_number").expected == "AB2301-05"
    assert recipe.field("price").expected == "¥259.00"
    assert recipe.field("size").pattern == "^(L|XL)$"
    assert recipe.field("size").min_confidence == 0.9
    assert recipe.field("grade").min_confidence == 0.85
    assert [(r.class_name, r.min, r.max) for r in recipe.counts] == [("hangtag", 1, 1), ("barcode", 1, 2)]
    assert recipe.barcode.match_style_number
    assert "style_number" in recipe.wanted_fields


@pytest.mark.parametrize(
    ("text", "line", "key", "found"),
    [
        ('[fields]\nprice = "¥259"\nsize = 3\n', 3, "fields.size", "3"),
        ('[fields]\nsize = "L"\ncolour = "red"\n', 3, "fields.colour", "colour"),
        ('[fields]\nsize = { pattern = "(L" }\n', 2, "fields.size.pattern", "(L"),
        ('[fields]\nsize = { expected = "L", pattern = "L" }\n', 2, "fields.size", "expected"),
        ('[fields.price]\nexpected = "free"\n', 2, "fields.price.expected", "free"),
        ('[fields.size]\nexpected = "L"\nmin_confidence = 1.5\n', 3, "fields.size.min_confidence", "1.5"),
        ('[counts]\nhangtag = { min = 2, max = 1 }\n', 2, "counts.hangtag", "min"),
        ('[counts]\nhangtags = 1\n', 2, "counts.hangtags", "hangtags"),
        ('[barcode]\nexpected = "6901234567893"\n', 2, "barcode.expected", "6901234567893"),
        ('[barcode]\nmatch_printed = "yes"\n', 2, "barcode.match_printed", "yes"),
        ('[verdict]\nmissing_field = "maybe"\n', 2, "verdict.missing_field", "maybe"),
        ('\n\n[recipes]\nname = "x"\n', 3, "recipes", "recipes"),
    ],
)
def test_semantic_errors_name_file_line_and_key(tmp_path: Path, text: str, line: int, key: str, found: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(RecipeError) as info:
        load_recipe(path)
    message = str(info.value)
    assert str(path) in message
    assert f"line {line}," in message
    assert f"key {key}:" in message
    assert found in info.value.found
    assert info.value.expected


@pytest.mark.parametrize(
    ("text", "message", "expected", "found", "hint"),
    [
        ('name = "x"\n[fields]\nsize = "L"\n', "line 1, key name: outside any [section]", "[recipe], [counts]",
         "'name' on line 1: name = \"x\"", "move it under [recipe]"),
        ('[field]\nsize = "L"\n', "line 1, key field: unknown section", "one of [recipe], [counts]",
         "'field' on line 1: [field]", "did you mean [fields]?"),
        ('[fields]\nsise = "L"\n', "line 2, key fields.sise: unknown key", "style_number, color, size",
         "'sise' on line 2: sise = \"L\"", "did you mean size?"),
        ('[counts]\nhangtags = 1\n', "key counts.hangtags: unknown key", "one of hangtag, barcode, qr_code",
         "'hangtags' on line 2", "did you mean hangtag?"),
        ('[fields]\nhangtag = 1\n', "key fields.hangtag: unknown key", "style_number", "'hangtag' on line 2",
         "hangtag belongs under [counts]"),
        ('[fields]\n"尺码" = "L"\n', "key fields.尺码: unknown key", "size", "'尺码'", "did you mean size (尺码)?"),
        ('[fields.size]\nexpectd = "L"\n', "line 2, key fields.size.expectd: unknown key", "expected, pattern",
         "'expectd' on line 2", "did you mean expected?"),
        ('[frobnicate]\na = 1\n', "key frobnicate: unknown section", "[verdict]", "'frobnicate' on line 1",
         "resources/recipes/example.toml"),
    ],
)
def test_an_unknown_section_or_key_says_what_is_known_where_it_is_and_what_was_meant(
        text: str, message: str, expected: str, found: str, hint: str) -> None:
    """Every other recipe error said expected / found / hint; an unknown name said 'unknown section' alone."""
    with pytest.raises(RecipeError) as info:
        parse_recipe(text, "job.toml")
    error = info.value
    assert message in error.message and expected in error.expected and found in error.found and hint in error.hint


def test_toml_syntax_errors_carry_tomllibs_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, '[fields]\nsize = "L"\nprice = ¥259\n')
    with pytest.raises(RecipeError) as info:
        load_recipe(path)
    assert f"{path}, line 3 column 9" in str(info.value)


def test_missing_file_is_a_recipe_error_not_an_oserror(tmp_path: Path) -> None:
    with pytest.raises(RecipeError, match="cannot be read"):
        load_recipe(tmp_path / "nope.toml")


def test_recipe_error_is_part_of_the_station_hierarchy() -> None:
    assert issubclass(RecipeError, ConfigError) and issubclass(RecipeError, HangtagError)


@pytest.mark.parametrize(
    ("keys", "line"),
    [
        (("fields", "size"), 3),
        (("fields", "size", "pattern"), 3),
        (("fields", "price", "expected"), 6),
        (("barcode", "expected"), 8),
        (("counts",), None),
    ],
)
def test_locate_key(keys: tuple[str, ...], line: int | None) -> None:
    text = '[fields]\ncolor = "红色"\nsize = { pattern = "L" }\n\n[fields.price]\nexpected = "1"\n[barcode]\nexpected = "x"\n'
    assert locate_key(text, keys) == line


@pytest.mark.parametrize("text", ["", "[recipe]\n", '[recipe]\nname = "x"\n[confidence]\nfield = 0.9\n'])
def test_a_recipe_that_checks_nothing_is_refused(text: str) -> None:
    with pytest.raises(RecipeError, match="checks nothing"):
        parse_recipe(text, "empty.toml")
