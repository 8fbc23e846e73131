"""`hangtag-inspect cameras --bench SPEC`: an industrial camera's acquisition at the producer's rate, then
acquisition → result through the station's own path (the newest-frame grabber, the Inspector), and where the
camera takes software triggers, trigger → result one trigger at a time.

Frames go into lent frames from ordinary memory, which stands in for the GPU pipeline's page-locked frames
(the lending does not depend on what the memory is): a frame in a lent frame reaches the GPU pipeline with
no further host copy; one that found every lent frame out costs the pipeline one more (counted as extra).
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from inference.cameras.acquisition import CameraSource
from inference.cameras.settings import Trigger
from inference.cameras.specs import settings_of, with_settings
from inference.errors import SourceError
from inference.sources import Frame, FrameError, FrameSource, open_source

FAKE_SPEC = "aravis:GVBENCH?pixel_format=Mono8&frame_rate=1000"


def ordinary_memory(shape: tuple[int, ...]) -> np.ndarray:
    return np.empty(shape, np.uint8)


class _Stamped(FrameSource):
    """The camera's frames, each stamped with when the source handed it over (acquisition → result starts)."""

    live = True

    def __init__(self, camera: CameraSource) -> None:
        self.camera = camera
        self.description = camera.description
        self.handed_ns: dict[str, int] = {}

    def lend_frames(self, memory) -> None:
        self.camera.lend_frames(memory)

    def frames(self):
        for item in self.camera.frames():
            if isinstance(item, Frame):
                self.handed_ns[item.name] = time.perf_counter_ns()
            yield item

    def close(self) -> None:
        self.camera.close()


def _acquire_only(camera: CameraSource, seconds: float) -> dict[str, float]:
    camera.lend_frames(ordinary_memory)
    start = time.perf_counter()
    before = camera.counts.delivered
    for item in camera.frames():
        del item  # dropped at once: the lent frame goes straight back
        if time.perf_counter() - start >= seconds:
            break
    elapsed = time.perf_counter() - start
    counts = camera.counts
    return {"fps": (counts.delivered - before) / elapsed, "delivered": counts.delivered, "lost": counts.lost,
            "incomplete": counts.incomplete, "copies_per_frame": counts.host_copies / max(counts.delivered, 1),
            "extra_copies": counts.in_own_memory, "in_lent": counts.in_lent_frames,
            "convert_ms": counts.convert_ms / max(counts.delivered, 1)}


def _to_results(spec: str, model: Path, seconds: float) -> dict[str, float]:
    from inference.inspection import Inspector
    from inference.live import LatestFrameGrabber

    camera = open_source(spec)
    stamped = _Stamped(camera)  # type: ignore[arg-type]
    latencies: list[float] = []
    outside: list[float] = []  # latency less the inspection itself: the acquisition path's share
    with Inspector.open(model, "onnxruntime-cpu", read=False) as inspector:
        stamped.lend_frames(ordinary_memory)
        grabber = LatestFrameGrabber(stamped)
        try:
            start = time.perf_counter()
            while time.perf_counter() - start < seconds:
                item = grabber.take(0.2)
                if not isinstance(item, Frame):
                    continue
                result = inspector.inspect(item)
                if result.ok:
                    latencies.append((time.perf_counter_ns() - stamped.handed_ns.pop(item.name)) / 1e6)
                    # the result's total counts the source's decode (the conversion), done before the hand-over
                    outside.append(latencies[-1] - (result.timings.total_ms - item.decode_ms))
                del item, result
        finally:
            grabber.close()
    counts = camera.counts  # type: ignore[attr-defined]
    p50, p95 = np.percentile(latencies, [50, 95]) if latencies else (0.0, 0.0)
    return {"results": len(latencies), "p50_ms": float(p50), "p95_ms": float(p95), "lost": counts.lost,
            "outside_p50_ms": float(np.percentile(outside, 50)) if outside else 0.0,
            "incomplete": counts.incomplete, "grabber_dropped": grabber.dropped, "delivered": counts.delivered,
            "copies_per_frame": counts.host_copies / max(counts.delivered, 1), "extra_copies": counts.in_own_memory}


