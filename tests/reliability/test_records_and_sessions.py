"""Items 10 and 12: a data folder that cannot take records never stops inspection and every frame it
could not record is marked; the headless station journals like the window; killed sessions are
closed at the next start; report --last and --session choose deterministically."""

from __future__ import annotations

import signal
import sqlite3
from pathlib import Path

import pytest

from inference.records.journal import Journal, JournalError, OfflineJournal, open_station_journal
from inference.records.recorder import Recorder, SessionKey
from tests.reliability.helpers import ROOT, SAMPLES, assert_explained, assert_no_traceback, cli, headless, jpeg_bytes, watching_station

RECIPE = ROOT / "resources" / "recipes" / "example.toml"  # NG on most samples: their images are archived


def two_samples(tmp_path: Path) -> Path:
    folder = tmp_path / "two"
    folder.mkdir()
    for name in ("090000001.jpg", "090000002.jpg"):
        (folder / name).write_bytes((SAMPLES / name).read_bytes())
    return folder


def result_lines(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if line.startswith("0900")]


def test_an_unwritable_data_folder_is_said_at_start_and_every_frame_is_marked(tmp_path) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the data folder should be")
    proc = headless("--no-read", "--source", str(two_samples(tmp_path)), data_dir=blocker / "data")
    assert_no_traceback(proc)
    assert proc.returncode == 0
    assert "results will NOT be recorded" in proc.stderr
    assert_explained(proc.stderr)
    lines = result_lines(proc.stdout)
    assert len(lines) == 2 and all(line.endswith("[NOT recorded]") for line in lines)


@pytest.mark.release
def test_a_full_disk_keeps_inspecting_and_marks_what_was_not_recorded(tmp_path) -> None:
    folder = tmp_path / "line"
    folder.mkdir()
    for path in sorted(SAMPLES.glob("*.jpg"))[:8]:
        (folder / path.name).write_bytes(path.read_bytes())
    data = tmp_path / "data"
    first = headless("--no-read", "--source", str(SAMPLES / "090000001.jpg"), data_dir=data)
    assert first.returncode == 0
    # every file the station writes may grow to 48 KiB, then the "disk" is full (EFBIG)
    proc = headless("--no-read", "--recipe", str(RECIPE), "--source", str(folder), data_dir=data,
                    file_size=48 * 1024)
    seen = assert_no_traceback(proc)
    assert proc.returncode == 0, seen[-2000:]
    lines = result_lines(proc.stdout)
    assert len(lines) == 8 and "summary:" in proc.stdout
    assert any(line.endswith(("[NOT recorded]", "[NOT archived]")) for line in lines)
    assert "warning:" in proc.stderr and "hint:" in proc.stderr


def test_a_failed_archive_write_still_journals_the_verdict(tmp_path) -> None:
    from inference.records import Archive, ArchiveError

    blocker = tmp_path / "archive-is-a-file"
    blocker.write_text("x")
    journal = Journal.open(tmp_path / "j.sqlite3")
    recorder = Recorder(journal, Archive(blocker / "archive"))
    recorder.use(SessionKey("src", "r", "", "", "onnxruntime-cpu", "fp32"))
    result = _ng_result()
    with pytest.raises(ArchiveError, match="journaled but its images were NOT archived"):
        recorder.record(result, None)
    recorder.end()
    frames = journal.frames(journal.last_session_id())
    assert [f.verdict for f in frames] == ["NG"] and frames[0].archive_original == ""
    journal.close()


def _ng_result():
    import numpy as np

    from inference.detections import Detections
    from inference.pipeline import error_result
    from inference.postprocess import Thresholds
    from inference.reading.verdict import FrameVerdict, Verdict

    base = error_result(0, "tag.jpg", None, "x", Thresholds(), ("hangtag",))
    return base.with_(error=None, detections=Detections(np.zeros((0, 4), np.float32), np.zeros(0, np.float32),
                                                      np.zeros(0, np.int64), ("hangtag",)),
                      verdict=FrameVerdict(Verdict.NG, ("no hangtag",)))


def test_ending_a_session_on_a_dead_journal_does_not_raise(tmp_path) -> None:
    journal = Journal.open(tmp_path / "j.sqlite3")
    recorder = Recorder(journal)
    recorder.use(SessionKey("src", "", "", "", "onnxruntime-cpu", "fp32"))
    recorder.session_id = journal.start_session(source="src")
    journal._conn.close()  # what a vanished drive looks like to SQLite
    with pytest.raises(JournalError):
        journal.end_session(recorder.session_id)
    recorder.end()  # the window calls this on close: it must not abort


