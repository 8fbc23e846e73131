"""Overlap: CPU threads decode and stage the next batch while the GPU runs the current one.

    decode workers ──► producer fills a free slot ──► ready queue ──► GPU thread: stage(n+1), compute(n)
                                                                        ──► finisher thread: finish(n)
The upload of batch n+1 runs beside the engine on batch n, results of n-1 are built meanwhile, and
decoding runs all the while. IN_FLIGHT slots bound the memory: a slot returns to the producer only after
its results were built.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Callable, Iterable, Iterator

import numpy as np

from inference.errors import HangtagError
from inference.gpu.pipeline import GpuPipeline
from inference.gpu.staging import FrameInfo, Slot
from inference.imageio import read_image
from inference.pipeline import FrameResult, error_result

Job = Callable[[], tuple["np.ndarray | None", FrameInfo]]  # None + info.error for a bad frame
_DONE = object()


def jpeg_job(path: Path, index: int) -> Job:
    """Read and decode one file on a worker thread (cv2.imdecode releases the GIL)."""
    def load() -> tuple[np.ndarray | None, FrameInfo]:
        t0 = time.perf_counter_ns()
        try:
            image = read_image(path)
        except HangtagError as exc:  # a bad file becomes an error record; the run goes on
            return None, FrameInfo(path.name, str(path), index, error=str(exc))
        return image, FrameInfo(path.name, str(path), index, (time.perf_counter_ns() - t0) / 1e6)
    return load


def frame_job(image: np.ndarray, index: int, name: str = "frame") -> Job:
    return lambda: (image, FrameInfo(name, None, index, 0.0))


def run_overlapped(pipeline: GpuPipeline, jobs: Iterable[Job], *, workers: int = 2) -> Iterator[FrameResult]:
    """Results in job order. Stops cleanly when the caller stops iterating (the producer is joined).

    This thread keeps the GPU fed in the order that lets it overlap: it stages batch n+1 (upload and
    letterbox on the copy stream) before it computes batch n (the engine call blocks in ONNX Runtime with
    the GIL released), and a finisher thread finishes batch n-1 (event wait, keep-lists, results) meanwhile.
    The caller must not use the pipeline otherwise while iterating."""
    free: queue.Queue[Slot | None] = queue.Queue()
    ready: queue.Queue[object] = queue.Queue()
    for slot in pipeline.slots:
        free.put(slot)
    stop = threading.Event()
    producer = threading.Thread(target=_produce, args=(pipeline.batch, iter(jobs), workers, free, ready, stop),
                                name="gpu-stager", daemon=True)
    producer.start()
    finisher = ThreadPoolExecutor(max_workers=1, thread_name_prefix="gpu-finisher")
    staged: tuple[Slot, int] | None = None  # uploaded and letterboxed, not yet in the engine
    finishing: deque[tuple[Future, Slot]] = deque()
    try:
        while True:
            item = ready.get()
            if isinstance(item, BaseException):
                raise item
            done = item is _DONE
            if not done:
                slot = item
                t0 = time.perf_counter_ns()
                if slot.frames:
                    pipeline.stage(slot)
            if staged is not None:
                previous, started = staged
                staged = None
                if previous.frames:
                    pipeline.compute(previous)
                finishing.append((finisher.submit(_finish, pipeline, previous, started), previous))
            while finishing and (done or len(finishing) > 1 or finishing[0][0].done()):
                future, finished = finishing.popleft()
                results = future.result()
                free.put(finished)
                yield from results
            if done:
                break
            staged = (slot, t0)
    finally:
        stop.set()
        free.put(None)
        producer.join(timeout=30)
        finisher.shutdown(wait=True)
        for slot in [*(s for _, s in finishing), *([staged[0]] if staged else [])]:
            slot.events["d2h"].synchronize()  # the caller stopped early: let the GPU finish before reuse
            slot.events["letterbox"].synchronize()


def _finish(pipeline: GpuPipeline, slot: Slot, t0: int) -> list[FrameResult]:
    results = [error_result(info.index or 0, info.name, info.path, message, pipeline.thresholds, pipeline.class_names)
               for info, message in slot.errors]
    if slot.frames:
        results += pipeline.finish(slot, t0)
    return sorted(results, key=lambda r: r.index)  # a bad file keeps its place among the good ones


def _copy(pair: tuple[np.ndarray, np.ndarray]) -> None:
    np.copyto(pair[0], pair[1], casting="no")


def _produce(batch: int, jobs: Iterator[Job], workers: int, free: queue.Queue, ready: queue.Queue,
             stop: threading.Event) -> None:
    try:
        with ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="decode") as pool:
            pending: deque[Future] = deque()
            prefetch = max(2 * workers, batch) + batch

            def refill() -> None:
                while len(pending) < prefetch and not stop.is_set():
                    job = next(jobs, None)
                    if job is None:
                        return
                    pending.append(pool.submit(job))

            refill()
            while pending and not stop.is_set():
                slot = free.get()
                if slot is None or stop.is_set():
                    break
                slot.clear()
                copies = []
                while pending and slot.frames + len(slot.errors) < batch:
                    future = pending.popleft()
                    refill()
                    image, info = future.result()
                    if image is None:
                        slot.errors.append((info, info.error or "frame could not be read"))
                        continue
                    pair = slot.place(image, info)
                    if pair is not None:
                        copies.append(pair)
                t0 = time.perf_counter_ns()
                for _ in pool.map(_copy, copies):  # big memcpys release the GIL: the workers copy in parallel
                    pass
                slot.stage_ns = time.perf_counter_ns() - t0
                ready.put(slot)
            for future in pending:
                future.cancel()
        ready.put(_DONE)
    except BaseException as exc:  # handed to the GPU thread, which re-raises it to the caller
        ready.put(exc)
