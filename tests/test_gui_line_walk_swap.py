"""A line engineer swaps the recipe mid-run (walked on conveyor recordings, 1280×720): the banner keeps the last
finished tag, and the strip starts again with the new job, never mixing two jobs' tags."""

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


def test_the_strip_starts_again_with_a_new_job_not_when_ids_come_out_of_order(qtbot, tmp_path: Path):
    """A new job (the recipe a tag was judged under) empties the strip; a new line alone (each Stop ends one) does
    not: the strip kept emptying at every Stop/Start (test_line_hold_and_strip.py)."""
    window = per_tag_window(qtbot, tmp_path)
    link = window.line
    old_job, next_job = ("/r/old.toml", "old job"), ("/r/next.toml", "next job")
    for tag_id, verdict, job in ((7, "OK", old_job), (8, "NG", old_job), (1, "OK", next_job), (2, "OK", next_job),
                                 (4, "REVIEW", next_job), (3, "OK", next_job)):  # #4 passed unread before #3 was read
        line = ("inspector", 1 if job is old_job else 2)
        link._on_tag(RecentTag(tag_id, verdict, "price ≠" if verdict == "NG" else "", line=line, job=job))
    assert [t.label for t in link.model.tags] == ["#1", "#2", "#4", "#3"]
    assert [t.label for t in link.model.held] == ["#8"]  # an NG tag of the old job still waits for its look
    assert [t.label for t in link.tag_rows.tags] == ["#7", "#8", "#1", "#2", "#4", "#3"]  # the Results dock keeps all
    link._on_tag(RecentTag(0, "NG", "no frame", trigger_id=41))  # triggered items carry the line's own ids
    link._on_tag(RecentTag(0, "OK", "", trigger_id=40))
    assert [t.label for t in link.model.tags] == ["#1", "#2", "#4", "#3", "T41", "T40"]


def test_each_new_line_of_the_per_tag_inspector_is_named_on_its_tags():
    """The line a tag's id belongs to is read where lines start (the worker's thread): a recipe change finishes the
    old line's tags under it, and the next frame starts a new line, numbered from 1 again."""
    from inference.tracking.station import PerTagInspector
    from tests.test_line_view import RECIPE, PlantedReader

    class Inner:
        reader, recipe = PlantedReader(), RECIPE

    inspector = PerTagInspector(Inner())
    assert inspector.lines_started == 0 and inspector._line_for() is not None and inspector.lines_started == 1
    inspector.recipe = RECIPE  # a new job: the old line is finished
    assert inspector._line is None and inspector._line_for() is not None and inspector.lines_started == 2
