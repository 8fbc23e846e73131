"""Closing the window while a tag is being read (issue 15, found in issue 18's line bench): nothing the station had
taken is lost silently, the session ends normally, and the process exits without Qt's abort.

The window runs in a child process (offscreen) because the failure is an abort at exit ("QThread: Destroyed while
thread is still running"): in this process it would kill pytest instead of failing the test. The child closes the
real window, with the shipped detector and reader, at a moment a read is in flight: per tag, on a conveyor
recording, while the line's reading thread has a tag in hand (every tag in view then gets its journal row); per
frame, on a folder of a sample tag, after Stop cut a frame short mid-inspection (it waits for the next Start, which
closing takes away: the journal says it was not inspected). The parent judges the child's exit and the journal."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("PySide6")

ROOT = Path(__file__).resolve().parents[1]
CHILD = "HANGTAG_CLOSE_MID_READ"


def run_child(test: str, tmp_path: Path) -> tuple[subprocess.CompletedProcess, dict]:
    env = {**os.environ, CHILD: str(tmp_path), "QT_QPA_PLATFORM": "offscreen"}
    try:
        proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider", "--basetemp",
                               str(tmp_path / "child"), f"{__file__}::{test}"], capture_output=True, text=True,
                              env=env, cwd=ROOT, timeout=420)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"the window did not close (no exit in {exc.timeout:g} s)")
    if proc.returncode == 0 and "1 skipped" in proc.stdout:  # e.g. the shipped detector or the tag fonts absent
        pytest.skip(f"the child skipped: {proc.stdout.strip().splitlines()[-1]}")
    seen = tmp_path / "seen.json"
    return proc, json.loads(seen.read_text()) if seen.is_file() else {}


def assert_clean_exit(proc: subprocess.CompletedProcess) -> None:
    output = proc.stdout[-4000:] + proc.stderr[-4000:]
    assert "QThread: Destroyed" not in proc.stderr, output
    assert proc.returncode == 0 and "1 passed" in proc.stdout, output


def journal_of(tmp_path: Path):
    from inference.records import Journal

    with Journal.open(tmp_path / "journal.sqlite3", read_only=True) as journal:
        sessions = journal.sessions()
        frames = [f for s in sessions for f in journal.frames(s.id)]
        tags = [t for s in sessions for t in journal.tags(s.id)]
        events = journal.events()
    assert sessions, "the child journaled nothing"
    assert [s.ended_at is not None for s in sessions] == [True] * len(sessions), sessions  # ended, not left open
    assert all(s.end_reason != "interrupted" for s in sessions), sessions
    return frames, tags, events


@pytest.mark.timeout(480)
def test_closing_mid_read_per_tag_journals_every_tag_in_view_and_exits_cleanly(tmp_path) -> None:
    proc, seen = run_child("test_child_closes_the_window_mid_read_per_tag", tmp_path)
    assert_clean_exit(proc)
    assert seen["reading_at_close"], seen  # the moment asked for: a tag was in the reader's hands
    _, rows, _ = journal_of(tmp_path)
    # the tags finished before the close, and every tag still in view at the close, each have their row
    assert len(rows) >= seen["tags_shown"] + seen["in_view"] >= 1, (seen, rows)
    assert len({r.tag_id for r in rows}) == len(rows)
    unread = [r for r in rows if r.reads == 0]
    assert all(r.verdict == "REVIEW" for r in unread), unread  # a tag whose read was cut short is never OK


@pytest.mark.timeout(480)
def test_closing_with_a_frame_cut_short_by_stop_notes_it_and_exits_cleanly(tmp_path) -> None:
    proc, seen = run_child("test_child_closes_the_window_after_stop_cut_a_frame_short", tmp_path)
    assert_clean_exit(proc)
    frames, _, events = journal_of(tmp_path)
    recorded = sorted(f.source_name for f in frames)
    assert recorded == seen["files"][:seen["shown"]], (recorded, seen)
    # the frame Stop cut short mid-inspection, never inspected again before the window closed: it has no row,
    # and the journal (and the log) say it was not inspected, naming it
    assert seen["carried"] == seen["files"][seen["shown"]], seen
    cut_short = [e for e in events if e.kind == "not_inspected"]
    assert [e.subject for e in cut_short] == [seen["carried"]], (events, recorded)
    assert "inspect it again" in cut_short[0].detail
    assert f"JOURNAL: frame {cut_short[0].subject} was NOT recorded" in proc.stdout


@pytest.mark.skipif(CHILD not in os.environ, reason="runs in the child process of the test above")
def test_child_closes_the_window_mid_read_per_tag(qtbot) -> None:
    from PySide6.QtCore import QSettings

    from app.main_window import MainWindow
    from app.settings import StationSettings
    from tests.factories import conveyor_recording

    out = Path(os.environ[CHILD])
    truth = conveyor_recording(out / "line")
    settings = StationSettings(QSettings(str(out / "station.ini"), QSettings.Format.IniFormat))
    settings.set("line/per_tag", "1")
    window = MainWindow(source=str(out / "line" / "line.avi"), backend="onnxruntime-cpu",
                        recipe=out / "line" / "recipe.toml", settings=settings, read=True,
                        journal_path=out / "journal.sqlite3", testing=True)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.pipeline is not None and window.line.shows_tags, timeout=120000)
    line = window.line.inspector
    window.start()
    # the reading thread has a tag in hand (read running or queued) while the worker goes on detecting
    qtbot.waitUntil(lambda: line._line is not None and line._line.worker.reading, timeout=240000)
    in_view = None
    while in_view is None:  # the worker's thread changes the tracks meanwhile: a copy taken between two changes
        try:
            in_view = len(line._line.tracks())
        except RuntimeError:
            pass
    seen = {"reading_at_close": line._line.worker.reading, "in_view": in_view,
            "tags_shown": len(window.line.model.tags), "tags_in_recording": len(truth["tags"])}
    (out / "seen.json").write_text(json.dumps(seen))
    window.close()


@pytest.mark.skipif(CHILD not in os.environ, reason="runs in the child process of the test above")
def test_child_closes_the_window_after_stop_cut_a_frame_short(qtbot) -> None:
    from PySide6.QtCore import QSettings

    from app.main_window import MainWindow
    from app.settings import StationSettings
    from inference.resources import default_model_path, resource_path, samples_dir

    if not default_model_path().is_file():
        pytest.skip(f"the shipped detector is absent: {default_model_path()}")
    out = Path(os.environ[CHILD])
    folder = out / "tags"
    folder.mkdir()
    files = [f"tag_{i}.jpg" for i in range(4)]
    for name in files:
        (folder / name).write_bytes((samples_dir() / "090000022.jpg").read_bytes())
    settings = StationSettings(QSettings(str(out / "station.ini"), QSettings.Format.IniFormat))
    window = MainWindow(source=str(folder), backend="onnxruntime-cpu",
                        recipe=resource_path("recipes", "sample_090000022.toml"), settings=settings, read=True,
                        journal_path=out / "journal.sqlite3", testing=True)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.pipeline is not None and window.recipe is not None, timeout=120000)
    shown: list[str] = []
    window.worker.frame_done.connect(lambda _image, result: shown.append(result.source_name))
    carried = None
    while carried is None and len(shown) < len(files) - 1:
        before = len(shown)
        window.start()
        qtbot.waitUntil(lambda: len(shown) > before, timeout=240000)  # the worker goes on to the next frame...
        window.stop()  # ...and Stop cuts it short; it is kept for the next Start
        qtbot.waitUntil(lambda: not window.source_bar.running, timeout=120000)
        carried = getattr(window.worker._carry, "name", None)  # the worker is idle: its state holds still
    assert carried is not None, "Stop never landed while a frame was being inspected"
    (out / "seen.json").write_text(json.dumps({"files": files, "shown": len(shown), "carried": carried}))
    window.close()


LET_GO = """
import sys, threading
from PySide6.QtCore import QCoreApplication, QObject, QThread, Slot
from app.thread_exit import wait_or_let_go

class Stuck(QObject):
    @Slot()
    def work(self):
        threading.Event().wait(60)  # a read that outlasts every allowance

app = QCoreApplication([])
window = QObject()
thread = QThread(window)
stuck = Stuck()
stuck.moveToThread(thread)
thread.started.connect(stuck.work)
thread.start()
print("ended:", wait_or_let_go(thread, 0.2, stuck), flush=True)
del thread
window = None  # the window's QObject and its children go with its last reference
print("window gone", flush=True)
sys.exit(3)
"""


def test_a_thread_that_does_not_end_in_time_is_let_go_and_the_process_exits_normally() -> None:
    """What the window does when its worker cannot stop (app/thread_exit.py): the window, the thread's parent, is
    destroyed while the thread still runs, and the process exits with its own code, not Qt's abort."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run([sys.executable, "-c", LET_GO], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=120)
    assert proc.stdout.splitlines() == ["ended: False", "window gone"], proc.stdout + proc.stderr
    assert "QThread: Destroyed" not in proc.stderr and proc.returncode == 3, proc.stderr[-3000:]
