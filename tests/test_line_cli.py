"""`hangtag-inspect line` (a real station process) and `plc-sim` playing its PLC over Modbus TCP."""

from __future__ import annotations

import contextlib
import json
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("pymodbus", reason="pymodbus is not installed (pip install -e .)")

from inference.cli import main  # noqa: E402
from inference.line.jobs import RecipeFolder, job_table, verdict_of  # noqa: E402
from inference.line.handshake import Verdict  # noqa: E402
from inference.line.station import JobNotFound, LineError  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_RECIPE = ROOT / "resources" / "recipes" / "example.toml"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def recipe_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "recipes"
    folder.mkdir()
    for name in ("01_polo.toml", "02_shirt.toml"):
        shutil.copy(EXAMPLE_RECIPE, folder / name)
    (folder / "notes.toml").write_text("not a job: no leading number\n")
    return folder


@contextlib.contextmanager
def line_station(*args: str, port: int):
    proc = subprocess.Popen([sys.executable, "-m", "inference.cli", "line", "--modbus", f"127.0.0.1:{port}",
                             "--duration", "60", *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"line station did not start: {proc.communicate(timeout=5)}")
            time.sleep(0.1)
        yield proc
    finally:
        proc.send_signal(signal.SIGINT)  # the station's own Ctrl-C path: closes transports, flushes the journal
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise


def test_plc_sim_against_a_line_station_with_job_changes(tmp_path, capsys):
    port = free_port()
    journal = tmp_path / "events.jsonl"
    with line_station("--answer", "NG", "--recipe-dir", str(recipe_dir(tmp_path)), "--events", str(journal),
                      port=port) as proc:
        code = main(["plc-sim", "--modbus", f"127.0.0.1:{port}", "--count", "40", "--warmup", "2",
                     "--jobs", "2,1", "--job-every", "10", "--json", str(tmp_path / "sim.json")])
    summary = json.loads(capsys.readouterr().out)
    assert code == 0
    assert summary["cycles"] == 40 and summary["verdicts"] == {"NG": 40} and summary["job_changes"] == 3
    assert 0 < summary["round_trip_ms"]["p50"] <= summary["round_trip_ms"]["p99"]
    assert json.loads((tmp_path / "sim.json").read_text()) == summary
    station = json.loads(proc.stdout.read().strip().splitlines()[-1])
    assert station["results"] == 42 and station["missed_triggers"] == 0 and station["station_ms"]["total"]["n"] == 42
    events = [json.loads(line) for line in journal.read_text().splitlines()]
    done = [e for e in events if e["event"] == "InspectionDone"]
    assert [e["trigger_id"] for e in done] == list(range(1, 43)) and "result trigger 42 NG" in done[-1]["detail"]
    assert sum(e["event"] == "SelectJob" for e in events) == 3 and all(e["wall"] > 0 for e in events)


def test_plc_sim_reports_a_missing_recipe_as_an_error(tmp_path, capsys):
    port = free_port()
    with line_station("--answer", "OK", "--recipe-dir", str(recipe_dir(tmp_path)), port=port):
        code = main(["plc-sim", "--modbus", f"127.0.0.1:{port}", "--count", "5", "--jobs", "7",
                     "--job-every", "2", "--timeout", "3"])
    err = capsys.readouterr().err
    assert code == 2 and "error:" in err and "code 103" in err  # RECIPE_NOT_FOUND


def test_plc_sim_without_a_station_says_so(capsys):
    code = main(["plc-sim", "--modbus", f"127.0.0.1:{free_port()}", "--count", "1", "--timeout", "1"])
    err = capsys.readouterr().err
    assert code == 2 and "cannot connect" in err and "hangtag-inspect line" in err


@pytest.mark.parametrize("argv,words", [
    (["line", "--answer", "OK"], "no transport to the line"),
    (["line", "--modbus", "127.0.0.1:5020"], "nothing to inspect"),
    (["line", "--modbus", "127.0.0.1:notaport", "--answer", "OK"], "expected: HOST:PORT"),
    (["plc-sim", "--mqtt", "http://x", "--count", "1"], "not an MQTT broker address"),
])
def test_bad_arguments_are_errors_not_tracebacks(argv, words, capsys):
    assert main(argv) == 2
    assert words in capsys.readouterr().err


def test_recipe_folder_indices_come_from_file_names(tmp_path):
    folder = recipe_dir(tmp_path)
    assert sorted(job_table(folder)) == [1, 2]
    recipes = RecipeFolder(folder)
    assert recipes.path(2).name == "02_shirt.toml"
    with pytest.raises(JobNotFound, match="expected: one of: 1, 2"):
        recipes.path(3)
    shutil.copy(EXAMPLE_RECIPE, folder / "1-dup.toml")
    with pytest.raises(LineError, match="two recipes claim job 1"):
        job_table(folder)


class _Result:
    def __init__(self, ok=True, verdict=None):
        self.ok = ok
        self.verdict = verdict


class _FrameVerdict:
    def __init__(self, value):
        self.verdict = value


@pytest.mark.parametrize("result,expected", [
    (_Result(ok=False), Verdict.ERROR), (_Result(verdict=None), Verdict.REVIEW),
    (_Result(verdict=_FrameVerdict("NG")), Verdict.NG), (_Result(verdict=_FrameVerdict("OK")), Verdict.OK),
])
def test_verdict_of(result, expected):
    assert verdict_of(result) is expected


@pytest.mark.parametrize("what", ["a result", "Ready", "job 2 loaded"])
def test_plc_sim_says_what_it_waited_for_in_plain_words(what):
    """plc-sim against a window whose source had finished printed 'no a result from the station in time'."""
    from inference.line.plc import PlcError, _deadline_passed

    with pytest.raises(PlcError) as caught:
        _deadline_passed(time.monotonic() - 1.0, what)
    text = str(caught.value)
    assert f"timed out waiting for {what} from the station" in text
    assert "window with its source started" in text  # the station may be the window, not only `line`
