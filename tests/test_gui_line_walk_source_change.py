"""A line engineer opens another source while tags of the first are still in view: they are judged at once, under
the first source's session. They waited for the next source's frames and were journaled under it."""

from __future__ import annotations

from pathlib import Path

import cv2

from inference.tracking import LineSettings
from inference.tracking.station import PerTagInspector
from tests.test_line_view import PlantedInspector, PlantedPipeline
from tests.test_tracking import RECIPE, PlantedReader, frame_with

BOX = (200, 100, 320, 260)


def line_folder(folder: Path, stamps: range) -> Path:
    folder.mkdir()
    for stamp in stamps:  # each frame's first pixel says which boxes the planted detector finds on it
        cv2.imwrite(str(folder / f"{stamp:03d}.png"), frame_with([(BOX, "ok")], stamp))
    return folder


def test_the_tags_in_view_are_judged_when_another_source_opens(qtbot, tmp_path: Path):
    from app.worker import InspectionWorker

    worker = InspectionWorker()
    inner = PlantedInspector(PlantedPipeline({s: [BOX] for s in range(10)}), PlantedReader(), RECIPE)
    inner.frame_memory = None  # ordinary memory: the planted detector lends no frames
    worker._inspector = PerTagInspector(inner, LineSettings(look_frames=1))
    given = []
    worker._inspector.listeners.append(given.append)
    worker.open_source(str(line_folder(tmp_path / "first", range(4))))
    for _ in range(4):
        assert worker._process_next()
    assert given == []  # the tag is still in view: not judged yet
    finished = []
    worker.source_finished.connect(finished.append)
    worker.open_source(str(line_folder(tmp_path / "second", range(4, 8))))
    assert len(given) == 1 and given[0].last_frame == 3 and finished == []  # judged on the first source's frames
