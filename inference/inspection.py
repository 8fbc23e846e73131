"""Detection + reading + verdict for one frame: what the station, the CLI and the self-test share.

The pipeline finds the tags; the reader (optional) reads each one; the recipe (optional) judges.
Without a recipe there is no verdict to give, and results say so rather than inventing an OK.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np

from inference.pipeline import FrameResult, Pipeline, error_result
from inference.postprocess import Thresholds
from inference.sources import Frame, FrameError, FrameSource, Waiting


# Reading's allowance per frame: several times a busy line's worst frame on a 2-core station, far under "frozen".
READ_BUDGET_S = 15.0


class FrameAborted(Exception):
    """Stop was pressed while this frame was between stages; the caller inspects it again later."""


class ReadBudget:
    """Reading's time allowance for one frame, asked between tags alongside the operator's Stop."""

    def __init__(self, seconds: float, stop: Callable[[], bool] | None) -> None:
        self.seconds = seconds
        self._stop = stop
        self._deadline = time.perf_counter() + seconds
        self.spent = False

    def should_stop(self) -> bool:
        if self._stop is not None and self._stop():
            return True
        self.spent = self.spent or time.perf_counter() > self._deadline
        return self.spent


def too_long(verdict: Any, budget: ReadBudget, recipe: Any) -> Any:
    """A frame whose reading ran out of time is never OK: tags left unread are doubt. An NG found on what was read
    stays NG; but more hangtags than the recipe allows is no finding when boxes were left unread — the reader is what
    tells a box that is part of a tag, or no tag at all, from a second tag (fifteenth_b 000005 under load: a box
    inside the tag's own, unread, counted as a second tag: a good tag NG). "More than allowed" is the recipe's own
    count rule against the count read, not the check's wording."""
    from dataclasses import replace

    from inference.reading.verdict import Check, FrameVerdict, Verdict

    reason = f"reading took too long (over {budget.seconds:g} s): tags were left unread (check this tag by hand)"
    check = Check("time", None, f"reading within {budget.seconds:g} s", "over budget", None, "station",
                  Verdict.REVIEW, reason)
    checks, reasons = [], list(verdict.reasons)
    for c in verdict.checks:
        if c.subject == "count:hangtag" and c.verdict is Verdict.NG and _more_than_allowed(c.read, recipe, "hangtag"):
            doubted = f"{c.reason}, but boxes were left unread: parts of one tag or no tags at all are not told apart"
            reasons = [doubted if r == c.reason else r for r in reasons]
            c = replace(c, verdict=Verdict.REVIEW, reason=doubted)
        checks.append(c)
    worst = Verdict.NG if any(c.verdict is Verdict.NG for c in checks) or (verdict.verdict is Verdict.NG and not checks) \
        else Verdict.REVIEW
    ng = [r for r in reasons if any(c.reason == r and c.verdict is Verdict.NG for c in checks)]
    return FrameVerdict(worst, tuple(ng + [r for r in reasons if r not in ng]) + (reason,), tuple(checks) + (check,),
                        verdict.parts)


def _more_than_allowed(read: str, recipe: Any, class_name: str) -> bool:
    """Whether a count check's count ('3') is above its recipe rule's maximum."""
    rule = next((r for r in getattr(recipe, "counts", ()) if r.class_name == class_name), None)
    return rule is not None and read.isdigit() and int(read) > rule.max


def _with_stage(result: FrameResult, stage: str, ms: float) -> FrameResult:
    from inference.telemetry import StageTimings

    stages = dict(result.timings.stages_ms)
    stages[stage] = ms
    return result.with_(timings=StageTimings(stages, result.timings.total_ms + ms))


class Inspector:
    read_budget_s = READ_BUDGET_S
    reader_note = ""  # why the reader does not run where the detector does (e.g. the fleet lacks the OCR models)

    def __init__(self, pipeline: Pipeline, *, reader: Any = None, recipe: Any = None) -> None:
        self.pipeline = pipeline
        self.reader = reader
        self.recipe = recipe

    @classmethod
    def open(cls, model: Path | str, backend: str | None = None, *, recipe_path: Path | None = None,
             read: bool = True, **pipeline_options: Any) -> Inspector:
        recipe = _load_recipe(recipe_path)
        return cls.around(_open_pipeline(model, backend, pipeline_options), read=read, recipe=recipe)

    @classmethod
    def around(cls, pipeline: Pipeline, *, read: bool = True, recipe: Any = None) -> Inspector:
        """An inspector over a pipeline the caller opened (closed with it, also when the reader fails)."""
        reader, note = None, ""
        if read:
            try:
                reader, note = open_reader_for(pipeline.backend)
            except Exception:
                pipeline.close()
                raise
        inspector = cls(pipeline, reader=reader, recipe=recipe)
        inspector.reader_note = note
        return inspector

    def __enter__(self) -> Inspector:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.pipeline.close()
        if self.reader is not None and hasattr(self.reader, "close"):
            self.reader.close()

    @property
    def recipe_name(self) -> str:
        return getattr(self.recipe, "name", "") if self.recipe is not None else ""

    # -- one frame ---------------------------------------------------------------------------------
    def inspect(self, item: Frame | FrameError, should_stop: Callable[[], bool] | None = None) -> FrameResult:
        if isinstance(item, FrameError):
            return error_result(item.index, item.name, item.path, item.message, self.pipeline.thresholds,
                                self.pipeline.class_names)
        return self.inspect_image(item.image, source_name=item.name, source_path=item.path, index=item.index,
                                  decode_ms=item.decode_ms, should_stop=should_stop)

    def inspect_image(self, image: np.ndarray, *, source_name: str = "frame", source_path: str | None = None,
                      index: int | None = None, decode_ms: float = 0.0,
                      should_stop: Callable[[], bool] | None = None) -> FrameResult:
        """`should_stop` is asked between stages; when it says yes the frame is abandoned (FrameAborted)
        rather than half-inspected, so Stop never has to wait for the slow reading stage."""
        result = self.pipeline.process(image, source_name=source_name, source_path=source_path, index=index,
                                       decode_ms=decode_ms)
        readings: tuple = ()
        budget = None
        if self.reader is not None:
            if should_stop is not None and should_stop():
                raise FrameAborted(source_name)
            start = time.perf_counter_ns()
            budget = ReadBudget(self.read_budget_s, should_stop)
            asked, should_stop = should_stop, budget.should_stop
            # asked between tags: a Stop mid-frame abandons it; a spent budget ends reading with what was read
            readings = tuple(self._read(image, result.detections, should_stop))
            if asked is not None and asked():
                raise FrameAborted(source_name)
            read_ms = (time.perf_counter_ns() - start) / 1e6
            stages = dict(result.timings.stages_ms)
            stages["read"] = read_ms
            from inference.telemetry import StageTimings

            result = result.with_(timings=StageTimings(stages, result.timings.total_ms + read_ms))
        start = time.perf_counter_ns()
        verdict = self._judge(result.detections, readings)
        if verdict is not None and budget is not None and budget.spent:
            verdict = too_long(verdict, budget, self.recipe)
        result = _with_stage(result, "judge", (time.perf_counter_ns() - start) / 1e6)
        return result.with_(readings=readings, verdict=verdict)

    def _read(self, image: np.ndarray, detections, should_stop):
        """With a recipe the reader verifies each tag against it (re-reading what is in doubt)."""
        return self.reader.read(image, detections, should_stop=should_stop, recipe=self.recipe)

    def _judge(self, detections, readings):
        return judge_frame(self.recipe, detections, readings)

    @property
    def frame_memory(self):
        """Where a source should read frames for this pipeline: the GPU pipeline's page-locked frames (uploaded
        with no host copy), or None (ordinary memory) for the host-preprocessing pipeline."""
        return getattr(self.pipeline, "frame_memory", None)

    def run(self, source: FrameSource) -> Iterator[FrameResult]:
        source.lend_frames(self.frame_memory)
        try:
            for item in source.frames():
                if not isinstance(item, Waiting):
                    yield self.inspect(item)
        finally:
            source.close()

    def rejudge(self, result: FrameResult, thresholds: Thresholds) -> FrameResult:
        return rejudge(result, thresholds, self.recipe)

    # -- words ---------------------------------------------------------------------------------------
    @staticmethod
    def verdict_text(result: FrameResult) -> str:
        if not result.ok:
            return "ERROR"
        if result.verdict is None:
            return "no recipe"
        value = getattr(result.verdict, "verdict", result.verdict)
        return str(getattr(value, "value", value))

    def describe(self, result: FrameResult) -> str:
        if not result.ok:  # one line, the expected / found / hint included: a log line is all a service leaves
            parts = [" ".join(line.split()) for line in result.error.splitlines() if line.strip()]
            return f"{result.source_name}: ERROR {' | '.join(parts)}"
        counts: dict[str, int] = {}
        for label in result.detections.labels:
            counts[label] = counts.get(label, 0) + 1
        found = ", ".join(f"{n} {name}" for name, n in sorted(counts.items())) or "nothing found"
        reasons = list(getattr(result.verdict, "reasons", ()) or ())
        tail = f" — {'; '.join(reasons)}" if reasons else ""
        return (f"{result.source_name}: {self.verdict_text(result)} | {found} | "
                f"{result.timings.total_ms:.0f} ms{tail}")


def open_reader_for(detector_backend: str) -> tuple[Any, str]:
    """The reader on the detector's side: the GPU when the detector runs there, the Triton fleet when it
    serves the OCR models (triton-repo writes them beside the detector), else this station's CPU.
    Returns (reader, note): the note says why reading stays on the station although the detector is remote."""
    from inference.reading import TagReader

    if detector_backend == "triton":
        from inference.engines.triton import TritonUnavailableError

        try:
            reader = TagReader.open("triton")
        except TritonUnavailableError as exc:  # the fleet answers but serves no OCR models: read here
            note = f"OCR runs on this station: the Triton servers do not serve it ({exc.expected}; found {exc.found})"
            logging.getLogger(__name__).warning("%s", note)
            return TagReader.open("onnxruntime-cpu"), note
        engines = (reader.detector.engine, reader.recognizer.engine)
        if all(getattr(engine, "served", True) for engine in engines):
            return reader, ""
        # opened on the local fallback only (HANGTAG_TRITON_FALLBACK=local): no server serves the OCR models, so
        # every frame would raise "no server answers" for them; read here, plainly
        reader.close()
        note = "OCR runs on this station: no Triton server serves the OCR models (the detector's fleet is used for detection)"
        logging.getLogger(__name__).warning("%s", note)
        return TagReader.open("onnxruntime-cpu"), note
    # OCR runs on ONNX Runtime too: on the GPU when the detector does (any of the GPU pipeline's names), else on
    # the CPU; placement.py says why when a GPU detector's reader cannot follow it.
    from inference.reading.placement import reader_backend_for

    backend, note = reader_backend_for(detector_backend)
    if note:
        logging.getLogger(__name__).warning("%s", note)
    return TagReader.open(backend), note


def _load_recipe(path: Path | None) -> Any:
    if path is None:
        return None
    from inference.reading import load_recipe

    return load_recipe(path)


def _open_pipeline(model: Path | str, backend: str | None, options: dict[str, Any]):
    """ONNX Runtime CUDA and TensorRT get the GPU pipeline (letterbox, decode and NMS on the device) where
    cuda-python and NVRTC are present; they fall back to host preprocessing and say why."""
    from inference.engines import default_backend

    backend = backend or default_backend()
    if backend in ("onnxruntime-cuda", "tensorrt"):
        from inference.gpu.fallback import open_pipeline

        choice = open_pipeline(model, backend=backend, **options)
        if not choice.gpu:
            logging.getLogger(__name__).warning("GPU pipeline not used: %s", choice.reason)
        return choice.pipeline
    return Pipeline.open(model, backend, **options)


def judge_frame(recipe: Any, detections, readings):
    if recipe is None:
        return None
    from inference.reading import judge

    return judge(recipe, detections, readings)


def rejudge(result: FrameResult, thresholds: Thresholds, recipe: Any) -> FrameResult:
    """Re-filter the cached candidates and judge again, without the engine or the reader.

    Readings of tags that vanished at the new thresholds are dropped; a tag that only appears
    at the new thresholds has no reading, and the verdict treats it as unread.
    """
    if not result.ok:
        return result
    detections = result.refiltered(thresholds)
    kept = tuple(r for r in result.readings if _still_present(r.xyxy, detections))
    return result.with_(detections=detections, thresholds=thresholds, readings=kept,
                        verdict=judge_frame(recipe, detections, kept))


def count_flips(results: list[FrameResult], thresholds: Thresholds, recipe: Any) -> tuple[int, int]:
    """(verdicts that would change, frames compared) if `thresholds` had been used."""
    flips = compared = 0
    for result in results:
        if not result.ok:
            continue
        compared += 1
        if Inspector.verdict_text(rejudge(result, thresholds, recipe)) != Inspector.verdict_text(result):
            flips += 1
    return flips, compared


def _still_present(box: tuple[float, float, float, float], detections) -> bool:
    if len(detections) == 0:
        return False
    b = np.asarray(box, dtype=np.float32)
    d = detections.xyxy
    ix = np.clip(np.minimum(b[2], d[:, 2]) - np.maximum(b[0], d[:, 0]), 0, None)
    iy = np.clip(np.minimum(b[3], d[:, 3]) - np.maximum(b[1], d[:, 1]), 0, None)
    inter = ix * iy
    union = (b[2] - b[0]) * (b[3] - b[1]) + (d[:, 2] - d[:, 0]) * (d[:, 3] - d[:, 1]) - inter
    return bool(np.any(inter / np.maximum(union, 1e-9) > 0.5))
