"""Dynamic batching with a bounded queue, after Triton's dynamic batcher (semantics, not code).

One job: collect up to `max_batch` requests or until `max_wait_ms` has passed since the first, hand the
batch to a free runner on that runner's own thread, and answer each request's future. A request is admitted (`admit`) as soon as it
arrives, before its body is read or decoded, and counts as waiting until a batch takes it: so a full
service refuses at once (QueueFull, HTTP 503) instead of growing a hidden queue in front of the decoder,
and a request still waiting past its deadline (from admission) is answered DeadlineExceeded instead of
being served late.

With `decode_ahead`, a runner with two stages (`decode_batch`, then `infer_batch` on what it returned) gets a
second thread for the first: its consumer decodes batch N+1 there while batch N infers on the runner's own thread,
one batch in each stage at a time, inferred in the order taken. Otherwise a runner is called with the batch on its
thread.
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from inference.service.errors import DeadlineExceeded, InferenceFailed, QueueFull, ShuttingDown

# A runner takes the items of one batch and returns one result per item, in order; an Exception in the
# list fails only that item.
Runner = Callable[[list[Any]], list[Any]]


def two_staged(runner: Runner) -> bool:
    """Whether a runner splits a batch into a decode stage and an infer stage the batcher may overlap."""
    return callable(getattr(runner, "decode_batch", None)) and callable(getattr(runner, "infer_batch", None))


def queue_full(max_queue: int, waiting: int) -> QueueFull:
    return QueueFull("the inspection queue is full", expected=f"fewer than {max_queue} requests waiting",
                     found=f"{waiting} waiting", hint="retry after the Retry-After delay, or slow the sender down")


@dataclass(frozen=True)
class Served:
    """One request's answer with how it was served: time queued before its batch ran, and the batch size."""

    result: Any
    queue_ms: float
    batch_size: int


class Ticket:
    """One admitted request's place among the waiting; released when a batch takes it (or it gives up)."""

    __slots__ = ("_batcher", "admitted_ns", "_open")

    def __init__(self, batcher: Batcher) -> None:
        self._batcher = batcher
        self.admitted_ns = time.perf_counter_ns()
        self._open = True

    def release(self) -> None:
        if self._open:
            self._open = False
            self._batcher._waiting -= 1


@dataclass(eq=False)
class _Pending:
    item: Any
    future: asyncio.Future
    ticket: Ticket
    enqueued_ns: int
    deadline_ns: int
    queue_ms: float = field(default=0.0)


