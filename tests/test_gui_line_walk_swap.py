"""A line engineer swaps the recipe mid-run (walked on conveyor recordings, 1280×720): the banner keeps the last
finished tag, and the strip starts again when the line's tag ids do (a new session), never showing two tags #1."""

from __future__ import annotations

from pathlib import Path

from inference.tracking.recent import RecentTag
from tests.factories import scene_with_squares, write_image
from tests.test_gui_station import make_settings, make_window, run_to_end, write_recipe


def per_tag_window(qtbot, tmp_path: Path, folder: Path | None = None):
    settings = make_settings(tmp_path)
    settings.set("line/per_tag", "1")
    window = make_window(qtbot, tmp_path, folder, settings=settings)
    qtbot.waitUntil(lambda: window.line.shows_tags, timeout=20000)
    return window


def test_a_recipe_loaded_mid_line_leaves_the_last_tag_on_the_banner(qtbot, tmp_path: Path):
    folder = tmp_path / "line"
    folder.mkdir()
    for i in range(2):
        write_image(folder / f"frame_{i:03d}.png", scene_with_squares(64, 64, [(8 + i, 16, 16)]))
    window = per_tag_window(qtbot, tmp_path, folder)
    run_to_end(qtbot, window, 2)
    window.line.tag_finished.emit(RecentTag(8, "NG", "size L ≠ expected M"))
    qtbot.waitUntil(lambda: window.banner.verdict.text() == "NG #8", timeout=3000)
    assert window.current is not None  # a frame on screen, which the new recipe judges again
    window.load_recipe(write_recipe(tmp_path, "next job"))
    assert window.state.state.recipe == "next job"
    assert window.banner.verdict.text() == "NG #8" and "size L" in window.banner.reasons.text()


def test_the_strip_starts_again_when_the_tag_ids_do(qtbot, tmp_path: Path):
    window = per_tag_window(qtbot, tmp_path)
    link = window.line
    for tag_id, verdict in ((7, "OK"), (8, "NG"), (1, "OK"), (2, "OK")):  # a new recipe after #8: a new line
        link._on_tag(RecentTag(tag_id, verdict, "price ≠" if verdict == "NG" else ""))
    assert [t.label for t in link.model.tags] == ["#1", "#2"]
    assert [t.label for t in link.model.held] == ["#8"]  # an NG tag of the old job still waits for its look
    assert [t.label for t in link.tag_rows.tags] == ["#7", "#8", "#1", "#2"]  # the Results dock keeps them all
    link._on_tag(RecentTag(0, "NG", "no frame", trigger_id=41))  # triggered items carry the line's own ids
    link._on_tag(RecentTag(0, "OK", "", trigger_id=40))
    assert [t.label for t in link.model.tags] == ["#1", "#2", "T41", "T40"]
