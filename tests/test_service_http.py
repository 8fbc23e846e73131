"""The service over real HTTP: uvicorn on a free loopback port, a real (tiny, batchable) ONNX detector,
every endpoint and every error code; the queue and the event loop checked by ordering, not by timing."""

from __future__ import annotations

import asyncio
import io
import json
import threading

import httpx
import pytest

from inference.service.config import ServiceConfig
from inference.service.runtime import open_worker
from tests.test_service_support import GatedWorker, batch_blob_detector, running_server, square_jpeg


pytestmark = pytest.mark.timeout(180)


def gauge(client: httpx.Client, name: str) -> float:
    for line in client.get("/metrics").text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"{name} not in /metrics")


def wait_for(predicate, what: str, timeout: float = 60.0) -> None:
    import time

    end = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < end, f"never happened: {what}"
        time.sleep(0.01)


def blob_config(tmp_path, **changes) -> ServiceConfig:
    model = tmp_path / "blob.onnx"
    if not model.exists():
        batch_blob_detector(model)
    options = dict(model=model, backend="onnxruntime-cpu", read=False, max_batch=4, max_wait_ms=3, queue=8,
                   conf=0.5, iou=0.3, threads=1, decode_threads=2)
    options.update(changes)
    return ServiceConfig(**options)


def gated_factory(holder: list):
    def factory(config, journal):
        worker = GatedWorker(open_worker(config, journal))
        holder.append(worker)
        return worker
    return factory


class Lines(io.StringIO):
    """A log stream tests can read as JSON lines."""

    def records(self) -> list[dict]:
        return [json.loads(line) for line in self.getvalue().splitlines()]


def post_image(client: httpx.Client, path: str = "/detect", body: bytes | None = None,
               content_type: str = "image/jpeg", **params) -> httpx.Response:
    return client.post(path, content=square_jpeg() if body is None else body,
                       headers={"Content-Type": content_type}, params=params)


def test_detect_finds_the_square_in_original_pixels_and_health_ready_metrics_answer(tmp_path):
    from inference.service.access_log import JsonLog

    lines = Lines()
    with running_server(blob_config(tmp_path), log=JsonLog(lines)) as (base, _):
        with httpx.Client(base_url=base, timeout=30) as client:
            health, ready = client.get("/health"), client.get("/ready")
            answer = post_image(client, **{"x-ignored": "1"})
            metrics = client.get("/metrics")
    assert health.status_code == 200 and health.json()["status"] == "alive"
    assert ready.status_code == 200 and ready.json()["backend"] == "onnxruntime-cpu"
    assert answer.status_code == 200
    body = answer.json()
    assert body["code"] == 0 and body["image"] == {"width": 512, "height": 256}
    assert body["model"].startswith("sha256:") and body["precision"] == "fp32"
    bright = [d for d in body["detections"] if d["class_name"] == "bright"]
    assert bright and {"x1", "y1", "x2", "y2", "score", "class_id", "class_name"} == set(bright[0])
    # the 128 px square at (192, 64) is 16 input px; the union of its cell boxes must cover it
    x1, y1 = min(d["x1"] for d in bright), min(d["y1"] for d in bright)
    x2, y2 = max(d["x2"] for d in bright), max(d["y2"] for d in bright)
    assert x1 <= 192 and y1 <= 64 and x2 >= 320 and y2 >= 192 and x2 <= 512 and y2 <= 256
    assert {"queue", "decode", "preprocess", "infer", "postprocess"} <= set(body["timings_ms"])
    text = metrics.text
    assert metrics.headers["content-type"].startswith("text/plain")
    for name in ('hangtag_requests_total{code="200",endpoint="detect"} 1.0', "hangtag_queue_depth",
                 "hangtag_batch_size_bucket", 'hangtag_stage_seconds_count{stage="infer"} 1.0',
                 "hangtag_process_rss_bytes", "hangtag_process_vram_bytes"):
        assert name in text
    events = lines.records()
    request = next(e for e in events if e["event"] == "request")
    assert request["code"] == 200 and request["size"] > 0 and request["batch"] == 1
    assert {"id", "queue_ms", "stages", "total_ms"} <= set(request)
    assert [e["event"] for e in events][-2:] == ["draining", "stopped"]


@pytest.mark.parametrize("params, expected", [
    ({"max_det": "1"}, lambda n, default: n == 1),
    # the gray background scores ~0.1 as "dark" in every cell: a low threshold lets those through
    ({"conf": "0.05"}, lambda n, default: n > default),
    ({"conf": "0.05", "max_det": "3"}, lambda n, default: n == 3),
])
def test_query_thresholds_apply_per_request(tmp_path, params, expected):
    with running_server(blob_config(tmp_path)) as (base, _):
        with httpx.Client(base_url=base, timeout=30) as client:
            default = post_image(client).json()["detections"]
            changed = post_image(client, **params).json()["detections"]
            again = post_image(client).json()["detections"]
    assert len(default) > 1 and all(d["class_name"] == "bright" for d in default)
    assert expected(len(changed), len(default))
    assert again == default  # one request's thresholds never leak into the next


