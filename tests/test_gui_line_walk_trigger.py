"""Triggered mode as a line operator meets it (walked with Aravis's fake GigE camera, a software trigger, the → key
and a trigger folder): before the first trigger the banner and the Results dock say how an item gets its verdict.
They said 'the first tag is judged when it leaves the view', which a triggered item never does."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.line_link import line_banner_note
from app.station_state import OPEN, RUNNING, STOPPED, StationState
from tests.test_gui_line_walk_swap import per_tag_window

SOFTWARE = "aravis:GV01?pixel_format=Mono8&trigger=software&trigger_folder=/line/triggers"
HARDWARE = "genicam:22918301?trigger=hardware&trigger_source=Line1"


@pytest.mark.parametrize("source, run, said", [
    (SOFTWARE, STOPPED, "→ fires the camera once; Start (Space) answers each trigger"),
    (SOFTWARE, RUNNING, "waiting for a trigger (→, the trigger folder or the line)"),
    (HARDWARE, STOPPED, "press Start (Space), then each trigger of the camera's input is judged"),
    (HARDWARE, RUNNING, "waiting for the camera's trigger input"),
    ("aravis:GV01?pixel_format=Mono8", RUNNING, "waiting for the first tag to leave the view"),  # free-running
    ("camera:/line/run.avi", STOPPED, "the first tag is judged when it leaves the view"),
])
def test_the_banner_says_how_the_first_item_is_judged(source, run, said):
    note = line_banner_note(StationState(source=source, source_status=OPEN, run=run, engine="CPU FP32"))
    assert said in note
    assert ("the view" in note) == ("trigger=" not in source)


def test_the_results_dock_says_a_triggered_items_verdict_comes_with_its_trigger(qtbot, tmp_path: Path):
    window = per_tag_window(qtbot, tmp_path)
    note = window.line.tag_note
    assert "once it leaves the view" in note.text()
    window.state.update(source=SOFTWARE)
    assert note.text() == "No item judged yet: each trigger's verdict is listed here as it is judged"
    window.state.update(source="camera:/line/run.avi")
    assert "once it leaves the view" in note.text()
