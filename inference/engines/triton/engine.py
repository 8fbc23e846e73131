"""The `triton` backend: the station's engine protocol served by one or more Triton servers.

Preprocessing and decoding stay in the station; only the tensor goes to the server (binary). Per
frame the stage timings are disjoint parts of the engine call, as h2d/infer/d2h are on a GPU:
`server_queue` and `infer` (the server's queue and compute times from Triton's statistics,
averaged over the last interval), `network` (the rest of the round trip) and `retry_wait`
(back-off and back-pressure waits). `last_server` says who answered ("local" for the fallback).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from inference.engines.base import Engine
from inference.engines.triton.client import RemoteServer, ServerAddress, ServerBusy, ServerDown, parse_urls
from inference.engines.triton.contract import check_contract, local_contract, repository_name
from inference.engines.triton.pool import PoolEvent, ServerPool
from inference.engines.triton.stats import ServerTimes, Snapshot
from inference.engines.triton.status import LOCAL, FleetStatus, ServerView
from inference.errors import BackendUnavailableError, HangtagError

URL_ENV = "HANGTAG_TRITON_URL"
MODEL_ENV = "HANGTAG_TRITON_MODEL"
FALLBACK_ENV = "HANGTAG_TRITON_FALLBACK"  # "local" falls back to the local engine
DEADLINE_ENV = "HANGTAG_TRITON_DEADLINE_MS"  # how long one engine call may wait for the fleet (default 5000)
DEFAULT_MODEL = "hangtag_det"
_log = logging.getLogger(__name__)


def _deadline_from_environment() -> float:
    text = os.environ.get(DEADLINE_ENV, "").strip() or "5000"
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 50 <= value <= 600_000:
        raise BackendUnavailableError(f"{DEADLINE_ENV} is not a usable deadline", expected="milliseconds, 50 … 600000",
                                      found=repr(text), hint="e.g. 5000: a frame waits at most 5 s for the servers")
    return value


class TritonUnavailableError(BackendUnavailableError):
    """No Triton server answered within the frame's deadline, and no local fallback was configured."""


