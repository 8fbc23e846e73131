"""LineStation (threads around the pure handshake) and the circuit breaker, without any transport."""

from __future__ import annotations

import threading
import time

import pytest

from inference.line.breaker import CircuitBreaker, Outbox
from inference.line.handshake import Ack, Code, Config, SelectJob, State, Trigger, Verdict
from inference.line.station import JobNotFound, LineStation, Outcome


def wait_until(predicate, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.002)


def ok(start) -> Outcome:
    return Outcome(Verdict.OK, (("trigger", str(start.trigger_id)),))


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("events,state", [
    ([], "closed"), (["fail"], "closed"), (["fail", "fail", "fail"], "open"),
    (["fail", "fail", "fail", "wait"], "half-open"), (["fail", "fail", "fail", "wait", "ok"], "closed"),
    (["fail", "fail", "fail", "wait", "fail"], "open"), (["fail", "fail", "ok", "fail"], "closed"),
])
def test_circuit_breaker(events, state):
    clock = FakeClock()
    breaker = CircuitBreaker(failures=3, cooldown_s=2.0, clock=clock)
    for event in events:
        if event == "fail":
            breaker.failure()
        elif event == "ok":
            breaker.success()
        else:
            clock.now += 2.5
    assert breaker.state == state
    assert breaker.allow() is (state != "open")


def test_outbox_skips_a_dead_sink_instead_of_waiting_on_it():
    calls = []

    def dead(item):
        calls.append(item)
        raise ConnectionError("peer gone")

    outbox = Outbox("dead", dead, breaker=CircuitBreaker(failures=2, cooldown_s=60))
    for n in range(10):
        outbox.put(n)  # never blocks
    wait_until(lambda: outbox._queue.empty())
    outbox.close()
    assert calls == [0, 1]  # two failures open the breaker; the rest are skipped, not retried forever
    assert outbox.failed == 2 and outbox.dropped == 8 and "peer gone" in outbox.last_error


def test_outbox_full_queue_drops_and_counts():
    gate = threading.Event()
    outbox = Outbox("slow", lambda item: gate.wait(5), maxsize=2)
    start = time.monotonic()
    for n in range(6):
        outbox.put(n)
    assert time.monotonic() - start < 1.0  # put() never waited for the stuck sink
    gate.set()
    outbox.close()
    assert outbox.dropped >= 3


def test_a_stuck_transport_does_not_delay_inspection():
    station = LineStation(ok).start(job=(1, "polo"))
    stuck = threading.Event()
    station.subscribe("stuck", lambda change: stuck.wait(10))
    try:
        for n in range(1, 21):
            station.pulse(Trigger)
            wait_until(lambda: station.signals().result_trigger_id == n)
            station.pulse(Ack)
        assert station.signals().result_counter == 20
    finally:
        stuck.set()
        station.close()


def test_an_inspection_that_raises_answers_error_for_its_trigger():
    def broken(start):
        raise RuntimeError("camera unplugged")

    with LineStation(broken).start(job=(1, "polo")) as station:
        station.pulse(Trigger)
        wait_until(lambda: station.signals().results_ready)
        sig = station.signals()
    assert sig.verdict is Verdict.ERROR and sig.result_trigger_id == 1 and sig.code is Code.INSPECTION_FAILED
    assert dict(sig.result_fields)["error"] == "camera unplugged"


def test_an_inspection_over_budget_is_answered_and_its_late_result_dropped():
    release = threading.Event()

    def hung(start):
        release.wait(5)
        return ok(start)

    with LineStation(hung, inspect_budget_s=0.1).start(job=(1, "polo")) as station:
        station.pulse(Trigger)
        wait_until(lambda: station.signals().results_ready)
        sig = station.signals()
        release.set()
        time.sleep(0.05)
        assert station.signals().queue_length == 1  # the late OK did not join the queue as a second answer
    assert sig.verdict is Verdict.ERROR and "took over 0.1 s" in dict(sig.result_fields)["error"]


