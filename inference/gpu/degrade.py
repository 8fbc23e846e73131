"""The GPU pipeline under the memory-pressure policy: the same interface as the pipeline it wraps, with the
variant switched between frames when the device fills up, and switched back when it empties.

    guard = PressureGuard.open(model, engine="onnxruntime", batch=1, cuda_graph=True)
    result = guard.process(frame)            # reads the device's memory first (at most every poll_s)
    for event in guard.new_events(): ...     # one per change: a warning line, a journal event, a banner

A switch happens on the thread that runs frames, between two frames: the old variant is closed first (its
memory is what the device lacks), then the next one is opened. If an allocation fails while a frame runs,
the guard steps down at once and runs the same frame again on the lighter variant; if no GPU variant opens,
the detector moves to the CPU. So a frame is late under pressure, never lost.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from inference.errors import HangtagError
from inference.gpu.jpeg import is_device_frame
from inference.gpu.pressure import Level, MemoryReading, NvmlMemory, PressureEvent, PressurePolicy, PressureSettings

log = logging.getLogger(__name__)

Opener = Callable[[Level], Any]  # a pipeline for a level; raises when that variant cannot be opened


def is_out_of_memory(exc: BaseException) -> bool:
    """CUDA's and ONNX Runtime's ways of saying an allocation failed."""
    text = f"{type(exc).__name__} {exc}".lower()
    return any(k in text for k in ("out of memory", "outofmemory", "cudaerrormemoryallocation", "bfcarena",
                                   "failed to allocate", "cuda_error_out_of_memory"))


class PressureGuard:
    """Delegates to the pipeline of the current level (attributes it does not define itself come from that
    pipeline: thresholds, class_names, stats, frame_memory, backend …). Not thread-safe, like the pipeline."""

    def __init__(self, opener: Opener, *, reader: Callable[[], MemoryReading],
                 settings: PressureSettings | None = None, max_level: Level = Level.LIGHT,
                 clock: Callable[[], float] = time.monotonic, first: Any = None) -> None:
        self._opener = opener
        self._reader = reader
        self._clock = clock
        self.policy = PressurePolicy(settings, max_level=max_level)
        self.settings = self.policy.settings
        self.events: list[PressureEvent] = []
        self._seen = 0
        self._events_lock = threading.Lock()
        self._last_read = float("-inf")
        self.last_reading: MemoryReading | None = None
        self._pipeline = first if first is not None else opener(Level.NORMAL)

    # -- construction ----------------------------------------------------------------------------
    @classmethod
    def open(cls, model_path: Path | str, *, engine: str = "onnxruntime", device_id: int = 0,
             light_model: Path | str | None = None, settings: PressureSettings | None = None,
             reader: Callable[[], MemoryReading] | None = None, first: Any = None, **options: Any) -> PressureGuard:
        """The GPU pipeline as asked (NORMAL), batch 1 without a CUDA graph (SHRUNK), the same on
        `light_model` (LIGHT; without one the ladder stops at SHRUNK), and the CPU pipeline if no GPU
        variant can be opened."""
        from inference.gpu.pipeline import GpuPipeline

        normal = dict(options)
        shrunk = {**options, "batch": 1, "cuda_graph": False, "warmup": 1}

        def opener(level: Level) -> Any:
            if level == Level.NORMAL:
                return GpuPipeline.open(model_path, engine=engine, device_id=device_id, **normal)
            if level == Level.SHRUNK:
                return GpuPipeline.open(model_path, engine=engine, device_id=device_id, **shrunk)
            if level == Level.LIGHT:
                if light_model is None:
                    raise VariantMissing("no lighter model variant (FP16) prepared")
                return GpuPipeline.open(light_model, engine=engine, device_id=device_id, **shrunk)
            from inference.pipeline import Pipeline

            backend = "tensorrt" if engine == "tensorrt" else "onnxruntime-cpu"
            return Pipeline.open(model_path, "onnxruntime-cpu" if backend == "tensorrt" else backend)

        return cls(opener, reader=reader or NvmlMemory(device_id), settings=settings, first=first,
                   max_level=Level.LIGHT if light_model is not None else Level.SHRUNK)

    # -- the pipeline's interface --------------------------------------------------------------
    @property
    def pipeline(self) -> Any:
        return self._pipeline

    @property
    def level(self) -> Level:
        return self.policy.level

    @property
    def backend(self) -> str:
        return self._pipeline.backend

    def __getattr__(self, name: str) -> Any:  # only for names not found on the guard itself
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._pipeline, name)

    def process(self, image, **kwargs: Any):
        return self._run(lambda p: p.process(_for(p, [image])[0], **kwargs))

    def process_batch(self, images: Sequence, infos=None, **kwargs: Any):
        def run(p):
            images_ = _for(p, images)
            if len(images_) > getattr(p, "batch", len(images_)):  # a shrunk variant takes one frame at a time
                out = []
                for i, image in enumerate(images_):
                    out += p.process_batch([image], [infos[i]] if infos else None, **kwargs)
                return out
            return p.process_batch(images_, infos, **kwargs)

        return self._run(run)

    def close(self) -> None:
        pipeline, self._pipeline = self._pipeline, None
        if pipeline is not None:
            pipeline.close()

    def __enter__(self) -> PressureGuard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- pressure ------------------------------------------------------------------------------
    def new_events(self) -> list[PressureEvent]:
        """Events since the last call (the station's loop writes them to its log and journal)."""
        with self._events_lock:
            found, self._seen = self.events[self._seen:], len(self.events)
        return found

    def status_text(self) -> str:
        """The banner's text while degraded, '' at NORMAL."""
        if self.level == Level.NORMAL:
            return ""
        last = next((e for e in reversed(self.events) if e.after == self.level), None)
        return last.text if last is not None else ""

    def check(self) -> None:
        """Read the device (at most every poll_s) and switch if the policy says so."""
        now = self._clock()
        if now - self._last_read < self.settings.poll_s:
            return
        self._last_read = now
        try:
            reading = self._reader()
        except Exception as exc:  # a reading that fails must not stop inspection
            log.warning("GPU memory reading failed: %s", exc)
            return
        self.last_reading = reading
        target = self.policy.observe(reading, now)
        if target is not None:
            self._switch(target, reading, "pressure" if target > self._current_level else "calm")

    def _run(self, call: Callable[[Any], Any]):
        self.check()
        try:
            return call(self._pipeline)
        except Exception as exc:
            if not is_out_of_memory(exc) or self.level >= Level.CPU:
                raise
            log.warning("GPU allocation failed during a frame (%s): stepping down and running it again", exc)
            self._switch(Level(self.level + 1), self.last_reading, "allocation failed")
            return call(self._pipeline)

    @property
    def _current_level(self) -> Level:
        return self.events[-1].after if self.events else Level.NORMAL

    def _switch(self, target: Level, reading: MemoryReading | None, cause: str) -> None:
        before = self._current_level
        t0 = time.perf_counter()
        old, self._pipeline = self._pipeline, None
        thresholds = getattr(old, "thresholds", None)
        old.close()  # first: under pressure its memory is what the next variant needs
        level = target
        while self._pipeline is None:  # the target, else ever lighter down to the CPU
            try:
                self._pipeline = self._opener(level)
            except Exception as exc:
                if level >= Level.CPU:
                    raise
                log.warning("GPU memory pressure: the %s variant did not open (%s: %s)", level.name.lower(),
                            type(exc).__name__, exc)
                if is_out_of_memory(exc):
                    cause = "allocation failed"
                level = Level(level + 1)
        if thresholds is not None:
            self._pipeline.set_thresholds(thresholds)
        self.policy.forced(level, self._clock())
        if level == before:
            return
        event = PressureEvent(time.time(), before, level, reading, cause, (time.perf_counter() - t0) * 1000.0)
        with self._events_lock:
            self.events.append(event)
        (log.warning if event.degraded else log.info)("%s (switch %.0f ms)", event.text, event.switch_ms)


class VariantMissing(HangtagError):
    """The level's variant does not exist here (e.g. no FP16 model): not an allocation failure."""

    def __init__(self, message: str) -> None:
        super().__init__(message, expected="a lighter model variant", found="none prepared",
                         hint="prepare an FP16 copy (hangtag-inspect precision) to let the station step down further")


def _for(pipeline: Any, images: Sequence) -> list:
    """Frames decoded on the GPU (inference/gpu/jpeg.py) as host arrays when the variant in use is the CPU
    Pipeline (the last step down); unchanged for a GPU pipeline."""
    if hasattr(pipeline, "letterbox"):
        return list(images)
    return [image.to_host() if is_device_frame(image) else image for image in images]


def guard_pressure(pipeline: Any, model_path: Path | str, *, engine: str, device_id: int = 0,
                   environ: dict[str, str] | None = None, **options: Any) -> Any:
    """The station's GPU pipeline under the pressure policy (unless HANGTAG_GPU_PRESSURE=0). The lighter
    variant is the model's FP16 copy (HANGTAG_GPU_LIGHT_MODEL names another), made once through the precision
    cache; without one the ladder stops at SHRUNK, said in the log."""
    import os

    env = os.environ if environ is None else environ
    if env.get("HANGTAG_GPU_PRESSURE", "1").strip() == "0":
        return pipeline
    try:
        settings = PressureSettings.from_environment(env)
        reader = NvmlMemory(device_id)
        reader()
    except Exception as exc:  # no reading, no policy: the pipeline runs as before
        log.warning("GPU memory pressure not watched: %s", exc)
        return pipeline
    light = env.get("HANGTAG_GPU_LIGHT_MODEL", "").strip() or None
    if light is None:
        try:
            from inference.precision.prepare import prepare_model

            light = str(prepare_model(model_path, "fp16", "tensorrt" if engine == "tensorrt" else "onnxruntime-cuda"))
        except Exception as exc:
            log.warning("GPU memory pressure: no FP16 variant (%s); the station can only shrink its batch and pools",
                        getattr(exc, "message", exc))
    return PressureGuard.open(model_path, engine=engine, device_id=device_id, light_model=light, settings=settings,
                              reader=reader, first=pipeline, **options)


def pressure_guard(inspector: Any) -> PressureGuard | None:
    """The inspector's pressure guard, or None (CPU backends, HANGTAG_GPU_PRESSURE=0)."""
    pipeline = getattr(inspector, "pipeline", None)
    return pipeline if isinstance(pipeline, PressureGuard) else None


def journal_pressure(recorder: Any, events: Sequence[PressureEvent]) -> None:
    """Into the station's journal, under the session being recorded (if one is open)."""
    for event in events:
        recorder.note_event(event.journal_kind, event.after.name.lower(), event.text, at=event.at)
