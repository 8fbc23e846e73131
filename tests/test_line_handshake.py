"""The handshake state machine as (state, event) -> (state, outputs) tables: pure, no I/O, no threads."""

from __future__ import annotations

from dataclasses import replace

import pytest

from inference.line.handshake import (Ack, Code, Config, Handshake, InspectionDone, InspectionFailed, JobFailed,
                                      JobLoaded, LinkLost, LoadJob, Malformed, Publish, Report, Reset, Result, SelectJob,
                                      SetLot, StartInspection, State, Tick, Trigger, Verdict, pulse, signals, step)


def ready(**kw) -> Handshake:
    return replace(Handshake(config=Config(queue_depth=2, ack_timeout_s=1.0)), state=State.READY, job_index=1,
                   job_name="polo", resume=State.READY, **kw)


def busy(tid: int = 1, **kw) -> Handshake:
    return replace(ready(**kw), state=State.BUSY, trigger_id=tid, trigger_level=True)


def result(tid: int, verdict: Verdict = Verdict.OK, at: float = 0.0) -> Result:
    return Result(tid, verdict, (), 1, "", ready_at=at)


def error(code: Code, resume: State = State.READY, **kw) -> Handshake:
    return replace(ready(**kw), state=State.ERROR, code=code, resume=resume)


def kinds(actions) -> tuple[str, ...]:
    return tuple(type(a).__name__ for a in actions)


