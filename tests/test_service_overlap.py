"""Batch N+1 decoded while batch N infers (issue 20, `decode_ahead`): the batcher's two-stage consumer, without HTTP
and with a real worker. With decode_ahead, a runner with `decode_batch` and `infer_batch` gets a decode thread of its
own; the tests hold each stage on a gate so they order events instead of timing them. Off by default (config.py)."""

from __future__ import annotations

import asyncio
import threading

import numpy as np
import pytest

from inference.gpu.jpeg import CpuJpegDecoder
from inference.pipeline import FrameResult
from inference.postprocess import Thresholds
from inference.service.batcher import Batcher, two_staged
from inference.service.decoding import decode_body
from inference.service.errors import InferenceFailed, ShuttingDown, UndecodableImage
from inference.service.runtime import open_worker
from inference.service.worker import DETECT, INSPECT, DecodedBatch, Job
from tests.test_service_batcher import run, until
from tests.test_service_http import blob_config
from tests.test_service_support import square_jpeg

pytestmark = pytest.mark.timeout(120)


class TwoStages:
    """A two-staged runner: decode doubles each item, infer adds one; each stage may be held on its gate.
    Records what ran where and in which order."""

    def __init__(self) -> None:
        self.decode_gate, self.infer_gate = threading.Event(), threading.Event()
        self.decode_gate.set()
        self.infer_gate.set()
        self.events: list[tuple[str, list[int]]] = []
        self.threads: dict[str, set[int]] = {"decode": set(), "infer": set(), "prepare": set(), "prepare_decode": set()}
        self.lock = threading.Lock()
        self.infer_entered = threading.Semaphore(0)

    def _log(self, what: str, items: list[int]) -> None:
        with self.lock:
            self.events.append((what, list(items)))
            self.threads[what.split(":")[0]].add(threading.get_ident())

    def prepare_thread(self) -> None:
        self._log("prepare", [])

    def prepare_decode_thread(self) -> None:
        self._log("prepare_decode", [])

    def decode_batch(self, items: list[int]) -> list[int]:
        assert self.decode_gate.wait(30)
        if any(x == 666 for x in items):
            raise RuntimeError("the decoder failed as a whole")
        self._log("decode", items)
        return [x * 2 for x in items]

    def infer_batch(self, decoded: list[int]) -> list:
        self.infer_entered.release()
        assert self.infer_gate.wait(30)
        self._log("infer", decoded)
        return [ValueError(f"bad {x}") if x < 0 else x + 1 for x in decoded]

    def __call__(self, items):  # what a batcher without stages would call
        raise AssertionError("a two-staged runner is run by stages")


def test_batch_n_plus_1_is_decoded_while_batch_n_infers_on_another_thread():
    runner = TwoStages()
    assert two_staged(runner) and not two_staged(lambda items: items)

    async def scenario():
        batcher = Batcher([runner], max_batch=2, max_wait_ms=0, max_queue=16, decode_ahead=True)
        await batcher.start()
        runner.infer_gate.clear()  # batch N stays in inference
        first = [asyncio.create_task(batcher.submit(i)) for i in (1, 2)]
        await until(lambda: ("decode", [1, 2]) in runner.events)
        await asyncio.to_thread(runner.infer_entered.acquire)  # batch N is inferring, held
        second = [asyncio.create_task(batcher.submit(i)) for i in (3, 4)]
        await until(lambda: ("decode", [3, 4]) in runner.events)  # decoded while N is still held
        held = [t.done() for t in first + second]
        in_flight = batcher.in_flight
        runner.infer_gate.set()
        served = [await t for t in first + second]
        await batcher.drain()
        return held, in_flight, served

    held, in_flight, served = run(scenario())
    assert held == [False] * 4 and in_flight == 4
    assert [s.result for s in served] == [3, 5, 7, 9] and [s.batch_size for s in served] == [2, 2, 2, 2]
    order = [e for e in runner.events if e[0] in ("decode", "infer")]
    assert order == [("decode", [1, 2]), ("decode", [3, 4]), ("infer", [2, 4]), ("infer", [6, 8])]
    t = runner.threads
    assert len(t["decode"]) == 1 and len(t["infer"]) == 1 and t["decode"] != t["infer"]
    assert t["prepare"] == t["infer"] and t["prepare_decode"] == t["decode"]  # each stage prepared where it runs


