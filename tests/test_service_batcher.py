"""The batcher alone, without HTTP: batch formation, the bounded queue, deadlines, failures, drain."""

from __future__ import annotations

import asyncio
import threading

import pytest

from inference.service.batcher import Batcher
from inference.service.errors import DeadlineExceeded, InferenceFailed, QueueFull, ShuttingDown


class Recorder:
    """A runner that doubles each item and records batch sizes; optionally waits on a gate first."""

    def __init__(self, gated: bool = False) -> None:
        self.batches: list[list[int]] = []
        self.gate = threading.Event()
        self.entered = threading.Event()
        if not gated:
            self.gate.set()

    def __call__(self, items):
        self.entered.set()
        assert self.gate.wait(timeout=30)
        self.batches.append(list(items))
        return [ValueError(f"bad {x}") if x < 0 else x * 2 for x in items]


async def until(predicate, timeout=10.0):
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        assert loop.time() < end, "condition never became true"
        await asyncio.sleep(0.005)


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 60))


@pytest.mark.parametrize("max_batch, count, expected", [
    (4, 5, [[0, 1, 2, 3], [4]]),
    (8, 3, [[0, 1, 2]]),
    (1, 3, [[0], [1], [2]]),
])
def test_requests_submitted_together_form_batches_of_at_most_max_batch(max_batch, count, expected):
    async def scenario():
        runner = Recorder()
        batcher = Batcher([runner], max_batch=max_batch, max_wait_ms=50, max_queue=16)
        await batcher.start()
        served = await asyncio.gather(*(batcher.submit(i) for i in range(count)))
        await batcher.drain()
        return runner.batches, served

    batches, served = run(scenario())
    assert batches == expected
    assert [s.result for s in served] == [2 * i for i in range(count)]
    sizes = {i: len(b) for b in expected for i in b}
    assert [s.batch_size for s in served] == [sizes[i] for i in range(count)]


def test_a_lone_request_is_served_alone_after_the_wait():
    async def scenario():
        runner = Recorder()
        batcher = Batcher([runner], max_batch=8, max_wait_ms=5, max_queue=4)
        await batcher.start()
        served = await batcher.submit(21)
        await batcher.drain()
        return served

    served = run(scenario())
    assert served.result == 42 and served.batch_size == 1 and served.queue_ms >= 0


def test_a_full_queue_refuses_at_once_with_retry_after():
    async def scenario():
        runner = Recorder(gated=True)
        batcher = Batcher([runner], max_batch=1, max_wait_ms=0, max_queue=1)
        await batcher.start()
        first = asyncio.create_task(batcher.submit(1))
        await until(lambda: batcher.in_flight == 1)  # the runner holds the first
        second = asyncio.create_task(batcher.submit(2))
        await until(lambda: batcher.depth == 1)  # the second waits in the queue
        with pytest.raises(QueueFull) as refused:
            await batcher.submit(3)
        assert not first.done() and not second.done()  # refused while both others were still pending
        runner.gate.set()
        results = [(await first).result, (await second).result]
        await batcher.drain()
        return refused.value, results

    refused, results = run(scenario())
    assert results == [2, 4]
    assert refused.status == 503 and refused.headers()["Retry-After"] == "1"
    assert "1 waiting" in refused.found


def test_a_request_queued_past_its_deadline_is_answered_503_not_served():
    async def scenario():
        runner = Recorder(gated=True)
        batcher = Batcher([runner], max_batch=1, max_wait_ms=0, max_queue=4, deadline_ms=50)
        await batcher.start()
        first = asyncio.create_task(batcher.submit(1))
        await until(lambda: batcher.in_flight == 1)
        late = asyncio.create_task(batcher.submit(2))
        await until(lambda: batcher.depth == 1)
        await asyncio.sleep(0.2)  # the queued one's deadline passes while the runner is held
        runner.gate.set()
        served = await first
        with pytest.raises(DeadlineExceeded) as info:
            await late
        await batcher.drain()
        return served, info.value, runner.batches

    served, error, batches = run(scenario())
    assert served.result == 2
    assert batches == [[1]]  # the late request never reached the runner
    assert error.status == 503 and "waiting" in error.found


def test_one_bad_item_fails_alone_and_a_crashing_runner_fails_only_its_batch():
    calls = []

    def flaky(items):
        calls.append(list(items))
        if len(calls) == 1:
            raise RuntimeError("engine exploded")
        return [ValueError("bad") if x < 0 else x for x in items]

    async def scenario():
        batcher = Batcher([flaky], max_batch=4, max_wait_ms=20, max_queue=8)
        await batcher.start()
        crashed = await asyncio.gather(batcher.submit(1), return_exceptions=True)
        mixed = await asyncio.gather(batcher.submit(5), batcher.submit(-1), return_exceptions=True)
        await batcher.drain()
        return crashed, mixed

    crashed, mixed = run(scenario())
    assert isinstance(crashed[0], RuntimeError)
    assert mixed[0].result == 5 and isinstance(mixed[1], ValueError)


