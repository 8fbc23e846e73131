"""The station side of the handshake: owns the state machine, runs inspections off the transports' threads
and tells every transport what changed.

Transports call `submit(event)` (or `pulse`) from their own threads; it only takes a lock and steps the
pure machine. Inspections and job loads run on one worker thread; each transport is told of changes
through its own `Outbox`, so a transport whose peer is dead never delays inspection or another transport.
"""

from __future__ import annotations

import collections
import logging
import queue
import threading
import time
from dataclasses import dataclass
from typing import Callable

from inference.errors import HangtagError
from inference.line import handshake as hs_mod
from inference.line.breaker import Outbox
from inference.line.handshake import (Action, Code, Config, Event, Handshake, InspectionDone, InspectionFailed,
                                      JobFailed, JobLoaded, LoadJob, Publish, Signals, StartInspection, Tick,
                                      Verdict)
from inference.telemetry import RollingStats, StageTimings

log = logging.getLogger(__name__)


class LineError(HangtagError):
    """Line integration could not start or was given something it cannot use."""


class JobNotFound(LineError):
    """A job index names no recipe."""


@dataclass(frozen=True)
class Outcome:
    """What an inspection hands back to the line: the verdict and a few fields worth sending (all text)."""

    verdict: Verdict
    fields: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Change:
    """One notification to a transport: the signals after an event, and what the event made happen."""

    signals: Signals
    actions: tuple[Action, ...]
    event: str
    at: float


@dataclass(frozen=True)
class LogEntry:
    at: float
    event: str
    state: str
    code: int
    trigger_id: int
    detail: str = ""
    wall: float = 0.0  # time.time(), for journals read by people


InspectFn = Callable[[StartInspection], Outcome]
LoadJobFn = Callable[[int], str]


