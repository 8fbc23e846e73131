"""A triggered item is one tag row in the journal, as a tracked tag is: built from the frame that answered the
trigger (the window's triggered camera, or a PLC's trigger answered by the next frame of a free-running source),
with the trigger's id, its verdict, the read it rests on and its archived crop. A frame that could not be
inspected is a REVIEW row, never a missing one."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from inference.records.archive import Archive
from inference.records.journal import Journal
from inference.records.recorder import Recorder
from inference.reading.verdict import Verdict
from inference.tracking.station import TRACKED
from inference.tracking.triggered import (NOT_INSPECTED, NOT_JUDGED, ONLY_TRACKED, TriggeredInspector,
                                          verdict_of_frame)
from tests.test_records_tags import KEY
from tests.test_tracking import RECIPE, PlantedReader, detections_of, frame_with


def inspected(image, boxes, *, recipe=RECIPE, error: str | None = None, index: int = 5):
    """The FrameResult the station's Inspector makes of a frame (the stand-in reader reads what was drawn)."""
    from inference.pipeline import FrameResult, error_result
    from inference.postprocess import Thresholds
    from inference.reading.verdict import judge
    from inference.telemetry import StageTimings

    if error is not None:
        return error_result(index, "cam#trigger-9", None, error, Thresholds())
    detections = detections_of(boxes)
    readings = tuple(PlantedReader().read(image, detections)) if boxes else ()
    verdict = judge(recipe, detections, readings) if recipe is not None else None
    return FrameResult(index, f"cam#trigger-{index}", None, image.shape[:2], detections, None, Thresholds(),
                       StageTimings({}, 40.0), readings=readings, verdict=verdict)


BOX = (200, 100, 320, 260)


@pytest.mark.parametrize(("kind", "expected"), [("ok", Verdict.OK), ("ng", Verdict.NG)])
def test_a_frame_the_station_inspected_is_the_same_tag_verdict_the_triggered_inspector_gives(kind, expected):
    image = frame_with([(BOX, kind)], 0)
    direct = TriggeredInspector(None, PlantedReader(), RECIPE).inspect(41, image, detections_of([BOX]))
    from_frame = verdict_of_frame(inspected(image, [BOX]), image, 41)
    assert from_frame.verdict is direct.verdict is expected
    assert (from_frame.trigger_id, from_frame.reasons, from_frame.last_box, from_frame.read_box, from_frame.reads) == \
        (direct.trigger_id, direct.reasons, direct.last_box, direct.read_box, direct.reads)
    assert from_frame.reading.fields["size"].value == direct.reading.fields["size"].value
    assert np.array_equal(from_frame.crop, direct.crop) and from_frame.crop.shape == (160, 120, 3)
    assert from_frame.track_id == from_frame.read_frame == 5  # one frame per item: the frame's number


@pytest.mark.parametrize(("result_of", "reason"), [
    (lambda image: inspected(image, [], error="decode failed: truncated JPEG\nmore"), NOT_INSPECTED),
    (lambda image: inspected(image, [BOX], recipe=None), NOT_JUDGED),
    (lambda image: inspected(image, [BOX]).with_(verdict=TRACKED), ONLY_TRACKED),  # a PLC answered in per-tag mode
])
def test_a_trigger_whose_frame_gave_no_verdict_is_a_review_row(result_of, reason):
    image = frame_with([(BOX, "ok")], 0)
    verdict = verdict_of_frame(result_of(image), image, 9)
    assert verdict.verdict is Verdict.REVIEW and verdict.reasons[0].startswith(reason)
    assert verdict.trigger_id == 9


def test_a_triggered_items_row_is_journaled_like_a_tracked_tags(tmp_path):
    image = frame_with([(BOX, "ng")], 0)
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        recorder = Recorder(journal, Archive(tmp_path / "archive"))
        recorder.use(KEY)
        recorder.record_tag(verdict_of_frame(inspected(image, [BOX]), image, 77))
        (row,) = journal.tags(recorder.session_id)
    assert (row.trigger_id, row.verdict, row.missed, row.reads, row.frames_seen) == ("77", "NG", False, 1, 1)
    assert row.fields["fields"]["size"]["value"] == "L"  # what the NG rests on
    assert row.archive_crop and (tmp_path / "archive").exists()


def journal_tags(tmp_path):
    with Journal.open(tmp_path / "journal.sqlite3", read_only=True) as journal:
        return journal.tags(journal.last_session_id())


