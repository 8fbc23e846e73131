"""`serve --frontends N` as a user runs it: a real owner process and its front-end processes on a free loopback
port, real HTTP. Every endpoint and refusal answered by the front ends in the one-process service's JSON, the
metrics counted over all front ends, a body too large for a shared-memory slot, a full queue, SIGTERM with requests
queued."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import cv2
import httpx
import numpy as np
import pytest

from tests.test_service_cli import SAMPLE, send_sample, start_serve, wait_ready
from inference.service.handoff import BodySlots, SharedDepth
from tests.test_service_support import batch_blob_detector, free_port, square_jpeg

pytestmark = pytest.mark.timeout(240)

FAST = ("--backend", "onnxruntime-cpu", "--no-read", "--threads", "1", "--decode-threads", "1", "--max-batch", "4")


def blob_serve(tmp_path: Path, port: int, *extra: str) -> subprocess.Popen:
    model = tmp_path / "blob.onnx"
    if not model.exists():
        batch_blob_detector(model)
    return start_serve(port, "--frontends", "2", "--model", str(model), *FAST, *extra)


def stopped(process: subprocess.Popen) -> tuple[int, list[dict], str]:
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=90)
    return process.returncode, [json.loads(line) for line in out.splitlines() if line.startswith("{")], err


def counter(metrics: str, name: str) -> float:
    for line in metrics.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return 0.0


def all_inside_some_queued(metrics: str, answered: int, count: int) -> bool:
    depth, in_flight = counter(metrics, "hangtag_queue_depth"), counter(metrics, "hangtag_in_flight")
    return depth >= 1 and depth + in_flight + answered == count


def noise_jpeg(side: int) -> bytes:
    image = np.random.default_rng(7).integers(0, 256, (side, side, 3), np.uint8)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 95])
    assert ok
    return data.tobytes()


def test_the_owners_depth_and_bodies_cross_shared_memory_by_name():
    depth, slots = SharedDepth(create=True), BodySlots(2, 1024, create=True)
    reader, writer = SharedDepth(name=depth.name), BodySlots(2, 1024, name=slots.name)
    try:
        depth.value = 7
        first, second = writer.put(b"a" * 1000), writer.put(b"b" * 10)
        assert reader.value == 7
        assert (writer.put(b"c"), writer.put(b"d" * 2000)) == (None, None)  # none free; too large for a slot
        assert slots.read(first, 1000) == b"a" * 1000 and slots.read(second, 10) == b"b" * 10
        writer.release(first)
        assert writer.put(b"e") == first and slots.read(first, 1) == b"e"
    finally:
        for part in (reader, writer, depth, slots):
            part.close()


def test_a_full_queue_is_refused_with_503_retry_after_and_the_rest_served():
    port = free_port()
    process = start_serve(port, "--frontends", "2", "--no-read", "--max-batch", "1", "--queue", "1")
    answers: list = []
    try:
        wait_ready(process, port)

        def send():
            answers.append(httpx.post(f"http://127.0.0.1:{port}/detect", content=SAMPLE.read_bytes(),
                                      headers={"Content-Type": "image/jpeg"}, timeout=120))

        senders = [threading.Thread(target=send) for _ in range(8)]
        for sender in senders:
            sender.start()
        for sender in senders:
            sender.join(timeout=120)
    finally:
        code, _events, err = stopped(process)
    codes = sorted(a.status_code for a in answers)
    assert len(codes) == 8 and set(codes) <= {200, 503} and 200 in codes and 503 in codes
    for answer in answers:
        if answer.status_code == 503:
            payload = answer.json()
            assert payload["error"] == "queue_full" and answer.headers["Retry-After"]
            assert payload["expected"] == "fewer than 1 requests waiting" and payload["hint"]
    assert code == 0, err


@pytest.mark.parametrize("path, body, content_type, params, status, kind", [
    ("/detect", b"GIF89a not an image at all", "image/jpeg", {}, 400, "undecodable_image"),
    ("/detect", None, "text/plain", {}, 415, "unsupported_media_type"),
    ("/detect", None, "image/jpeg", {"conf": "7"}, 400, "bad_parameter"),
    ("/detect", b"\xff\xd8" + b"\x00" * 70_000, "image/jpeg", {}, 413, "body_too_large"),
    ("/inspect", None, "image/jpeg", {"recipe": "nope"}, 404, "unknown_recipe"),
])
def test_front_ends_refuse_in_the_one_process_services_json(tmp_path, path, body, content_type, params, status,
                                                             kind):
    port = free_port()
    process = blob_serve(tmp_path, port, "--max-body-mb", "0.06")
    try:
        wait_ready(process, port)
        answer = httpx.post(f"http://127.0.0.1:{port}{path}", content=square_jpeg() if body is None else body,
                            headers={"Content-Type": content_type}, params=params, timeout=60)
    finally:
        code, events, err = stopped(process)
    assert answer.status_code == status
    payload = answer.json()
    assert payload["code"] == status and payload["error"] == kind
    assert payload["expected"] and payload["found"] and payload["hint"]
    assert code == 0, err
    assert [e for e in events if e["event"] == "request"][0]["code"] == status


def test_front_ends_serve_detect_health_ready_and_aggregated_metrics(tmp_path):
    port = free_port()
    process = blob_serve(tmp_path, port, "--max-body-mb", "8")
    url = f"http://127.0.0.1:{port}"
    big = noise_jpeg(1400)  # over a shared-memory slot (512 KiB): its own segment
    assert len(big) > 512 * 1024
    try:
        wait_ready(process, port)
        ready = httpx.get(f"{url}/ready", timeout=30).json()
        health = httpx.get(f"{url}/health", timeout=30).json()
        answers = []
        for _ in range(6):  # a fresh connection each, so the kernel may hand them to either front end
            answers.append(httpx.post(f"{url}/detect", content=square_jpeg(), params={"conf": "0.5"},
                                      headers={"Content-Type": "image/jpeg"}, timeout=60))
        large = httpx.post(f"{url}/detect", content=big, headers={"Content-Type": "image/jpeg"}, timeout=60)
        end = time.monotonic() + 30
        while True:  # each front end's counts reach the owner with its next message, or within half a second
            metrics = httpx.get(f"{url}/metrics", timeout=30).text
            if counter(metrics, 'hangtag_requests_total{code="200",endpoint="detect"}') == 7 or time.monotonic() > end:
                break
            time.sleep(0.05)
    finally:
        code, events, err = stopped(process)
    assert ready["status"] == "ready" and ready["frontends"] == 2 and ready["frontend"] in (0, 1)
    assert health["status"] == "alive"
    for answer in answers:
        assert answer.status_code == 200
        detect = answer.json()
        assert detect["image"] == {"width": 512, "height": 256} and detect["detections"]
        assert detect["timings_ms"]["infer"] > 0 and detect["batch"] >= 1
    assert large.status_code == 200 and large.json()["image"] == {"width": 1400, "height": 1400}
    assert counter(metrics, 'hangtag_requests_total{code="200",endpoint="detect"}') == 7
    assert counter(metrics, "hangtag_batch_size_count") >= 1
    assert counter(metrics, 'hangtag_stage_seconds_count{stage="infer"}') == 7
    assert code == 0, err
    names = [e["event"] for e in events]
    # the owner logs "ready" once every front end is up; the first one up may already answer before that
    assert "ready" in names and names[-1] == "stopped" and "Traceback" not in err
    assert {e["frontend"] for e in events if e["event"] == "request"} <= {0, 1}


def test_a_request_past_its_deadline_gets_503_with_retry_after_from_the_owner(tmp_path):
    port = free_port()
    process = blob_serve(tmp_path, port, "--deadline-ms", "0.001")
    try:
        wait_ready(process, port)
        answer = httpx.post(f"http://127.0.0.1:{port}/detect", content=square_jpeg(),
                            headers={"Content-Type": "image/jpeg"}, timeout=60)
    finally:
        code, _events, err = stopped(process)
    assert answer.status_code == 503 and answer.headers["Retry-After"]
    assert answer.json()["error"] == "deadline_exceeded"
    assert code == 0, err


SENDERS = 6


def test_sigterm_finishes_what_the_front_ends_queued_and_exits_0():
    port = free_port()
    process = start_serve(port, "--frontends", "2", "--no-read", "--max-batch", "1", "--queue", "8")
    results: list = []
    try:
        wait_ready(process, port)

        senders = [threading.Thread(target=send_sample, args=(port, results)) for _ in range(SENDERS)]
        for sender in senders:
            sender.start()
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            end = time.monotonic() + 60
            # the answered ones from the senders themselves (a front end's counts reach /metrics up to 0.5 s late),
            # taken before the gauges, so the sum never counts one twice
            while True:
                answered = results.count(200)
                if all_inside_some_queued(client.get("/metrics").text, answered, SENDERS):
                    break
                assert time.monotonic() < end, "the requests never queued"
                time.sleep(0.01)
        process.send_signal(signal.SIGTERM)
        for sender in senders:
            sender.join(timeout=120)
        out, err = process.communicate(timeout=90)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert results == [200] * SENDERS
    assert process.returncode == 0, err
    events = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    names = [e["event"] for e in events]
    assert "draining" in names and names[-2:] == ["frontends_stopped", "stopped"]
    assert sum(1 for e in events if e["event"] == "request" and e["code"] == 200) == SENDERS