class LineStation:
    def __init__(self, inspect: InspectFn, *, load_job: LoadJobFn | None = None, config: Config | None = None,
                 inspect_budget_s: float = 10.0, tick_s: float = 0.01,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._inspect = inspect
        self._load_job = load_job
        self._clock = clock
        self.inspect_budget_s = inspect_budget_s
        self.tick_s = tick_s
        self._lock = threading.Lock()
        self._hs = Handshake(config=config or Config())
        self._signals = hs_mod.signals(self._hs, clock())
        self._outboxes: list[Outbox] = []
        self._work: queue.Queue = queue.Queue()
        self._busy_since: float | None = None
        self._triggered_ns = 0
        self._inspect_ns = 0
        # trigger accepted -> result queued, split into the inspection call and the station's own share
        self.stats = RollingStats(window=10_000)
        self._stop = threading.Event()
        self.log: collections.deque[LogEntry] = collections.deque(maxlen=2000)
        self.events_total = 0  # entries ever logged: a reader knows how many of `log` are new to it
        self.links: dict[str, str] = {}  # transport name -> connection state, for the screen and the journal
        self._on_event: list[Callable[[LogEntry], None]] = []
        self._threads = [threading.Thread(target=self._work_loop, name="line-worker", daemon=True),
                         threading.Thread(target=self._tick_loop, name="line-ticker", daemon=True)]
        self._started = False

    # -- lifecycle -------------------------------------------------------------------------------------
    def start(self, job: tuple[int, str] | None = None) -> LineStation:
        """`job`: (index, name) of the job already loaded, which makes the station Ready at once."""
        if job is not None:
            self.submit(JobLoaded(*job))
        if not self._started:
            self._started = True
            for thread in self._threads:
                thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        self._work.put(None)
        for thread in self._threads:
            if thread.is_alive():
                thread.join(timeout=2.0)
        for outbox in self._outboxes:
            outbox.close()

    def __enter__(self) -> LineStation:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what transports use ---------------------------------------------------------------------------
    def subscribe(self, name: str, sink: Callable[[Change], None]) -> Outbox:
        outbox = Outbox(name, sink)
        self._outboxes.append(outbox)
        return outbox

    def on_event(self, callback: Callable[[LogEntry], None]) -> None:
        """Called for every handshake event on the submitting thread under the station's lock, so it must
        not block: a journal hands entries to an Outbox (`on_event(outbox.put)`) and writes there."""
        self._on_event.append(callback)

    def set_link(self, name: str, state: str) -> None:
        with self._lock:
            if self.links.get(name) != state:
                self.links[name] = state
                self._record(f"link {name}", self._signals, f"{name}: {state}")

    def signals(self) -> Signals:
        return self._signals

    @property
    def handshake(self) -> Handshake:
        return self._hs

    def submit(self, event: Event) -> Signals:
        with self._lock:
            now = self._clock()
            self._hs, actions = hs_mod.step(self._hs, event, now)
            return self._after(event, actions, now)

    def pulse(self, make: Callable[[bool], Event]) -> Signals:
        """Rising then falling edge under one lock: a command transport's trigger, ack or reset."""
        with self._lock:
            now = self._clock()
            self._hs, actions = hs_mod.pulse(self._hs, make, now)
            return self._after(make(True), actions, now)

    # -- inside ----------------------------------------------------------------------------------------
    def _after(self, event: Event, actions: tuple[Action, ...], now: float) -> Signals:
        before = self._signals
        after = hs_mod.signals(self._hs, now)
        self._signals = after
        for action in actions:
            if isinstance(action, StartInspection):
                self._busy_since = now
                self._triggered_ns = time.perf_counter_ns()
                self._work.put(action)
            elif isinstance(action, LoadJob):
                self._work.put(action)
            elif isinstance(action, Publish) and self._triggered_ns and isinstance(event, InspectionDone):
                total = (time.perf_counter_ns() - self._triggered_ns) / 1e6
                inspect = self._inspect_ns / 1e6
                self.stats.add(StageTimings({"inspect": inspect, "handshake": max(0.0, total - inspect)}, total))
        if after != before or actions:
            change = Change(after, actions, type(event).__name__, now)
            for outbox in self._outboxes:
                outbox.put(change)
        if not isinstance(event, Tick) or actions:
            detail = "; ".join(_describe(a) for a in actions)
            self._record(type(event).__name__, after, detail)
        return after

    def _record(self, event: str, sig: Signals, detail: str) -> None:
        entry = LogEntry(self._clock(), event, sig.state.value, int(sig.code), sig.trigger_id, detail, time.time())
        self.log.append(entry)
        self.events_total += 1
        for callback in self._on_event:
            try:
                callback(entry)
            except Exception as exc:
                log.warning("line event hook failed: %s", exc)

    def _work_loop(self) -> None:
        while True:
            item = self._work.get()
            if item is None:
                return
            if isinstance(item, StartInspection):
                self.submit(self._run_inspection(item))
            elif isinstance(item, LoadJob):
                self.submit(self._run_load(item))

    def _run_inspection(self, start: StartInspection) -> Event:
        began = time.perf_counter_ns()
        try:
            outcome = self._inspect(start)
        except Exception as exc:  # the PLC still gets an answer for this trigger: verdict ERROR
            log.warning("inspection for trigger %d failed: %s", start.trigger_id, exc)
            return InspectionFailed(start.trigger_id, str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        finally:
            self._inspect_ns = time.perf_counter_ns() - began
        return InspectionDone(start.trigger_id, outcome.verdict, outcome.fields)

    def _run_load(self, load: LoadJob) -> Event:
        if self._load_job is None:
            return JobFailed(load.index, Code.RECIPE_NOT_FOUND, "this station has no recipe folder")
        try:
            return JobLoaded(load.index, self._load_job(load.index))
        except JobNotFound as exc:
            return JobFailed(load.index, Code.RECIPE_NOT_FOUND, exc.message)
        except Exception as exc:
            return JobFailed(load.index, Code.RECIPE_INVALID, str(exc).splitlines()[0])

    def _tick_loop(self) -> None:
        while not self._stop.wait(self.tick_s):
            self.submit(Tick())
            hs = self._hs
            since = self._busy_since
            if hs.state is hs_mod.State.BUSY and since is not None and \
                    self._clock() - since > self.inspect_budget_s:
                # the hung call stays on the worker; its late answer is dropped as stale
                self.submit(InspectionFailed(hs.trigger_id, f"inspection took over {self.inspect_budget_s:g} s"))


def _describe(action: Action) -> str:
    if isinstance(action, StartInspection):
        return f"start trigger {action.trigger_id}"
    if isinstance(action, Publish):
        frame = dict(action.result.fields).get("frame")
        return (f"result trigger {action.result.trigger_id} {action.result.verdict.name}"
                + (f" frame {frame}" if frame else ""))
    if isinstance(action, LoadJob):
        return f"load job {action.index}"
    return f"code {int(action.code)} {action.code.name} {action.detail}".strip()
