"""Everything one running service owns, opened in the app's lifespan and closed after the drain:
the inference workers, the batcher, the decode pool, the recipes, the journal and the metrics."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any, Callable

from inference.postprocess import Thresholds
from inference.service.access_log import JsonLog
from inference.service.batcher import Batcher
from inference.service.config import ServiceConfig
from inference.service.decoding import DecodePool
from inference.service.journaling import JournalSink
from inference.service.metrics import ServiceMetrics
from inference.service.recipes import RecipeBook

# Builds one worker: a callable batch runner with `backend`, `class_names` and `close()`.
WorkerFactory = Callable[[ServiceConfig, "JournalSink | None"], Any]


def open_worker(config: ServiceConfig, journal: JournalSink | None) -> Any:
    from inference.service.worker import InferenceWorker

    return InferenceWorker.open(config.model, config.backend, thresholds=default_thresholds(config),
                                read=config.read, max_batch=config.max_batch, threads=config.threads,
                                journal=journal, jpeg_decode=config.jpeg_decode, batch_engines=config.batch_engines,
                                cuda_graph=config.cuda_graph)


def default_thresholds(config: ServiceConfig) -> Thresholds:
    return Thresholds(confidence=config.conf, iou=config.iou, max_detections=config.max_det)


def model_identity(path: Path) -> tuple[str, str]:
    """(sha256 of the model file, precision of its graph); 'unknown' for what cannot be read."""
    from inference.records.convert import file_hash

    digest = file_hash(path) if Path(path).is_file() else "unknown"
    try:
        import onnx

        from inference.precision.graph import detect_precision

        precision = detect_precision(onnx.load(str(path), load_external_data=False))
    except Exception:  # a TensorRT plan or an unreadable file: the answer says so, serving goes on
        precision = "unknown"
    return digest, precision


class Service:
    def __init__(self, config: ServiceConfig, *, worker_factory: WorkerFactory | None = None,
                 log: JsonLog | None = None) -> None:
        self.config = config
        self.worker_factory = worker_factory or open_worker
        self.log = log or JsonLog()
        self.metrics = ServiceMetrics()
        self.thresholds = default_thresholds(config)
        self.workers: list[Any] = []
        self.batcher: Batcher | None = None
        self.decoder: DecodePool | None = None
        self.gpu_jpeg = False  # every worker decodes /detect JPEGs itself, on the GPU (inference/gpu/jpeg.py)
        self.journal: JournalSink | None = None
        self.recipes = RecipeBook()
        self.model_hash = "unknown"
        self.precision = "unknown"
        self.ready = False
        self.on_depth: Callable[[int], None] | None = None  # told the queue depth after each batch is taken

    def _on_batch(self, size: int) -> None:
        self.metrics.batch_size.observe(size)
        if self.on_depth is not None:
            self.on_depth(self.batcher.depth)

    @property
    def backend(self) -> str:
        return self.workers[0].backend if self.workers else ""

    @property
    def worker_pids(self) -> dict[str, list[int]]:
        """The worker processes' ids for the ready line (`--worker-processes`), so a profiler can find them."""
        pids = [w.pid for w in self.workers if getattr(w, "pid", None)]
        return {"worker_pids": pids} if pids else {}

    @property
    def jpeg_decode(self) -> str:
        """Where /detect JPEGs are decoded, and why, as the ready line and GET /ready say it."""
        if self.gpu_jpeg:
            return f"in each batch by the workers: {getattr(self.workers[0], 'jpeg_note', '')}"
        notes = {getattr(w, "jpeg_note", "CPU decode threads") for w in self.workers}
        return "; ".join(sorted(notes)) or "CPU decode threads"

    async def start(self) -> None:
        """Load and warm every worker off the event loop; then start batching."""
        if self.config.switch_interval_ms is not None:
            sys.setswitchinterval(self.config.switch_interval_ms / 1000.0)
        await asyncio.to_thread(self._open_blocking)
        self.decoder = DecodePool(self.config.decode_threads)
        self.gpu_jpeg = bool(self.workers) and all(getattr(w, "jpeg", None) is not None for w in self.workers)
        self.batcher = Batcher(self.workers, max_batch=self.config.max_batch, max_wait_ms=self.config.max_wait_ms,
                               max_queue=self.config.queue, deadline_ms=self.config.deadline_ms,
                               on_batch=self._on_batch, decode_ahead=self.config.decode_ahead)
        self.metrics.watch_queue(lambda: self.batcher.depth, lambda: self.batcher.in_flight)
        try:
            await self.batcher.start()  # each worker prepared on its own thread first (worker.prepare_thread)
        except BaseException:
            await asyncio.to_thread(self._close_blocking)
            raise
        self.ready = True

    def _open_blocking(self) -> None:
        c = self.config
        self.model_hash, self.precision = model_identity(c.model)
        self.recipes = RecipeBook.load(c.recipe, c.recipe_dir)
        try:
            if c.journal is not None:
                default = self.recipes.default
                self.journal = JournalSink(Path(c.journal) if c.journal else None,
                                           source=f"http://{c.host}:{c.port}", model_hash=self.model_hash,
                                           backend=c.backend or "", precision=self.precision,
                                           recipe_name=getattr(default, "name", "") if default else "",
                                           recipe_path=str(c.recipe or ""))
            if c.worker_processes and self.worker_factory is open_worker:  # each in its own process, side by side
                from inference.service.worker_process import open_process_workers

                self.workers.extend(open_process_workers(c, self.journal))
            else:
                for _ in range(c.workers):
                    self.workers.append(self.worker_factory(c, self.journal))
        except BaseException:
            self._close_blocking()
            raise

    async def stop(self) -> None:
        """Stop accepting, finish what is queued, then free the engines."""
        self.ready = False
        if self.batcher is not None:
            await self.batcher.drain()
        await asyncio.to_thread(self._close_blocking)

    def _close_blocking(self) -> None:
        if self.decoder is not None:
            self.decoder.close()
            self.decoder = None
        while self.workers:
            self.workers.pop().close()
        if self.journal is not None:
            self.journal.close()
            self.journal = None
