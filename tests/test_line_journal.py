"""`hangtag-inspect line` journals as the window does: a real station process with the real detector, a pymodbus
client playing its PLC over loopback; each answered trigger is a frame row and a tag row with its trigger id,
job and lot (the PLC changes both mid-run), handshake events name their trigger and frame, `report --last`
finds the rows, and a station killed mid-run keeps every trigger it answered."""

from __future__ import annotations

import contextlib
import csv
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("pymodbus", reason="pymodbus is not installed (pip install -e .)")

from inference.cli import main  # noqa: E402
from inference.line import modbus as mb  # noqa: E402
from inference.line.follow import trigger_of  # noqa: E402
from inference.line.plc import ModbusPlc  # noqa: E402
from inference.records.journal import Journal, default_journal_path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_RECIPE = ROOT / "resources" / "recipes" / "example.toml"
JOBS = {1: ("01_polo.toml", "Polo, navy"), 2: ("02_shirt.toml", "Shirt, white")}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def job_folders(tmp_path: Path) -> tuple[Path, Path]:
    recipes = tmp_path / "recipes"
    recipes.mkdir()
    text = EXAMPLE_RECIPE.read_text(encoding="utf-8")
    for file_name, name in JOBS.values():  # two jobs, told apart by their recipes' names
        (recipes / file_name).write_text(text.replace(
            'name = "Example: MUJIAN men\'s casual trousers V2185-00, 米白, 170/88A"', f'name = "{name}"', 1),
            encoding="utf-8")
    frames = tmp_path / "frames"
    frames.mkdir()
    for sample in sorted((ROOT / "resources" / "samples").glob("*.jpg"))[:2]:  # the folder starts over at its end
        shutil.copy(sample, frames / sample.name)
    return recipes, frames


@contextlib.contextmanager
def inspecting_line_station(tmp_path: Path, port: int):
    recipes, frames = job_folders(tmp_path)
    proc = subprocess.Popen([sys.executable, "-m", "inference.cli", "line", "--modbus", f"127.0.0.1:{port}",
                             "--source", str(frames), "--recipe-dir", str(recipes), "--job", "1", "--no-read",
                             "--backend", "onnxruntime-cpu", "--threads", "1", "--duration", "120"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ.copy())
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise AssertionError(f"line station did not start: {proc.communicate(timeout=5)}")
            time.sleep(0.1)
        plc = ModbusPlc("127.0.0.1", port, timeout_s=60, poll_s=0.01)
        try:
            yield proc, plc
        finally:
            plc.close()
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)  # the station's own Ctrl-C path: closes transports, ends the session
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                raise


def set_lot(plc: ModbusPlc, lot: int) -> None:
    reply = plc.client.write_registers(mb.HR_LOT_HIGH, [lot >> 16, lot & 0xFFFF])  # FC16: both words at once
    assert not reply.isError(), reply


def journaled_run(journal: Journal) -> tuple[list, list, list]:
    sessions = journal.sessions()
    frames = [f for s in sessions for f in journal.frames(s.id)]
    tags = [t for s in sessions for t in journal.tags(s.id)]
    return sessions, frames, tags


def test_each_answered_trigger_is_a_frame_row_and_a_tag_row_with_the_plcs_job_and_lot(tmp_path, capsys):
    port = free_port()
    with inspecting_line_station(tmp_path, port) as (proc, plc):
        set_lot(plc, 70001)
        answers = [plc.cycle() for _ in range(3)]
        plc.select_job(2)  # the line changes style and lot mid-run
        set_lot(plc, 70002)
        answers += [plc.cycle() for _ in range(2)]
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    assert '"not_recorded": 0' in out.strip().splitlines()[-1]

    with Journal.open(default_journal_path(), read_only=True) as journal:
        sessions, frames, tags = journaled_run(journal)
        events = journal.events()
    assert [a.trigger_id for a in answers] == [1, 2, 3, 4, 5]
    # one frame row per answered trigger, its verdict the one the PLC got
    assert [trigger_of(f) for f in frames] == [1, 2, 3, 4, 5]
    assert [f.verdict for f in frames] == [a.verdict for a in answers]
    polo, shirt = f"1 · {JOBS[1][1]}", f"2 · {JOBS[2][1]}"
    assert [(f.job, f.lot) for f in frames] == [(polo, "70001")] * 3 + [(shirt, "70002")] * 2
    # one tag row per triggered item, as the window writes them
    assert [(t.trigger_id, t.job, t.lot) for t in tags] == [(str(n), f.job, f.lot)
                                                             for n, f in zip(range(1, 6), frames)]
    assert [t.verdict for t in tags] == [f.verdict for f in frames]
    # a new session with the job, each ended by the station's Ctrl-C path
    assert [(s.job, s.lot, s.recipe_name, s.frame_count) for s in sessions] == [(polo, "70001", JOBS[1][1], 3),
                                                                                (shirt, "70002", JOBS[2][1], 2)]
    assert all(s.ended_at is not None and not s.end_reason for s in sessions)
    # every result's handshake event names its trigger and the frame row that answered it
    done = {e.subject for e in events if e.kind == "line InspectionDone"}
    assert done == {f"trigger {trigger_of(f)} frame {f.source_name}" for f in frames}
    assert any(e.kind == "line SelectJob" for e in events) and any(e.kind == "line JobLoaded" for e in events)

    assert main(["report", "--last", "--out", str(tmp_path / "report")]) == 0
    said = capsys.readouterr().out
    assert f"session {sessions[-1].id} " in said and "2 tags" in said and "2 frames" in said
    folder = Path(said.splitlines()[0].removeprefix("report: ").strip())
    rows = list(csv.DictReader((folder / "frames.csv").read_text(encoding="utf-8-sig").splitlines()))
    assert [(trigger_of(SimpleNamespace(**r)), r["job"], r["lot"]) for r in rows] == [(4, shirt, "70002"),
                                                                                        (5, shirt, "70002")]


