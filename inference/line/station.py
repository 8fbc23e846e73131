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
from inference.line.handshake import (Ack, Action, Code, Config, Event, Handshake, InspectionDone, InspectionFailed,
                                      JobFailed, JobLoaded, LinkLost, LoadJob, Publish, Signals, StartInspection, Tick,
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
    about: int = 0     # the trigger this event belongs to: the acknowledged result's for an ack, else trigger_id
    frame: str = ""    # the frame that answered that trigger, once its result is in


@dataclass
class _Cycle:
    """perf_counter_ns stamps of one trigger inside the station: accepted (under the lock), picked up by the
    worker, inspection returned, result queued."""

    accepted: int
    picked: int = 0
    inspected: int = 0
    queued: int = 0
    work: int = 0  # thread CPU ns of the station's own steps for this trigger (accepting it, queuing its result)

    def timings(self, until: int) -> StageTimings:
        """The handshake's own share up to `until` (result queued, or put out by a transport), the inspection
        call apart: handover (accepted -> worker), return (inspection -> result queued), publish (queued -> out).
        `work` is the CPU its own steps took; the rest of `handshake` is waiting (for a core, the GIL, a wake-up)."""
        inspect = (self.inspected - self.picked) / 1e6
        total = (until - self.accepted) / 1e6
        stages = {"handover": (self.picked - self.accepted) / 1e6, "inspect": inspect,
                  "return": (self.queued - self.inspected) / 1e6, "handshake": max(0.0, total - inspect),
                  "work": self.work / 1e6}
        if until != self.queued:
            stages["publish"] = (until - self.queued) / 1e6
        return StageTimings(stages, total)


InspectFn = Callable[[StartInspection], Outcome]
LoadJobFn = Callable[[int], str]


class LineStation:
    def __init__(self, inspect: InspectFn, *, load_job: LoadJobFn | None = None, config: Config | None = None,
                 inspect_budget_s: float = 10.0, tick_s: float = 0.005,
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
        self._direct: list[Callable[[Change], None]] = []
        self._work: queue.Queue = queue.Queue()
        self._busy_since: float | None = None
        self._cycles: dict[int, _Cycle] = {}  # the last few triggers' stamps, by trigger id
        # trigger accepted -> result queued, split into the inspection call and the station's own share
        self.stats = RollingStats(window=10_000)
        # trigger accepted -> result put out by a transport that pushes it (OPC UA event, MQTT message)
        self.offer_stats: dict[str, RollingStats] = {}
        self._stop = threading.Event()
        self.log: collections.deque[LogEntry] = collections.deque(maxlen=2000)
        self._frames: dict[int, str] = {}  # trigger id -> the frame that answered it (its result's "frame" field)
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
    def subscribe(self, name: str, sink: Callable[[Change], None], *, direct: bool = False) -> Outbox | None:
        """`sink` gets every change in order on an Outbox's thread; with `direct` it is called on the submitting
        thread instead, one thread hop sooner, just after the station's lock is released, so it must only hand
        the change over without blocking (to an event loop the transport owns: `loop.call_soon_threadsafe`).
        Changes submitted by two threads at once may then reach it in either order: such a sink acts on the
        station's newest signals (`signals()`), as the OPC UA server does, not on the change's copy."""
        if direct:
            self._direct.append(sink)
            return None
        outbox = Outbox(name, sink)
        self._outboxes.append(outbox)
        return outbox

    def offered(self, name: str, trigger_id: int) -> None:
        """A transport has put the result of `trigger_id` out: timed from the same trigger as `stats`."""
        cycle = self._cycles.get(trigger_id)
        if cycle is not None and cycle.queued:
            stats = self.offer_stats.get(name) or self.offer_stats.setdefault(name, RollingStats(window=10_000))
            stats.add(cycle.timings(time.perf_counter_ns()))

    def on_event(self, callback: Callable[[LogEntry], None]) -> None:
        """Called for every handshake event on the submitting thread under the station's lock, so it must
        not block: a journal hands entries to an Outbox (`on_event(outbox.put)`) and writes there."""
        self._on_event.append(callback)

    def set_link(self, name: str, state: str, *, lost: Code | None = None) -> None:
        """`lost`: the peer went away (PLC_DISCONNECTED, BROKER_DISCONNECTED): the code goes onto the outputs."""
        with self._lock:
            if self.links.get(name) != state:
                self.links[name] = state
                self._record(f"link {name}", self._signals, f"{name}: {state}", 0)
        if lost is not None:
            self.submit(LinkLost(lost, f"{name}: {state}"))

    def signals(self) -> Signals:
        return self._signals

    @property
    def handshake(self) -> Handshake:
        return self._hs

    def submit(self, event: Event) -> Signals:
        cpu = time.thread_time_ns()
        with self._lock:
            now = self._clock()
            self._hs, actions = hs_mod.step(self._hs, event, now)
            sig, change = self._after(event, actions, now, cpu)
        self._hand_over(change)
        return sig

    def pulse(self, make: Callable[[bool], Event]) -> Signals:
        """Rising then falling edge under one lock: a command transport's trigger, ack or reset."""
        cpu = time.thread_time_ns()
        with self._lock:
            now = self._clock()
            self._hs, actions = hs_mod.pulse(self._hs, make, now)
            sig, change = self._after(make(True), actions, now, cpu)
        self._hand_over(change)
        return sig

    def _hand_over(self, change: Change | None) -> None:
        """Direct sinks, after the lock is released: waking an event loop is a system call, during which the
        GIL goes to another thread, and one that then waited on this lock made every thread wait in turn."""
        if change is None:
            return
        for sink in self._direct:
            try:
                sink(change)
            except Exception as exc:  # a transport's hand-over failing is its problem, never the station's
                log.warning("line transport hand-over failed: %s", exc)

    # -- inside ----------------------------------------------------------------------------------------
    def _after(self, event: Event, actions: tuple[Action, ...], now: float,
               cpu: int = 0) -> tuple[Signals, Change | None]:
        before = self._signals
        after = hs_mod.signals(self._hs, now)
        self._signals = after
        for action in actions:
            if isinstance(action, StartInspection):
                self._busy_since = now
                self._cycles[action.trigger_id] = _Cycle(time.perf_counter_ns(), work=time.thread_time_ns() - cpu)
                if len(self._cycles) > 64:
                    del self._cycles[next(iter(self._cycles))]
                self._work.put(action)
            elif isinstance(action, LoadJob):
                self._work.put(action)
            elif isinstance(action, Publish):
                cycle = self._cycles.get(action.result.trigger_id)
                if cycle is not None and cycle.inspected and isinstance(event, InspectionDone):
                    cycle.queued = time.perf_counter_ns()
                    cycle.work += time.thread_time_ns() - cpu
                    self.stats.add(cycle.timings(cycle.queued))
        change = None
        if after != before or actions:
            change = Change(after, actions, type(event).__name__, now)
            for outbox in self._outboxes:
                outbox.put(change)
        if not isinstance(event, Tick) or actions:
            about = after.trigger_id
            notes = [_describe(a) for a in actions]
            for action in actions:
                if isinstance(action, Publish):
                    about = action.result.trigger_id
                    frame = dict(action.result.fields).get("frame")
                    if frame:
                        self._frames[about] = frame
                        if len(self._frames) > 256:
                            del self._frames[next(iter(self._frames))]
            if isinstance(event, Ack) and after.queue_length < before.queue_length:
                about = before.result_trigger_id
                notes.insert(0, f"acknowledged result {about}")
            self._record(type(event).__name__, after, "; ".join(notes), about)
        return after, change

    def _record(self, event: str, sig: Signals, detail: str, about: int) -> None:
        entry = LogEntry(self._clock(), event, sig.state.value, int(sig.code), sig.trigger_id, detail, time.time(),
                         about, self._frames.get(about, ""))
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
        cycle = self._cycles.get(start.trigger_id)
        if cycle is not None:
            cycle.picked = time.perf_counter_ns()
        try:
            outcome = self._inspect(start)
        except Exception as exc:  # the PLC still gets an answer for this trigger: verdict ERROR
            log.warning("inspection for trigger %d failed: %s", start.trigger_id, exc)
            return InspectionFailed(start.trigger_id, str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
        finally:
            if cycle is not None:
                cycle.inspected = time.perf_counter_ns()
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

    def _next_tick(self) -> float:
        """Seconds until a Tick can change something: the heartbeat's next flip, the oldest result's ack
        deadline, the running inspection's budget. Never longer than the ack timeout or the budget, so a
        deadline that appears while this thread sleeps is at most that far away when it wakes; never shorter
        than `tick_s`. A station that only waits wakes twice a second (heartbeat), not a hundred times."""
        hs, now = self._hs, self._clock()
        cfg = hs.config
        waits = [cfg.ack_timeout_s, self.inspect_budget_s]
        if cfg.heartbeat_s > 0:
            waits.append(cfg.heartbeat_s - now % cfg.heartbeat_s)
        if hs.queue and hs.state is not hs_mod.State.ERROR:
            waits.append(hs.queue[0].ready_at + cfg.ack_timeout_s - now)
        since = self._busy_since
        if hs.state is hs_mod.State.BUSY and since is not None:
            waits.append(since + self.inspect_budget_s - now)
        return max(self.tick_s, min(waits) + 0.001)  # just past the deadline, not just before it

    def _tick_loop(self) -> None:
        while not self._stop.wait(self._next_tick()):
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