def test_one_batch_in_each_stage_at_a_time_and_batches_infer_in_the_order_taken():
    runner = TwoStages()

    async def scenario():
        batcher = Batcher([runner], max_batch=1, max_wait_ms=0, max_queue=16, decode_ahead=True)
        await batcher.start()
        runner.infer_gate.clear()
        tasks = [asyncio.create_task(batcher.submit(i)) for i in range(6)]
        await until(lambda: ("decode", [1]) in runner.events)
        await asyncio.sleep(0.2)  # time enough for a third batch to be taken, were it allowed
        decoded_while_held = [e for e in runner.events if e[0] == "decode"]
        waiting = batcher.depth
        runner.infer_gate.set()
        served = [await t for t in tasks]
        await batcher.drain()
        return decoded_while_held, waiting, served

    decoded_while_held, waiting, served = run(scenario())
    assert decoded_while_held == [("decode", [0]), ("decode", [1])]  # N inferring, N+1 decoded, the rest queued
    assert waiting == 4
    assert [s.result for s in served] == [2 * i + 1 for i in range(6)]
    assert [e[1] for e in runner.events if e[0] == "infer"] == [[2 * i] for i in range(6)]


def test_drain_with_a_batch_inferring_and_one_decoded_answers_both_then_refuses():
    runner = TwoStages()

    async def scenario():
        batcher = Batcher([runner], max_batch=2, max_wait_ms=0, max_queue=16, decode_ahead=True)
        await batcher.start()
        runner.infer_gate.clear()
        tasks = [asyncio.create_task(batcher.submit(i)) for i in range(2)]
        await asyncio.to_thread(runner.infer_entered.acquire)  # batch [0, 1] inferring, held
        tasks += [asyncio.create_task(batcher.submit(i)) for i in range(2, 4)]
        await until(lambda: ("decode", [2, 3]) in runner.events)  # batch [2, 3] decoded, waiting its turn
        drain = asyncio.create_task(batcher.drain())
        await asyncio.sleep(0.05)
        with pytest.raises(ShuttingDown):
            batcher.admit()
        assert not drain.done() and not any(t.done() for t in tasks)  # the drain waits for both batches
        runner.infer_gate.set()
        await drain
        return [(await t).result for t in tasks], batcher.in_flight

    results, in_flight = run(scenario())
    assert results == [1, 3, 5, 7] and in_flight == 0


def test_a_decode_stage_that_fails_fails_its_batch_only_and_one_bad_item_fails_alone():
    runner = TwoStages()

    async def scenario():
        batcher = Batcher([runner], max_batch=2, max_wait_ms=20, max_queue=16, decode_ahead=True)
        await batcher.start()
        crashed = await asyncio.gather(batcher.submit(666), batcher.submit(5), return_exceptions=True)
        mixed = await asyncio.gather(batcher.submit(-3), batcher.submit(7), return_exceptions=True)
        await batcher.drain()
        return crashed, mixed

    crashed, mixed = run(scenario())
    assert all(isinstance(c, RuntimeError) and "as a whole" in str(c) for c in crashed)
    assert isinstance(mixed[0], ValueError) and mixed[1].result == 15


# -- the worker's two stages, with the real blob detector and the CPU batch decoder ---------------------------
def jpeg_of_square(x: int, y: int, side: int = 128) -> bytes:
    return square_jpeg(square=(x, y, side))


def deferred(body: bytes, request_id: str) -> Job:
    return Job(DETECT, None, Thresholds(confidence=0.5, iou=0.3), request_id, body=body)


def boxes(result: FrameResult) -> list[tuple]:
    d = result.detections
    return [tuple(np.round(d.xyxy[i], 3)) + (round(float(d.confidence[i]), 5), int(d.class_id[i]))
            for i in range(len(d))]


@pytest.fixture
def worker(tmp_path):
    worker = open_worker(blob_config(tmp_path, max_batch=4), None)
    worker.jpeg = CpuJpegDecoder(2)
    yield worker
    worker.close()


def test_jpegs_decoded_in_the_decode_stage_give_the_detections_of_jpegs_decoded_before(worker):
    bodies = [jpeg_of_square(16 + 112 * i, 32 * (i % 3)) for i in range(4)]
    thresholds = Thresholds(confidence=0.5, iou=0.3)
    before = worker([Job(DETECT, decode_body(b, "image/jpeg").image, thresholds, f"r{i}")
                     for i, b in enumerate(bodies)])
    decoded = worker.decode_batch([deferred(b, f"r{i}") for i, b in enumerate(bodies)])
    assert isinstance(decoded, DecodedBatch) and decoded.refused == [None] * 4
    assert all(isinstance(j.image, np.ndarray) and j.body == b"" and j.decode_ms > 0 for j in decoded.jobs)
    after = worker.infer_batch(decoded)
    assert [boxes(r) for r in after] == [boxes(r) for r in before]
    assert all(boxes(r) for r in after)
    assert len({tuple(boxes(r)) for r in after}) == 4  # each its own square, in its own place
    assert [r.source_name for r in after] == ["r0", "r1", "r2", "r3"]