def test_a_runner_returning_too_few_results_fails_the_batch_instead_of_hanging():
    async def scenario():
        batcher = Batcher([lambda items: items[:1]], max_batch=4, max_wait_ms=20, max_queue=8)
        await batcher.start()
        out = await asyncio.gather(batcher.submit(1), batcher.submit(2), return_exceptions=True)
        await batcher.drain()
        return out

    out = run(scenario())
    assert all(isinstance(o, InferenceFailed) for o in out)


def test_drain_finishes_what_is_queued_then_refuses_new_requests():
    async def scenario():
        runner = Recorder(gated=True)
        batcher = Batcher([runner], max_batch=2, max_wait_ms=0, max_queue=8)
        await batcher.start()
        pending = [asyncio.create_task(batcher.submit(i)) for i in range(5)]
        await until(lambda: batcher.in_flight >= 1)
        drain = asyncio.create_task(batcher.drain())
        await asyncio.sleep(0)
        with pytest.raises(ShuttingDown):
            await batcher.submit(99)
        runner.gate.set()
        await drain
        return [(await p).result for p in pending]

    assert run(scenario()) == [0, 2, 4, 6, 8]


def test_admission_counts_requests_still_being_decoded_so_a_full_service_refuses_before_reading():
    async def scenario():
        batcher = Batcher([Recorder()], max_batch=4, max_wait_ms=0, max_queue=2)
        await batcher.start()
        first, second = batcher.admit(), batcher.admit()  # both "decoding": not in the queue yet
        with pytest.raises(QueueFull):
            batcher.admit()
        assert batcher.depth == 2
        second.release()  # its client went away before submitting
        third = batcher.admit()
        served = await asyncio.gather(batcher.submit(1, first), batcher.submit(3, third))
        after = batcher.depth
        await batcher.drain()
        return [s.result for s in served], after

    results, after = run(scenario())
    assert results == [2, 6] and after == 0


def test_two_runners_share_one_queue():
    a, b = Recorder(gated=True), Recorder(gated=True)

    async def scenario():
        batcher = Batcher([a, b], max_batch=1, max_wait_ms=0, max_queue=8)
        await batcher.start()
        first = asyncio.create_task(batcher.submit(1))
        second = asyncio.create_task(batcher.submit(2))
        await until(lambda: batcher.in_flight == 2)  # both held at once: one per runner
        a.gate.set()
        b.gate.set()
        out = [(await first).result, (await second).result]
        await batcher.drain()
        return out

    assert run(scenario()) == [2, 4]
    assert len(a.batches) == 1 and len(b.batches) == 1


class Prepared(Recorder):
    """A runner with `prepare_thread`: records the thread it was prepared on and the threads its batches ran on."""

    active = 0  # preparations running at once, over all instances
    most_at_once = 0

    def __init__(self, fail: bool = False) -> None:
        super().__init__()
        self.fail = fail
        self.prepared_on: int | None = None
        self.ran_on: set[int] = set()
        self.closed = False

    def prepare_thread(self) -> None:
        Prepared.active += 1
        Prepared.most_at_once = max(Prepared.most_at_once, Prepared.active)
        try:
            threading.Event().wait(0.05)  # long enough for another runner's preparation to overlap, were it started
            assert not self.batches, "prepared after a batch ran"
            self.prepared_on = threading.get_ident()
            if self.fail:
                raise RuntimeError("engine capture failed")
        finally:
            Prepared.active -= 1

    def __call__(self, items):
        self.ran_on.add(threading.get_ident())
        return super().__call__(items)


def test_each_runner_is_prepared_on_its_own_thread_before_any_batch_one_runner_at_a_time():
    a, b = Prepared(), Prepared()
    Prepared.most_at_once = 0

    async def scenario():
        batcher = Batcher([a, b], max_batch=1, max_wait_ms=0, max_queue=8)
        await batcher.start()
        results = await asyncio.gather(*(batcher.submit(i) for i in range(6)))
        await batcher.drain()
        return [r.result for r in results]

    assert run(scenario()) == [0, 2, 4, 6, 8, 10]
    assert Prepared.most_at_once == 1
    assert a.prepared_on is not None and b.prepared_on is not None and a.prepared_on != b.prepared_on
    for runner in (a, b):  # every batch a runner got ran on the thread it was prepared on
        assert runner.ran_on <= {runner.prepared_on}
    assert a.ran_on | b.ran_on


def test_a_runner_that_cannot_be_prepared_fails_start_and_accepts_nothing():
    good, bad = Prepared(), Prepared(fail=True)

    async def scenario():
        batcher = Batcher([good, bad], max_batch=1, max_wait_ms=0, max_queue=8)
        with pytest.raises(RuntimeError, match="engine capture failed"):
            await batcher.start()
        assert not batcher.accepting
        with pytest.raises(ShuttingDown):
            batcher.admit()

    run(scenario())
    assert good.batches == [] and bad.batches == []
