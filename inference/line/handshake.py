"""The PLC trigger/result handshake as one pure state machine (no I/O, no threads, no clock of its own).

Modeled on OPC 40100 Machine Vision (Preoperational / Ready / SingleExecution / Halted / Error),
In-Sight's Trigger → Busy → Results Valid → Results Ack with buffered results, and MERLIC's request/ack
codes: every result carries the trigger id it answers, so a result is never one trigger late.

`step(state, event, now)` returns the next state and the actions the station must carry out
(start an inspection, load a recipe, publish a result). Transports translate registers, nodes and
topics into these events and show `signals(state, now)`; they never decide anything themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Callable

from inference.line.events import (STATE_CODES, Ack, Action, Code, Event, InspectionDone, InspectionFailed,
                                   JobFailed, JobLoaded, LinkLost, LoadJob, Malformed, Publish, Report, Reset, Result,
                                   SelectJob, SetLot, StartInspection, State, Tick, Trigger, Verdict)

__all__ = ["STATE_CODES", "Ack", "Action", "Code", "Config", "Event", "Handshake", "InspectionDone",
           "InspectionFailed", "JobFailed", "JobLoaded", "LinkLost", "LoadJob", "Malformed", "Publish", "Report", "Reset",
           "Result", "SelectJob", "SetLot", "Signals", "StartInspection", "State", "Tick", "Trigger", "Verdict",
           "pulse", "signals", "step", "TRANSITIONS"]


# -- state ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Config:
    queue_depth: int = 4
    ack_timeout_s: float = 2.0
    heartbeat_s: float = 0.5

    def __post_init__(self) -> None:
        if self.queue_depth < 1:
            raise ValueError(f"queue_depth must be >= 1, found {self.queue_depth}")


@dataclass(frozen=True)
class Handshake:
    state: State = State.PREOPERATIONAL
    config: Config = field(default_factory=Config)
    queue: tuple[Result, ...] = ()
    job_index: int = 0
    job_name: str = ""
    lot: str = ""
    trigger_id: int = 0         # last accepted trigger
    result_counter: int = 0     # results produced
    missed_triggers: int = 0
    late_acks: int = 0
    code: Code = Code.NONE      # last code reported (fault or warning)
    resume: State = State.PREOPERATIONAL  # where Reset leads once a fault is cleared
    trigger_level: bool = False
    ack_level: bool = False
    reset_level: bool = False

    @property
    def error(self) -> bool:
        return self.state is State.ERROR


_HANDSHAKE_FIELDS = frozenset(f.name for f in fields(Handshake))


def _evolve(hs: Handshake, **changes: object) -> Handshake:
    """`dataclasses.replace` without re-running `__init__` (Handshake has no checks there): replace() costs
    ~40 % of a station's handshake step (every step makes one to four copies of 16 fields)."""
    unknown = changes.keys() - _HANDSHAKE_FIELDS
    if unknown:
        raise TypeError(f"Handshake has no field(s) {sorted(unknown)}")
    new = object.__new__(Handshake)
    new.__dict__.update(hs.__dict__)
    new.__dict__.update(changes)
    return new


@dataclass(frozen=True)
class Signals:
    """What the line sees: one snapshot of every output."""

    state: State
    ready: bool
    busy: bool
    results_ready: bool
    verdict: Verdict
    result_trigger_id: int
    result_fields: tuple[tuple[str, str], ...]
    trigger_id: int
    result_counter: int
    error: bool
    code: Code
    missed_triggers: int
    late_acks: int
    queue_length: int
    job_index: int
    job_name: str
    lot: str
    heartbeat: bool

    @property
    def ok(self) -> bool:
        return self.results_ready and self.verdict is Verdict.OK

    @property
    def ng(self) -> bool:
        return self.results_ready and self.verdict is Verdict.NG

    @property
    def review(self) -> bool:
        return self.results_ready and self.verdict is Verdict.REVIEW


def signals(hs: Handshake, now: float) -> Signals:
    head = hs.queue[0] if hs.queue else None
    period = hs.config.heartbeat_s
    return Signals(
        state=hs.state, ready=hs.state is State.READY, busy=hs.state is State.BUSY,
        results_ready=head is not None, verdict=head.verdict if head else Verdict.NONE,
        result_trigger_id=head.trigger_id if head else 0, result_fields=head.fields if head else (),
        trigger_id=hs.trigger_id, result_counter=hs.result_counter, error=hs.error, code=hs.code,
        missed_triggers=hs.missed_triggers, late_acks=hs.late_acks, queue_length=len(hs.queue),
        job_index=hs.job_index, job_name=hs.job_name, lot=hs.lot,
        heartbeat=bool(int(now / period) % 2) if period > 0 else False)


