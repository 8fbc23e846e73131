"""Teach job…: a ticked field whose expected value the engineer cleared is not saved without a word. The recipe was
written without that field, so a job meant to check the price checked no price at all."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt  # noqa: E402

from app.teach_dialog import TeachDialog  # noqa: E402
from inference.reading.types import FieldReading, TagReading  # noqa: E402


def make_dialog(qtbot, tmp_path) -> TeachDialog:
    tag = TagReading(0, (100.0, 100.0, 500.0, 500.0), fields={
        "product_name": FieldReading("product_name", "男士衬衫", 0.99, "ocr"),
        "price": FieldReading("price", "¥199.00", 0.99, "ocr")})
    dialog = TeachDialog(np.full((600, 600, 3), 200, np.uint8), tag, tags_in_frame=1, recipes_dir=tmp_path)
    qtbot.addWidget(dialog)
    dialog.name.setText("男士衬衫 K1")
    return dialog


def row_of(dialog: TeachDialog, name: str) -> int:
    return [f.name for f in dialog.lesson.fields].index(name)


def test_a_ticked_field_with_its_value_cleared_is_not_saved_without_a_word(qtbot, tmp_path):
    dialog = make_dialog(qtbot, tmp_path)
    dialog.table.item(row_of(dialog, "price"), 2).setText("")
    assert dialog.save(tmp_path / "job.toml") is None and not (tmp_path / "job.toml").exists()
    assert "价格 price is ticked but has no expected value" in dialog.message.text()
    dialog.table.item(row_of(dialog, "price"), 0).setCheckState(Qt.CheckState.Unchecked)
    saved = dialog.save(tmp_path / "job.toml")  # unticked: a choice, saved without the price
    assert saved is not None and "price" not in saved.read_text(encoding="utf-8")


def test_a_ticked_field_with_a_value_is_saved(qtbot, tmp_path):
    dialog = make_dialog(qtbot, tmp_path)
    saved = dialog.save(tmp_path / "job.toml")
    assert saved is not None and 'price = { expected = "¥199.00"' in saved.read_text(encoding="utf-8")


@pytest.mark.parametrize("price, symbology, code, said", [
    ("¥199.00", "EAN-13", "12345", "the Barcode cannot be an EAN-13; expected 13 digits; found '12345'"),
    ("¥199.00", "EAN-13", "1234567890123", "the Barcode has a wrong check digit"),
    ("一百九十九", "", "", "the expected 价格 price is not a valid price"),
])
def test_a_value_the_recipe_refuses_is_named_by_its_box_not_by_a_line_of_toml(qtbot, tmp_path, price, symbology,
                                                                                 code, said):
    """'Not saved: Recipe <taught>, line 13, key barcode.expected: …' named a line of a file this dialog never shows."""
    dialog = make_dialog(qtbot, tmp_path)
    dialog.table.item(row_of(dialog, "price"), 2).setText(price)
    dialog.symbology.setCurrentText(symbology)
    dialog.code.setText(code)
    assert dialog.save(tmp_path / "job.toml") is None and not (tmp_path / "job.toml").exists()
    message = dialog.message.text()
    assert message.startswith(f"Not saved: {said}") and "line" not in message and "<taught>" not in message
