"""Overlap: CPU threads decode and stage the next batch while the GPU runs the current one.

    decode workers ──► stager: fill a free slot, stage() ──► GPU thread: compute()
                                                               ──► finisher: decode(), finish() ──► caller
The upload of batch n+1 runs beside the engine on batch n, the decode and results of n-1 are built
meanwhile, and decoding runs all the while. IN_FLIGHT slots bound the memory: a slot returns to the
stager only after its results were built.
"""

from __future__ import annotations

import queue
import sys
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
SWITCH_INTERVAL_S = 0.0002


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


def run_overlapped(pipeline: GpuPipeline, jobs: Iterable[Job], *, workers: int = 2,
                   switch_interval_s: float | None = SWITCH_INTERVAL_S) -> Iterator[FrameResult]:
    """Results in job order. Stops cleanly when the caller stops iterating (every thread is joined and the
    GPU is idle before this returns).

    Three threads, one per stream, hand slots on through queues, so each stream is fed by a thread that
    does nothing else: the stager fills a free slot and queues its upload and letterbox; the GPU thread
    only runs the engine (ONNX Runtime blocks in Run with the GIL released); the finisher queues the
    decode, waits for it and builds the results. While the engine works on batch n, batch n+1 is uploaded
    and batch n-1 decoded. A slot returns to the stager once its results are built; at most
    `pipeline.batch` × IN_FLIGHT frames are in flight, and at most IN_FLIGHT batches of results wait for
    the caller. The caller must not use the pipeline otherwise while iterating.

    `switch_interval_s`: Python's GIL hand-over interval while running (default 0.2 ms instead of 5 ms):
    the GPU thread must get the GIL back the moment the engine returns, not when the finisher's NumPy
    work next yields it. None leaves the interpreter's setting alone."""
    free: queue.Queue[Slot | None] = queue.Queue()
    staged: queue.Queue[object] = queue.Queue()
    computed: queue.Queue[object] = queue.Queue()
    finished: queue.Queue[object] = queue.Queue(maxsize=len(pipeline.slots))
    for slot in pipeline.slots:
        free.put(slot)
    stop = threading.Event()
    threads = [
        threading.Thread(target=_produce, args=(pipeline, iter(jobs), workers, free, staged, stop), name="gpu-stager"),
        threading.Thread(target=_hand_on, args=(_compute, pipeline, staged, computed, stop), name="gpu-engine"),
        threading.Thread(target=_hand_on, args=(_finish, pipeline, computed, finished, stop, free), name="gpu-finisher"),
    ]
    previous_interval = sys.getswitchinterval()
    if switch_interval_s is not None:
        sys.setswitchinterval(min(previous_interval, switch_interval_s))
    for thread in threads:
        thread.daemon = True
        thread.start()
    try:
        while True:
            item = finished.get()
            if isinstance(item, BaseException):
                raise item
            if item is _DONE:
                break
            yield from item
    finally:
        stop.set()
        free.put(None)
        staged.put(_DONE)
        computed.put(_DONE)
        for thread in threads:
            thread.join(timeout=30)
        pipeline.wait_idle()  # the caller may have stopped early: no slot is reused while the GPU reads it
        if switch_interval_s is not None:
            sys.setswitchinterval(previous_interval)


def _hand_on(step: Callable, pipeline: GpuPipeline, inbox: queue.Queue, outbox: queue.Queue,
             stop: threading.Event, free: queue.Queue | None = None) -> None:
    """Take each slot from `inbox`, do `step` on it and pass on what it gives; end-of-run and errors go on
    unchanged. With `free`, the slot itself goes back there once its step is done."""
    while True:
        item = inbox.get()
        if item is _DONE or isinstance(item, BaseException):
            _put(outbox, item, stop)
            return
        if stop.is_set():
            return
        slot, t0 = item
        try:
            out = step(pipeline, slot, t0)
        except BaseException as exc:  # handed on to the caller, who re-raises it
            _put(outbox, exc, stop)
            return
        if free is not None:
            free.put(slot)
        if not _put(outbox, out, stop):
            return


def _put(box: queue.Queue, item: object, stop: threading.Event) -> bool:
    """Put, giving up when the run is being stopped (a full queue nobody reads any more)."""
    while not stop.is_set():
        try:
            box.put(item, timeout=0.05)
            return True
        except queue.Full:
            continue
    return False


def _compute(pipeline: GpuPipeline, slot: Slot, t0: int) -> tuple[Slot, int]:
    if slot.frames:
        pipeline.compute(slot)
    return slot, t0


def _finish(pipeline: GpuPipeline, slot: Slot, t0: int) -> list[FrameResult]:
    results = [error_result(info.index or 0, info.name, info.path, message, pipeline.thresholds, pipeline.class_names)
               for info, message in slot.errors]
    if slot.frames:
        pipeline.decode(slot)
        results += pipeline.finish(slot, t0)
    return sorted(results, key=lambda r: r.index)  # a bad file keeps its place among the good ones


def _copy(pair: tuple[np.ndarray, np.ndarray]) -> None:
    np.copyto(pair[0], pair[1], casting="no")


def _produce(pipeline: GpuPipeline, jobs: Iterator[Job], workers: int, free: queue.Queue, staged: queue.Queue,
             stop: threading.Event) -> None:
    batch = pipeline.batch
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
                t0 = time.perf_counter_ns()  # the frame's time from here; decoding is counted on its own
                for _ in pool.map(_copy, copies):  # big memcpys release the GIL: the workers copy in parallel
                    pass
                slot.stage_ns = time.perf_counter_ns() - t0
                if slot.frames:
                    pipeline.stage(slot)
                staged.put((slot, t0))
            for future in pending:
                future.cancel()
        staged.put(_DONE)
    except BaseException as exc:  # handed on to the caller, who re-raises it
        staged.put(exc)
