"""Triggered mode as a line operator meets it (walked with Aravis's fake GigE camera, a software trigger, the → key
and a trigger folder): before the first trigger the banner and the Results dock say how an item gets its verdict.
They said 'the first tag is judged when it leaves the view', which a triggered item never does."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.line_link import line_banner_note
from app.station_state import OPEN, RUNNING, STOPPED, StationState
from inference.records.journal import Journal
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
    assert note.text() == "No item judged yet: each item's verdict is listed here as it is judged"
    window.state.update(source="camera:/line/run.avi")
    assert "once it leaves the view" in note.text()


def test_each_image_of_a_watched_folder_is_one_item_on_a_moving_line(qtbot, tmp_path: Path):
    """Walked with three conveyor stills dropped into a watched folder in per-tag mode: they were tracked as a line's
    frames, their tags never left the view (a watched folder never ends), and no garment got a verdict, even after
    Stop. Each image is now one item, judged as it comes, under the file's number or its place in arrival order."""
    from tests.factories import scene_with_squares, write_image
    from tests.test_gui_station import write_recipe

    watched = tmp_path / "watched"
    watched.mkdir()
    window = per_tag_window(qtbot, tmp_path)
    window.load_recipe(write_recipe(tmp_path, "one tag"))
    window.open_source(f"watch:{watched}")
    qtbot.waitUntil(lambda: window.state.state.source_status == "open", timeout=5000)
    assert "each image written to the folder is judged as it comes" in window.banner.reasons.text()
    window.start()
    qtbot.waitUntil(lambda: window.state.state.run == RUNNING, timeout=5000)
    for name in ("000101.png", "shot.png"):
        write_image(watched / name, scene_with_squares(64, 64, [(20, 16, 16)]))
        qtbot.waitUntil(lambda: any(t.trigger_id is not None and t.label == ("T101" if name[0] == "0" else "T2")
                                    for t in window.line.tag_rows.tags), timeout=20000)
    assert [t.label for t in window.line.tag_rows.tags] == ["T101", "T2"]  # judged while the run goes on
    window.stop()
    with Journal.open(tmp_path / "journal.sqlite3", read_only=True) as journal:
        assert [t.trigger_id for t in journal.tags(journal.last_session_id())] == ["101", "2"]

