"""The station (Inspector, as the window and the headless station open it) on the triton backend: every
sample through a real tritonserver with the local engine's boxes, reading following the detector onto
the fleet, and the fleet's events in the journal. tests/triton/setup_triton.sh prepares the server;
without it the server tests skip with the reason."""

from __future__ import annotations

import numpy as np
import pytest

from inference.engines.triton.pool import ServerPool
from inference.engines.triton.watch import FleetWatch, journal_events
from inference.imageio import list_images, read_image
from inference.inspection import Inspector
from inference.records import Journal
from inference.records.recorder import Recorder, SessionKey
from inference.resources import samples_dir
from inference.sources import open_source
from tests.triton.server import DETECTOR, OCR_REPOSITORY, free_port, ocr_environment, prepared_or_skip
from tests.triton.server import started_or_skip as started

pytestmark = pytest.mark.timeout(600)


def remote_station(monkeypatch, url: str, *, read: bool, fallback: bool = False) -> Inspector:
    """The station's own path to the triton backend: the URL from the environment, as the GUI uses it."""
    monkeypatch.setenv("HANGTAG_TRITON_URL", url)
    monkeypatch.setenv("HANGTAG_TRITON_FALLBACK", "local" if fallback else "")
    return Inspector.open(DETECTOR, "triton", read=read)


# -- without a server ------------------------------------------------------------------------------------
@pytest.mark.parametrize("noted, seen, expected", [
    (3, 0, ["e0", "e1", "e2"]),
    (3, 2, ["e2"]),
    (3, 3, []),
    (130, 120, [f"e{i}" for i in range(120, 130)]),
    (130, 0, [f"e{i}" for i in range(30, 130)]),  # the pool keeps the last 100: older ones are gone
])
def test_a_reader_of_pool_events_gets_each_once_across_the_pools_trimming(noted, seen, expected):
    from inference.engines.triton.pool import PoolEvent

    pool = ServerPool(["http://a:8000"])
    for i in range(noted):
        pool.note(PoolEvent("server_down", "http://a:8000", f"e{i}"))
    events, cursor = pool.events_after(seen)
    assert [e.detail for e in events] == expected and cursor == noted


def test_no_server_answering_is_journaled_with_the_local_fallback_under_the_session(monkeypatch, tmp_path):
    url = f"http://127.0.0.1:{free_port()}"
    path = list_images(samples_dir())[0]
    with remote_station(monkeypatch, url, read=False, fallback=True) as inspector, \
            Journal.open(tmp_path / "journal.sqlite3") as journal:
        watch = FleetWatch.of(inspector)
        recorder = Recorder(journal)
        recorder.use(SessionKey(source=str(path), recipe_name="", recipe_path="", model_path=str(DETECTOR),
                                backend="triton", precision="fp32"))
        result = inspector.inspect_image(read_image(path), source_name=path.name)
        recorder.record(result, None)
        events = watch.new_events()
        journal_events(recorder, events)
        assert watch.new_events() == []  # each event is handed out once
        status = watch.status()
        journaled = journal.events(recorder.session_id)
    assert result.ok and len(result.detections) > 0
    assert status.all_down and status.on_local_engine and status.servers[0].url == url
    assert [(e.kind, e.subject) for e in journaled] == [
        ("triton_server_down", url), ("triton_all_down", url), ("triton_fallback_local", "local")]
    assert "this station's own engine" in journaled[-1].detail
    assert all(e.session_id == recorder.session_id for e in journaled)


def test_the_headless_station_says_no_server_answers_and_journals_it(monkeypatch, tmp_path):
    import io
    import json

    from app.headless import run_headless
    from inference.records.export import export_session

    url = f"http://127.0.0.1:{free_port()}"
    monkeypatch.setenv("HANGTAG_TRITON_URL", url)
    monkeypatch.setenv("HANGTAG_TRITON_FALLBACK", "local")
    folder = tmp_path / "two"
    folder.mkdir()
    for path in list_images(samples_dir())[:2]:
        (folder / path.name).write_bytes(path.read_bytes())
    out, err = io.StringIO(), io.StringIO()
    journal_path = tmp_path / "journal.sqlite3"
    assert run_headless(str(folder), DETECTOR, "triton", None, read=False, out=out, err=err,
                        journal_path=journal_path) == 0
    assert f"warning: Triton server {url} stopped answering" in err.getvalue()
    assert "warning: hangtag_det is inspected on this station's own engine" in err.getvalue()
    with Journal.open(journal_path, read_only=True) as journal:
        session = journal.last_session_id()
        kinds = [e.kind for e in journal.events(session)]
        frames = journal.frame_count(session)
        exported = export_session(journal, session, tmp_path / "reports", mark_exported=False)
    assert frames == 2 and kinds == ["triton_server_down", "triton_all_down", "triton_fallback_local"]
    listed = json.loads((exported.path / "events.json").read_text())  # the session's report carries them
    assert [e["kind"] for e in listed] == kinds and listed[0]["subject"] == url