Step = tuple[Handshake, tuple[Action, ...]]


# -- transitions ---------------------------------------------------------------------------------------
def _fault(hs: Handshake, code: Code, detail: str = "") -> Step:
    return _evolve(hs, state=State.ERROR, code=code, resume=_resume_for(hs)), (Report(code, detail),)


def _resume_for(hs: Handshake) -> State:
    """Where Reset leads: back to the running inspection, to the job, or to Preoperational without one."""
    if hs.state is State.ERROR:
        return hs.resume
    if hs.state is State.BUSY:
        return State.BUSY
    if hs.state in (State.PREOPERATIONAL, State.LOADING):
        return State.PREOPERATIONAL if hs.job_index == 0 else State.READY
    return _by_queue(hs)


def _by_queue(hs: Handshake) -> State:
    return State.HALTED if len(hs.queue) >= hs.config.queue_depth else State.READY


def _trigger(hs: Handshake, ev: Trigger, now: float) -> Step:
    rising = ev.level and not hs.trigger_level
    hs = _evolve(hs, trigger_level=ev.level)
    if not rising:
        return hs, ()
    if hs.state is State.READY:
        tid = hs.trigger_id + 1
        return (_evolve(hs, state=State.BUSY, trigger_id=tid),
                (StartInspection(tid, hs.job_index, hs.lot, now, hs.job_name),))
    code = {State.BUSY: Code.TRIGGER_WHILE_BUSY, State.LOADING: Code.TRIGGER_WHILE_LOADING}.get(
        hs.state, Code.TRIGGER_NOT_READY)
    return (_evolve(hs, missed_triggers=hs.missed_triggers + 1, code=code),
            (Report(code, f"trigger in state {hs.state.value}"),))


def _ack(hs: Handshake, ev: Ack, now: float) -> Step:
    rising = ev.level and not hs.ack_level
    hs = _evolve(hs, ack_level=ev.level)
    if not rising:
        return hs, ()
    if not hs.queue:
        return _evolve(hs, code=Code.ACK_WITHOUT_RESULT), (Report(Code.ACK_WITHOUT_RESULT),)
    head = hs.queue[0]
    if ev.trigger_id is not None and ev.trigger_id != head.trigger_id:
        return _fault(hs, Code.ACK_MISMATCH, f"ack for trigger {ev.trigger_id}, oldest result is {head.trigger_id}")
    hs = _evolve(hs, queue=hs.queue[1:])
    if hs.state is State.HALTED:
        hs = _evolve(hs, state=State.READY)
    return hs, ()


def _select_job(hs: Handshake, ev: SelectJob, now: float) -> Step:
    if hs.state is State.BUSY or hs.queue:
        return _fault(hs, Code.JOB_SELECT_WHILE_BUSY, f"job {ev.index} selected while "
                      f"{'busy' if hs.state is State.BUSY else f'{len(hs.queue)} result(s) wait for an ack'}")
    if ev.index < 1:
        return _fault(hs, Code.RECIPE_NOT_FOUND, f"job index {ev.index} (indices start at 1)")
    return _evolve(hs, state=State.LOADING), (LoadJob(ev.index),)


def _job_loaded(hs: Handshake, ev: JobLoaded, now: float) -> Step:
    # also from Preoperational: the station starts with the job it was given on the command line
    if hs.state not in (State.LOADING, State.PREOPERATIONAL):
        return hs, ()
    return _evolve(hs, state=State.READY, job_index=ev.index, job_name=ev.name, code=Code.NONE), ()


def _job_failed(hs: Handshake, ev: JobFailed, now: float) -> Step:
    if hs.state is not State.LOADING:
        return hs, ()
    # the previous job (if any) stays loaded; Reset returns to it
    hs = _evolve(hs, state=State.PREOPERATIONAL if hs.job_index == 0 else State.READY)
    return _fault(hs, ev.code, ev.message or f"job {ev.index}")


def _set_lot(hs: Handshake, ev: SetLot, now: float) -> Step:
    lot = ev.lot.strip()
    if len(lot) > 64 or not lot.isprintable():
        return _fault(hs, Code.MALFORMED_WRITE, f"lot number {ev.lot[:70]!r}")
    return _evolve(hs, lot=lot), ()