def _reconnect_times(camera: CameraSource, unplug, plug, cycles: int) -> list[float]:
    """Seconds from the camera being back (`plug` returned) to its next frame, over `cycles` unplug/plug
    cycles while the source runs; the source must also have said "camera lost" in between."""
    times: list[float] = []
    frames = camera.frames()
    for _ in range(cycles):
        _next_frame(frames)
        unplug()
        while not isinstance(next(frames), FrameError):
            pass
        plug()
        back = time.perf_counter()
        _next_frame(frames)
        times.append(time.perf_counter() - back)
    frames.close()
    return times


def _next_frame(frames, budget_s: float = 30.0) -> Frame:
    start = time.perf_counter()
    for item in frames:
        if isinstance(item, Frame):
            return item
        if time.perf_counter() - start > budget_s:
            break
    raise SourceError("the camera gave no frame", expected=f"a frame within {budget_s} s", found="none")


def _producer_loop_rate(camera: CameraSource, seconds: float) -> tuple[float, int]:
    """harvesters' fetch/queue loop alone on the same camera, nothing converted: what the producer gives
    (GenICam only; None elsewhere). Frames/s and frames lost (id gaps)."""
    acquirer = getattr(camera, "acquirer", None)
    if acquirer is None:
        return 0.0, 0
    start, delivered, lost, last = time.perf_counter(), 0, 0, None
    while time.perf_counter() - start < seconds:
        with acquirer.fetch(timeout=1.0) as buffer:
            frame_id = int(buffer.frame_id)
        delivered += 1
        lost += frame_id - last - 1 if last is not None and frame_id > last + 1 else 0
        last = frame_id
    return delivered / (time.perf_counter() - start), lost


def _triggered(spec: str, model: Path, count: int) -> dict[str, float]:
    """`count` software triggers, one at a time as the station sends them (the Step key, the trigger folder,
    the PLC): trigger → frame handed over, trigger → result, and whether every trigger got exactly its own frame."""
    from inference.inspection import Inspector

    camera = open_source(with_settings(spec, replace(settings_of(spec), trigger=Trigger("software"))))
    to_frame: list[float] = []
    to_result: list[float] = []
    answered = wrong = 0
    with Inspector.open(model, "onnxruntime-cpu", read=False) as inspector:
        camera.lend_frames(ordinary_memory)
        frames = camera.frames()
        try:
            start = time.perf_counter()
            for trigger_id in range(1, count + 1):
                sent = time.perf_counter_ns()
                camera.trigger(trigger_id)
                item = _next_frame(frames, budget_s=5.0)
                handed = time.perf_counter_ns()
                wrong += item.trigger_id != trigger_id
                result = inspector.inspect(item)
                answered += result.ok
                to_frame.append((handed - sent) / 1e6)
                to_result.append((time.perf_counter_ns() - sent) / 1e6)
                del item, result
            elapsed = time.perf_counter() - start
        finally:
            frames.close()
            camera.close()
    counts = camera.counts  # type: ignore[attr-defined]
    return {"triggers": count, "answered": answered, "wrong_id": wrong, "rate": count / elapsed,
            "frame_p50": float(np.percentile(to_frame, 50)), "frame_p95": float(np.percentile(to_frame, 95)),
            "result_p50": float(np.percentile(to_result, 50)), "result_p95": float(np.percentile(to_result, 95)),
            "delivered": counts.delivered, "lost": counts.lost, "incomplete": counts.incomplete,
            "copies_per_frame": counts.host_copies / max(counts.delivered, 1), "extra_copies": counts.in_own_memory}


