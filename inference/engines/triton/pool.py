"""Which server gets the next request: the least-loaded healthy one; failed ones wait out a back-off.

Pure bookkeeping with an injectable clock, so the rules are tested without any server:
- a failure takes a server out for `backoff_s * 2**(failures-1)` (capped), then it is tried again;
- a busy answer (queue full) only cools the server for `busy_cooldown_s`, it is no failure;
- a failed server whose back-off ended is picked first, once (the caller probes it: half-open);
- otherwise the one with the fewest requests in flight, then the lowest recent latency, then the
  longest-idle wins.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace


@dataclass
class ServerState:
    url: str
    in_flight: int = 0
    failures: int = 0        # consecutive
    busy: int = 0            # busy answers since the last success
    out_until: float = 0.0   # monotonic time before which the server is not tried
    healthy: bool = True
    latency_ms: float = 0.0  # smoothed round trip
    last_used: float = 0.0
    last_error: str = ""
    requests: int = 0


@dataclass(frozen=True)
class PoolEvent:
    """Something the operator should know: a server went out, came back, or none is left."""

    kind: str  # "server_down" | "server_back" | "all_down" | "fallback_local"
    url: str
    detail: str
    at: float = field(default_factory=time.time)


class ServerPool:
    def __init__(self, urls: list[str], *, backoff_s: float = 0.5, max_backoff_s: float = 10.0,
                 busy_cooldown_s: float = 0.02, clock: Callable[[], float] = time.monotonic) -> None:
        self.servers = {url: ServerState(url) for url in urls}
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s
        self.busy_cooldown_s = busy_cooldown_s
        self._clock = clock
        self._lock = threading.RLock()  # `note` is called with and without it held
        self.events: list[PoolEvent] = []
        self.events_total = 0  # events ever noted: a reader's cursor survives the list's trimming

    def pick(self) -> str | None:
        """The server to try now (counted in flight), or None when every one is out (see `next_retry_in`)."""
        with self._lock:
            best = self._best()
            if best is None:
                return None
            best.in_flight += 1
            best.last_used = self._clock()
            return best.url

    def peek(self) -> str | None:
        """The server `pick` would choose now, without choosing it."""
        with self._lock:
            best = self._best()
            return best.url if best else None

    def _best(self) -> ServerState | None:
        now = self._clock()
        ready = [s for s in self.servers.values() if s.out_until <= now]
        # A failed server whose back-off ended goes first: one probe decides whether it is back.
        return min(ready, key=lambda s: (s.healthy, s.in_flight, s.latency_ms, s.last_used)) if ready else None

    def now(self) -> float:
        return self._clock()

    def next_retry_in(self) -> float:
        now = self._clock()
        return max(0.0, min(s.out_until for s in self.servers.values()) - now)

    def succeeded(self, url: str, latency_ms: float) -> PoolEvent | None:
        with self._lock:
            state = self.servers[url]
            state.in_flight = max(0, state.in_flight - 1)
            state.latency_ms = latency_ms if not state.requests else 0.8 * state.latency_ms + 0.2 * latency_ms
            state.requests += 1
            state.failures = state.busy = 0
            came_back = not state.healthy
            state.healthy = True
            return self.note(PoolEvent("server_back", url, "answering again")) if came_back else None

    def busy(self, url: str) -> None:
        with self._lock:
            state = self.servers[url]
            state.in_flight = max(0, state.in_flight - 1)
            state.busy += 1
            state.out_until = self._clock() + self.busy_cooldown_s * min(8, state.busy)

    def failed(self, url: str, reason: str) -> list[PoolEvent]:
        with self._lock:
            state = self.servers[url]
            state.in_flight = max(0, state.in_flight - 1)
            state.failures += 1
            state.last_error = reason
            state.out_until = self._clock() + min(self.max_backoff_s, self.backoff_s * 2 ** (state.failures - 1))
            if not state.healthy:  # a probe after its back-off failed: already reported
                return []
            state.healthy = False
            events = [self.note(PoolEvent("server_down", url, reason))]
            if not any(s.healthy for s in self.servers.values()):  # once per outage, not once per probe
                events.append(self.note(PoolEvent("all_down", url, "no Triton server answers")))
            return events

    def released(self, url: str) -> None:
        """The request ended without a verdict on the server (e.g. the caller gave up)."""
        with self._lock:
            self.servers[url].in_flight = max(0, self.servers[url].in_flight - 1)

    def is_healthy(self, url: str) -> bool:
        return self.servers[url].healthy

    def healthy_urls(self) -> list[str]:
        return [s.url for s in self.servers.values() if s.healthy]

    def note(self, event: PoolEvent) -> PoolEvent:
        with self._lock:
            self.events.append(event)
            self.events_total += 1
            del self.events[:-100]
        return event

    def events_after(self, seen: int) -> tuple[list[PoolEvent], int]:
        """The events noted after the first `seen` (the last 100 at most) and the new cursor."""
        with self._lock:
            first_kept = self.events_total - len(self.events)
            return self.events[max(0, seen - first_kept):], self.events_total

    def snapshot(self) -> list[ServerState]:
        """Copies of the servers' states taken under the lock, for a view on another thread."""
        with self._lock:
            return [replace(state) for state in self.servers.values()]
