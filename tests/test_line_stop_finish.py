"""Stop on a live moving line judges the tags in view (issue 18: nothing already inspected is lost). They stayed open
until the next Start: a replay then saw them again as new tags, a camera's belt had carried them off, and nothing on
screen said so. Each is judged as when it leaves the view, on its best evidence; one never read says the stop was
why, not "the frame's edge cut it"."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.line_link import paused_text, stopped_text
from inference.reading.verdict import Verdict
from inference.tracking import LineInspector, LineSettings
from inference.tracking.records import UNREAD, unread_because
from inference.tracking.station import PerTagInspector
from tests.test_gui_line_walk_source_change import BOX, line_folder
from tests.test_line_view import PlantedInspector, PlantedPipeline
from tests.test_tracking import RECIPE, PlantedReader, conveyor, detections_of, frame_with


def stopped_midway(line: LineInspector, frames: int, **tags) -> list:
    verdicts = []
    for frame, visible in conveyor(**tags):
        if frame == frames:
            break
        image = frame_with([(box, kind) for box, kind, _ in visible], frame % 250)
        verdicts += line.step(frame, image, detections_of([box for box, _, _ in visible]))
    return verdicts


@pytest.mark.parametrize("cause, reason", [
    ("the line was stopped", unread_because("the line was stopped")),
    (None, UNREAD),  # the stream's end, as before: no cause given
])
def test_a_tag_in_view_never_read_names_the_stop(cause, reason):
    line = LineInspector(None, PlantedReader(), RECIPE, threaded=False)
    # along the top edge, entering: never seen whole by the time of the stop
    assert stopped_midway(line, 8, n_tags=1, ys=[-20]) == []
    verdicts = line.finish(cause=cause)
    assert [(v.verdict, v.reasons) for v in verdicts] == [(Verdict.REVIEW, (reason,))]


def test_a_tag_in_view_seen_whole_is_judged_on_its_best_shot_at_the_stop():
    reader = PlantedReader()
    line = LineInspector(None, reader, RECIPE, LineSettings(look_frames=50, sharp_focus=1e9), threaded=False)
    assert stopped_midway(line, 12, n_tags=1, kinds=["ng"]) == []  # in view, whole, no read yet
    verdicts = line.finish(cause="the line was stopped")
    assert [v.verdict for v in verdicts] == [Verdict.NG] and verdicts[0].reads == 1


def planted_worker(tmp_path: Path, live: bool = True):
    """`live`: the folder's frames stand in for a camera's, whose belt goes on moving while the line is stopped."""
    from app.worker import InspectionWorker

    worker = InspectionWorker()
    inner = PlantedInspector(PlantedPipeline({s: [BOX] for s in range(10)}), PlantedReader(), RECIPE)
    inner.frame_memory = None
    worker._inspector = PerTagInspector(inner, LineSettings(look_frames=1))
    worker.open_source(str(line_folder(tmp_path / "line", range(6))))
    worker._source.live = live
    return worker


@pytest.mark.parametrize("stop_by", ["slot", "loop"])  # the Stop slot, or the loop seeing request_stop first
def test_stop_judges_the_tags_in_view_and_says_how_many(qtbot, tmp_path: Path, stop_by: str):
    from app.worker import WHEN_STOPPED

    worker = planted_worker(tmp_path)
    given, finished = [], []
    worker._inspector.listeners.append(given.append)  # the journal and the window listen here
    worker.line_finished.connect(lambda verdicts, when: finished.append((len(verdicts), when)))
    for _ in range(3):
        assert worker._process_next()
    assert given == []  # still in view
    worker._running = True
    if stop_by == "slot":
        worker.stop()
    else:
        worker.request_stop()
        worker._tick()
    assert not worker._running
    assert [(v.verdict, v.last_frame) for v in given] == [(Verdict.OK, 2)]
    assert finished == [(1, WHEN_STOPPED)]


def test_a_recording_stopped_keeps_its_tags_in_view_open_and_judges_each_once(qtbot, tmp_path: Path):
    """A video or folder goes on at the frame it stopped at: its tags in view, judged at the stop, would be seen
    again after Start and judged twice."""
    worker = planted_worker(tmp_path, live=False)
    given, paused = [], []
    worker._inspector.listeners.append(given.append)
    worker.line_paused.connect(paused.append)
    for _ in range(3):
        assert worker._process_next()
    worker._running = True
    worker.stop()
    assert given == [] and paused == [1]
    while worker._process_next():  # Start again: the recording goes on, and ends
        pass
    assert [(v.track_id, v.verdict, v.last_frame) for v in given] == [(1, Verdict.OK, 5)]


def test_a_stop_while_idle_judges_nothing_twice(qtbot, tmp_path: Path):
    worker = planted_worker(tmp_path)
    finished = []
    worker.line_finished.connect(lambda verdicts, when: finished.append(when))
    worker.stop()  # not running: nothing was stopped
    assert finished == []


class _V:
    def __init__(self, value: str) -> None:
        self.verdict = Verdict(value)


@pytest.mark.parametrize("verdicts, expected", [
    ([], "Stopped: no tag was in view; tags passing while stopped get no verdict"),
    ([_V("OK"), _V("NG"), _V("OK")],
     "Stopped: 3 tags in view judged now (2 OK, 1 NG); tags passing while stopped get no verdict"),
])
def test_the_status_bar_says_what_the_stop_judged(verdicts, expected):
    assert stopped_text(verdicts) == expected


@pytest.mark.parametrize("in_view, expected", [
    (0, "Stopped: no tag was in view"),
    (1, "Stopped: 1 tag in view is judged as it leaves after Start (the recording goes on where it stopped)"),
    (2, "Stopped: 2 tags in view are judged as they leave after Start (the recording goes on where it stopped)"),
])
def test_the_status_bar_says_a_recording_s_tags_wait(in_view, expected):
    assert paused_text(in_view) == expected


@pytest.mark.parametrize("emit, expected", [
    (lambda worker: worker.line_paused.emit(2), paused_text(2)),
    (lambda worker: worker.line_finished.emit([_V("NG")], "when the line was stopped"), stopped_text([_V("NG")])),
])
def test_the_status_bar_is_written_on_the_window_s_thread(qtbot, tmp_path: Path, emit, expected):
    """The worker emits from its own thread: a slot run there (a lambda has no thread) wrote the status bar from it
    ("Cannot create children for a parent that is in a different thread")."""
    import threading

    from tests.test_gui_line_walk_swap import per_tag_window

    window = per_tag_window(qtbot, tmp_path)
    on_worker = threading.Thread(target=emit, args=(window.worker,))
    on_worker.start()
    on_worker.join()
    assert window.statusBar().currentMessage() != expected  # not written from the worker's thread
    qtbot.waitUntil(lambda: window.statusBar().currentMessage() == expected, timeout=3000)