# -- against a real tritonserver -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def prepared():
    return prepared_or_skip()


@pytest.fixture(scope="module")
def fleet(prepared):
    """One server with everything triton-repo writes: the detector and the OCR pair the station reads with."""
    from inference.reading.ocr.models import find_ocr_models

    models = find_ocr_models("auto", "gb2312")  # what TagReader.open picks by default
    with started(prepared, also=(OCR_REPOSITORY,), extra_env=ocr_environment(models)) as server:
        yield server


def served_requests(url: str, model: str = "hangtag_det") -> int:
    from inference.engines.triton.client import RemoteServer, ServerAddress

    server = RemoteServer(ServerAddress.parse(url), 10.0)
    try:
        return int(server.statistics(model)["inference_stats"]["success"]["count"])
    finally:
        server.close()


def test_the_station_inspects_the_samples_through_tritonserver_with_the_local_engines_boxes(fleet, monkeypatch):
    samples = str(samples_dir())
    with remote_station(monkeypatch, fleet.url, read=False) as remote:
        before = served_requests(fleet.url)  # after the engine's warm-up
        theirs = list(remote.run(open_source(samples)))
        after = served_requests(fleet.url)
        assert remote.pipeline.backend == "triton" and remote.pipeline.engine.last_server == fleet.url
    with Inspector.open(DETECTOR, "onnxruntime-cpu", read=False, threads=1) as local:
        ours = list(local.run(open_source(samples)))
    assert len(theirs) == len(ours) == len(list_images(samples_dir())) > 0
    assert after - before == len(theirs)  # the server itself inspected each frame
    # Equal, not close: the server's model runs the station's own ONNX Runtime version (setup_triton.sh pins
    # it) with one thread, as the local engine here does, and preprocessing and decoding stay on the station.
    for a, b in zip(theirs, ours):
        assert a.ok and b.ok and a.source_name == b.source_name
        assert len(a.detections) == len(b.detections), a.source_name
        np.testing.assert_array_equal(a.detections.class_id, b.detections.class_id, err_msg=a.source_name)
        np.testing.assert_array_equal(a.detections.xyxy, b.detections.xyxy, err_msg=a.source_name)
        np.testing.assert_array_equal(a.detections.confidence, b.detections.confidence, err_msg=a.source_name)
        assert {"network", "server_queue", "infer"} <= set(a.timings.stages_ms)
    assert sum(len(r.detections) for r in theirs) >= len(theirs)  # the samples are not empty scenes


def test_reading_follows_the_detector_onto_the_fleet_and_reads_what_the_station_reads(fleet, monkeypatch):
    path = list_images(samples_dir())[0]
    image = read_image(path)
    before = served_requests(fleet.url, "ocr_rec")
    with remote_station(monkeypatch, fleet.url, read=True) as remote:
        engines = (remote.reader.detector.engine, remote.reader.recognizer.engine)
        assert [e.backend_name for e in engines] == ["triton", "triton"] and remote.reader_note == ""
        assert FleetWatch.of(remote).models == ["hangtag_det", "ocr_det", "ocr_rec"]
        theirs = remote.inspect_image(image, source_name=path.name)
    with Inspector.open(DETECTOR, "onnxruntime-cpu", read=True, threads=1) as local:
        ours = local.inspect_image(image, source_name=path.name)
    assert served_requests(fleet.url, "ocr_rec") > before
    texts = [[line.text for line in r.ocr_lines] for r in ours.readings]
    assert sum(len(t) for t in texts) > 0
    assert [[line.text for line in r.ocr_lines] for r in theirs.readings] == texts


def test_a_fleet_without_the_ocr_models_leaves_reading_on_the_station_and_says_why(prepared, monkeypatch):
    with started(prepared) as detector_only:  # tests/triton/model_repository: hangtag_det alone
        with remote_station(monkeypatch, detector_only.url, read=True) as remote:
            assert remote.pipeline.backend == "triton"
            assert remote.reader.detector.engine.backend_name == "onnxruntime-cpu"
            assert "OCR runs on this station" in remote.reader_note and "ocr_det" in remote.reader_note
            assert FleetWatch.of(remote).models == ["hangtag_det"]


def test_with_the_local_fallback_allowed_a_fleet_without_the_ocr_models_still_reads_on_the_station(prepared, monkeypatch):
    """HANGTAG_TRITON_FALLBACK=local must not open the OCR models on a fleet that does not serve
    them: every frame would then raise 'no server answers' for the reader."""
    with started(prepared) as detector_only:
        with remote_station(monkeypatch, detector_only.url, read=True, fallback=True) as remote:
            assert remote.pipeline.backend == "triton"
            assert remote.reader.detector.engine.backend_name == "onnxruntime-cpu"
            assert remote.reader.recognizer.engine.backend_name == "onnxruntime-cpu"
            assert "no Triton server serves the OCR models" in remote.reader_note