def run_bench(spec: str, *, seconds: float = 5.0, model: Path | None = None, triggers: int = 100) -> int:
    from inference.resources import default_model_path

    fake = None
    if spec == "fake-gige":
        from inference.cameras.fake import FakeGigECamera

        fake, spec = FakeGigECamera("GVBENCH").start(), FAKE_SPEC
    try:
        camera = open_source(spec)
        described = f"{camera.description}, {camera.readback['pixel_format'].value} " \
                    f"{camera.readback['width'].value}x{camera.readback['height'].value} " \
                    f"at {camera.readback['frame_rate'].value} fps asked"
        can_trigger = all(camera.nodes.has(node) for node in ("TriggerMode", "TriggerSoftware"))
        try:
            raw_fps, raw_lost = _producer_loop_rate(camera, seconds)
            alone = _acquire_only(camera, seconds)
        finally:
            camera.close()
        print(f"camera: {described}")
        if raw_fps:
            print(f"producer loop alone (harvesters fetch/queue, nothing converted): {raw_fps:.1f} frames/s, "
                  f"lost {raw_lost}")
        print(f"acquisition alone: {alone['fps']:.1f} frames/s delivered, lost {alone['lost']}, incomplete "
              f"{alone['incomplete']} of {alone['delivered']}; host copies per frame {alone['copies_per_frame']:.2f} "
              f"(producer buffer → frame, {alone['convert_ms']:.3f} ms), extra on the lent-frame path "
              f"{alone['extra_copies']} ({alone['in_lent']} frames in lent memory)")
        camera = open_source(spec)
        try:
            if fake is not None:  # the camera killed and restarted: a cable pulled and plugged back
                times = _reconnect_times(camera, fake.stop, fake.start, cycles=5)
                how = "fake GigE camera killed and restarted"
            else:  # the producer invalidates the acquirer, as it does when its device goes away
                times = _reconnect_times(camera, lambda: camera.acquirer.destroy(), lambda: None, cycles=5)
                how = "acquirer destroyed under the source"
        finally:
            camera.close()
        print(f"reconnect ({how}, 5 times): back to frames in p50 {np.percentile(times, 50):.2f} s, "
              f"max {max(times):.2f} s after the camera was back; lost {camera.counts.camera_lost}, "
              f"found again {camera.counts.reconnects}")
        model = model or default_model_path()
        through = _to_results(spec, model, seconds)
        print(f"acquisition → result ({model.name}, onnxruntime-cpu, newest frame): {through['results']} results, "
              f"latency p50 {through['p50_ms']:.1f} ms, p95 {through['p95_ms']:.1f} ms (outside the inspection "
              f"p50 {through['outside_p50_ms']:.2f} ms); lost at the producer "
              f"{through['lost']}, incomplete {through['incomplete']}, skipped by the grabber (station slower than "
              f"the camera) {through['grabber_dropped']} of {through['delivered']}; host copies per frame "
              f"{through['copies_per_frame']:.2f}, extra on the lent-frame path {through['extra_copies']}")
        if triggers and can_trigger:
            hit = _triggered(spec, model, triggers)
            print(f"software trigger → result ({triggers} triggers, one in flight at a time): {hit['answered']} "
                  f"inspected, {hit['wrong_id']} with another trigger's id, {hit['rate']:.1f} triggers/s; trigger → "
                  f"frame p50 {hit['frame_p50']:.1f} ms, p95 {hit['frame_p95']:.1f} ms; trigger → result p50 "
                  f"{hit['result_p50']:.1f} ms, p95 {hit['result_p95']:.1f} ms; frames {hit['delivered']}, lost "
                  f"{hit['lost']}, incomplete {hit['incomplete']}; host copies per frame "
                  f"{hit['copies_per_frame']:.2f}, extra on the lent-frame path {hit['extra_copies']}")
        elif triggers:
            print("software trigger → result: not measured (the camera has no TriggerSoftware node)")
    finally:
        if fake is not None:
            fake.stop()
    return 0