class Batcher:
    def __init__(self, runners: Sequence[Runner], *, max_batch: int = 8, max_wait_ms: float = 3.0,
                 max_queue: int = 16, deadline_ms: float = 10_000.0,
                 on_batch: Callable[[int], None] | None = None, decode_ahead: bool = False) -> None:
        if not runners:
            raise ValueError("a batcher needs at least one runner")
        self.runners = list(runners)
        self.max_batch = max(1, int(max_batch))
        self.max_wait_s = max(0.0, max_wait_ms) / 1000.0
        self.max_queue = max(1, int(max_queue))
        self.deadline_ns = int(deadline_ms * 1e6)
        self.on_batch = on_batch
        self.decode_ahead = decode_ahead
        self._queue: asyncio.Queue[_Pending] | None = None
        self._consumers: list[asyncio.Task] = []
        self._executors: list[ThreadPoolExecutor] = []
        self._decoders: list[ThreadPoolExecutor | None] = []  # each two-staged runner's decode thread
        self._inferring: set[asyncio.Task] = set()
        self._in_flight = 0
        self._waiting = 0
        self._closing = False

    # -- lifecycle -----------------------------------------------------------------------------------
    async def start(self) -> None:
        """One thread per runner (two for a two-staged one); a runner with `prepare_thread` has it run there first,
        and `prepare_decode_thread` on its decode thread, one runner after another, before any request is accepted
        (the worker captures its engines' CUDA graphs on the thread that replays them, and no decode may run
        beside a capture). A failing preparation stops the threads and is raised."""
        loop = asyncio.get_running_loop()
        try:
            for i, runner in enumerate(self.runners):
                executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"inference-{i}")
                self._executors.append(executor)
                decoder = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"decode-{i}") \
                    if self.decode_ahead and two_staged(runner) else None
                self._decoders.append(decoder)
                prepare = getattr(runner, "prepare_thread", None)
                if prepare is not None:
                    await loop.run_in_executor(executor, prepare)
                prepare = getattr(runner, "prepare_decode_thread", None)
                if prepare is not None and decoder is not None:
                    await loop.run_in_executor(decoder, prepare)
        except BaseException:
            self._stop_threads()
            raise
        self._queue = asyncio.Queue()  # bounded by admission, not here
        for i, (runner, executor, decoder) in enumerate(zip(self.runners, self._executors, self._decoders)):
            consume = self._consume(runner, executor) if decoder is None else \
                self._consume_overlapped(runner, executor, decoder)
            self._consumers.append(asyncio.create_task(consume, name=f"batcher-{i}"))

    async def drain(self) -> None:
        """Stop accepting, finish everything already queued, then stop the runner threads."""
        self._closing = True
        if self._queue is not None:
            await self._queue.join()
            while self._waiting:  # admitted before the drain and still decoding: they are served too
                await asyncio.sleep(0.005)
                await self._queue.join()
        for task in self._consumers:
            task.cancel()
        await asyncio.gather(*self._consumers, return_exceptions=True)
        self._consumers.clear()
        await asyncio.gather(*self._inferring, return_exceptions=True)  # answered already: their last steps
        self._stop_threads()

    def _stop_threads(self) -> None:
        for executor in [*self._executors, *(d for d in self._decoders if d is not None)]:
            executor.shutdown(wait=True)
        self._executors.clear()
        self._decoders.clear()

    # -- state -----------------------------------------------------------------------------------------
    @property
    def depth(self) -> int:
        """Requests admitted and not yet taken by a batch (decoding or queued; not those being inferred)."""
        return self._waiting

    @property
    def in_flight(self) -> int:
        return self._in_flight

    @property
    def accepting(self) -> bool:
        return self._queue is not None and not self._closing

    # -- submitting ------------------------------------------------------------------------------------
    def admit(self) -> Ticket:
        """A place among the waiting, or QueueFull / ShuttingDown at once."""
        if not self.accepting:
            raise ShuttingDown("the service is shutting down", expected="a running service",
                               found="shutdown in progress", hint="retry against another instance")
        if self._waiting >= self.max_queue:
            raise queue_full(self.max_queue, self._waiting)
        self._waiting += 1
        return Ticket(self)

    async def submit(self, item: Any, ticket: Ticket | None = None) -> Served:
        ticket = ticket or self.admit()
        try:
            now = time.perf_counter_ns()
            pending = _Pending(item, asyncio.get_running_loop().create_future(), ticket, now,
                               ticket.admitted_ns + self.deadline_ns)
            self._queue.put_nowait(pending)
            result, batch_size = await pending.future
            return Served(result, pending.queue_ms, batch_size)
        finally:
            ticket.release()

    # -- consuming -------------------------------------------------------------------------------------
    async def _collect(self) -> list[_Pending]:
        queue = self._queue
        batch = [await queue.get()]
        loop = asyncio.get_running_loop()
        until = loop.time() + self.max_wait_s
        while len(batch) < self.max_batch:
            try:
                batch.append(queue.get_nowait())
                continue
            except asyncio.QueueEmpty:
                pass
            remaining = until - loop.time()
            if remaining <= 0:
                break
            try:
                batch.append(await asyncio.wait_for(queue.get(), remaining))
            except TimeoutError:
                break
        return batch

    def _live(self, batch: list[_Pending]) -> list[_Pending]:
        """Drop requests whose client left, answer those past their deadline; the rest run."""
        now = time.perf_counter_ns()
        live = []
        for pending in batch:
            pending.ticket.release()
            pending.queue_ms = (now - pending.enqueued_ns) / 1e6
            if pending.future.done():
                self._queue.task_done()
            elif now > pending.deadline_ns:
                pending.future.set_exception(DeadlineExceeded(
                    "the request waited past its deadline", expected=f"served within {self.deadline_ns / 1e6:.0f} ms",
                    found=f"{(now - pending.ticket.admitted_ns) / 1e6:.0f} ms waiting",
                    hint="the service is overloaded: retry later"))
                self._queue.task_done()
            else:
                live.append(pending)
        return live

    def _take(self, batch: list[_Pending]) -> list[Any]:
        self._in_flight += len(batch)
        if self.on_batch is not None:
            self.on_batch(len(batch))
        return [p.item for p in batch]

    def _answer(self, batch: list[_Pending], outcome: list[Any] | Exception) -> None:
        """Each request its own result (an Exception in the list fails only its request; an Exception for the
        whole batch fails every one), then the batch leaves the count in flight and the queue."""
        try:
            if not isinstance(outcome, Exception) and len(outcome) != len(batch):
                outcome = InferenceFailed("the runner lost requests", expected=f"{len(batch)} results",
                                          found=f"{len(outcome)}")
            results = [outcome] * len(batch) if isinstance(outcome, Exception) else outcome
            for pending, result in zip(batch, results):
                if pending.future.done():
                    continue
                if isinstance(result, BaseException):
                    pending.future.set_exception(result)
                else:
                    pending.future.set_result((result, len(batch)))
        finally:
            self._in_flight -= len(batch)
            for _ in batch:
                self._queue.task_done()

    async def _consume(self, runner: Runner, executor: ThreadPoolExecutor) -> None:
        loop = asyncio.get_running_loop()
        while True:
            batch = self._live(await self._collect())
            if not batch:
                continue
            try:
                outcome = await loop.run_in_executor(executor, runner, self._take(batch))
            except Exception as exc:  # one failure answers the whole batch, never hangs it
                outcome = exc
            self._answer(batch, outcome)

    async def _consume_overlapped(self, runner: Any, executor: ThreadPoolExecutor,
                                  decoder: ThreadPoolExecutor) -> None:
        """Take batch N+1 and decode it while batch N infers; hand it to the infer stage when N is done."""
        loop = asyncio.get_running_loop()
        inferring: asyncio.Task | None = None
        while True:
            batch = self._live(await self._collect())
            if not batch:
                continue
            try:
                decoded = await loop.run_in_executor(decoder, runner.decode_batch, self._take(batch))
                if inferring is not None:
                    await asyncio.wait([inferring])  # not cancelled with this consumer: it answers its own batch
            except asyncio.CancelledError:  # a drain waits for every batch taken, so only a caller's cancel
                self._answer(batch, ShuttingDown("the service stopped before this request ran",
                                                 expected="a running service", found="stopped while decoding",
                                                 hint="retry against another instance"))
                raise
            except Exception as exc:
                self._answer(batch, exc)
                continue
            inferring = asyncio.create_task(self._infer(runner, executor, batch, decoded))
            self._inferring.add(inferring)
            inferring.add_done_callback(self._inferring.discard)

    async def _infer(self, runner: Any, executor: ThreadPoolExecutor, batch: list[_Pending], decoded: Any) -> None:
        try:
            outcome = await asyncio.get_running_loop().run_in_executor(executor, runner.infer_batch, decoded)
        except Exception as exc:
            outcome = exc
        self._answer(batch, outcome)
