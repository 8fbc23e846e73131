"""A recipe whose expected code has another format's length: an EAN-8 recipe given 13 digits, or an EAN-13 recipe
given 8, said 'cannot be an EAN-8; expected 8 digits; found 6901234567892' and left the engineer to count the
digits and guess which of the two to change. It now names the format the digits are, and both ways out: in the
recipe file (format = "…") and in Teach job… (the Barcode row's two boxes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from inference.reading.recipe import RecipeError, parse_recipe
from tests.test_teach_empty_value import make_dialog, row_of  # noqa: F401 - the dialog as the teach tests make it


def recipe_text(fmt: str, code: str) -> str:
    return f'[recipe]\nname = "t"\n[barcode]\nformat = "{fmt}"\nexpected = "{code}"\n'


@pytest.mark.parametrize("fmt, code, message, hint", [
    ("EAN-8", "6901234567892", "cannot be an EAN-8: its 13 digits are an EAN-13",
     'if the job\'s tags carry this 13-digit code, set format = "EAN-13"; if they carry an EAN-8, type its 8 digits '
     "in expected"),
    ("EAN-13", "96385074", "cannot be an EAN-13: its 8 digits are an EAN-8",
     'if the job\'s tags carry this 8-digit code, set format = "EAN-8"; if they carry an EAN-13, type its 13 digits '
     "in expected"),
    ("EAN-13", "036000291452", "cannot be an EAN-13: its 12 digits are a UPC-A",  # a UPC-A's 12
     'if the job\'s tags carry this 12-digit code, set format = "UPC-A"; if they carry an EAN-13, type its 13 digits '
     "in expected"),
    ("EAN-13", "12345", "cannot be an EAN-13",
     "type all 13 digits printed under the tag's bars, check digit included (this has 5)"),
])
def test_a_code_of_another_formats_length_says_expected_found_and_what_to_do(fmt, code, message, hint):
    with pytest.raises(RecipeError) as caught:
        parse_recipe(recipe_text(fmt, code), "job.toml")
    error = caught.value
    assert error.message.endswith(f"key barcode.expected: {message}")
    assert error.found == repr(code) and error.hint == hint


def test_teach_job_names_the_barcode_rows_boxes_not_the_files_keys(qtbot, tmp_path: Path):
    dialog = make_dialog(qtbot, tmp_path)
    dialog.symbology.setCurrentText("EAN-8")
    dialog.code.setText("6901234567892")
    assert dialog.save(tmp_path / "job.toml") is None
    assert dialog.message.text() == (
        "Not saved: the Barcode cannot be an EAN-8: its 13 digits are an EAN-13; expected 8 digits (an EAN-8); "
        "found '6901234567892'. If the job's tags carry this 13-digit code, pick EAN-13 beside the code; if they "
        "carry an EAN-8, type its 8 digits there")


def test_the_window_says_why_the_recipe_was_not_loaded_and_what_to_do(qtbot, tmp_path: Path):
    from tests.test_gui_station import make_window

    window = make_window(qtbot, tmp_path)
    path = tmp_path / "ean8_job.toml"
    path.write_text(recipe_text("EAN-8", "6901234567892"), encoding="utf-8")
    window.load_recipe(path)
    panel = window.errors_panel
    assert panel.isVisible() and panel.title.text().startswith(f"⚠ Recipe not loaded: {path}")
    said = panel.text.toPlainText()
    assert "cannot be an EAN-8: its 13 digits are an EAN-13" in said and "expected: 8 digits (an EAN-8)" in said
    assert 'hint:     if the job\'s tags carry this 13-digit code, set format = "EAN-13"' in said