def test_a_station_killed_mid_run_keeps_every_trigger_it_answered(tmp_path):
    port = free_port()
    with inspecting_line_station(tmp_path, port) as (proc, plc):
        set_lot(plc, 41)
        answers = [plc.cycle() for _ in range(3)]
        proc.kill()  # SIGKILL: no Ctrl-C path, nothing flushed at exit
        proc.wait(30)
    with Journal.open(default_journal_path()) as journal:  # the next start closes the dead station's session
        sessions, frames, tags = journaled_run(journal)
    assert [trigger_of(f) for f in frames] == [a.trigger_id for a in answers] == [1, 2, 3]
    assert [t.trigger_id for t in tags] == ["1", "2", "3"] and all(f.lot == "41" for f in frames)
    assert [s.end_reason for s in sessions] == ["interrupted"]


def test_sigterm_ends_the_session_normally_with_every_answered_trigger(tmp_path):
    """systemctl stop / docker stop: SIGTERM takes the same closing path as Ctrl-C, so the session is ended by the
    station (no end reason), not closed as "interrupted" at the next start."""
    port = free_port()
    with inspecting_line_station(tmp_path, port) as (proc, plc):
        set_lot(plc, 52)
        answers = [plc.cycle() for _ in range(2)]
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "stopped by SIGTERM" in err and "Traceback" not in err
    assert json.loads(out.strip().splitlines()[-1])["results"] == 2
    with Journal.open(default_journal_path(), read_only=True) as journal:  # read only: nothing closed for it
        sessions, frames, tags = journaled_run(journal)
        events = journal.events()
    assert [trigger_of(f) for f in frames] == [a.trigger_id for a in answers] == [1, 2]
    assert [t.trigger_id for t in tags] == ["1", "2"]
    assert [(s.frame_count, s.end_reason) for s in sessions] == [(2, "")] and sessions[0].ended_at is not None
    assert any(e.kind == "line link modbus" and "closed" in e.detail for e in events)  # transports closed first


def test_a_trigger_whose_frame_cannot_be_read_is_answered_error_and_journaled_as_a_review_item(tmp_path):
    """In process, no transport: the line's own station and journal, a source that has no image at the first
    trigger and one at the second."""
    from inference.inspection import Inspector
    from inference.line.handshake import Ack, Config, Trigger, Verdict
    from inference.line.jobs import FrameInspection
    from inference.line.journal import TriggerJournal, job_label
    from inference.line.station import LineStation
    from inference.records.recorder import Recorder
    from inference.records.station import StationRecords, session_key
    from tests.factories import blob_detector

    frames = tmp_path / "frames"
    frames.mkdir()
    journal = Journal.open(tmp_path / "journal.sqlite3")
    records = StationRecords(Recorder(journal))
    answers = []
    with Inspector.open(blob_detector(tmp_path / "m.onnx"), "onnxruntime-cpu", read=False) as inspector:
        rows = TriggerJournal(records, lambda start: session_key(str(frames), inspector, lot=start.lot,
                                                                 job=job_label(start.job_index, start.job_name)))
        inspection = FrameInspection(inspector, str(frames), journal=rows)
        with LineStation(inspection, config=Config(ack_timeout_s=30)).start(job=(3, "belt")) as station:
            for n in (1, 2):
                if n == 2:  # the camera's folder fills
                    shutil.copy(sorted((ROOT / "resources" / "samples").glob("*.jpg"))[0], frames / "a.jpg")
                station.pulse(Trigger)
                deadline = time.monotonic() + 60  # a budget against a hang, not a speed claim
                while station.signals().result_trigger_id != n:
                    assert time.monotonic() < deadline, station.signals()
                    time.sleep(0.01)
                answers.append(station.signals().verdict)
                station.pulse(Ack)
        inspection.close()
    rows.close()
    with Journal.open(tmp_path / "journal.sqlite3", read_only=True) as journal:
        _, frame_rows, tags = journaled_run(journal)
    assert answers[0] is Verdict.ERROR and answers[1] is not Verdict.ERROR
    assert [t.trigger_id for t in tags] == ["1", "2"] and all(t.job == "3 · belt" for t in tags)
    assert tags[0].verdict == "REVIEW" and "could not be inspected: no images in" in tags[0].reasons[0]
    assert [(f.source_name, f.job) for f in frame_rows] == [("a.jpg#trigger-2", "3 · belt")]  # nothing to show for 1
