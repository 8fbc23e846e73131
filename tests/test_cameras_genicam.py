"""GenICam cameras through harvesters and the `genicam` wheel's simulated GenTL producer (viky.cti: three
bouncing-ball cameras, serials 0/1/2, Mono8 and RGBa8, no exposure, gain or trigger nodes). Real producer,
no mocks; skipped with the reason where harvesters or the producer is missing."""

from __future__ import annotations

import gc
import io
import time

import numpy as np
import pytest

from inference.cameras.producers import simulated_producer
from inference.cameras.settings import CameraSettings, Trigger
from inference.errors import SourceError
from inference.lending import is_lent
from inference.sources import Frame, FrameError, Waiting, open_source, spec_kind
from tests.camera_runs import FirstFrames, first_items, ordinary

harvesters = pytest.importorskip("harvesters.core", reason="harvesters is not installed (pip install harvesters)")
VIKY = simulated_producer()
pytestmark = pytest.mark.skipif(VIKY is None, reason="the genicam wheel's simulated producer viky.cti is missing "
                                                     "(pip install genicam)")


def sim_camera(serial: str = "0", **settings):
    from inference.cameras.genicam import GenICamSource

    return GenICamSource(serial, CameraSettings(**settings), cti=[VIKY])


def test_the_simulated_producer_lists_its_three_cameras():
    from inference.cameras.genicam import list_cameras

    rows = list_cameras([VIKY])
    assert [(r.vendor, r.model, r.serial) for r in rows] == [("Machine Vision Games Ltd.", "Viky", s)
                                                             for s in ("0", "1", "2")]
    assert all(r.reachable and r.producer == str(VIKY) for r in rows)
    assert {r.device_id for r in rows} == {"VikyTL_DEV_red", "VikyTL_DEV_green", "VikyTL_DEV_blue"}


def test_settings_the_camera_has_are_read_back_and_the_rest_reported_unavailable():
    camera = sim_camera("1", pixel_format="Mono8", frame_rate=50.0, roi=(0, 0, 320, 240), exposure_us=800.0)
    try:
        back = camera.readback
        assert (back["pixel_format"].value, back["frame_rate"].value) == ("Mono8", 50.0)
        assert (back["width"].value, back["height"].value) == (320, 240)
        assert not back["exposure_us"].available and "no ExposureTime" in back["exposure_us"].note
        assert {"gain", "trigger_mode"} <= set(back.unavailable)
        (frame,) = first_items(camera, 1)
        assert isinstance(frame, Frame) and frame.image.shape == (240, 320, 3)
        assert np.array_equal(frame.image[..., 0], frame.image[..., 2])  # Mono8 spread to grey BGR
    finally:
        camera.close()


def test_a_value_the_camera_refuses_is_reported_and_its_own_value_kept():
    camera = sim_camera("0", frame_rate=1000.0)  # viky's maximum is 200
    try:
        assert camera.readback["frame_rate"].value != 1000.0
        assert "not applied" in camera.readback["frame_rate"].note
    finally:
        camera.close()


def test_frames_land_in_lent_frames_with_one_host_copy_each():
    camera = sim_camera("2", pixel_format="Mono8", frame_rate=100.0)
    camera.lend_frames(ordinary)
    try:
        frames = [f for f in first_items(camera, 5) if isinstance(f, Frame)]
        assert len(frames) == 5 and all(is_lent(f.image) for f in frames)
        assert camera.counts.in_lent_frames == camera.counts.delivered == camera.counts.host_copies == 5
        assert camera.counts.in_own_memory == 0
    finally:
        del frames
        camera.close()
        gc.collect()


def test_the_rgba_default_arrives_as_bgr():
    camera = sim_camera("0")  # viky starts in RGBa8
    try:
        assert camera.readback["pixel_format"].value == "RGBa8"
        (frame,) = first_items(camera, 1)
        assert frame.image.shape == (400, 400, 3) and frame.image.dtype == np.uint8
    finally:
        camera.close()


def test_frames_flow_through_the_inspector_into_lent_frames(tmp_path):
    from inference.inspection import Inspector
    from inference.pipeline import Pipeline
    from tests.factories import blob_detector

    pipeline = Pipeline.open(blob_detector(tmp_path / "blob.onnx"), "onnxruntime-cpu")
    pipeline.frame_memory = ordinary  # what the GPU pipeline offers (page-locked memory there)
    camera = sim_camera("0", pixel_format="Mono8", roi=(0, 0, 320, 240))
    with Inspector(pipeline) as inspector:
        results = list(inspector.run(FirstFrames(camera, 6)))
    assert [r.ok for r in results] == [True] * 6
    assert all(r.image_hw == (240, 320) and r.source_name.startswith("genicam-0#") for r in results)
    assert camera.counts.in_lent_frames == 6 and camera.counts.host_copies == 6