@pytest.mark.parametrize("loader,code,job", [
    (lambda index: (_ for _ in ()).throw(JobNotFound(f"no job {index}")), Code.RECIPE_NOT_FOUND, 1),
    (lambda index: (_ for _ in ()).throw(ValueError("bad TOML")), Code.RECIPE_INVALID, 1),
    (None, Code.RECIPE_NOT_FOUND, 1),
    (lambda index: f"job{index}", Code.NONE, 2),
])
def test_job_select_outcomes(loader, code, job):
    with LineStation(ok, load_job=loader).start(job=(1, "polo")) as station:
        station.submit(SelectJob(2))
        wait_until(lambda: station.signals().state is not State.LOADING)
        sig = station.signals()
    assert sig.code is code and sig.job_index == job
    assert sig.state is (State.READY if code is Code.NONE else State.ERROR)


def test_late_ack_from_the_ticker():
    with LineStation(ok, config=Config(ack_timeout_s=0.05)).start(job=(1, "polo")) as station:
        station.pulse(Trigger)
        wait_until(lambda: station.signals().error)
        sig = station.signals()
    assert sig.code is Code.ACK_TIMEOUT and sig.late_acks == 1 and sig.result_trigger_id == 1


def test_every_event_reaches_the_event_hook_and_the_log():
    seen = []
    with LineStation(ok) as station:
        station.on_event(seen.append)
        station.start(job=(1, "polo"))
        station.pulse(Trigger)
        wait_until(lambda: station.signals().results_ready)
        station.pulse(Ack)
        station.set_link("modbus", "1 PLC connection(s)")
    events = [e.event for e in seen]
    assert events[:4] == ["JobLoaded", "Trigger", "InspectionDone", "Ack"]
    assert any(e.event == "link modbus" and "1 PLC" in e.detail for e in seen)
    assert [e.event for e in station.log][-1] == "link modbus"
    assert "result trigger 1 OK" in seen[2].detail


def test_events_name_the_trigger_and_the_frame_they_belong_to():
    def framed(start) -> Outcome:
        return Outcome(Verdict.NG, (("frame", f"cam-{start.trigger_id:04d}.png"),))

    with LineStation(framed, config=Config(queue_depth=3)).start(job=(1, "polo")) as station:
        for _ in range(2):  # two results queued: the first ack must name the older one
            before = station.signals().result_counter
            station.pulse(Trigger)
            wait_until(lambda: station.signals().result_counter == before + 1)
        station.pulse(Ack)
        station.pulse(Ack)
    rows = [(e.event, e.about, e.frame) for e in station.log if e.event in ("Trigger", "InspectionDone", "Ack")]
    assert rows == [("Trigger", 1, ""), ("InspectionDone", 1, "cam-0001.png"),
                    ("Trigger", 2, ""), ("InspectionDone", 2, "cam-0002.png"),
                    ("Ack", 1, "cam-0001.png"), ("Ack", 2, "cam-0002.png")]
    acks = [e.detail for e in station.log if e.event == "Ack"]
    assert acks == ["acknowledged result 1", "acknowledged result 2"]


def test_a_waiting_station_ticks_at_its_deadlines_not_every_few_milliseconds():
    station = LineStation(ok, config=Config(ack_timeout_s=2.0, heartbeat_s=0.5), inspect_budget_s=10.0)
    station.start(job=(1, "polo"))
    try:
        assert 0.005 <= station._next_tick() <= 0.502  # idle: the heartbeat's next flip
        station.pulse(Trigger)
        wait_until(lambda: station.signals().results_ready)
        assert station._next_tick() <= 0.502
    finally:
        station.close()


