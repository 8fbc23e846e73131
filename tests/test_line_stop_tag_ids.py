"""Tag ids go on from line to line (issue 18: one verdict per physical tag, named once). Each line's tracker
numbered its tags from #1, and a line ends at every Stop, source and recipe: the Results dock, History and the
report listed two "#1" in one session, told apart only by time."""

from __future__ import annotations

from pathlib import Path

import pytest

from inference.tracking import LineSettings
from inference.tracking.station import PerTagInspector
from tests.test_gui_line_walk_source_change import BOX, line_folder
from tests.test_line_view import PlantedInspector, PlantedPipeline
from tests.test_tracking import RECIPE, PlantedReader


def planted_worker(folder: Path, first_tag_id: int = 1):
    from app.worker import InspectionWorker

    worker = InspectionWorker()
    inner = PlantedInspector(PlantedPipeline({s: [BOX] for s in range(10)}), PlantedReader(), RECIPE)
    inner.frame_memory = None  # ordinary memory: the planted detector lends no frames
    worker._inspector = PerTagInspector(inner, LineSettings(look_frames=1), first_tag_id=first_tag_id)
    worker.open_source(str(line_folder(folder, range(6))))
    worker._source.live = True  # a camera's belt: Stop ends the line
    return worker


@pytest.mark.parametrize("first_tag_id, expected", [(1, [1, 2, 3]), (8, [8, 9, 10])])
def test_each_line_after_a_stop_goes_on_numbering(qtbot, tmp_path: Path, first_tag_id: int, expected: list):
    worker = planted_worker(tmp_path / "line", first_tag_id)
    given = []
    worker._inspector.listeners.append(given.append)
    for _ in range(3):  # a line, stopped; started again, stopped; then the source's end
        for _ in range(2):
            assert worker._process_next()
        worker._running = True
        worker.stop()
    assert [v.track_id for v in given] == expected
    assert worker._inspector.next_tag_id == expected[-1] + 1  # where another engine's line goes on


def test_a_line_that_saw_no_tag_leaves_the_numbering_as_it_was(qtbot, tmp_path: Path):
    worker = planted_worker(tmp_path / "line", 4)
    worker._running = True
    worker.stop()  # stopped before any frame
    assert worker._inspector.next_tag_id == 4


def test_another_engine_goes_on_numbering_where_the_last_one_stopped(qtbot, tmp_path: Path):
    from tests.test_gui_line_walk_swap import per_tag_window

    link = per_tag_window(qtbot, tmp_path).line
    link.inspector.next_tag_id = 9  # tags #1-#8 judged by the engine in use
    assert link.wrap(link.inspector.inner).next_tag_id == 9