def test_the_windows_triggered_camera_journals_one_tag_row_per_trigger_and_shows_it_per_tag(qtbot, tmp_path):
    """Aravis's fake GigE camera, software-triggered: the Step key twice and a line's trigger 77, in per-tag mode:
    three tag rows with those ids (and the strip shows them), beside the three frame rows."""
    pytest.importorskip("PySide6")
    from tests.test_cameras_gui import LineTrigger, _aravis_missing, journaled, station

    if _aravis_missing():
        pytest.skip(_aravis_missing())
    from tests.camera_runs import fake_camera

    with fake_camera() as fake:
        window = station(qtbot, tmp_path, f"aravis:{fake.serial}?pixel_format=Mono8&roi=0,0,256,192&trigger=software",
                         per_tag="1")
        qtbot.waitUntil(lambda: window.line.shows_tags, timeout=15000)
        for presses in (1, 2):
            window.step()
            qtbot.waitUntil(lambda: len(window.results.results) == presses, timeout=15000)
        line = LineTrigger()
        line.fired.connect(window.worker.trigger_camera)
        line.fired.emit(77)
        qtbot.waitUntil(lambda: len(window.line.model.tags) == 3, timeout=15000)
        shown = [t.label for t in window.line.model.tags]
        artifacts = Path(__file__).resolve().parents[1] / "test-artifacts" / "line"
        artifacts.mkdir(parents=True, exist_ok=True)
        qtbot.wait(100)
        window.grab().save(str(artifacts / "triggered_items_per_tag.png"))  # looked at: T1 T2 T77 on strip and rows
        window.close()
    rows = journal_tags(tmp_path)
    assert [r.trigger_id for r in rows] == ["1", "2", "77"] and shown == ["T1", "T2", "T77"]
    assert not any(t.missed for t in window.line.model.tags)  # judged from their frames, not "passed unread"
    assert all(r.frames_seen == 1 and not r.missed for r in rows)
    assert all(r.verdict == "REVIEW" and r.reasons[0] == NOT_JUDGED for r in rows)  # no recipe loaded: said
    assert len(journaled(tmp_path)) == 3  # the per-frame rows stay


def test_a_plc_trigger_answered_by_a_free_running_source_is_a_tag_row(qtbot, tmp_path):
    """A real pymodbus client triggers the window's Modbus server once; a folder's next frame answers it: one tag
    row with the PLC's trigger id and the frame's verdict (the recipe wants a hangtag: OK), its crop archived."""
    pytest.importorskip("PySide6")
    pytest.importorskip("pymodbus", reason="pymodbus is not installed (pip install -e .)")
    from pymodbus.client import ModbusTcpClient

    from inference.line import modbus as mb
    from tests.test_gui import make_folder
    from tests.test_plc_link import free_port, inputs, recipe_folder, settings_with
    from tests.test_gui_station import make_window

    port = free_port()
    jobs = recipe_folder(tmp_path)
    settings = settings_with(tmp_path, modbus=f"127.0.0.1:{port}", recipe_dir=str(jobs), ack_timeout_s="30")
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 3), settings=settings, recipe=jobs / "01_polo.toml")
    plc = ModbusTcpClient("127.0.0.1", port=port, timeout=3)
    assert plc.connect()
    try:
        assert not plc.write_coil(mb.COIL_TRIGGER, True).isError()
        qtbot.waitUntil(lambda: inputs(plc)[mb.IR_STATE] == 3, timeout=5000)
        window.start()
        qtbot.waitUntil(lambda: bool(inputs(plc)[mb.IR_STATUS] & 4), timeout=15000)
        assert inputs(plc)[mb.IR_VERDICT] == 1
        assert not plc.write_coil(mb.COIL_TRIGGER, False).isError()
        assert not plc.write_register(mb.HR_ACK_ID, 1).isError()
        qtbot.waitUntil(lambda: not window.source_bar.running, timeout=15000)
    finally:
        plc.close()
    window.close()
    (row,) = journal_tags(tmp_path)
    assert (row.trigger_id, row.verdict, row.missed) == ("1", "OK", False)
    assert row.archive_crop


def test_an_item_whose_frame_showed_no_hangtag_keeps_that_frame_as_its_image(tmp_path):
    """Walked in triggered mode: every NG 'no hangtag' item said 'image not archived: archiving was off (or failed)'
    in History, and the report showed no image, though the frame was what the quality manager needed to see."""
    image = frame_with([], 0)
    verdict = verdict_of_frame(inspected(image, []), image, 12)
    assert verdict.verdict is not Verdict.OK and verdict.read_frame is None  # flagged, and nothing was read
    assert verdict.crop is not None and verdict.crop.shape == image.shape
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        recorder = Recorder(journal, Archive(tmp_path / "archive"))
        recorder.use(KEY)
        recorder.record_tag(verdict)
        (row,) = journal.tags(recorder.session_id)
    assert row.archive_crop and Path(row.archive_crop).is_file()
