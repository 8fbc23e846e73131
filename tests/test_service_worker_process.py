"""`serve --worker-processes` (issue 20): each inference worker in a process of its own, fed through shared memory.
The proxy against a worker thread on the same batches, a worker process that dies or cannot open, and real HTTP on
loopback in the one-process service and behind front ends. The worker processes run the blob detector on CPU; a
factory named by its import path gives them the CPU batch JPEG decoder, so bodies travel through the slots as the
GPU decoder's would."""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import signal
import sys
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import httpx
import pytest

from inference.errors import ConfigError
from inference.pipeline import FrameResult
from inference.postprocess import Thresholds
from inference.service.decoding import decode_body
from inference.service.errors import InferenceFailed, UndecodableImage
from inference.service.handoff import SLOT_BYTES
from inference.service.worker import DETECT, Job
from inference.service.worker_process import ProcessWorker, open_process_workers
from tests.test_service_cli import start_serve, wait_ready
from tests.test_service_frontends import noise_jpeg, stopped
from tests.test_service_http import blob_config
from tests.test_service_overlap import boxes, deferred, jpeg_of_square
from tests.test_service_support import batch_blob_detector, free_port, running_server

pytestmark = pytest.mark.timeout(240)

CPU_JPEG = "tests.test_service_worker_process:cpu_jpeg_worker"


def cpu_jpeg_worker(config, journal):
    """In the worker process: the real worker with the CPU batch JPEG decoder, and its GIL switch interval shown."""
    from inference.gpu.jpeg import CpuJpegDecoder
    from inference.service.runtime import open_worker

    worker = open_worker(config, journal)
    worker.jpeg = CpuJpegDecoder(1)
    worker.jpeg_note = f"CPU batch decoder, switch interval {sys.getswitchinterval() * 1000:.2f} ms, pid {os.getpid()}"
    return worker


def open_process(config, journal=None) -> ProcessWorker:
    return ProcessWorker.open(config, journal, factory=CPU_JPEG)


@pytest.fixture
def proxy(tmp_path):
    worker = open_process(blob_config(tmp_path, max_batch=4))
    yield worker
    worker.close()


