"""The window on a line: a real pymodbus client plays the PLC against the window's Modbus server; triggers are
answered by the frames the window inspects, job select loads the recipe, every handshake event is journaled."""

from __future__ import annotations

import argparse
import socket
from pathlib import Path

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pymodbus", reason="pymodbus is not installed (pip install -e .)")
from PySide6.QtCore import QSettings  # noqa: E402
from pymodbus.client import ModbusTcpClient  # noqa: E402

from app.plc_link import headless_line_argv, line_options  # noqa: E402
from app.settings import StationSettings  # noqa: E402
from inference.line import modbus as mb  # noqa: E402
from inference.records import Journal  # noqa: E402
from tests.test_gui import make_folder  # noqa: E402
from tests.test_gui_station import GOOD_RECIPE, make_window  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def settings_with(tmp_path: Path, **line: str) -> StationSettings:
    settings = StationSettings(QSettings(str(tmp_path / "station.ini"), QSettings.Format.IniFormat))
    for key, value in line.items():
        settings.store.setValue(f"line/{key}", value)
    return settings


def recipe_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "jobs"
    folder.mkdir()
    for index, name in ((1, "polo"), (2, "shirt")):
        (folder / f"{index:02d}_{name}.toml").write_text(GOOD_RECIPE.format(name=name), encoding="utf-8")
    return folder


def inputs(client: ModbusTcpClient) -> list[int]:
    reply = client.read_input_registers(0, count=mb.INPUTS)
    assert not reply.isError(), reply
    return reply.registers


def test_the_window_answers_a_plc_with_its_next_frame_and_journals_every_event(qtbot, tmp_path):
    port = free_port()
    jobs = recipe_folder(tmp_path)
    settings = settings_with(tmp_path, modbus=f"127.0.0.1:{port}", recipe_dir=str(jobs), ack_timeout_s="30")
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 3), settings=settings, recipe=jobs / "01_polo.toml")
    io = window.docks["io"]
    assert io in window.tabifiedDockWidgets(window.docks["text"])
    plc = ModbusTcpClient("127.0.0.1", port=port, timeout=3)
    assert plc.connect()
    try:
        regs = inputs(plc)
        assert regs[mb.IR_STATE] == 2 and regs[mb.IR_JOB] == 1  # Ready with the window's job, index 1
        assert not plc.write_coil(mb.COIL_TRIGGER, True).isError()
        qtbot.waitUntil(lambda: inputs(plc)[mb.IR_STATE] == 3, timeout=5000)  # busy: waiting for a frame
        window.start()
        qtbot.waitUntil(lambda: bool(inputs(plc)[mb.IR_STATUS] & 4), timeout=15000)
        regs = inputs(plc)
        assert regs[mb.IR_RESULT_ID] == 1 and regs[mb.IR_VERDICT] == 1  # OK: the recipe wants one hangtag
        assert not plc.write_coil(mb.COIL_TRIGGER, False).isError()
        assert not plc.write_register(mb.HR_ACK_ID, 1).isError()
        qtbot.waitUntil(lambda: not inputs(plc)[mb.IR_STATUS] & 4, timeout=5000)
        qtbot.waitUntil(lambda: not window.source_bar.running, timeout=15000)
        assert not plc.write_register(mb.HR_JOB, 2).isError()  # the PLC changes the job: the window loads it
        qtbot.waitUntil(lambda: window.recipe_path == jobs / "02_shirt.toml", timeout=5000)
        qtbot.waitUntil(lambda: inputs(plc)[mb.IR_JOB] == 2 and inputs(plc)[mb.IR_STATE] == 2, timeout=5000)
        assert not plc.write_register(mb.HR_JOB, 0).isError()  # no job 0: latched fault, the window keeps its job
        qtbot.waitUntil(lambda: inputs(plc)[mb.IR_STATE] == 5, timeout=5000)
        assert window.recipe_path == jobs / "02_shirt.toml"
        timeline = window.plc.dock.widget().timeline
        qtbot.waitUntil(lambda: "InspectionDone" in timeline.toPlainText(), timeout=3000)
    finally:
        plc.close()
    window.close()
    with pytest.raises(OSError):  # the window's Modbus server closed with it
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
    with Journal.open(tmp_path / "journal.sqlite3", read_only=True) as journal:
        events = [(e.kind, e.subject, e.detail) for e in journal.events()]
    done = [e for e in events if e[0] == "line InspectionDone"]
    assert len(done) == 1 and done[0][1].startswith("trigger 1 frame 0:tag_00")
    ack = [e for e in events if e[0] == "line Ack"]
    assert ack and ack[0][1] == done[0][1] and "acknowledged result 1" in ack[0][2]
    assert {"line Trigger", "line SelectJob", "line JobLoaded", "line link modbus"} <= {e[0] for e in events}
    refused = [e for e in events if e[0] == "line SelectJob" and "RECIPE_NOT_FOUND" in e[2]]
    assert refused and refused[0][2].startswith("Error; code ")


def test_no_transport_no_dock(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, settings=settings_with(tmp_path))
    assert window.plc is None and "io" not in window.docks


def namespace(**given) -> argparse.Namespace:
    base = dict(modbus=None, opcua=None, opcua_user=None, opcua_anonymous=None, mqtt=None, recipe_dir=None,
                model=Path("m.onnx"), backend=None, recipe=None, no_read=False)
    return argparse.Namespace(**{**base, **given})


