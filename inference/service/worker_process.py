"""`serve --worker-processes`: each inference worker in a process of its own, with its own GIL and CUDA context.

With two workers in the owner, the event loop, both inference threads (and with decode-ahead two decode threads)
share one GIL, and on the H200 every GPU stage of a batch took half as long again with four such threads as with
two (BENCHMARKS.md, issue 20, twentieth session); whether they wait on each other for the GIL was not measured.
Here the owner keeps the batcher and one thread per worker that only hands batches over and waits: the worker's
process decodes and infers. A batch's jobs go over a pipe, each JPEG body through a slot of a shared-memory segment
the proxy owns (handoff.BodySlots), and the results come back pickled (a FrameResult holds boxes, not pixels).
Pixels decoded in the owner (`--jpeg-decode cpu`, PNGs, /inspect) travel pickled through the pipe, ~6 MB a 1080p
frame: on this project's 2-core VM the CPU path served a third to a half of what worker threads did, the owner's
threads holding the GIL while they pickled. It is meant for the GPU path, where the worker processes decode the
JPEGs themselves. The processes open side by side, each in its own CUDA context.

A worker process that dies fails the batch it held and every later one with InferenceFailed; the service goes on
answering. It ignores SIGINT (the owner decides when it stops) and exits when its pipe closes."""

from __future__ import annotations

import importlib
import multiprocessing as mp
import signal
from dataclasses import replace
from multiprocessing.reduction import ForkingPickler
from types import MappingProxyType
from typing import Any

from inference.service.config import ServiceConfig
from inference.service.errors import InferenceFailed
from inference.service.handoff import SLOT_BYTES, BodySlots

DEFAULT_FACTORY = "inference.service.runtime:open_worker"
OPEN_TIMEOUT_S = 900.0  # loading, warming and capturing the engines of one GPU worker takes ~15 s on the H200
STOP_TIMEOUT_S = 30.0


def _mapping_proxy(items: dict) -> MappingProxyType:
    return MappingProxyType(items)


# Thresholds and StageTimings keep their dicts read-only as mapping proxies, which pickle cannot take; only the pipes'
# pickler (multiprocessing's) is taught to send them, as the dicts they wrap
ForkingPickler.register(MappingProxyType, lambda proxy: (_mapping_proxy, (dict(proxy),)))


class ProcessWorker:
    """The owner's side of one worker process: a runner for the batcher (called with a batch's jobs on the
    batcher's thread for it, one batch at a time), with the attributes the service reads off a worker."""

    def __init__(self, process: Any, conn: Any, slots: BodySlots, hello: dict, journal: Any = None) -> None:
        self.process, self.conn, self.slots, self.journal = process, conn, slots, journal
        self.backend: str = hello["backend"]
        self.class_names: tuple[str, ...] = tuple(hello["class_names"])
        self.jpeg_note: str = hello["jpeg_note"]
        self.jpeg: str | None = hello["jpeg"]  # the process's GPU JPEG decoder by name; None: bodies come decoded
        self.engine_batches: tuple[int, ...] = tuple(hello["engine_batches"])
        self.pid: int = process.pid
        self._gone: str | None = None

    @classmethod
    def open(cls, config: ServiceConfig, journal: Any = None, *, factory: str = DEFAULT_FACTORY,
             timeout_s: float = OPEN_TIMEOUT_S) -> ProcessWorker:
        """Start the process and wait until its worker is open, warmed and prepared on the thread that serves."""
        return _Opening(config, factory).wait(journal, timeout_s)

    def __call__(self, jobs: list) -> list:
        if self._gone is not None:
            raise self._failure()
        light, where = [], []
        try:
            for job in jobs:
                slot = self.slots.put(job.body) if job.body else None
                where.append(None if slot is None else (slot, len(job.body)))
                light.append(job if slot is None else replace(job, body=b""))  # one too large for a slot goes pickled
            self.conn.send(("batch", light, where))
            what, results = self.conn.recv()  # the GIL is released while this thread waits
        except (EOFError, OSError) as exc:
            self._gone = f"{type(exc).__name__}; exit code {self.process.exitcode}"
            raise self._failure() from None
        finally:
            for w in where:
                if w is not None:
                    self.slots.release(w[0])
        if isinstance(results, Exception):
            raise results
        if self.journal is not None:
            for job, result in zip(jobs, results):
                if not isinstance(result, Exception):
                    self.journal.record(result, job.image_hash)
        return results

    def _failure(self) -> InferenceFailed:
        return InferenceFailed("the worker process is gone", expected="a running worker process",
                               found=self._gone or "", hint="restart the service; the other workers go on")

    def close(self) -> None:
        """Idempotent: ask the process to stop, wait for it (kill it after STOP_TIMEOUT_S), free the slots."""
        if self.conn is None:
            return
        try:
            self.conn.send(("stop",))
        except OSError:
            pass
        _end(self.process, self.conn)
        self.conn = None
        self.slots.close()


