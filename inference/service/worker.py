"""One inference worker: its own pipeline (own engine session / execution context) and tag reader, run on
its own thread by the batcher. /detect requests of a batch go through the engine's batch input in one
call when the model's batch dimension is dynamic; /inspect requests go through the station's Inspector.
With a GPU JPEG decoder (`jpeg`, inference/gpu/jpeg.py) the /detect JPEGs a batch brings undecoded are decoded
together in one call, into device memory the GPU pipeline reads from: no CPU decode, no staging copy.

A batch goes through two stages, `decode_batch` then `infer_batch`. Calling the worker runs both in turn on the
calling thread (the default); with `serve`'s decode_ahead the batcher runs them on two threads of the worker's own so
that batch N+1 decodes while batch N infers. On the H200 that raised the saturated rate by 12 % but not the rate
within P99 25 ms: two workers' four threads stretched every GPU stage of a batch by half (BENCHMARKS.md, issue 20,
twentieth session)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from inference.decode import Candidates, decode
from inference.detections import Detections
from inference.errors import BackendUnavailableError, HangtagError
from inference.inspection import Inspector
from inference.pipeline import FrameResult
from inference.postprocess import CANDIDATE_FLOOR, Thresholds, select
from inference.preprocess import Letterboxer
from inference.service.decoding import undecodable
from inference.service.errors import InferenceFailed
from inference.service.journaling import JournalSink
from inference.telemetry import StageTimings, sample_memory

DETECT, INSPECT = "detect", "inspect"


@dataclass(frozen=True)
class Job:
    """One request's work, owned by the worker once submitted (the image is not shared)."""

    kind: str
    image: Any  # BGR pixels (numpy, or a DeviceFrame once decoded on the GPU); None: `body` is still a JPEG
    thresholds: Thresholds
    request_id: str
    decode_ms: float = 0.0
    recipe: Any = None
    image_hash: str = ""
    body: bytes = b""


@dataclass(frozen=True)
class DecodedBatch:
    """A batch after the decode stage: its jobs, with pixels where a JPEG was decoded, and for each position the
    refusal its decode earned (None: it goes on to inference). Owned by the inference thread once handed over."""

    jobs: list[Job]
    refused: list[Exception | None]


# The GPU pipeline's engine runs at the batch it was opened with, whatever a batch brings: on the H200 a batch of
# 2 cost what a batch of 8 does (3.7-6 ms, BENCHMARKS.md issue 20), and under load most batches are not full (8 joined
# the ladder for `serve --frontends`, whose batches of 5-8 would otherwise run on a max batch of 16). So
# beside the batcher's size the worker keeps pipelines of these smaller batch sizes, and each batch runs on the
# smallest that holds it (`serve --one-engine` keeps only the largest).
SMALLER_GPU_BATCHES = (1, 2, 4, 8)


def smaller_batches(max_batch: int) -> list[int]:
    """The batch sizes below `max_batch` that get a GPU pipeline of their own."""
    return [b for b in SMALLER_GPU_BATCHES if b < max_batch]


