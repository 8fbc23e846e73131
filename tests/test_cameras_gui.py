"""Industrial cameras in the station window, offscreen: frames of the genicam wheel's simulated producer flow
through it (screenshot), the Camera… settings read back from the camera with the nodes it lacks disabled and
kept per job, and software triggers from the Step key and a trigger folder against Aravis's fake GigE Vision
camera, each one inspection with its trigger id in the journal. Real producers; skipped where one is missing."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("PySide6")
from PySide6.QtCore import QObject, QSettings, Signal  # noqa: E402

from inference.cameras.producers import simulated_producer  # noqa: E402
from inference.errors import BackendUnavailableError  # noqa: E402
from inference.records import Journal  # noqa: E402
from tests.camera_runs import fake_camera  # noqa: E402
from tests.factories import blob_detector  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
RECIPE = Path(__file__).resolve().parents[1] / "resources" / "recipes" / "example.toml"
VIKY = simulated_producer()


def _harvesters_missing() -> str:
    try:
        import harvesters.core  # noqa: F401
    except ImportError:
        return "harvesters is not installed (pip install harvesters)"
    return "" if VIKY is not None else "the genicam wheel's simulated producer viky.cti is missing (pip install genicam)"


def _aravis_missing() -> str:
    try:
        from inference.cameras.aravis import _aravis

        _aravis()
    except BackendUnavailableError as exc:
        return f"{exc.message} ({exc.hint})"
    return ""


needs_viky = pytest.mark.skipif(bool(_harvesters_missing()), reason=_harvesters_missing() or "-")
needs_aravis = pytest.mark.skipif(bool(_aravis_missing()), reason=_aravis_missing() or "-")


def station(qtbot, tmp_path: Path, source: str, model: Path | None = None, **line: str):
    """The window on `source`; `line` settings ([line] modbus=HOST:PORT…) put it on a line."""
    from app.main_window import MainWindow
    from app.settings import StationSettings

    settings = StationSettings(QSettings(str(tmp_path / "station.ini"), QSettings.Format.IniFormat))
    for key, value in line.items():
        settings.store.setValue(f"line/{key}", value)
    window = MainWindow(model=model or blob_detector(tmp_path / "blob.onnx"), source=source,
                        backend="onnxruntime-cpu", settings=settings, read=False,
                        journal_path=tmp_path / "journal.sqlite3", testing=True)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    qtbot.waitUntil(lambda: window.pipeline is not None, timeout=30000)
    qtbot.waitUntil(lambda: window.camera_link.readback is not None, timeout=15000)
    return window


class LineTrigger(QObject):
    fired = Signal(int)


def journaled(tmp_path: Path) -> list[str]:
    with Journal.open(tmp_path / "journal.sqlite3", read_only=True) as journal:
        return [f.source_name for f in journal.frames(journal.last_session_id())]


@needs_viky
def test_frames_from_the_simulated_producer_flow_through_the_station_window(qtbot, tmp_path):
    from inference.resources import default_model_path

    window = station(qtbot, tmp_path, f"genicam:1?cti={VIKY}", model=default_model_path())  # the shipped detector
    assert window.source_bar.spec() == f"genicam:1?cti={VIKY}" and window.camera_link.button.isVisible()
    window.start()
    qtbot.waitUntil(lambda: len(window.results.results) >= 3 and window.current is not None, timeout=60000)
    qtbot.wait(600)  # the results table fills on its half-second timer
    (ARTIFACTS / "cameras").mkdir(parents=True, exist_ok=True)
    window.grab().save(str(ARTIFACTS / "cameras" / "station_genicam_1280x720.png"))  # running, as on the line
    assert window.state.state.run == "running" and window.current_image.shape == (400, 400, 3)
    window.stop()
    qtbot.waitUntil(lambda: not window.source_bar.running, timeout=10000)
    qtbot.waitUntil(lambda: window.current is window.results.results[-1], timeout=5000)
    results = window.results.results
    assert all(r.ok and r.source_name.startswith("genicam-1#") and r.image_hw == (400, 400) for r in results)
    assert window.current_image.std() > 0  # viky's ball on its background: a real picture, not a blank frame
    assert window.state.state.source_status == "open" and window.errors == []
    assert journaled(tmp_path)[:len(results)] == [r.source_name for r in results]


@needs_viky
def test_camera_settings_are_read_back_nodes_it_lacks_disabled_and_kept_per_job(qtbot, tmp_path):
    window = station(qtbot, tmp_path, f"genicam:0?cti={VIKY}&pixel_format=Mono8")
    dialog = window.camera_link.open_dialog()
    qtbot.addWidget(dialog)
    enabled = {name: check.isEnabled() for name, (check, _, _) in dialog.rows.items()}
    assert enabled == {"exposure_us": False, "gain": False, "pixel_format": True, "roi": True, "frame_rate": True}
    assert dialog.rows["gain"][2].toolTip() == "the camera has no Gain / GainAbs / GainRaw node"
    assert dialog.exposure.text() == dialog.gain.text() == "—"  # no value shown where the camera has none
    assert not dialog.trigger_mode.isEnabled() and "free-run only" in dialog.trigger_shown.text()
    assert dialog.rows["pixel_format"][2].text().startswith("Mono8")
    (ARTIFACTS / "cameras").mkdir(parents=True, exist_ok=True)
    dialog.grab().save(str(ARTIFACTS / "cameras" / "camera_settings_viky.png"))

    job_a, job_b = tmp_path / "01_a.toml", tmp_path / "02_b.toml"
    shutil.copy(RECIPE, job_a)
    shutil.copy(RECIPE, job_b)
    window.load_recipe(job_a)
    dialog.rows["frame_rate"][0].setChecked(True)
    dialog.frame_rate.setValue(40.0)
    dialog.rows["roi"][0].setChecked(True)
    assert not dialog.roi[0].isEnabled() and dialog.roi[2].isEnabled()  # viky has a size, no offsets
    dialog.roi[2].setValue(320)
    dialog.roi[3].setValue(240)
    dialog.apply_button.click()
    qtbot.waitUntil(lambda: "frame_rate=40.0" in window.camera_link.spec
                    and window.camera_link.readback["frame_rate"].value == 40.0, timeout=15000)
    back = window.camera_link.readback
    assert (back["width"].value, back["height"].value) == (320, 240)
    assert dialog.rows["frame_rate"][2].text().startswith("40")  # the dialog shows what the camera now holds
    assert window.source_bar.spec() == f"genicam:0?cti={VIKY}&frame_rate=40.0&pixel_format=Mono8&roi=0,0,320,240"

    window.load_recipe(job_b)  # a job with no camera settings of its own leaves the camera as it is
    qtbot.wait(300)
    assert "frame_rate=40.0" in window.state.state.source
    window.camera_link.save(job_b, f"genicam:0?cti={VIKY}&pixel_format=Mono8&frame_rate=25")
    window.load_recipe(job_a)  # back to job a: its settings; then b: its own
    qtbot.waitUntil(lambda: window.state.state.source.endswith("roi=0,0,320,240"), timeout=5000)
    window.load_recipe(job_b)
    qtbot.waitUntil(lambda: window.camera_link.readback["frame_rate"].value == 25.0
                    and window.state.state.source.endswith("frame_rate=25.0&pixel_format=Mono8"), timeout=15000)
    window.start()
    qtbot.waitUntil(lambda: len(window.results.results) >= 1, timeout=30000)
    window.stop()
    assert window.results.results[-1].image_hw == (400, 400)  # job b asked no ROI: the camera's full size


@needs_aravis
def test_the_step_key_and_a_line_trigger_fire_the_camera_once_each_with_the_id_in_the_journal(qtbot, tmp_path):
    with fake_camera() as fake:
        window = station(qtbot, tmp_path, f"aravis:{fake.serial}?pixel_format=Mono8&roi=0,0,256,192&trigger=software")
        dialog = window.camera_link.open_dialog()
        qtbot.addWidget(dialog)
        assert dialog.rows["exposure_us"][0].isEnabled() and dialog.trigger_mode.isEnabled()
        assert "(ExposureTimeAbs)" in dialog.rows["exposure_us"][2].text()
        assert dialog.exposure.text() != "—"
        (ARTIFACTS / "cameras").mkdir(parents=True, exist_ok=True)
        dialog.grab().save(str(ARTIFACTS / "cameras" / "camera_settings_fake_gige.png"))
        qtbot.wait(700)  # the camera waits for its trigger meanwhile: nothing is inspected
        assert window.results.results == []
        for presses in (1, 2, 3):
            window.step()  # the → key
            qtbot.waitUntil(lambda: len(window.results.results) == presses, timeout=15000)
        line = LineTrigger()  # a line handshake in the window fires the camera with the PLC's own id
        line.fired.connect(window.worker.trigger_camera)
        line.fired.emit(77)
        qtbot.waitUntil(lambda: len(window.results.results) == 4, timeout=15000)
        qtbot.wait(500)
        names = [r.source_name for r in window.results.results]
        window.close()
    assert names == [f"aravis-{fake.serial}#trigger-{i}" for i in (1, 2, 3, 77)]
    assert journaled(tmp_path) == names


@needs_aravis
def test_each_file_in_the_trigger_folder_is_one_inspection_with_its_trigger_id(qtbot, tmp_path):
    folder = tmp_path / "triggers"
    folder.mkdir()
    (folder / "7.trg").write_text("")  # there before the station: a stale trigger, never fired
    with fake_camera() as fake:
        window = station(qtbot, tmp_path, f"aravis:{fake.serial}?pixel_format=Mono8&roi=0,0,256,192"
                                          f"&trigger=software&trigger_folder={folder}")
        window.start()
        for name in ("101.trg", "102.trg", "garment.trg"):
            (folder / name).write_text("")
            qtbot.waitUntil(lambda: not (folder / name).exists(), timeout=10000)  # consumed once fired
        qtbot.waitUntil(lambda: len(window.results.results) == 3, timeout=15000)
        qtbot.wait(500)
        window.stop()
        names = [r.source_name for r in window.results.results]
        window.close()
    assert names == [f"aravis-{fake.serial}#trigger-{i}" for i in (101, 102, 103)]
    assert journaled(tmp_path) == names
    assert (folder / "7.trg").exists()


@needs_aravis
def test_a_plcs_trigger_fires_the_windows_camera_and_is_answered_by_that_triggers_frame(qtbot, tmp_path):
    pytest.importorskip("pymodbus", reason="pymodbus is not installed (pip install -e .)")
    from pymodbus.client import ModbusTcpClient

    from inference.line import modbus as mb
    from tests.test_plc_link import free_port, inputs

    port = free_port()
    with fake_camera() as fake:
        window = station(qtbot, tmp_path, f"aravis:{fake.serial}?pixel_format=Mono8&roi=0,0,256,192&trigger=software",
                         modbus=f"127.0.0.1:{port}", ack_timeout_s="30")
        window.start()
        qtbot.wait(700)  # running, the camera waiting for its trigger: nothing inspected, nothing answered
        assert window.results.results == []
        plc = ModbusTcpClient("127.0.0.1", port=port, timeout=3)
        assert plc.connect()
        answered = []
        try:
            for trigger_id in (1, 2):
                assert not plc.write_coil(mb.COIL_TRIGGER, True).isError()
                qtbot.waitUntil(lambda: bool(inputs(plc)[mb.IR_STATUS] & 4), timeout=15000)  # result ready
                answered.append(inputs(plc)[mb.IR_RESULT_ID])
                assert not plc.write_coil(mb.COIL_TRIGGER, False).isError()
                assert not plc.write_register(mb.HR_ACK_ID, trigger_id).isError()
                qtbot.waitUntil(lambda: not inputs(plc)[mb.IR_STATUS] & 4, timeout=5000)
        finally:
            plc.close()
        qtbot.waitUntil(lambda: len(window.results.results) >= 2, timeout=5000)  # the window's own copy, queued
        qtbot.wait(300)
        names = [r.source_name for r in window.results.results]
        window.close()
    assert answered == [1, 2]
    assert names == [f"aravis-{fake.serial}#trigger-{i}" for i in (1, 2)]  # one inspection per PLC trigger
    with Journal.open(tmp_path / "journal.sqlite3", read_only=True) as journal:
        done = [e.subject for e in journal.events() if e.kind == "line InspectionDone"]
    assert done == [f"trigger {i} frame {i - 1}:aravis-{fake.serial}#trigger-{i}" for i in (1, 2)]


@pytest.mark.parametrize("spec, shown", [
    ("genicam:0?cti=/opt/vendor/producer.cti&frame_rate=40.0", "genicam 0"),  # not the producer's path
    ("aravis:Aravis-Fake-GV01?trigger=software", "aravis Aravis-Fake-GV01"),
    ("camera:/data/line.avi", "camera replay line.avi"),
])
def test_the_header_names_a_camera_not_its_settings(spec, shown):
    from app.widgets.station_header import short_source

    assert short_source(spec) == shown