def test_one_undecodable_body_is_refused_alone_and_the_batch_s_others_are_detected(worker):
    good = jpeg_of_square(100, 50)
    whole = jpeg_of_square(200, 80)
    cut = whole[: len(whole) // 3]
    jobs = [deferred(good, "a"), deferred(cut, "b"), deferred(good, "c"),
            Job(INSPECT, decode_body(good, "image/jpeg").image, Thresholds(confidence=0.5, iou=0.3), "d")]
    decoded = worker.decode_batch(jobs)
    assert [r is None for r in decoded.refused] == [True, False, True, True]
    results = worker.infer_batch(decoded)
    assert isinstance(results[1], UndecodableImage) and "truncated or corrupt" in results[1].found
    assert all(isinstance(results[i], FrameResult) for i in (0, 2, 3))
    assert boxes(results[0]) == boxes(results[2]) and boxes(results[0])


def test_a_decoder_that_fails_as_a_whole_fails_its_jpegs_and_the_decoded_images_still_run(worker):
    class Broken(CpuJpegDecoder):
        def decode(self, data, names=None):
            raise RuntimeError("nvJPEG execution failed")

    worker.jpeg.close()
    worker.jpeg = Broken(1)
    pixels = decode_body(jpeg_of_square(100, 50), "image/jpeg").image
    thresholds = Thresholds(confidence=0.5, iou=0.3)
    results = worker([deferred(jpeg_of_square(10, 10), "a"), Job(DETECT, pixels, thresholds, "b")])
    assert isinstance(results[0], InferenceFailed) and "nvJPEG execution failed" in results[0].found
    assert isinstance(results[1], FrameResult) and boxes(results[1])


def test_a_chunk_the_engine_refuses_is_run_again_one_by_one_so_only_the_bad_image_fails(worker):
    thresholds = Thresholds(confidence=0.5, iou=0.3)
    good = decode_body(jpeg_of_square(100, 50), "image/jpeg").image
    flat = np.zeros((0, 64, 3), np.uint8)  # no rows: the letterbox cannot scale it
    results = worker([Job(DETECT, good, thresholds, "a"), Job(DETECT, flat, thresholds, "b"),
                      Job(DETECT, good, thresholds, "c")])
    assert isinstance(results[0], FrameResult) and isinstance(results[2], FrameResult)
    assert isinstance(results[1], Exception) and not isinstance(results[1], FrameResult)
    assert boxes(results[0]) == boxes(results[2]) and boxes(results[0])


def test_over_http_each_of_many_concurrent_requests_gets_its_own_image_s_detections(tmp_path):
    """Batches decoded in the decode stage while others infer, over real HTTP: every answer is its own image's."""
    from concurrent.futures import ThreadPoolExecutor

    import httpx

    from tests.test_service_batch_decode import batch_decoding_factory
    from tests.test_service_support import running_server

    bodies = [jpeg_of_square(16 + 112 * i, 32 * (i % 3)) for i in range(4)]
    calls: list[int] = []
    config = blob_config(tmp_path, max_batch=4, max_wait_ms=20, queue=32, decode_ahead=True)
    with running_server(config, worker_factory=batch_decoding_factory(calls)) as (base, _):
        def post(body: bytes) -> dict:
            answer = httpx.post(base + "/detect", content=body, headers={"Content-Type": "image/jpeg"}, timeout=30)
            assert answer.status_code == 200
            return answer.json()

        reference = [post(b)["detections"] for b in bodies]
        calls.clear()
        order = [i % 4 for i in range(24)]
        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(post, [bodies[i] for i in order]))
    assert len({str(r) for r in reference}) == 4 and all(reference)
    assert [a["detections"] for a in answers] == [reference[i] for i in order]
    assert sum(calls) == 24 and max(calls) >= 2  # decoded in batches, in the decode stage
    assert max(a["batch"] for a in answers) >= 2


def test_the_service_decodes_on_the_inference_thread_unless_asked_to_decode_ahead(tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    import httpx

    from tests.test_service_support import running_server

    def factory_recording(threads: list[str]):
        class Recording(CpuJpegDecoder):
            def decode(self, data, names=None):
                threads.append(threading.current_thread().name)
                return super().decode(data, names)

        def factory(config, journal):
            worker = open_worker(config, journal)
            worker.jpeg, worker.jpeg_note = Recording(1), "batch decode (test: CPU)"
            return worker
        return factory

    seen: dict[bool, list[str]] = {}
    for ahead in (False, True):
        threads: list[str] = []
        config = blob_config(tmp_path, max_batch=2, max_wait_ms=5, decode_ahead=ahead)
        with running_server(config, worker_factory=factory_recording(threads)) as (base, _):
            with ThreadPoolExecutor(4) as pool:
                codes = list(pool.map(lambda body: httpx.post(base + "/detect", content=body, timeout=30,
                                                              headers={"Content-Type": "image/jpeg"}).status_code,
                                      [jpeg_of_square(16, 0)] * 6))
        assert codes == [200] * 6
        seen[ahead] = threads
    assert seen[False] and all(name.startswith("inference-0") for name in seen[False])
    assert seen[True] and all(name.startswith("decode-0") for name in seen[True])