class InferenceWorker:
    def __init__(self, pipeline: Any, reader: Any = None, *, max_batch: int = 8,
                 journal: JournalSink | None = None, smaller: Sequence[Any] = (), cuda_graph: bool = False) -> None:
        self.pipeline = pipeline
        self.cuda_graph = cuda_graph  # the GPU pipelines' engines replay CUDA graphs (ONNX Runtime's)
        # GPU pipelines by batch size, smallest first (the largest is `pipeline`); a batch runs on the first that holds it
        self.ladder = sorted([*smaller, pipeline], key=lambda p: int(getattr(p, "batch", 1)))
        self.reader = reader
        self.journal = journal
        self.gpu_batch = int(getattr(pipeline, "batch", 1)) if hasattr(pipeline, "process_batch") else 0
        self.jpeg: Any = None  # a batch JPEG decoder (inference/gpu/jpeg.py) for the bodies left undecoded
        self.jpeg_note = "CPU decode threads"
        if not self.gpu_batch:
            spec = pipeline.engine.inputs[0]
            self.engine_batch = max(1, max_batch) if spec.shape[0] < 0 else max(1, spec.shape[0])
            self._letterbox = Letterboxer(pipeline.input_hw, dtype=spec.dtype, batch=self.engine_batch)
            self._input_name = spec.name
            self._output_name = pipeline.engine.outputs[0].name
        self._frames = 0

    @classmethod
    def open(cls, model, backend: str | None, *, thresholds: Thresholds, read: bool, max_batch: int,
             threads: int | None = None, journal: JournalSink | None = None,
             jpeg_decode: str = "auto", batch_engines: bool = True, cuda_graph: bool = False) -> InferenceWorker:
        options: dict[str, Any] = {"thresholds": thresholds}
        if threads:
            options["threads"] = threads
        from inference.engines import default_backend
        from inference.reading.placement import detector_on_gpu

        on_gpu = detector_on_gpu(backend or default_backend())
        if on_gpu:
            # the GPU pipeline runs whole batches: sized to the batcher's, or every batch ran one frame at a time
            options["batch"] = max(1, max_batch)
            if cuda_graph:
                options["cuda_graph"] = True
        inspector = Inspector.open(model, backend, read=read, **options)
        smaller: list[Any] = []
        try:
            if on_gpu and batch_engines and hasattr(inspector.pipeline, "process_batch"):
                for batch in smaller_batches(max_batch):
                    smaller.append(Inspector.open(model, backend, read=False, **{**options, "batch": batch}).pipeline)
            worker = cls(inspector.pipeline, inspector.reader, max_batch=max_batch, journal=journal, smaller=smaller,
                         cuda_graph=cuda_graph)
            if cuda_graph and not worker.gpu_batch:
                raise BackendUnavailableError("the CUDA-graph engine was asked for but cannot run",
                                              expected="--cuda-graph with the GPU pipeline (onnxruntime-cuda)",
                                              found=f"the detector runs on {worker.backend}",
                                              hint="leave out --cuda-graph, or serve on a machine with the GPU pipeline")
            worker.use_gpu_jpeg(jpeg_decode)
            if journal is None:
                worker.quiet_memory_samples()
            worker.warm_up()
        except Exception:
            for pipeline in smaller:
                pipeline.close()
            inspector.close()
            raise
        return worker

    @property
    def backend(self) -> str:
        return self.pipeline.backend

    def use_gpu_jpeg(self, mode: str) -> None:
        """"auto": decode /detect JPEGs on the GPU where the detector runs on the GPU pipeline and nvImageCodec
        can decode there; "gpu": the same, or refuse to start with the reason; "cpu": never."""
        if mode == "cpu":
            self.jpeg_note = "CPU decode threads (--jpeg-decode cpu)"
            return
        from inference.gpu.jpeg import open_jpeg_decoder

        reason = "the detector does not run on the GPU pipeline" if not self.gpu_batch else None
        if reason is None:
            choice = open_jpeg_decoder(prefer_gpu=True, device_id=getattr(self.pipeline, "device_id", 0))
            if choice.gpu:
                self.jpeg, self.jpeg_note = choice.decoder, choice.decoder.name
                return
            choice.decoder.close()
            reason = choice.reason
        if mode == "gpu":
            raise BackendUnavailableError("GPU JPEG decode was asked for but cannot run", expected="--jpeg-decode gpu "
                                          "with the GPU pipeline and nvImageCodec", found=reason,
                                          hint="use --jpeg-decode auto or cpu, or install the gpu extra")
        self.jpeg_note = f"CPU decode threads ({reason})"

    def quiet_memory_samples(self) -> None:
        """No RSS/VRAM reading per frame in the GPU pipelines (only the journal keeps it; /metrics reads its own).
        The pipeline reads both for every frame by default, and NVML's process list is slow: on the H200 under
        `serve --frontends` the workers spent 38 % of their busy time in it (BENCHMARKS.md, issue 20, fifteenth
        session). A variant the memory-pressure guard opens later reads them again."""
        for pipeline in self.ladder if self.gpu_batch else ():
            inner = getattr(pipeline, "pipeline", pipeline)  # the pressure guard's current variant
            if hasattr(inner, "sample_memory_every"):
                inner.sample_memory_every = 0

    @property
    def class_names(self) -> tuple[str, ...]:
        return tuple(self.pipeline.class_names)

    def warm_up(self) -> None:
        """Each engine's full batch once, so the first batch of each size under load does not pay for allocation."""
        blank = np.full((*self.pipeline.input_hw, 3), 114, np.uint8)
        for size in [int(p.batch) for p in self.ladder[:-1]] + [self.gpu_batch or self.engine_batch]:
            self._chunk([Job(DETECT, blank, self.pipeline.thresholds, "warm-up")] * size)  # raises: start fails

    def prepare_thread(self) -> None:
        """Each GPU engine run on the calling thread, which must be the one that will serve this worker's batches
        (the batcher calls this on its runner thread before the first request, one worker at a time).

        ONNX Runtime's CUDA provider keeps its CUDA graphs per calling thread and captures on a thread's second
        run, with the stream in global capture mode: meanwhile another thread's nvJPEG decode fails
        (cudaErrorStreamCaptureUnsupported) and the capture fails with it. On the H200 (BENCHMARKS.md, twelfth
        session; benchmarks/gpu-2026-12-03b/graph_decode.py) 30 fresh threads running the engine beside decodes
        failed 13 of 111 engine runs and 17 of 76 decodes (a single fresh thread, one capture window, failed none in
        two tries); captured before decoding began (406 runs) or decoding and running in turn on one thread (956
        runs), none failed. Warmed only on the opening thread, a
        worker captured on its runner thread during its first batches under load, beside the other workers' GPU
        JPEG decodes. Here every engine runs twice (the capture included) before any request; engines without a
        CUDA graph run once, for the thread's own handles."""
        if not self.gpu_batch:
            return
        for _ in range(2 if self.cuda_graph else 1):
            self.warm_up()

    @property
    def engine_batches(self) -> tuple[int, ...]:
        """The batch sizes this worker has an engine for."""
        return tuple(int(getattr(p, "batch", 1)) for p in self.ladder) if self.gpu_batch else (self.engine_batch,)

    def pipeline_for(self, frames: int) -> Any:
        """The GPU pipeline a batch of `frames` runs on: the smallest that holds it."""
        return next((p for p in self.ladder if int(getattr(p, "batch", 1)) >= frames), self.pipeline)

    def close(self) -> None:
        if self.reader is not None and hasattr(self.reader, "close"):
            self.reader.close()
        if self.jpeg is not None:
            self.jpeg.close()
        for pipeline in self.ladder:
            pipeline.close()

    # -- the batcher's stages: decode (a thread of its own), then infer (this worker's thread) --------------
    def __call__(self, jobs: list[Job]) -> list[FrameResult | Exception]:
        return self.infer_batch(self.decode_batch(jobs))

    def prepare_decode_thread(self) -> None:
        """The decode thread's CUDA device made current before its first batch (the GPU decoder's stream is on it)."""
        prepare = getattr(self.jpeg, "prepare_thread", None)
        if prepare is not None:
            prepare()

    def decode_batch(self, jobs: list[Job]) -> DecodedBatch:
        """Decode the /detect JPEGs left undecoded, in one call. A body that fails gets its 400; if the decoder
        fails as a whole, its JPEGs fail and the batch's other requests still go on to inference."""
        refused: list[Exception | None] = [None] * len(jobs)
        deferred = [i for i, job in enumerate(jobs) if job.kind == DETECT and job.image is None]
        if not deferred:
            return DecodedBatch(list(jobs), refused)
        if self.jpeg is None:
            for i in deferred:
                refused[i] = InferenceFailed("an undecoded image reached a worker without a JPEG decoder",
                                             expected="decoded pixels", found="JPEG bytes", hint="report this")
            return DecodedBatch(list(jobs), refused)
        jobs = list(jobs)
        try:
            t0 = time.perf_counter_ns()
            decoded = self.jpeg.decode([jobs[i].body for i in deferred], ["the request body"] * len(deferred))
            share = (time.perf_counter_ns() - t0) / 1e6 / len(deferred)
        except Exception as exc:
            for i in deferred:
                refused[i] = _failure(exc)
            return DecodedBatch(jobs, refused)
        for i, result in zip(deferred, decoded):
            if result.image is None:
                refused[i] = undecodable(result.cause, result.error)
            else:
                jobs[i] = replace(jobs[i], image=result.image, decode_ms=jobs[i].decode_ms + share, body=b"")
        return DecodedBatch(jobs, refused)

    def infer_batch(self, batch: DecodedBatch) -> list[FrameResult | Exception]:
        jobs = batch.jobs
        results: list[FrameResult | Exception] = [r if r is not None else InferenceFailed("not run")
                                                  for r in batch.refused]
        detect_at = [i for i, job in enumerate(jobs) if job.kind == DETECT and batch.refused[i] is None]
        for i, result in zip(detect_at, self._detect([jobs[i] for i in detect_at])):
            results[i] = result
        for i, job in enumerate(jobs):
            if job.kind == INSPECT and batch.refused[i] is None:
                try:
                    results[i] = self._inspect(job)
                except Exception as exc:
                    results[i] = _failure(exc)
        if self.journal is not None:
            for job, result in zip(jobs, results):
                if isinstance(result, FrameResult):
                    self.journal.record(result, job.image_hash)
        return results

    # -- detection ---------------------------------------------------------------------------------
    def _detect(self, jobs: list[Job]) -> list[FrameResult | Exception]:
        """Decoded jobs in chunks of the engine's batch. A chunk that fails is run again one job at a time, so a
        request that breaks the engine fails alone rather than with the seven beside it."""
        out: list[FrameResult | Exception] = []
        step = self.gpu_batch or self.engine_batch
        for start in range(0, len(jobs), step):
            chunk = jobs[start:start + step]
            try:
                out.extend(self._chunk(chunk))
            except Exception as exc:
                if len(chunk) == 1:
                    out.append(_failure(exc))
                    continue
                for job in chunk:
                    try:
                        out.extend(self._chunk([job]))
                    except Exception as alone:
                        out.append(_failure(alone))
        return out

    def _chunk(self, jobs: list[Job]) -> list[FrameResult]:
        return self._gpu_chunk(jobs) if self.gpu_batch else self._cpu_chunk(jobs)

    def _gpu_chunk(self, jobs: list[Job]) -> list[FrameResult]:
        from inference.gpu.staging import FrameInfo

        infos = [FrameInfo(job.request_id, None, None, job.decode_ms) for job in jobs]
        results = self.pipeline_for(len(jobs)).process_batch([job.image for job in jobs], infos)
        # the pipeline already selected with its own thresholds: a request that asks for the same needs no second NMS
        return [r if r.thresholds == job.thresholds else
                r.with_(detections=r.refiltered(job.thresholds), thresholds=job.thresholds)
                for r, job in zip(results, jobs)]

    def _cpu_chunk(self, jobs: list[Job]) -> list[FrameResult]:
        n = len(jobs)
        transforms, prep_ms = [], []
        for slot, job in enumerate(jobs):
            t0 = time.perf_counter_ns()
            transforms.append(self._letterbox(job.image, slot))
            prep_ms.append((time.perf_counter_ns() - t0) / 1e6)
        t0 = time.perf_counter_ns()
        raw = self.pipeline.engine.infer({self._input_name: self._letterbox.tensor[:n]})[self._output_name]
        infer_ms = (time.perf_counter_ns() - t0) / 1e6
        memory = sample_memory()
        results = []
        for slot, (job, transform) in enumerate(zip(jobs, transforms)):
            t0 = time.perf_counter_ns()
            found = decode(raw[slot:slot + 1], self.pipeline.layout, self.pipeline.num_classes, CANDIDATE_FLOOR)
            candidates = Candidates(transform.to_original(found.xyxy), found.score, found.class_id,
                                    found.already_suppressed)
            detections: Detections = select(candidates, self.class_names, job.thresholds)
            post_ms = (time.perf_counter_ns() - t0) / 1e6
            stages = {"decode": job.decode_ms, "preprocess": prep_ms[slot], "infer": infer_ms, "postprocess": post_ms}
            self._frames += 1
            results.append(FrameResult(self._frames, job.request_id, None, tuple(job.image.shape[:2]), detections,
                                       candidates, job.thresholds, StageTimings(stages, sum(stages.values())),
                                       memory))
        return results

    # -- reading and verdict -------------------------------------------------------------------------
    def _inspect(self, job: Job) -> FrameResult:
        self.pipeline.set_thresholds(job.thresholds)
        inspector = Inspector(self.pipeline, reader=self.reader, recipe=job.recipe)
        return inspector.inspect_image(job.image, source_name=job.request_id, decode_ms=job.decode_ms)


def _failure(exc: Exception) -> Exception:
    if isinstance(exc, HangtagError):
        return exc
    return InferenceFailed("inference failed on this request", expected="a result",
                           found=f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}",
                           hint="the service keeps running; report this with the request id")
