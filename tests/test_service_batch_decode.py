"""`serve` with JPEGs decoded by the workers, a batch at a time (the GPU JPEG decode path, `--jpeg-decode`), over
real HTTP. Here the worker's batch decoder is the CPU one of inference/gpu/jpeg.py (the same interface the
nvImageCodec decoder has), so the whole path — checked, not decoded, on the decode pool; decoded together in the
worker; a bad body answered 400 from there — runs without a GPU. The GPU decoder itself is tested in
tests/test_gpu_jpeg.py (skipped without one)."""

from __future__ import annotations

import cv2
import httpx
import numpy as np
import pytest

from inference.errors import BackendUnavailableError
from inference.gpu.jpeg import CpuJpegDecoder
from inference.service.access_log import JsonLog
from inference.service.decoding import decode_body
from inference.service.runtime import open_worker
from tests.test_service_http import Lines, blob_config, post_image
from tests.test_service_support import running_server, square_jpeg

pytestmark = pytest.mark.timeout(180)


def batch_decoding_factory(calls: list[int]):
    class Counting(CpuJpegDecoder):
        def decode(self, data, names=None):
            calls.append(len(data))
            return super().decode(data, names)

    def factory(config, journal):
        worker = open_worker(config, journal)
        worker.jpeg, worker.jpeg_note = Counting(2), "batch decode (test: CPU)"
        return worker
    return factory


def test_jpegs_are_left_to_the_worker_decoded_there_and_answered_as_before(tmp_path):
    lines = Lines()
    calls: list[int] = []
    with running_server(blob_config(tmp_path)) as (base, _):
        with httpx.Client(base_url=base, timeout=30) as client:
            reference = post_image(client).json()
            reference_ready = client.get("/ready").json()
    with running_server(blob_config(tmp_path), worker_factory=batch_decoding_factory(calls),
                        log=JsonLog(lines)) as (base, app):
        with httpx.Client(base_url=base, timeout=30) as client:
            answer = post_image(client).json()
            ready = client.get("/ready").json()
            whole = square_jpeg()
            cut = post_image(client, body=whole[: len(whole) // 3])  # its header reads: it reaches the worker
            garbage = post_image(client, body=b"not an image at all")  # refused on the decode pool
            png = post_image(client, body=cv2.imencode(".png", np.full((64, 64, 3), 114, np.uint8))[1].tobytes(),
                             content_type="image/png")
            inspect = post_image(client, "/inspect")
    assert answer["detections"] == reference["detections"] and answer["image"] == reference["image"]
    assert ready["jpeg_decode"] == "in each batch by the workers: batch decode (test: CPU)"
    assert reference_ready["jpeg_decode"] == "CPU decode threads (the detector does not run on the GPU pipeline)"
    assert calls == [1, 1]  # the good and the cut JPEG, each sent alone; the rest never reached the worker's decoder
    assert cut.status_code == 400
    error = cut.json()
    assert error["error"] == "undecodable_image" and "truncated or corrupt" in error["found"]
    assert error["expected"] and error["hint"] == "send a complete JPEG or PNG file as the raw request body"
    assert garbage.status_code == 400 and garbage.json()["error"] == "undecodable_image"
    assert png.status_code == 200 and inspect.status_code == 200  # PNG and /inspect decode on the pool, as before
    started = next(e for e in lines.records() if e["event"] == "ready")
    assert started["jpeg_decode"] == "in each batch by the workers: batch decode (test: CPU)"


def test_a_batch_of_jpegs_is_decoded_in_one_call(tmp_path):
    import threading

    calls: list[int] = []
    config = blob_config(tmp_path, max_batch=4, max_wait_ms=200)
    with running_server(config, worker_factory=batch_decoding_factory(calls)) as (base, _):
        calls.clear()
        answers: list[int] = []
        threads = [threading.Thread(target=lambda: answers.append(
            httpx.post(base + "/detect", content=square_jpeg(), headers={"Content-Type": "image/jpeg"},
                       timeout=30).status_code)) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert answers == [200] * 4
    assert sum(calls) == 4 and max(calls) >= 2  # at least two requests shared one decode call (200 ms of wait)


def test_decode_pool_checks_a_deferred_jpeg_without_decoding_it():
    body = square_jpeg()
    deferred = decode_body(body, "image/jpeg", with_hash=True, defer_jpeg=True)
    assert deferred.image is None and deferred.body == body and deferred.body_hash
    decoded = decode_body(body, "image/jpeg", defer_jpeg=False)
    assert decoded.image.shape == (256, 512, 3) and decoded.body == b""
    from inference.service.errors import BadRequest

    huge = bytearray(body)
    at = huge.index(b"\xff\xc0")  # SOF0: height and width at +5, +7
    huge[at + 5:at + 9] = (20000).to_bytes(2, "big") + (20000).to_bytes(2, "big")
    with pytest.raises(BadRequest) as caught:
        decode_body(bytes(huge), "image/jpeg", defer_jpeg=True)  # too many pixels: refused before any decode
    assert "too many pixels" in caught.value.message


def test_gpu_decode_asked_for_on_a_cpu_detector_refuses_to_start_with_the_reason(tmp_path):
    worker = open_worker(blob_config(tmp_path), None)
    try:
        with pytest.raises(BackendUnavailableError) as caught:
            worker.use_gpu_jpeg("gpu")
        assert caught.value.found == "the detector does not run on the GPU pipeline"
        worker.use_gpu_jpeg("auto")
        assert worker.jpeg is None
        assert worker.jpeg_note == "CPU decode threads (the detector does not run on the GPU pipeline)"
    finally:
        worker.close()


def test_unknown_jpeg_decode_mode_is_refused():
    from inference.errors import ConfigError
    from inference.service.config import ServiceConfig

    with pytest.raises(ConfigError) as caught:
        ServiceConfig(jpeg_decode="nvjpeg")
    assert caught.value.expected == "auto | gpu | cpu"