def test_a_trigger_answered_by_the_next_offered_frame_or_by_error_when_none_comes():
    from types import SimpleNamespace

    from inference.line.follow import NextResult

    frames = NextResult(wait_s=0.3)
    with LineStation(frames).start(job=(1, "polo")) as station:
        frames.offer(SimpleNamespace(index=0, source_name="old.png", error=None, verdict=None))  # before the trigger
        station.pulse(Trigger)
        wait_until(lambda: station.signals().busy)
        frames.offer(SimpleNamespace(index=1, source_name="next.png", error=None, detections=(1, 2),
                                     verdict=SimpleNamespace(verdict="NG", reasons=("2 tags, 1 expected",))))
        wait_until(lambda: station.signals().results_ready)
        first = station.signals()
        station.pulse(Ack)
        station.pulse(Trigger)  # the source stopped: nothing comes
        wait_until(lambda: station.signals().result_counter == 2)
        second = station.signals()
    assert first.verdict is Verdict.NG and dict(first.result_fields)["frame"] == "1:next.png"
    assert dict(first.result_fields)["reasons"] == "2 tags, 1 expected"
    assert second.verdict is Verdict.ERROR and second.code is Code.INSPECTION_FAILED
    assert "no frame inspected for trigger 2" in dict(second.result_fields)["error"]


def test_a_trigger_that_fired_the_camera_is_answered_by_its_own_frame_not_a_newer_or_older_one():
    from types import SimpleNamespace

    from inference.line.follow import NextResult

    def result(index: int, name: str):
        return SimpleNamespace(index=index, source_name=name, error=None, verdict=None)

    fired: list[int] = []

    def camera(trigger_id: int) -> bool:  # a software-triggered camera whose frames arrive out of the trigger's turn
        fired.append(trigger_id)
        frames.offer(result(7, "aravis-GV01#trigger-99"))  # another trigger's frame (the Step key's) comes first
        frames.offer(result(8, f"aravis-GV01#trigger-{trigger_id}"))
        frames.offer(result(9, "aravis-GV01#trigger-100"))  # and a newer one right after
        return True

    frames = NextResult(wait_s=2.0, fire=camera)
    with LineStation(frames).start(job=(1, "polo")) as station:
        station.pulse(Trigger)
        wait_until(lambda: station.signals().results_ready)
        answer = station.signals()
    assert fired == [1] and dict(answer.result_fields)["frame"] == "8:aravis-GV01#trigger-1"


def test_many_threads_triggering_never_double_start():
    starts = []
    lock = threading.Lock()

    def counting(start):
        with lock:
            starts.append(start.trigger_id)
        time.sleep(0.001)
        return ok(start)

    with LineStation(counting).start(job=(1, "polo")) as station:
        def hammer():
            for _ in range(200):
                station.pulse(Trigger)
                station.pulse(Ack)

        threads = [threading.Thread(target=hammer) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wait_until(lambda: station.signals().state is not State.BUSY)
        sig = station.signals()
    assert starts == sorted(set(starts)) and len(starts) == sig.trigger_id
    assert sig.trigger_id + sig.missed_triggers == 800


def test_each_trigger_is_timed_split_into_inspection_own_work_and_waiting():
    with LineStation(ok).start(job=(1, "polo")) as st:
        for n in range(1, 4):
            st.pulse(Trigger)
            wait_until(lambda: st.signals().result_trigger_id == n)
            st.pulse(Ack)
        summary = st.stats.summary()
    assert {"handover", "inspect", "return", "handshake", "work", "total"} <= set(summary)
    assert summary["work"]["n"] == 3 and summary["work"]["p50"] > 0  # CPU of its own steps, apart from waiting
    assert summary["handshake"]["p50"] <= summary["total"]["p50"]


def test_a_handshake_copy_names_only_its_own_fields():
    from inference.line.handshake import Handshake, _evolve

    hs = _evolve(Handshake(), state=State.READY, job_index=2)
    assert (hs.state, hs.job_index, hs.trigger_id) == (State.READY, 2, 0) and hs == _evolve(hs)
    with pytest.raises(TypeError, match="no field"):
        _evolve(hs, job=3)
