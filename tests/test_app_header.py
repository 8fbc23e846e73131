"""The header at 1280×720 in operator mode: the recipe is the job the operator checks the tags against; the mode label
says least (the window title and the Mode menu say it too) and steps aside before the recipe's name is cut. Seen in
the golden screenshots: 'Recipe: ZEPHYRA 女士连衣裙 22H…' cut beside a whole 'Mode: operator'."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from app.widgets.station_header import YIELDING, allot  # noqa: E402
from tests.test_gui_station import make_folder, make_window  # noqa: E402

RECIPE = "ZEPHYRA 女士连衣裙 22HX-1489 白色 175/92A(XL)"
CHAR = 7  # px per Latin character, for the pure tests below


def floors(wants: dict[str, int]) -> list[tuple[tuple[str, ...], dict[str, int]]]:
    """The header's own yielding order (StationHeader._floors), at CHAR px a character."""
    return [(fields, {f: min(wants[f], chars * CHAR) for f in fields}) for fields, chars in YIELDING]


WANTS = {"recipe": 330, "job": 130, "lot": 140, "source": 120, "engine": 115, "mode": 105}


@pytest.mark.parametrize("room", range(560, sum(WANTS.values()) + 10 * len(WANTS), 10))
def test_the_recipe_is_cut_only_once_the_mode_and_the_source_gave_way(room):
    widths = allot(room, WANTS, floors(WANTS))
    if widths["recipe"] < WANTS["recipe"]:
        assert widths["mode"] == 0, widths  # the mode label never stands beside a cut recipe
        assert widths["source"] <= min(WANTS["source"], 18 * CHAR), widths  # the source gave way first
    assert widths["job"] == WANTS["job"] and widths["lot"] == WANTS["lot"]  # still last to give way at this room


def test_the_operator_sees_the_recipes_name_whole_at_1280x720(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 1))
    window.modes.set_mode("operator")
    window.resize(1280, 720)
    window.set_job("K2291 女士连衣裙", "LOT-2026-12-01")
    window.state.update(recipe=RECIPE)
    qtbot.wait(50)
    header = window.header
    recipe, job, lot = header.fields["recipe"], header.fields["job"], header.fields["lot"]
    assert recipe.elided() == recipe.text() == f"Recipe: {RECIPE}"
    assert job.elided() == job.text() and lot.elided() == lot.text()
    assert "Mode: operator" in header.toolTip()  # the mode stepped aside; its text stays in the header's tooltip
    assert all(label.geometry().right() <= header.contentsRect().right() for label in header.fields.values()
               if label.isVisible())
