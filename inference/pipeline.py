"""The Qt-free pipeline: one engine, frames in, immutable FrameResults out.

Keeps the last frame's raw model output so thresholds can be re-applied without the engine,
and hands every result its own candidate set (in original pixels) for what-if re-filtering.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from inference.decode import Candidates, decode, infer_layout, num_classes_for
from inference.detections import Detections
from inference.engines import Engine, create_engine, default_backend
from inference.errors import ModelError
from inference.model_info import ModelSpec, read_model_spec
from inference.postprocess import CANDIDATE_FLOOR, Thresholds, select
from inference.preprocess import LetterboxTransform, Letterboxer
from inference.telemetry import MemorySample, RollingStats, StageClock, StageTimings, sample_memory

DEFAULT_INPUT_HW = (640, 640)


@dataclass(frozen=True)
class FrameResult:
    """Everything known about one inspected frame. Safe to hand to another thread."""

    index: int
    source_name: str
    source_path: str | None
    image_hw: tuple[int, int]
    detections: Detections
    candidates: Candidates
    thresholds: Thresholds
    timings: StageTimings
    memory: MemorySample | None = None
    readings: tuple[Any, ...] = ()
    verdict: Any = None
    error: str | None = None
    timestamp: float = field(default_factory=time.time)

    @property
    def ok(self) -> bool:
        return self.error is None

    def refiltered(self, thresholds: Thresholds) -> Detections:
        return select(self.candidates, self.detections.class_names, thresholds)

    def with_(self, **changes: Any) -> FrameResult:
        return replace(self, **changes)


def error_result(index: int, name: str, path: str | None, message: str, thresholds: Thresholds,
                 class_names: tuple[str, ...] = ()) -> FrameResult:
    """The record of a frame that could not be inspected: kept, shown and journaled like the rest."""
    empty = Candidates(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int32))
    return FrameResult(index, name, path, (0, 0), Detections.empty(class_names), empty, thresholds,
                       StageTimings({}, 0.0), error=message)


class Pipeline:
    """Owns one engine. Not thread-safe by design: one pipeline per worker thread (one lock guards misuse)."""

    def __init__(self, engine: Engine, *, thresholds: Thresholds | None = None, input_hw: tuple[int, int] | None = None,
                 layout: str | None = None, sample_memory_every: int = 1) -> None:
        self.engine = engine.load() if not engine.is_loaded else engine
        self.spec: ModelSpec = read_model_spec(engine.model_path, engine.metadata)
        self.thresholds = thresholds or Thresholds()
        self.stats = RollingStats()
        self.sample_memory_every = max(0, sample_memory_every)
        self._lock = threading.Lock()
        input_spec = engine.inputs[0]
        self.input_name = input_spec.name
        self.input_hw = self._resolve_input_hw(input_spec.shape, input_hw)
        self.letterbox = Letterboxer(self.input_hw, dtype=input_spec.dtype)
        self._last_raw: np.ndarray | None = None
        self._last_transform: LetterboxTransform | None = None
        self._frames = 0
        # One run on a blank frame at load (also the warm-up): the real output shape picks the
        # decoder, so a model whose layout fits nothing fails here, not mid-shift.
        warm_shape = self._warm_up()
        self.layout = layout or self.spec.layout or infer_layout(warm_shape, len(self.spec.class_names) or None)
        n_classes = len(self.spec.class_names) or num_classes_for(self.layout, warm_shape)
        self.class_names = self.spec.class_names or tuple(f"class_{i}" for i in range(n_classes))
        self.num_classes = len(self.class_names)

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def open(cls, model_path: Path | str, backend: str | None = None, **options: Any) -> Pipeline:
        engine_options = {k: options.pop(k) for k in ("threads", "device_id") if k in options}
        engine = create_engine(backend or default_backend(), Path(model_path), **engine_options)
        try:
            return cls(engine, **options)
        except Exception:
            engine.close()
            raise

    def __enter__(self) -> Pipeline:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.engine.close()

    def _resolve_input_hw(self, shape: tuple[int, ...], override: tuple[int, int] | None) -> tuple[int, int]:
        if len(shape) != 4:
            raise ModelError("the model input is not an image batch", expected="[N, 3, H, W]", found=str(list(shape)))
        static = (shape[2], shape[3]) if shape[2] > 0 and shape[3] > 0 else None
        if static:
            return static
        chosen = override or self.spec.input_hw or DEFAULT_INPUT_HW
        stride = self.spec.stride
        if chosen[0] % stride or chosen[1] % stride:
            raise ModelError("input size is not a multiple of the model stride", expected=f"multiples of {stride}",
                             found=f"{chosen[0]}×{chosen[1]}")
        return (int(chosen[0]), int(chosen[1]))

    def _warm_up(self) -> tuple[int, ...]:
        self.letterbox(np.full((*self.input_hw, 3), 114, np.uint8))
        raw = self.engine.infer({self.input_name: self.letterbox.tensor})[self.engine.outputs[0].name]
        return tuple(raw.shape)

    # -- running -------------------------------------------------------------------------------
    def process(self, image_bgr: np.ndarray, *, source_name: str = "frame", source_path: str | None = None,
                index: int | None = None, decode_ms: float = 0.0) -> FrameResult:
        with self._lock:
            clock = StageClock()
            if decode_ms:
                clock.add_ns("decode", int(decode_ms * 1e6))
            with clock.stage("preprocess"):
                transform = self.letterbox(image_bgr)
            outputs = self.engine.infer({self.input_name: self.letterbox.tensor})
            for stage, ns in self.engine.last_stage_ns.items():
                clock.add_ns(stage, ns)
            with clock.stage("postprocess"):
                raw = outputs[self.engine.outputs[0].name]
                self._last_raw, self._last_transform = raw, transform
                candidates = self._candidates(raw, transform)
                detections = select(candidates, self.class_names, self.thresholds)
            timings = clock.finish()
            if decode_ms:  # decode happened before the clock started; count it in the total
                timings = StageTimings(timings.stages_ms, timings.total_ms + decode_ms)
            self.stats.add(timings)
            frame_index = self._frames if index is None else index
            self._frames += 1
            memory = sample_memory() if self.sample_memory_every and self._frames % self.sample_memory_every == 0 else None
            return FrameResult(frame_index, source_name, source_path, tuple(image_bgr.shape[:2]), detections,
                               candidates, self.thresholds, timings, memory)

    def _candidates(self, raw: np.ndarray, transform: LetterboxTransform) -> Candidates:
        found = decode(raw, self.layout, self.num_classes, CANDIDATE_FLOOR)
        return Candidates(transform.to_original(found.xyxy), found.score, found.class_id, found.already_suppressed)

    def refilter_last(self, thresholds: Thresholds) -> Detections:
        """Re-apply thresholds to the last frame's raw output, without running the engine."""
        if self._last_raw is None or self._last_transform is None:
            return Detections.empty(self.class_names)
        floor = min(CANDIDATE_FLOOR, thresholds.floor)
        found = decode(self._last_raw, self.layout, self.num_classes, floor)
        mapped = Candidates(self._last_transform.to_original(found.xyxy), found.score, found.class_id,
                            found.already_suppressed)
        return select(mapped, self.class_names, thresholds)

    def set_thresholds(self, thresholds: Thresholds) -> None:
        self.thresholds = thresholds

    @property
    def backend(self) -> str:
        return self.engine.backend_name

    @property
    def frames_processed(self) -> int:
        return self._frames