def test_a_batch_run_in_a_worker_process_gets_what_a_worker_thread_gets(tmp_path, proxy):
    thresholds = Thresholds(confidence=0.5, iou=0.3)
    bodies = [jpeg_of_square(16 + 112 * i, 32 * (i % 3)) for i in range(3)]
    large = noise_jpeg(900)  # larger than a slot: it travels pickled
    assert len(large) > SLOT_BYTES
    cut = bodies[0][: len(bodies[0]) // 3]
    jobs = [deferred(b, f"r{i}") for i, b in enumerate(bodies)] + [
        Job(DETECT, decode_body(bodies[1], "image/jpeg").image, thresholds, "pixels"),
        deferred(cut, "cut"), deferred(large, "large")]
    here = cpu_jpeg_worker(blob_config(tmp_path, max_batch=4), None)
    try:
        expected = here(jobs)
    finally:
        here.close()
    got = proxy(jobs)
    assert proxy.pid != os.getpid() and proxy.jpeg == "cpu (OpenCV)"
    assert isinstance(got[4], UndecodableImage) and isinstance(expected[4], UndecodableImage)
    assert got[4].found == expected[4].found
    for i in (0, 1, 2, 3, 5):
        assert isinstance(got[i], FrameResult) and got[i].source_name == expected[i].source_name
        assert boxes(got[i]) == boxes(expected[i])
    assert len({tuple(boxes(got[i])) for i in range(3)}) == 3 and boxes(got[3]) == boxes(got[1])
    assert proxy.slots.free_slots == 4  # every slot given back
    assert [boxes(r) for r in proxy(jobs[:2])] == [boxes(r) for r in expected[:2]]  # and the next batch runs


def test_a_worker_process_that_dies_fails_its_batches_and_the_proxy_closes(proxy):
    os.kill(proxy.pid, signal.SIGKILL)
    proxy.process.join(30)
    for _ in range(2):
        with pytest.raises(InferenceFailed) as failed:
            proxy([deferred(jpeg_of_square(10, 10), "a")])
        assert failed.value.message == "the worker process is gone" and "exit code -9" in failed.value.found
    proxy.close()
    proxy.close()  # idempotent


def test_a_worker_process_that_cannot_open_says_why_and_leaves_nothing_running(tmp_path):
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not an onnx model")
    before = {p.pid for p in mp.active_children()}
    with pytest.raises(InferenceFailed) as failed:
        open_process(blob_config(tmp_path, model=broken))
    assert failed.value.message == "the worker process could not open its worker" and failed.value.found
    assert {p.pid for p in mp.active_children()} <= before


def test_worker_processes_open_side_by_side_and_each_serves(tmp_path):
    workers = open_process_workers(blob_config(tmp_path, max_batch=4, workers=2), factory=CPU_JPEG)
    try:
        body = jpeg_of_square(100, 50)
        answers = [w([deferred(body, f"w{i}")])[0] for i, w in enumerate(workers)]
        assert len({w.pid for w in workers}) == 2 and os.getpid() not in {w.pid for w in workers}
        assert boxes(answers[0]) == boxes(answers[1]) and boxes(answers[0])
    finally:
        for w in workers:
            w.close()
    assert not any(w.process.is_alive() for w in workers)


def test_worker_processes_that_cannot_open_leave_none_running(tmp_path):
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not an onnx model")
    before = {p.pid for p in mp.active_children()}
    with pytest.raises(InferenceFailed) as failed:
        open_process_workers(blob_config(tmp_path, model=broken, workers=3), factory=CPU_JPEG)
    assert failed.value.message == "the worker process could not open its worker"
    assert {p.pid for p in mp.active_children()} <= before


@pytest.mark.parametrize("changes, message", [
    (dict(worker_processes=True, decode_ahead=True), "decode-ahead runs on a worker's threads in the owner"),
    (dict(switch_interval_ms=0.0), "GIL switch interval out of range"),
    (dict(switch_interval_ms=500.0), "GIL switch interval out of range"),
])
def test_config_refuses(tmp_path, changes, message):
    with pytest.raises(ConfigError) as refused:
        blob_config(tmp_path, **changes)
    assert refused.value.message == message


def test_serve_flags_reach_the_config():
    import argparse

    from inference.cli.serve import add_parser, config_from

    sub = argparse.ArgumentParser().add_subparsers()
    add_parser(sub)
    args = sub.choices["serve"].parse_args(["--worker-processes", "--gil-switch-ms", "0.5"])
    config = config_from(args)
    assert (config.worker_processes, config.switch_interval_ms, config.decode_ahead) == (True, 0.5, False)
    default = config_from(sub.choices["serve"].parse_args([]))
    assert (default.worker_processes, default.switch_interval_ms) == (False, None)


def test_over_http_two_worker_processes_answer_many_concurrent_requests_each_with_its_own_image(tmp_path):
    bodies = [jpeg_of_square(16 + 112 * i, 32 * (i % 3)) for i in range(4)]
    config = blob_config(tmp_path, max_batch=4, max_wait_ms=20, queue=32, workers=2, worker_processes=True,
                         switch_interval_ms=0.5)
    before = sys.getswitchinterval()
    try:
        with running_server(config, worker_factory=lambda c, j: open_process(c, j)) as (base, app):
            service = app.state.service
            pids = {w.pid for w in service.workers}
            assert len(pids) == 2 and os.getpid() not in pids and service.gpu_jpeg
            assert all("switch interval 0.50 ms" in w.jpeg_note for w in service.workers)
            assert sys.getswitchinterval() == pytest.approx(0.0005)

            def post(body: bytes) -> dict:
                answer = httpx.post(base + "/detect", content=body, headers={"Content-Type": "image/jpeg"}, timeout=30)
                assert answer.status_code == 200, answer.text
                return answer.json()

            reference = [post(b)["detections"] for b in bodies]
            order = [i % 4 for i in range(24)]
            with ThreadPoolExecutor(8) as pool:
                answers = list(pool.map(post, [bodies[i] for i in order]))
            cut = httpx.post(base + "/detect", content=bodies[0][:2000], headers={"Content-Type": "image/jpeg"},
                             timeout=30)
    finally:
        sys.setswitchinterval(before)
    assert len({str(r) for r in reference}) == 4 and all(reference)
    assert [a["detections"] for a in answers] == [reference[i] for i in order]
    assert max(a["batch"] for a in answers) >= 2
    assert cut.status_code == 400 and cut.json()["error"] == "undecodable_image"
    assert all(not w.process.is_alive() for w in service.workers) or not service.workers


def test_serve_frontends_with_worker_processes_as_a_user_runs_it(tmp_path):
    model = batch_blob_detector(tmp_path / "blob.onnx")
    port = free_port()
    process = start_serve(port, "--frontends", "2", "--workers", "2", "--worker-processes", "--model", str(model),
                          "--backend", "onnxruntime-cpu", "--no-read", "--threads", "1", "--decode-threads", "1",
                          "--max-batch", "4", "--max-wait-ms", "20", "--queue", "32")
    bodies = [jpeg_of_square(16 + 112 * i, 32 * (i % 3)) for i in range(4)]
    try:
        wait_ready(process, port)
        ready = httpx.get(f"http://127.0.0.1:{port}/ready", timeout=10).json()

        def post(body: bytes) -> httpx.Response:
            return httpx.post(f"http://127.0.0.1:{port}/detect", content=body,
                              headers={"Content-Type": "image/jpeg"}, timeout=60)

        reference = [post(b).json()["detections"] for b in bodies]
        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(post, [bodies[i % 4] for i in range(16)]))
    finally:
        code, events, err = stopped(process)
    assert ready["workers"] == 2, ready
    assert [a.status_code for a in answers] == [200] * 16
    assert [a.json()["detections"] for a in answers] == [reference[i % 4] for i in range(16)]
    names = [e["event"] for e in events]
    owner_ready = next(e for e in events if e["event"] == "ready")
    assert len(set(owner_ready["worker_pids"])) == 2 and owner_ready["pid"] not in owner_ready["worker_pids"]
    assert code == 0 and "draining" in names and "stopped" in names, err
    assert all(json.dumps(e).find('"code": 500') < 0 for e in events)


def test_a_journaled_service_journals_in_the_owner(tmp_path):
    """The worker process opens no journal; the proxy records each result in the owner's."""
    recorded: list[tuple[str, str]] = []

    class Journal:
        def record(self, result, image_hash):
            recorded.append((result.source_name, image_hash))

    worker = open_process(blob_config(tmp_path, max_batch=4), Journal())
    try:
        job = partial(Job, DETECT, None, Thresholds(confidence=0.5, iou=0.3))
        worker([job("a", body=jpeg_of_square(10, 10), image_hash="h1"),
                job("b", body=b"\xff\xd8 cut", image_hash="h2")])
    finally:
        worker.close()
    assert recorded == [("a", "h1")]
