"""A circuit breaker and a one-thread outbox, so a dead peer costs a skipped call, never a blocked thread."""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Any, Callable

log = logging.getLogger(__name__)


class CircuitBreaker:
    """Closed (calls go through) → open after `failures` in a row (calls skipped for `cooldown_s`) →
    half-open (one trial call: success closes, failure opens again)."""

    def __init__(self, failures: int = 3, cooldown_s: float = 2.0, clock: Callable[[], float] = time.monotonic):
        self.failures = failures
        self.cooldown_s = cooldown_s
        self._clock = clock
        self._count = 0
        self._opened_at: float | None = None
        self.skipped = 0

    @property
    def state(self) -> str:
        if self._opened_at is None:
            return "closed"
        return "half-open" if self._clock() - self._opened_at >= self.cooldown_s else "open"

    def allow(self) -> bool:
        if self.state == "open":
            self.skipped += 1
            return False
        return True

    def success(self) -> None:
        self._count = 0
        self._opened_at = None

    def failure(self) -> None:
        self._count += 1
        if self._count >= self.failures or self._opened_at is not None:
            self._opened_at = self._clock()


class Outbox:
    """Delivers items to `sink` on its own thread, in order, through a circuit breaker. `put` never blocks:
    when the queue is full the item is dropped and counted (the handshake still holds every unacknowledged
    result, so a dropped notification is a late display, not a lost result)."""

    def __init__(self, name: str, sink: Callable[[Any], None], *, maxsize: int = 1024,
                 breaker: CircuitBreaker | None = None) -> None:
        self.name = name
        self._sink = sink
        self.breaker = breaker or CircuitBreaker()
        self._queue: queue.Queue = queue.Queue(maxsize=maxsize)
        self.dropped = 0
        self.failed = 0
        self.last_error = ""
        self._thread = threading.Thread(target=self._run, name=f"line-outbox-{name}", daemon=True)
        self._thread.start()

    @property
    def pending(self) -> int:
        """Items queued behind the one being delivered: a sink may skip work a later item redoes."""
        return self._queue.qsize()

    def put(self, item: Any) -> None:
        try:
            self._queue.put_nowait(item)
        except queue.Full:
            self.dropped += 1

    def close(self, timeout: float = 2.0) -> None:
        try:
            self._queue.put(None, timeout=timeout)
        except queue.Full:
            pass
        self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            if not self.breaker.allow():
                self.dropped += 1
                continue
            try:
                self._sink(item)
            except Exception as exc:  # a sink's failure is its transport's problem, reported, never raised here
                self.failed += 1
                self.last_error = f"{type(exc).__name__}: {exc}"
                log.warning("line outbox %s: %s", self.name, self.last_error)
                self.breaker.failure()
            else:
                self.breaker.success()