# (name, start, event, now, expected state, expected action kinds, expected signal values)
TABLE = [
    ("trigger rising edge starts an inspection", ready(), Trigger(True), 0.0, State.BUSY,
     ("StartInspection",), {"busy": True, "ready": False, "trigger_id": 1}),
    ("trigger held high is not a new edge", replace(ready(), trigger_level=True), Trigger(True), 0.0, State.READY,
     (), {"trigger_id": 0}),
    ("trigger falling edge does nothing", busy(), Trigger(False), 0.0, State.BUSY, (), {"busy": True}),
    ("trigger while busy is missed and reported", replace(busy(), trigger_level=False), Trigger(True), 0.0,
     State.BUSY, ("Report",), {"missed_triggers": 1, "code": Code.TRIGGER_WHILE_BUSY, "error": False}),
    ("trigger before any job is refused", Handshake(), Trigger(True), 0.0, State.PREOPERATIONAL, ("Report",),
     {"missed_triggers": 1, "code": Code.TRIGGER_NOT_READY}),
    ("trigger with a full queue is refused", replace(ready(queue=(result(1), result(2))), state=State.HALTED),
     Trigger(True), 0.0, State.HALTED, ("Report",), {"missed_triggers": 1, "ready": False}),
    ("trigger in error is refused", error(Code.ACK_TIMEOUT), Trigger(True), 0.0, State.ERROR, ("Report",),
     {"missed_triggers": 1, "code": Code.TRIGGER_NOT_READY, "error": True}),
    ("result queues with its trigger id", busy(3), InspectionDone(3, Verdict.NG), 0.5, State.READY, ("Publish",),
     {"results_ready": True, "verdict": Verdict.NG, "result_trigger_id": 3, "result_counter": 1}),
    ("second result fills the queue: halted", busy(2, queue=(result(1),)), InspectionDone(2, Verdict.OK), 0.5,
     State.HALTED, ("Publish",), {"queue_length": 2, "result_trigger_id": 1, "ready": False}),
    ("stale result (not the running trigger) is dropped", busy(5), InspectionDone(4, Verdict.OK), 0.5, State.BUSY,
     ("Report",), {"results_ready": False}),
    ("failed inspection still answers its trigger", busy(7), InspectionFailed(7, "camera gone"), 0.5, State.READY,
     ("Publish", "Report"), {"verdict": Verdict.ERROR, "result_trigger_id": 7, "code": Code.INSPECTION_FAILED}),
    ("ack pops the oldest result", ready(queue=(result(1), result(2))), Ack(True), 0.5, State.READY, (),
     {"result_trigger_id": 2, "queue_length": 1}),
    ("ack leaves halted", replace(ready(queue=(result(1), result(2))), state=State.HALTED), Ack(True), 0.5,
     State.READY, (), {"ready": True, "queue_length": 1}),
    ("ack with the right id", ready(queue=(result(4),)), Ack(True, 4), 0.5, State.READY, (),
     {"results_ready": False}),
    ("ack naming another trigger is a fault, the result stays", ready(queue=(result(4),)), Ack(True, 3), 0.5,
     State.ERROR, ("Report",), {"code": Code.ACK_MISMATCH, "error": True, "result_trigger_id": 4}),
    ("ack with nothing queued is a warning", ready(), Ack(True), 0.5, State.READY, ("Report",),
     {"code": Code.ACK_WITHOUT_RESULT, "error": False}),
    ("ack held high acks once", replace(ready(queue=(result(1), result(2))), ack_level=True), Ack(True), 0.5,
     State.READY, (), {"queue_length": 2}),
    ("ack in error still consumes the result", error(Code.ACK_TIMEOUT, queue=(result(1),)), Ack(True), 2.0,
     State.ERROR, (), {"results_ready": False, "error": True}),
    ("late ack: timeout latches an error, result kept", ready(queue=(result(1, at=0.0),)), Tick(), 1.5,
     State.ERROR, ("Report",), {"code": Code.ACK_TIMEOUT, "late_acks": 1, "results_ready": True}),
    ("within the ack timeout nothing happens", ready(queue=(result(1, at=0.0),)), Tick(), 0.9, State.READY, (),
     {"late_acks": 0}),
    ("job select loads the job", ready(), SelectJob(2), 0.0, State.LOADING, ("LoadJob",), {"ready": False}),
    ("job select to index 0 is refused", ready(), SelectJob(0), 0.0, State.ERROR, ("Report",),
     {"code": Code.RECIPE_NOT_FOUND}),
    ("job select while busy is a fault", busy(), SelectJob(2), 0.0, State.ERROR, ("Report",),
     {"code": Code.JOB_SELECT_WHILE_BUSY}),
    ("job select with results pending is a fault", ready(queue=(result(1),)), SelectJob(2), 0.0, State.ERROR,
     ("Report",), {"code": Code.JOB_SELECT_WHILE_BUSY, "results_ready": True}),
    ("job select while loading is a fault", replace(ready(), state=State.LOADING), SelectJob(3), 0.0, State.ERROR,
     ("Report",), {"code": Code.JOB_SELECT_WHILE_BUSY}),
    ("job select in error waits for reset", error(Code.ACK_TIMEOUT), SelectJob(2), 0.0, State.ERROR, ("Report",),
     {"code": Code.ACK_TIMEOUT}),
    ("trigger while a job loads is refused with its own code", replace(ready(), state=State.LOADING), Trigger(True),
     0.0, State.LOADING, ("Report",), {"missed_triggers": 1, "code": Code.TRIGGER_WHILE_LOADING, "busy": False}),
    ("PLC connection lost: a warning on the outputs", ready(), LinkLost(Code.PLC_DISCONNECTED), 0.0, State.READY,
     ("Report",), {"code": Code.PLC_DISCONNECTED, "error": False, "ready": True}),
    ("broker lost mid-cycle: the inspection goes on", busy(), LinkLost(Code.BROKER_DISCONNECTED), 0.0, State.BUSY,
     ("Report",), {"code": Code.BROKER_DISCONNECTED, "busy": True}),
    ("link lost in error keeps the latched fault's code", error(Code.ACK_TIMEOUT), LinkLost(Code.PLC_DISCONNECTED),
     0.0, State.ERROR, ("Report",), {"code": Code.ACK_TIMEOUT, "error": True}),
    ("job loaded: ready with its index", replace(ready(), state=State.LOADING), JobLoaded(2, "shirt"), 0.0,
     State.READY, (), {"job_index": 2, "job_name": "shirt", "ready": True}),
    ("missing recipe: error code, old job kept", replace(ready(), state=State.LOADING),
     JobFailed(9, Code.RECIPE_NOT_FOUND), 0.0, State.ERROR, ("Report",),
     {"code": Code.RECIPE_NOT_FOUND, "job_index": 1}),
    ("lot number is kept", ready(), SetLot("L-2026-12"), 0.0, State.READY, (), {"lot": "L-2026-12"}),
    ("unprintable lot number is malformed", ready(), SetLot("bad\x00lot"), 0.0, State.ERROR, ("Report",),
     {"code": Code.MALFORMED_WRITE}),
    ("malformed write latches", ready(), Malformed("HR 3 = 70000"), 0.0, State.ERROR, ("Report",),
     {"code": Code.MALFORMED_WRITE, "error": True}),
    ("reset returns to ready", error(Code.ACK_TIMEOUT), Reset(True), 0.0, State.READY, (),
     {"code": Code.NONE, "error": False}),
    ("reset with a full queue returns to halted", error(Code.ACK_TIMEOUT, queue=(result(1), result(2))),
     Reset(True), 0.0, State.HALTED, (), {"ready": False}),
    ("reset before any job returns to preoperational", error(Code.RECIPE_NOT_FOUND, resume=State.PREOPERATIONAL),
     Reset(True), 0.0, State.PREOPERATIONAL, (), {"ready": False}),
    ("reset during an inspection returns to busy", error(Code.MALFORMED_WRITE, resume=State.BUSY, trigger_id=2),
     Reset(True), 0.0, State.BUSY, (), {"busy": True}),
    ("reset in ready does nothing", ready(), Reset(True), 0.0, State.READY, (), {"code": Code.NONE}),
]