class TritonEngine(Engine):
    backend_name = "triton"

    def __init__(self, model_path: Path, *, urls: str | None = None, model_name: str | None = None,
                 deadline_ms: float | None = None, fallback: bool | None = None, threads: int | None = None,
                 backoff_s: float = 0.5, stats_every_s: float = 1.0,
                 on_event: Callable[[PoolEvent], None] | None = None, device_id: int = 0) -> None:
        super().__init__(model_path)
        self.urls_text = urls or os.environ.get(URL_ENV, "")
        self.model_name = model_name or repository_name(self.model_path, os.environ.get(MODEL_ENV) or DEFAULT_MODEL)
        self.deadline_s = (deadline_ms if deadline_ms is not None else _deadline_from_environment()) / 1000.0
        self.fallback = fallback if fallback is not None else os.environ.get(FALLBACK_ENV, "") == "local"
        self.threads = threads
        self.backoff_s = backoff_s
        self.stats_every_s = stats_every_s
        self.on_event = on_event
        self.max_batch = 0
        self.last_server = ""
        self.busy_answers = 0
        self.retries = 0
        self.server_times: dict[str, ServerTimes] = {}
        self._servers: dict[str, RemoteServer] = {}
        self._snapshots: dict[str, tuple[float, Snapshot]] = {}
        self._pool: ServerPool | None = None
        self._local: Engine | None = None
        self._contract = None

    # -- opening ---------------------------------------------------------------------------
    def _load_impl(self):
        if not self.urls_text.strip():
            raise BackendUnavailableError("the triton backend needs a server URL", expected="--triton-url http://host:8000",
                                          found="no URL given", hint=f"pass --triton-url or set {URL_ENV}")
        addresses = parse_urls(self.urls_text)
        contract = self._contract = local_contract(self.model_path)
        self.metadata = dict(contract.metadata)
        self._pool = ServerPool([a.url for a in addresses], backoff_s=self.backoff_s)
        reasons = []
        for address in addresses:
            try:
                self._open_server(address, contract)
            except (ServerDown, ServerBusy) as exc:
                reasons.append(f"{address.url}: {exc.found or exc.message}")
                self._emit(self._pool.failed(address.url, exc.message))
        if not self._servers:
            if not self.fallback:
                raise TritonUnavailableError("no Triton server is ready", expected=f"model '{self.model_name}' ready on "
                                             f"one of {[a.url for a in addresses]}", found="; ".join(reasons),
                                             hint="start the server, check --triton-url, or allow the local fallback "
                                                  f"({FALLBACK_ENV}=local)")
            self._local_engine()
        self.device_name = "Triton " + ", ".join(a.url for a in addresses)
        return contract.inputs, contract.outputs

    def _open_server(self, address: ServerAddress, contract) -> None:
        # With several servers one attempt may take half the frame's deadline, leaving the rest for
        # another server when this one hangs (accepts the connection, never answers).
        several = len(self._pool.servers) > 1
        server = RemoteServer(address, timeout_s=self.deadline_s / 2 if several else self.deadline_s)
        try:
            if not server.is_ready(self.model_name):
                raise ServerDown(f"Triton server {address.url} is not ready", expected=f"model '{self.model_name}' ready",
                                 found="server or model not ready", hint="wait for the server to load the model")
            max_batch = check_contract(contract, server.metadata(self.model_name), server.config(self.model_name),
                                       address.url, self.model_name)
        except Exception:
            server.close()
            raise
        self.max_batch = max_batch if not self._servers else min(self.max_batch, max_batch)
        self._servers[address.url] = server
        self._refresh_server_times(address.url)  # the first interval starts now

    def _reopen(self, url: str) -> bool:
        """A server that was down when the engine opened is connected (and checked) when its back-off ends."""
        try:
            self._open_server(ServerAddress.parse(url), self._contract)
        except (ServerDown, ServerBusy) as exc:
            self._emit(self._pool.failed(url, exc.found or exc.message))
            return False
        except HangtagError:
            self._pool.released(url)
            raise
        return True

    def _local_engine(self) -> Engine:
        if self._local is None:
            from inference.engines.onnxrt import OnnxRuntimeEngine

            self._local = OnnxRuntimeEngine(self.model_path, threads=self.threads).load()
            self._emit([self._pool.note(PoolEvent("fallback_local", "local", "inspecting with the local engine"))])
        return self._local

    # -- running ---------------------------------------------------------------------------
    def _infer_impl(self, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        batch = next(iter(feeds.values())).shape[0]
        step = self.max_batch if self.max_batch > 0 else batch
        if batch <= step:
            return self._infer_chunk(feeds)
        parts, stages = [], {}
        for i in range(0, batch, step):  # the server takes at most max_batch per request
            parts.append(self._infer_chunk({k: v[i:i + step] for k, v in feeds.items()}))
            for stage, ns in self.last_stage_ns.items():
                stages[stage] = stages.get(stage, 0) + ns
        self.last_stage_ns = stages
        return {name: np.concatenate([p[name] for p in parts]) for name in parts[0]}

    def _infer_chunk(self, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        start = time.monotonic()
        deadline = start + self.deadline_s
        names = [spec.name for spec in self._outputs]
        waited_ns = 0
        last_problem = "no server tried"
        while True:
            url = self._pool.pick()
            if url is not None and url not in self._servers and not self._reopen(url):
                continue
            if url is None:
                if self.fallback and not self._pool.healthy_urls():
                    return self._infer_local(feeds, waited_ns)
                pause = min(self._pool.next_retry_in() or 0.005, deadline - time.monotonic())
                if pause <= 0:
                    return self._give_up(feeds, waited_ns, last_problem)
                time.sleep(pause)
                waited_ns += int(pause * 1e9)
                continue
            t0 = time.perf_counter_ns()
            try:
                if not self._pool.is_healthy(url) and not self._servers[url].is_ready(self.model_name):
                    raise ServerDown(f"Triton server {url} is not ready", found="probe after back-off: not ready")
                outputs = self._servers[url].infer(self.model_name, feeds, names, deadline)
            except ServerBusy as exc:
                self._pool.busy(url)
                self.busy_answers += 1
                last_problem = exc.message
            except ServerDown as exc:
                self._emit(self._pool.failed(url, exc.found or exc.message))
                self._servers[url].reconnect()
                last_problem = exc.message
            except HangtagError:
                self._pool.released(url)
                raise
            else:
                round_trip = time.perf_counter_ns() - t0
                self._emit([e for e in [self._pool.succeeded(url, round_trip / 1e6)] if e])
                self.last_server = url
                self._record_stages(url, round_trip, waited_ns)
                return outputs
            self.retries += 1
            waited_ns += time.perf_counter_ns() - t0
            if time.monotonic() >= deadline:
                return self._give_up(feeds, waited_ns, last_problem)

    def _give_up(self, feeds, waited_ns: int, problem: str) -> dict[str, np.ndarray]:
        if self.fallback:
            return self._infer_local(feeds, waited_ns)
        raise TritonUnavailableError("no Triton server answered within the frame's deadline",
                                     expected=f"an answer within {self.deadline_s * 1000:.0f} ms from "
                                              f"{', '.join(self._pool.servers)}", found=problem,
                                     hint=f"check the servers; {FALLBACK_ENV}=local inspects locally meanwhile")

    def _infer_local(self, feeds, waited_ns: int) -> dict[str, np.ndarray]:
        local = self._local_engine()
        t0 = time.perf_counter_ns()
        outputs = local.infer(feeds)
        self.last_server = LOCAL
        self.last_stage_ns = {"retry_wait": waited_ns, "infer": time.perf_counter_ns() - t0}
        return outputs

    def _record_stages(self, url: str, round_trip_ns: int, waited_ns: int) -> None:
        times = self._refresh_server_times(url)
        stages = {}
        if waited_ns:
            stages["retry_wait"] = waited_ns
        if times is not None:
            queue = min(times.queue_ns, round_trip_ns)
            compute = min(times.compute_ns, round_trip_ns - queue)
            stages.update(server_queue=queue, infer=compute, network=round_trip_ns - queue - compute)
        else:
            stages.update(infer=0, network=round_trip_ns)
        self.last_stage_ns = stages

    def _refresh_server_times(self, url: str) -> ServerTimes | None:
        now = time.monotonic()
        taken, previous = self._snapshots.get(url, (0.0, None))
        if url in self.server_times and now - taken < self.stats_every_s:
            return self.server_times.get(url)
        try:
            snapshot = Snapshot.of(self._servers[url].statistics(self.model_name))
        except HangtagError:
            return self.server_times.get(url)
        self._snapshots[url] = (now, snapshot)
        if previous is not None:
            times = snapshot.since(previous)
            if times is not None:
                self.server_times[url] = times
        return self.server_times.get(url)

    def server_statistics(self, url: str | None = None) -> dict:
        """Triton's own statistics for the model on one server (the last that answered by default);
        empty where that server is not connected (or the local fallback answered)."""
        server = self._servers.get(url or self.last_server)
        return server.statistics(self.model_name) if server is not None else {}

    @property
    def served(self) -> bool:
        """Whether a Triton server serves this model (False: only the local fallback answers)."""
        return bool(self._servers)

    @property
    def pool(self) -> ServerPool | None:
        """The servers' states (in flight, healthy, latency, requests, last error): for a status view."""
        return self._pool

    @property
    def events(self) -> list[PoolEvent]:
        return list(self._pool.events) if self._pool else []

    def events_after(self, seen: int) -> tuple[list[PoolEvent], int]:
        """Pool events after a reader's cursor (see ServerPool.events_after); safe from any thread."""
        return self._pool.events_after(seen) if self._pool else ([], seen)

    def status(self) -> FleetStatus:
        """The servers as they stand now, with their per-request queue and compute times; safe from any thread."""
        views = []
        if self._pool is not None:
            now = self._pool.now()
            times = dict(self.server_times)
            for state in self._pool.snapshot():
                t = times.get(state.url)
                views.append(ServerView(state.url, state.healthy, max(0.0, state.out_until - now), state.in_flight,
                                        state.requests, state.latency_ms, state.last_error,
                                        t.queue_ns / 1e6 if t else None, t.compute_ns / 1e6 if t else None))
        return FleetStatus(self.model_name, tuple(views), self.last_server, self.fallback, self.busy_answers,
                           self.retries)

    def _emit(self, events: list[PoolEvent]) -> None:
        """Log the pool's events and pass them on (for the station's journal, and a banner on `all_down`)."""
        for event in events:
            level = logging.INFO if event.kind == "server_back" else logging.WARNING
            _log.log(level, "triton %s: %s (%s)", event.kind, event.url, event.detail)
        if self.on_event is not None:
            for event in events:
                self.on_event(event)

    def _close_impl(self) -> None:
        for server in self._servers.values():
            server.close()
        self._servers.clear()
        if self._local is not None:
            self._local.close()
            self._local = None