class _Opening:
    """A worker process started and not yet heard from; several open side by side (open_process_workers)."""

    def __init__(self, config: ServiceConfig, factory: str) -> None:
        ctx = mp.get_context("spawn")  # never fork a process that may hold a CUDA context
        self.conn, theirs = ctx.Pipe(duplex=True)
        self.slots = BodySlots(config.max_batch, SLOT_BYTES, create=True)
        self.process = ctx.Process(target=worker_main, name="hangtag-worker", daemon=True,
                                   args=(config, factory, theirs, self.slots.name, config.max_batch, SLOT_BYTES))
        try:
            self.process.start()
        except BaseException:
            self.abandon()
            raise
        finally:
            theirs.close()

    def wait(self, journal: Any, timeout_s: float) -> ProcessWorker:
        try:
            if not self.conn.poll(timeout_s):
                raise InferenceFailed("the worker process did not open in time",
                                      expected=f"open within {timeout_s:.0f} s", found="no word from it",
                                      hint="see the process's own output above")
            what, detail = self.conn.recv()
            if what != "up":
                raise InferenceFailed("the worker process could not open its worker", expected="an open worker",
                                      found=str(detail), hint="the same options without --worker-processes say more")
        except EOFError:
            self.abandon()
            raise InferenceFailed("the worker process exited while opening", expected="an open worker",
                                  found=f"exit code {self.process.exitcode}",
                                  hint="see the process's own output above") from None
        except BaseException:
            self.abandon()
            raise
        return ProcessWorker(self.process, self.conn, self.slots, detail, journal)

    def abandon(self) -> None:
        _end(self.process, self.conn)
        self.slots.close()


def open_process_workers(config: ServiceConfig, journal: Any = None, *, factory: str = DEFAULT_FACTORY,
                         timeout_s: float = OPEN_TIMEOUT_S) -> list[ProcessWorker]:
    """`config.workers` worker processes opened side by side (each loads, warms and captures in its own process and
    CUDA context, so one need not wait for another); if one fails, the others are stopped and its error raised."""
    opening: list[_Opening] = []
    workers: list[ProcessWorker] = []
    try:
        for _ in range(config.workers):
            opening.append(_Opening(config, factory))
        while opening:
            workers.append(opening[0].wait(journal, timeout_s))
            opening.pop(0)
    except BaseException:
        for pending in opening[1:]:  # the first has cleaned up after itself
            pending.abandon()
        for worker in workers:
            worker.close()
        raise
    return workers


def _end(process: Any, conn: Any) -> None:
    if process.pid is not None:  # started
        process.join(STOP_TIMEOUT_S)
    if process.pid is not None and process.is_alive():
        process.kill()
        process.join(5.0)
    conn.close()


def load_factory(name: str) -> Any:
    module, _, attribute = name.partition(":")
    return getattr(importlib.import_module(module), attribute)


def worker_main(config: ServiceConfig, factory: str, conn: Any, slots_name: str, slot_count: int,
                slot_bytes: int) -> None:
    """The worker process: open the worker (without a journal: the owner journals), then run batches until told
    to stop or the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if config.switch_interval_ms is not None:
        import sys

        sys.setswitchinterval(config.switch_interval_ms / 1000.0)
    slots = BodySlots(slot_count, slot_bytes, name=slots_name)
    worker = None
    try:
        try:
            worker = load_factory(factory)(config, None)
            prepare = getattr(worker, "prepare_thread", None)
            if prepare is not None:
                prepare()  # the engines' CUDA graphs captured on this thread, which serves every batch
        except Exception as exc:
            conn.send(("failed", f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"))
            return
        jpeg = getattr(worker, "jpeg", None)
        conn.send(("up", {"backend": worker.backend, "class_names": list(worker.class_names),
                          "jpeg_note": getattr(worker, "jpeg_note", "CPU decode threads"),
                          "jpeg": None if jpeg is None else str(getattr(jpeg, "name", type(jpeg).__name__)),
                          "engine_batches": list(getattr(worker, "engine_batches", ()))}))
        _serve(worker, conn, slots)
    except (EOFError, OSError):
        pass  # the owner is gone
    finally:
        if worker is not None:
            worker.close()
        slots.close()
        conn.close()


def _serve(worker: Any, conn: Any, slots: BodySlots) -> None:
    while True:
        message = conn.recv()
        if message[0] == "stop":
            return
        _, jobs, where = message
        try:
            jobs = [job if w is None else replace(job, body=slots.read(*w)) for job, w in zip(jobs, where)]
            results: Any = worker(jobs)
        except Exception as exc:  # one failure answers the whole batch, as a worker thread's would
            results = exc
        try:
            conn.send(("done", results))
        except OSError:
            raise
        except Exception as exc:  # a result that cannot be pickled: the batch fails with the reason, serving goes on
            conn.send(("done", InferenceFailed("a result could not be sent back from the worker process",
                                               expected="picklable results", found=f"{type(exc).__name__}: {exc}"[:200],
                                               hint="report this with the request id")))
