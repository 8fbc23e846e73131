"""GPU memory pressure (issue 19): the policy's state machine fed with readings, and the guard switching real
pipelines between frames. NVML does not exist on this machine: the readings are given, the pipelines are the
CPU pipeline of the shipped detector (the GPU variants are measured on the H200, BENCHMARKS.md)."""

from __future__ import annotations

import numpy as np
import pytest

from inference.errors import ConfigError
from inference.gpu.degrade import PressureGuard, is_out_of_memory, journal_pressure, pressure_guard
from inference.gpu.pressure import Level, MemoryReading, PressureEvent, PressurePolicy, PressureSettings
from inference.pipeline import Pipeline
from inference.resources import default_model_path

GIB = 2**30
TOTAL = 140 * GIB


def at(share: float) -> MemoryReading:
    return MemoryReading(int(share * TOTAL), TOTAL)


def feed(policy: PressurePolicy, shares_at: list[tuple[float, float]]) -> list[tuple[float, Level]]:
    changes = []
    for now, share in shares_at:
        level = policy.observe(at(share), now)
        if level is not None:
            changes.append((now, level))
    return changes


def test_first_step_at_once_next_only_while_pressure_stays():
    policy = PressurePolicy(PressureSettings(high_share=0.9, low_share=0.8, escalate_after_s=0.5, calm_s=3.0))
    assert feed(policy, [(0.0, 0.50), (0.1, 0.89)]) == []
    assert feed(policy, [(0.2, 0.95)]) == [(0.2, Level.SHRUNK)]
    assert feed(policy, [(0.3, 0.95), (0.6, 0.95)]) == []  # 0.4 s after the step: not yet
    assert feed(policy, [(0.71, 0.95)]) == [(0.71, Level.LIGHT)]
    assert feed(policy, [(5.0, 0.99), (9.0, 0.99)]) == []  # the lightest variant: nothing further
    assert policy.level == Level.LIGHT


def test_shrinking_that_relieves_the_pressure_stops_there():
    policy = PressurePolicy(PressureSettings(high_share=0.9, low_share=0.8, escalate_after_s=0.5, calm_s=3.0))
    assert feed(policy, [(0.0, 0.93), (0.3, 0.88), (1.0, 0.86), (2.0, 0.85)]) == [(0.0, Level.SHRUNK)]


def test_return_needs_calm_below_the_low_share_one_step_at_a_time():
    policy = PressurePolicy(PressureSettings(high_share=0.9, low_share=0.8, escalate_after_s=0.5, calm_s=3.0))
    feed(policy, [(0.0, 0.95), (1.0, 0.95)])
    assert policy.level == Level.LIGHT
    # between the shares: no return however long
    assert feed(policy, [(2.0, 0.85), (10.0, 0.85), (20.0, 0.82)]) == []
    # below the low share: back one step after 3 s of calm, the next after 3 s more
    assert feed(policy, [(21.0, 0.5), (23.9, 0.5)]) == []
    assert feed(policy, [(24.0, 0.5)]) == [(24.0, Level.SHRUNK)]
    assert feed(policy, [(26.0, 0.5)]) == []
    assert feed(policy, [(27.0, 0.5)]) == [(27.0, Level.NORMAL)]
    assert feed(policy, [(40.0, 0.5)]) == []


def test_calm_interrupted_starts_again():
    policy = PressurePolicy(PressureSettings(high_share=0.9, low_share=0.8, escalate_after_s=0.5, calm_s=3.0))
    feed(policy, [(0.0, 0.95)])
    assert feed(policy, [(1.0, 0.5), (3.0, 0.85), (3.5, 0.5), (6.0, 0.5)]) == []
    assert feed(policy, [(6.5, 0.5)]) == [(6.5, Level.NORMAL)]


def test_flapping_readings_do_not_flap_the_level():
    """A share crossing 0.9 back and forth every reading: one step down, no return while it does."""
    policy = PressurePolicy(PressureSettings(high_share=0.9, low_share=0.8, escalate_after_s=0.5, calm_s=3.0),
                            max_level=Level.SHRUNK)
    shares = [(t * 0.1, 0.91 if t % 2 else 0.89) for t in range(200)]
    assert feed(policy, shares) == [(0.1, Level.SHRUNK)]


def test_settings_refuse_shares_out_of_order_and_read_the_environment():
    with pytest.raises(ConfigError) as err:
        PressureSettings(high_share=0.8, low_share=0.9)
    assert "low share < high share" in err.value.expected
    s = PressureSettings.from_environment({"HANGTAG_GPU_PRESSURE_SHARE": "0.95"})
    assert (s.high_share, s.low_share) == (0.95, 0.8)
    s = PressureSettings.from_environment({"HANGTAG_GPU_PRESSURE_SHARE": "0.7"})
    assert (s.high_share, s.low_share) == (0.7, 0.6)
    with pytest.raises(ConfigError):
        PressureSettings.from_environment({"HANGTAG_GPU_PRESSURE_SHARE": "ninety"})


def test_event_texts_say_what_changed_and_why():
    down = PressureEvent(0.0, Level.NORMAL, Level.SHRUNK, at(0.95), "pressure")
    assert down.degraded and "degraded to pools and batch shrunk" in down.text and "(95%)" in down.text
    back = PressureEvent(0.0, Level.SHRUNK, Level.NORMAL, at(0.5), "calm")
    assert not back.degraded and "back to normal" in back.text