@pytest.mark.parametrize("path, body, content_type, params, status, kind", [
    ("/detect", b"not an image at all", "image/jpeg", {}, 400, "undecodable_image"),
    ("/detect", None, "image/jpeg", {"conf": "2"}, 400, "bad_parameter"),
    ("/detect", None, "image/jpeg", {"iou": "x"}, 400, "bad_parameter"),
    ("/detect", None, "image/jpeg", {"max_det": "0"}, 400, "bad_parameter"),
    ("/detect", None, "text/plain", {}, 415, "unsupported_media_type"),
    ("/inspect", None, "application/octet-stream", {}, 415, "unsupported_media_type"),
    ("/detect", bytes(9000), "image/png", {}, 413, "body_too_large"),
    ("/inspect", None, "image/jpeg", {"recipe": "nope"}, 404, "unknown_recipe"),
])
def test_bad_requests_get_json_errors_that_say_expected_found_hint(tmp_path, path, body, content_type, params,
                                                                    status, kind):
    with running_server(blob_config(tmp_path, max_body_bytes=8192)) as (base, _):
        with httpx.Client(base_url=base, timeout=30) as client:
            answer = post_image(client, path, body, content_type, **params)
            still_fine = post_image(client)
    assert answer.status_code == status
    error = answer.json()
    assert error["code"] == status and error["error"] == kind
    assert error["message"] and error["expected"] and error["found"] and error["hint"]
    assert still_fine.status_code == 200


def test_a_body_without_content_length_is_still_cut_at_the_limit(tmp_path):
    def chunks():
        for _ in range(4):
            yield bytes(4096)

    with running_server(blob_config(tmp_path, max_body_bytes=8192)) as (base, _):
        with httpx.Client(base_url=base, timeout=30) as client:
            answer = client.post("/detect", content=chunks(), headers={"Content-Type": "image/png"})
    assert answer.status_code == 413 and answer.json()["error"] == "body_too_large"


def test_unknown_paths_and_methods_are_refused(tmp_path):
    with running_server(blob_config(tmp_path)) as (base, _):
        with httpx.Client(base_url=base, timeout=30) as client:
            assert client.get("/detect").status_code == 405
            assert client.get("/nothing").status_code == 404


def test_inspect_without_a_recipe_gives_no_verdict_rather_than_an_invented_ok(tmp_path):
    with running_server(blob_config(tmp_path)) as (base, _):
        with httpx.Client(base_url=base, timeout=30) as client:
            answer = post_image(client, "/inspect")
    body = answer.json()
    assert answer.status_code == 200
    assert body["verdict"] is None and body["recipe"] is None and body["reasons"] == [] and body["tags"] == []
    assert body["detections"]


def test_inspect_judges_against_a_recipe_named_by_id(tmp_path):
    from pathlib import Path

    recipes = tmp_path / "recipes"
    recipes.mkdir()
    source = Path("resources/recipes/sample_090000022.toml")
    (recipes / "jacket.toml").write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    with running_server(blob_config(tmp_path, recipe_dir=recipes)) as (base, _):
        with httpx.Client(base_url=base, timeout=30) as client:
            answer = post_image(client, "/inspect", recipe="jacket")
    body = answer.json()
    assert answer.status_code == 200
    # the blob model finds no hangtag: the recipe's count rule must say so
    assert body["recipe"] and body["verdict"] in ("NG", "REVIEW") and body["reasons"]


async def _concurrently(base: str, requests: list) -> list[httpx.Response]:
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        return await asyncio.gather(*(client.request(*r[:2], **r[2]) for r in requests))


def _image_request(path="/detect"):
    return ("POST", path, {"content": square_jpeg(), "headers": {"Content-Type": "image/jpeg"}})


def test_the_event_loop_answers_health_while_inference_is_busy(tmp_path):
    workers: list[GatedWorker] = []
    with running_server(blob_config(tmp_path), worker_factory=gated_factory(workers)) as (base, _):
        worker = workers[0]
        done = {}

        def send():
            done["detect"] = httpx.post(base + "/detect", content=square_jpeg(),
                                        headers={"Content-Type": "image/jpeg"}, timeout=30)

        sender = threading.Thread(target=send)
        sender.start()
        assert worker.entered.acquire(timeout=30)  # inference is now running (and held)
        health = httpx.get(base + "/health", timeout=30)
        metrics = httpx.get(base + "/metrics", timeout=30)
        answered_while_busy = "detect" not in done
        worker.gate.set()
        sender.join(timeout=30)
    assert health.status_code == 200 and metrics.status_code == 200
    assert "hangtag_in_flight 1.0" in metrics.text
    assert answered_while_busy
    assert done["detect"].status_code == 200