@pytest.mark.parametrize("stored,given,expected", [
    ({}, {}, []),
    ({"modbus": "0.0.0.0:5020"}, {}, ["--modbus", "0.0.0.0:5020"]),
    ({"modbus": "0.0.0.0:5020"}, {"modbus": "127.0.0.1:1502"}, ["--modbus", "127.0.0.1:1502"]),
    ({"mqtt": "mqtt://broker/l1", "recipe_dir": "/jobs"}, {"opcua_anonymous": True, "opcua": "opc.tcp://h:4840/"},
     ["--opcua", "opc.tcp://h:4840/", "--mqtt", "mqtt://broker/l1", "--recipe-dir", "/jobs", "--opcua-anonymous"]),
])
def test_settings_and_command_line_make_the_headless_line_station(tmp_path, monkeypatch, stored, given, expected):
    monkeypatch.setenv("HANGTAG_SETTINGS", str(tmp_path / "station.ini"))
    settings = settings_with(tmp_path, **stored)
    settings.store.sync()
    argv = headless_line_argv(namespace(**given), "frames/")
    if not expected:
        assert argv == [] and not line_options(settings, namespace(**given)).enabled
        return
    assert argv[:3] == ["line", "--source", "frames/"]
    flags = [a for a in argv[3:] if a.startswith("--") and a not in ("--model", "--ack-timeout", "--queue-depth",
                                                                          "--inspect-budget")]
    assert flags == [a for a in expected if a.startswith("--")]
    for flag, value in zip(expected, expected[1:]):
        if flag.startswith("--") and not value.startswith("--"):
            assert argv[argv.index(flag) + 1] == value


def test_an_unreadable_stored_number_falls_back(tmp_path):
    settings = settings_with(tmp_path, modbus="127.0.0.1:5020", ack_timeout_s="soon", queue_depth="x")
    options = line_options(settings)
    assert options.enabled and options.ack_timeout_s == 2.0 and options.queue_depth == 4


PAIR_RECIPE = '[recipe]\nname = "{name}"\n[counts]\nhangtag = {{ min = 900, max = 999 }}\n'  # a dozen a frame: NG


def test_the_first_trigger_after_a_job_select_is_judged_with_the_new_recipe(qtbot, tmp_path):
    """The window inspects a looping folder flat out while a real pymodbus PLC switches jobs back and forth and
    triggers the moment Ready comes back with the new job index: every answer is the new recipe's verdict, the
    header shows the PLC's job and lot, and the journal's frames carry them."""
    port = free_port()
    jobs = tmp_path / "jobs"
    jobs.mkdir()
    (jobs / "01_polo.toml").write_text(GOOD_RECIPE.format(name="polo"), encoding="utf-8")
    (jobs / "02_pair.toml").write_text(PAIR_RECIPE.format(name="pair"), encoding="utf-8")
    settings = settings_with(tmp_path, modbus=f"127.0.0.1:{port}", recipe_dir=str(jobs), ack_timeout_s="30")
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 3), settings=settings, recipe=jobs / "01_polo.toml")
    window.source_bar.loop.setChecked(True)
    plc = ModbusTcpClient("127.0.0.1", port=port, timeout=3)
    assert plc.connect()
    answers = []
    try:
        assert not plc.write_registers(mb.HR_LOT_HIGH, [0, 4711]).isError()  # lot 4711, one FC16
        window.start()
        qtbot.waitUntil(lambda: window.results.total >= 3, timeout=15000)  # inspecting flat out
        for n, job in enumerate((2, 1, 2, 1, 2, 1), start=1):
            assert not plc.write_register(mb.HR_JOB, job).isError()
            qtbot.waitUntil(lambda: inputs(plc)[mb.IR_JOB] == job and inputs(plc)[mb.IR_STATUS] & 1, timeout=10000)
            assert not plc.write_coil(mb.COIL_TRIGGER, True).isError()  # at once: no settling time
            qtbot.waitUntil(lambda: inputs(plc)[mb.IR_STATUS] & 4 and inputs(plc)[mb.IR_RESULT_ID] == n, timeout=15000)
            answers.append((job, inputs(plc)[mb.IR_VERDICT]))
            assert not plc.write_coil(mb.COIL_TRIGGER, False).isError()
            assert not plc.write_register(mb.HR_ACK_ID, n).isError()
            qtbot.waitUntil(lambda: not inputs(plc)[mb.IR_STATUS] & 4, timeout=5000)
        qtbot.waitUntil(lambda: window.state.state.job == "1 · polo", timeout=5000)
        header = window.header.fields
        shown = (header["job"].text(), header["lot"].text(), window.state.state.lot)
        window.stop()
        qtbot.waitUntil(lambda: not window.source_bar.running, timeout=15000)
    finally:
        plc.close()
    window.close()
    assert answers == [(job, 2 if job == 2 else 1) for job in (2, 1, 2, 1, 2, 1)]  # NG under pair, OK under polo
    assert shown[0].startswith("Job: 1") and shown[2] == "4711" and "4711" in shown[1]
    with Journal.open(tmp_path / "journal.sqlite3", read_only=True) as journal:
        frames = [f for s in journal.sessions() for f in journal.frames(s.id)]
    judged = {(f.job, f.lot, f.verdict) for f in frames if f.job}
    assert ("2 · pair", "4711", "NG") in judged and ("1 · polo", "4711", "OK") in judged
    assert ("2 · pair", "4711", "OK") not in judged  # no frame journaled under the new job was judged by the old