def test_the_headless_station_inspects_and_journals_camera_frames(tmp_path):
    from app.headless import run_headless
    from inference.records.journal import Journal
    from tests.factories import blob_detector

    out, err = io.StringIO(), io.StringIO()
    journal = tmp_path / "journal.sqlite3"
    code = run_headless(FirstFrames(sim_camera("1", pixel_format="Mono8"), 4), blob_detector(tmp_path / "m.onnx"),
                        "onnxruntime-cpu", None, read=False, out=out, err=err, journal_path=journal)
    assert code == 0, err.getvalue()
    assert out.getvalue().count("genicam-1#") == 4 and "summary:" in out.getvalue()
    with Journal.open(journal, read_only=True) as kept:
        names = [f.source_name for f in kept.frames(kept.last_session_id())]
    assert names == [f"genicam-1#{i}" for i in range(4)]


def test_an_acquirer_destroyed_under_the_source_is_reported_lost_and_found_again():
    camera = sim_camera("0", pixel_format="Mono8", roi=(0, 0, 200, 100))
    try:
        first_items(camera, 2)
        camera.acquirer.destroy()  # what a producer does to a handle whose device went away
        items, lost_at, back_at = [], None, None
        start = time.monotonic()
        for item in camera.frames():
            if isinstance(item, FrameError):
                lost_at = time.monotonic()
                items.append(item)
            elif isinstance(item, Frame) and lost_at is not None:
                back_at = time.monotonic()
                items.append(item)
                break
            assert time.monotonic() - start < 10
        assert isinstance(items[0], FrameError) and items[0].message.startswith("camera lost")
        assert back_at - lost_at < 10.0  # bounded, not timed: BENCHMARKS.md measures the reconnect time
        assert items[-1].image.shape == (100, 200, 3)  # settings re-applied on the new acquirer
        assert (camera.counts.camera_lost, camera.counts.reconnects) == (1, 1)
        assert camera.readback["pixel_format"].value == "Mono8"
    finally:
        camera.close()


def test_acquisition_stopped_under_the_source_is_noticed_and_restarted():
    camera = sim_camera("2", pixel_format="Mono8", frame_rate=100.0)
    camera.stall_s = 0.5
    try:
        first_items(camera, 2)
        camera.acquirer.stop()  # a camera that silently stops sending
        kinds, reasons, start = [], [], time.monotonic()
        for item in camera.frames():
            kinds.append(type(item).__name__)
            if isinstance(item, Waiting):
                reasons.append(item.reason)  # every step comes back: the station never blocks
            if isinstance(item, Frame):
                break
            assert time.monotonic() - start < 10
        assert "FrameError" in kinds and kinds[-1] == "Frame"
        assert "no frame yet" in reasons
        assert camera.counts.reconnects == 1
    finally:
        camera.close()


def test_a_software_trigger_on_a_camera_without_trigger_nodes_is_refused_at_open():
    with pytest.raises(SourceError, match="cannot be triggered by software") as caught:
        sim_camera("0", trigger=Trigger("software"))
    assert "TriggerSoftware" in caught.value.expected and caught.value.hint


@pytest.mark.parametrize(("spec", "expected"), [
    ("genicam:{cti_absent}", "no GenTL producer"),
    ("genicam:nope?cti={viky}", "no camera 'nope'"),
    ("genicam:?cti={viky}", "which genicam camera"),
    ("genicam:0?cti={viky}&shutter=3", "unknown camera setting"),
])
def test_bad_camera_specs_say_what_was_expected(spec, expected, tmp_path):
    text = spec.format(viky=VIKY, cti_absent=f"0?cti={tmp_path / 'none.cti'}")
    with pytest.raises(Exception, match=expected) as caught:
        open_source(text)
    assert caught.value.hint or caught.value.expected


def test_a_genicam_spec_opens_the_camera_with_its_settings():
    assert spec_kind("genicam:0") == "camera"
    camera = open_source(f"genicam:VikyTL_DEV_blue?cti={VIKY}&pixel_format=Mono8&frame_rate=40")
    try:
        assert camera.readback["frame_rate"].value == 40.0 and camera.readback["pixel_format"].value == "Mono8"
        (frame,) = first_items(camera, 1)
        assert frame.name.startswith("genicam-VikyTL_DEV_blue#")
    finally:
        camera.close()


def test_the_camera_benchmark_reports_no_extra_host_copy_on_the_lent_frame_path(tmp_path, capsys):
    from inference.cameras.bench import run_bench
    from tests.factories import blob_detector

    spec = f"genicam:2?cti={VIKY}&pixel_format=Mono8&frame_rate=100"
    assert run_bench(spec, seconds=0.5, model=blob_detector(tmp_path / "m.onnx")) == 0
    out = capsys.readouterr().out
    assert out.count("host copies per frame 1.00") == 2 and out.count("extra on the lent-frame path 0") == 2
    assert "producer loop alone" in out and "latency p50" in out


def test_ctrl_c_still_stops_a_run_from_a_genicam_camera():
    import os
    import signal
    import threading

    before = signal.getsignal(signal.SIGINT)
    camera = sim_camera("0", pixel_format="Mono8")
    try:
        assert signal.getsignal(signal.SIGINT) is before  # harvesters' acquirer takes it over otherwise
        threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()
        with pytest.raises(KeyboardInterrupt):
            first_items(camera, 10_000, budget_s=10.0)
        assert camera.counts.camera_lost == 0
    finally:
        camera.close()