def test_an_offline_journal_refuses_with_the_reason(tmp_path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    journal = open_station_journal(blocker / "journal.sqlite3")
    assert isinstance(journal, OfflineJournal)
    with pytest.raises(JournalError, match="not recorded") as info:
        journal.start_session(source="x")
    assert_explained(str(info.value))
    with pytest.raises(JournalError):
        journal.unexported_archive_paths()  # pruning must not read this as "nothing left to protect"
    journal.end_session(1)
    journal.close()


def test_the_window_keeps_running_when_the_journal_cannot_be_opened(qtbot, tmp_path) -> None:
    from PySide6.QtWidgets import QMainWindow

    from app.records_link import RecordsLink

    class Window(QMainWindow):
        testing = True

        def __init__(self) -> None:
            super().__init__()
            self.file_menu = self.menuBar().addMenu("File")
            self.errors: list[str] = []

        def _on_error(self, message: str) -> None:
            self.errors.append(message)

    window = Window()
    qtbot.addWidget(window)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    link = RecordsLink(window, blocker / "journal.sqlite3")
    qtbot.waitUntil(lambda: bool(window.errors), timeout=5000)
    assert "Results will NOT be recorded" in window.errors[0]
    link.prune()
    assert "Archive not pruned" in window.errors[-1]
    link.recorder.end()
    link.close()


# -- sessions ----------------------------------------------------------------------------------------

def test_report_last_finds_the_headless_session(tmp_path) -> None:
    data = tmp_path / "data"
    proc = headless("--no-read", "--recipe", str(RECIPE), "--source", str(two_samples(tmp_path)), data_dir=data)
    assert proc.returncode == 0
    report = cli("report", "--last", "--out", str(tmp_path / "reports"), data_dir=data)
    assert_no_traceback(report)
    assert report.returncode == 0 and "2 frames" in report.stdout
    with Journal.open(data / "journal.sqlite3", read_only=True) as journal:
        session = journal.session(journal.last_session_id())
    assert session.ended_at is not None and session.end_reason == "" and session.recipe_name
    assert session.backend == "onnxruntime-cpu" and session.model_hash


@pytest.mark.release
@pytest.mark.timeout(120)
def test_a_killed_session_is_closed_as_interrupted_at_the_next_start(tmp_path) -> None:
    data, watched = tmp_path / "data", tmp_path / "drop"
    watched.mkdir()
    station = watching_station(watched, data, merge_stderr=True)
    try:
        (watched / "tag.jpg").write_bytes(jpeg_bytes(seed=9))
        assert station.stdout.readline().startswith("tag.jpg:")  # journaled before it is printed
    finally:
        station.send_signal(signal.SIGKILL)
        station.wait()
    raw = sqlite3.connect(data / "journal.sqlite3")
    assert raw.execute("SELECT ended_at FROM sessions").fetchall() == [(None,)]
    raw.close()
    listing = cli("report", "--list", data_dir=data)  # any next start of the station's journal
    assert_no_traceback(listing)
    assert "interrupted" in listing.stdout
    with Journal.open(data / "journal.sqlite3", read_only=True) as journal:
        session = journal.sessions()[0]
    assert session.end_reason == "interrupted" and session.frame_count == 1
    assert session.ended_at >= session.started_at


def test_a_running_sessions_is_not_closed_by_another_station(tmp_path) -> None:
    path = tmp_path / "j.sqlite3"
    with Journal.open(path) as first:
        running = first.start_session(source="line 1")
        with Journal.open(path) as second:  # another station starting on the same journal
            assert second.session(running).ended_at is None


def test_report_last_is_deterministic_and_names_concurrent_sessions(tmp_path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    with Journal.open(data / "journal.sqlite3") as journal:
        early = journal.start_session(station_id="line-1", source="a", started_at=1000.0)
        late = journal.start_session(station_id="line-2", source="b", started_at=1005.0)
        journal.end_session(late, ended_at=1010.0)
        journal.end_session(early, ended_at=1020.0)  # ended last, but started first
    report = cli("report", "--last", "--out", str(tmp_path / "out"), data_dir=data)
    assert_no_traceback(report)
    assert report.returncode == 0
    assert f"session {late} from line-2" in report.stdout
    assert f"also running at the same time: session {early} (line-1" in report.stdout
    missing = cli("report", "--session", "99", "--out", str(tmp_path / "out"), data_dir=data)
    assert_no_traceback(missing)
    assert missing.returncode == 2 and "report --list" in missing.stderr


@pytest.mark.timeout(120)
@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_a_station_stopped_by_its_service_manager_closes_its_session(tmp_path, stop) -> None:
    data, watched = tmp_path / "data", tmp_path / "drop"
    watched.mkdir()
    station = watching_station(watched, data)
    try:
        (watched / "tag.jpg").write_bytes(jpeg_bytes(seed=11))
        assert station.stdout.readline().startswith("tag.jpg:")
        station.send_signal(stop)
        out, err = station.communicate(timeout=60)
    finally:
        station.kill()
    assert "Traceback" not in out + err and "the session was closed" in err and station.returncode == 130
    with Journal.open(data / "journal.sqlite3", read_only=True) as journal:
        session = journal.sessions()[0]
    assert session.ended_at is not None and session.end_reason == "" and session.frame_count == 1