def test_a_full_queue_answers_503_with_retry_after_and_serves_the_accepted(tmp_path):
    workers: list[GatedWorker] = []
    config = blob_config(tmp_path, max_batch=1, queue=1, max_wait_ms=0)
    with running_server(config, worker_factory=gated_factory(workers)) as (base, _):
        worker = workers[0]
        results: dict[str, httpx.Response] = {}

        def send(name):
            results[name] = httpx.post(base + "/detect", content=square_jpeg(),
                                       headers={"Content-Type": "image/jpeg"}, timeout=30)

        first = threading.Thread(target=send, args=("first",))
        first.start()
        assert worker.entered.acquire(timeout=30)  # held in inference
        second = threading.Thread(target=send, args=("second",))
        second.start()
        with httpx.Client(base_url=base, timeout=30) as client:
            wait_for(lambda: gauge(client, "hangtag_queue_depth") == 1, "the second request queued")
            refused = post_image(client)
        refused_while_pending = not results
        worker.gate.set()
        first.join(timeout=30)
        second.join(timeout=30)
    assert refused.status_code == 503 and refused.headers["retry-after"] == "1"
    assert refused.json()["error"] == "queue_full" and refused.json()["hint"]
    assert refused_while_pending
    assert results["first"].status_code == 200 and results["second"].status_code == 200


def test_a_request_that_waits_past_its_deadline_gets_503(tmp_path):
    workers: list[GatedWorker] = []
    config = blob_config(tmp_path, max_batch=1, queue=4, max_wait_ms=0, deadline_ms=100)
    with running_server(config, worker_factory=gated_factory(workers)) as (base, _):
        worker = workers[0]
        results: dict[str, httpx.Response] = {}

        def send(name):
            results[name] = httpx.post(base + "/detect", content=square_jpeg(),
                                       headers={"Content-Type": "image/jpeg"}, timeout=30)

        first = threading.Thread(target=send, args=("first",))
        first.start()
        assert worker.entered.acquire(timeout=30)
        late = threading.Thread(target=send, args=("late",))
        late.start()
        with httpx.Client(base_url=base, timeout=30) as client:
            wait_for(lambda: gauge(client, "hangtag_queue_depth") == 1, "the late request queued")
        late.join(timeout=0.3)  # longer than the deadline, while the worker is held
        worker.gate.set()
        first.join(timeout=30)
        late.join(timeout=30)
    assert results["first"].status_code == 200
    assert results["late"].status_code == 503 and results["late"].json()["error"] == "deadline_exceeded"
    assert "retry-after" in results["late"].headers
    assert worker.batches == [1]  # the late one never reached inference


def test_concurrent_requests_are_batched_and_each_gets_its_own_answer(tmp_path):
    workers: list[GatedWorker] = []
    config = blob_config(tmp_path, max_batch=4, queue=16, max_wait_ms=50)
    with running_server(config, worker_factory=gated_factory(workers)) as (base, _):
        worker = workers[0]
        sizes = [(64 + 32 * i, 128 + 64 * i) for i in range(5)]
        bodies = []
        for h, w in sizes:
            bodies.append(("POST", "/detect", {"content": square_jpeg(h * 2, w * 2, (w // 2, h // 2, h // 2)),
                                               "headers": {"Content-Type": "image/jpeg"}}))
        out: list = []
        sender = threading.Thread(target=lambda: out.extend(asyncio.run(_concurrently(base, bodies))))
        sender.start()
        assert worker.entered.acquire(timeout=30)  # first batch taken; the others queue behind it
        with httpx.Client(base_url=base, timeout=30) as client:
            wait_for(lambda: gauge(client, "hangtag_queue_depth") + gauge(client, "hangtag_in_flight") == 5,
                     "all five requests inside the service")
        worker.gate.set()
        sender.join(timeout=60)
    assert [r.status_code for r in out] == [200] * 5
    assert [r.json()["image"] for r in out] == [{"width": w * 2, "height": h * 2} for h, w in sizes]
    assert max(worker.batches) > 1 and sum(worker.batches) == 5
    assert max(r.json()["batch"] for r in out) == max(worker.batches)


def test_every_request_is_journaled_like_a_station_frame(tmp_path):
    from inference.records.journal import Journal

    path = tmp_path / "journal.sqlite3"
    with running_server(blob_config(tmp_path, journal=str(path))) as (base, _):
        with httpx.Client(base_url=base, timeout=30) as client:
            ok = post_image(client)
            bad = post_image(client, body=b"broken bytes")
    assert ok.status_code == 200 and bad.status_code == 400
    with Journal.open(path, read_only=True) as journal:
        session = journal.sessions()[-1]
        frames = journal.frames(session.id)
    assert session.source.startswith("http://") and session.model_hash.startswith("sha256:")
    assert len(frames) == 2
    served = next(f for f in frames if not f.error)
    assert served.source_name == ok.json()["request_id"] and served.image_hash.startswith("sha256:")
    assert len(served.detections) == len(ok.json()["detections"])
    assert any("decoded" in f.error for f in frames)
    assert tuple(served.image_hw) == (256, 512) and served.timings_ms["infer"] > 0