def test_out_of_memory_is_recognised_in_cuda_and_onnxruntime_words():
    assert is_out_of_memory(RuntimeError("CUDA failure 2: out of memory"))
    assert is_out_of_memory(RuntimeError("[ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : BFCArena::AllocateRawInternal "
                                         "Failed to allocate memory for requested buffer of size 1048576"))
    assert not is_out_of_memory(ValueError("wrong number of frames"))


class Readings:
    """The device as the guard reads it: a share set by the test."""

    def __init__(self) -> None:
        self.share = 0.3

    def __call__(self) -> MemoryReading:
        return at(self.share)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def frame() -> np.ndarray:
    import cv2

    from inference.resources import resource_path

    sample = sorted(resource_path("samples").glob("*.jpg"))[0]
    return cv2.imread(str(sample))


def test_guard_switches_real_pipelines_between_frames_and_back(frame):
    """Every frame is answered through the switches; the old variant is closed before the next opens; the
    thresholds set on the station carry over; one event per change, in order."""
    opened: list[tuple[Level, Pipeline]] = []

    def opener(level: Level) -> Pipeline:
        assert all(p._engine_closed for _, p in opened)  # the old variant is closed before the next opens
        pipe = Pipeline.open(default_model_path(), "onnxruntime-cpu")
        pipe._engine_closed = False
        close = pipe.close

        def closing() -> None:
            pipe._engine_closed = True
            close()

        pipe.close = closing
        opened.append((level, pipe))
        return pipe

    readings, clock = Readings(), Clock()
    settings = PressureSettings(high_share=0.9, low_share=0.8, escalate_after_s=0.5, calm_s=3.0, poll_s=0.0)
    with PressureGuard(opener, reader=readings, settings=settings, clock=clock) as guard:
        from inference.postprocess import Thresholds

        guard.set_thresholds(Thresholds(confidence=0.4))
        first = guard.process(frame)
        assert first.ok and guard.level == Level.NORMAL
        readings.share, clock.now = 0.95, 1.0
        shrunk = guard.process(frame)
        assert guard.level == Level.SHRUNK and shrunk.ok
        assert len(shrunk.detections) == len(first.detections)
        assert guard.pipeline.thresholds.confidence == 0.4
        clock.now = 1.6
        guard.process(frame)
        assert guard.level == Level.LIGHT
        readings.share = 0.4
        for now in (2.0, 5.0, 5.1, 8.2):
            clock.now = now
            assert guard.process(frame).ok
        assert guard.level == Level.NORMAL
        events = guard.new_events()
        assert [(e.before, e.after) for e in events] == [(Level.NORMAL, Level.SHRUNK), (Level.SHRUNK, Level.LIGHT),
                                                         (Level.LIGHT, Level.SHRUNK), (Level.SHRUNK, Level.NORMAL)]
        assert [e.cause for e in events] == ["pressure", "pressure", "calm", "calm"]
        assert guard.new_events() == [] and guard.status_text() == ""
    assert [level for level, _ in opened] == [Level.NORMAL, Level.SHRUNK, Level.LIGHT, Level.SHRUNK, Level.NORMAL]
    assert all(p._engine_closed for _, p in opened)


def test_an_allocation_failure_mid_frame_steps_down_and_the_frame_is_answered(frame):
    """The variant that runs out of memory is replaced and the same frame runs again; a variant that cannot
    open under pressure is passed over for a lighter one, down to the CPU."""

    class Exhausted(Pipeline):
        def process(self, *args, **kwargs):
            raise RuntimeError("CUDA failure 2: out of memory ; GPU=0 ; hostname=h200")

    def opener(level: Level):
        if level == Level.NORMAL:
            return Exhausted.open(default_model_path(), "onnxruntime-cpu")
        if level in (Level.SHRUNK, Level.LIGHT):
            raise RuntimeError("[ONNXRuntimeError] : 6 : Failed to allocate memory for requested buffer")
        return Pipeline.open(default_model_path(), "onnxruntime-cpu")

    with PressureGuard(opener, reader=Readings(), settings=PressureSettings(poll_s=0.0), clock=Clock()) as guard:
        result = guard.process(frame)
        assert result.ok and len(result.detections) > 0
        assert guard.level == Level.CPU
        (event,) = guard.new_events()
        assert (event.before, event.after, event.cause) == (Level.NORMAL, Level.CPU, "allocation failed")
        assert "detector on the CPU" in guard.status_text()


def test_events_reach_the_journal_of_the_station(tmp_path):
    from inference.records.journal import Journal

    class Inspector:
        pipeline = PressureGuard(lambda level: Pipeline.open(default_model_path(), "onnxruntime-cpu"),
                                 reader=Readings(), settings=PressureSettings(poll_s=0.0), clock=Clock())

    guard = pressure_guard(Inspector())
    assert guard is Inspector.pipeline and pressure_guard(object()) is None
    journal = Journal.open(tmp_path / "journal.db")
    session = journal.start_session(station_id="test")

    class Recorder:
        def note_event(self, kind, subject, detail, *, at=None):
            journal.record_event(kind, subject, detail, session_id=session, at=at)

    try:
        guard._reader.share = 0.97
        guard.check()
        journal_pressure(Recorder(), guard.new_events())
        (event,) = journal.events(session)
        assert event.kind == "gpu_memory" and "degraded" in event.detail
    finally:
        guard.close()
        journal.close()