@pytest.mark.parametrize("name,start,event,now,state,actions,expected", TABLE, ids=[row[0] for row in TABLE])
def test_transition_table(name, start, event, now, state, actions, expected):
    after, done = step(start, event, now)
    assert after.state is state
    assert kinds(done) == actions
    sig = signals(after, now)
    for key, value in expected.items():
        assert getattr(sig, key) == value, key


def test_a_fault_while_busy_keeps_the_running_inspection():
    hs, _ = step(busy(2), Malformed("coil 9"), 0.0)
    assert hs.state is State.ERROR
    hs, actions = step(hs, InspectionDone(2, Verdict.OK), 0.1)
    assert kinds(actions) == ("Publish",) and signals(hs, 0.1).result_trigger_id == 2
    hs, _ = step(hs, Reset(True), 0.2)
    assert hs.state is State.READY


def test_full_cycle_with_pulses_never_answers_late():
    hs, _ = step(Handshake(), JobLoaded(1, "polo"), 0.0)
    answered = []
    for n in range(1, 6):
        hs, actions = pulse(hs, Trigger, n)
        (start,) = [a for a in actions if isinstance(a, StartInspection)]
        assert start.trigger_id == n
        hs, actions = step(hs, InspectionDone(n, Verdict.OK if n % 2 else Verdict.NG), n + 0.1)
        (publish,) = actions
        assert isinstance(publish, Publish)
        sig = signals(hs, n + 0.1)
        answered.append((sig.result_trigger_id, sig.verdict))
        hs, _ = pulse(hs, lambda level: Ack(level, sig.result_trigger_id), n + 0.2)
    assert answered == [(n, Verdict.OK if n % 2 else Verdict.NG) for n in range(1, 6)]
    assert signals(hs, 9).results_ready is False and hs.result_counter == 5


def test_results_wait_in_order_when_acks_lag():
    hs = ready()
    for tid in (1, 2):
        hs, _ = pulse(hs, Trigger, 0.0)
        hs, _ = step(hs, InspectionDone(tid, Verdict.OK), 0.0)
    assert hs.state is State.HALTED and [r.trigger_id for r in hs.queue] == [1, 2]
    hs, _ = pulse(hs, Ack, 0.1)
    assert hs.state is State.READY and signals(hs, 0.1).result_trigger_id == 2


@pytest.mark.parametrize("now,beat", [(0.0, False), (0.6, True), (1.1, False), (1.6, True)])
def test_heartbeat_toggles_every_period(now, beat):
    assert signals(ready(), now).heartbeat is beat


def test_load_job_action_names_the_index():
    _, actions = step(ready(), SelectJob(4), 0.0)
    assert actions == (LoadJob(4),)


def test_reports_carry_the_code():
    _, actions = step(ready(), Malformed("coil 7"), 0.0)
    assert actions == (Report(Code.MALFORMED_WRITE, "coil 7"),)
    assert Code.MALFORMED_WRITE.latches and not Code.TRIGGER_WHILE_BUSY.latches


def test_not_an_event_is_a_type_error():
    with pytest.raises(TypeError):
        step(ready(), "trigger", 0.0)  # type: ignore[arg-type]