def _reset(hs: Handshake, ev: Reset, now: float) -> Step:
    rising = ev.level and not hs.reset_level
    hs = _evolve(hs, reset_level=ev.level)
    if not rising or hs.state is not State.ERROR:
        return hs, ()
    resume = hs.resume
    if resume in (State.READY, State.HALTED):
        resume = _by_queue(hs)
    return _evolve(hs, state=resume, code=Code.NONE), ()


def _finish(hs: Handshake, trigger_id: int, verdict: Verdict, fields: tuple, now: float,
            warning: Code = Code.NONE, detail: str = "") -> Step:
    result = Result(trigger_id, verdict, fields, hs.job_index, hs.lot, ready_at=now)
    hs = _evolve(hs, queue=hs.queue + (result,), result_counter=hs.result_counter + 1)
    actions: tuple[Action, ...] = (Publish(result),)
    if warning is not Code.NONE:
        hs = _evolve(hs, code=warning)
        actions += (Report(warning, detail),)
    if hs.state is State.BUSY:
        hs = _evolve(hs, state=_by_queue(hs))
    elif hs.state is State.ERROR and hs.resume is State.BUSY:
        hs = _evolve(hs, resume=_by_queue(hs))
    return hs, actions


def _inspection_done(hs: Handshake, ev: InspectionDone, now: float) -> Step:
    if not _running(hs, ev.trigger_id):
        return hs, (Report(Code.NONE, f"stale result for trigger {ev.trigger_id} dropped"),)
    return _finish(hs, ev.trigger_id, ev.verdict, ev.fields, now)


def _inspection_failed(hs: Handshake, ev: InspectionFailed, now: float) -> Step:
    if not _running(hs, ev.trigger_id):
        return hs, ()
    return _finish(hs, ev.trigger_id, Verdict.ERROR, (("error", ev.message[:200]),), now,
                   Code.INSPECTION_FAILED, ev.message)


def _running(hs: Handshake, trigger_id: int) -> bool:
    busy = hs.state is State.BUSY or (hs.state is State.ERROR and hs.resume is State.BUSY)
    return busy and trigger_id == hs.trigger_id


def _malformed(hs: Handshake, ev: Malformed, now: float) -> Step:
    return _fault(hs, Code.MALFORMED_WRITE, ev.what)


def _link_lost(hs: Handshake, ev: LinkLost, now: float) -> Step:
    # a latched fault keeps its code: the link's loss is still reported (journal, log), not shown over it
    hs = hs if hs.state is State.ERROR else _evolve(hs, code=ev.code)
    return hs, (Report(ev.code, ev.detail),)


def _tick(hs: Handshake, ev: Tick, now: float) -> Step:
    if not hs.queue or hs.state is State.ERROR:
        return hs, ()
    head = hs.queue[0]
    if now - head.ready_at <= hs.config.ack_timeout_s:
        return hs, ()
    hs = _evolve(hs, late_acks=hs.late_acks + 1)
    return _fault(hs, Code.ACK_TIMEOUT, f"result of trigger {head.trigger_id} not acknowledged within "
                                        f"{hs.config.ack_timeout_s:g} s")


Handler = Callable[[Handshake, object, float], Step]

# One handler per event type; the states each applies in are written out in the table below.
_HANDLERS: dict[type, Handler] = {
    Trigger: _trigger, Ack: _ack, SelectJob: _select_job, JobLoaded: _job_loaded, JobFailed: _job_failed,
    SetLot: _set_lot, Reset: _reset, InspectionDone: _inspection_done, InspectionFailed: _inspection_failed,
    Malformed: _malformed, LinkLost: _link_lost, Tick: _tick,
}

# (state, event) pairs handled by something other than the event's own handler.
TRANSITIONS: dict[tuple[State, type], Handler] = {
    (State.LOADING, SelectJob): lambda hs, ev, now: _fault(hs, Code.JOB_SELECT_WHILE_BUSY,
                                                          f"job {ev.index} selected while loading"),
    (State.ERROR, SelectJob): lambda hs, ev, now: (hs, (Report(hs.code, "job select refused until Reset"),)),
}


def step(hs: Handshake, event: Event, now: float) -> Step:
    handler = TRANSITIONS.get((hs.state, type(event))) or _HANDLERS.get(type(event))
    if handler is None:
        raise TypeError(f"not a handshake event: {event!r}")
    return handler(hs, event, now)


def pulse(hs: Handshake, make: Callable[[bool], Event], now: float) -> Step:
    """A rising and a falling edge at once, for transports whose commands are pulses (OPC UA, MQTT)."""
    hs, first = step(hs, make(True), now)
    hs, second = step(hs, make(False), now)
    return hs, first + second
