"""The service's knobs, Triton-style: batch size, queue delay, queue size and what a timeout does; nothing more."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from inference.errors import ConfigError
from inference.resources import default_model_path

# Per-request threshold limits: the floor is the pipeline's candidate floor, so any value inside them
# can be applied to the cached candidates without running the engine again.
CONF_RANGE = (0.01, 1.0)
IOU_RANGE = (0.05, 0.95)
MAX_DET_RANGE = (1, 300)


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity: taskset, a container's cpuset), not all the
    machine's: decode threads beyond them only take turns on the same cores."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # no affinity call on this platform
        return max(1, os.cpu_count() or 1)


JPEG_DECODE_MODES = ("auto", "gpu", "cpu")


@dataclass(frozen=True)
class ServiceConfig:
    host: str = "127.0.0.1"
    port: int = 8080
    model: Path = default_model_path()
    backend: str | None = None
    threads: int | None = None  # ONNX Runtime intra-op threads per worker
    max_batch: int = 8
    max_wait_ms: float = 3.0
    queue: int = 16
    workers: int = 1
    decode_threads: int = field(default_factory=usable_cores)  # JPEG/PNG decode runs on these, in parallel
    deadline_ms: float = 10_000.0  # a request still queued after this is answered 503, not served late
    max_body_bytes: int = 20 * 1024 * 1024
    conf: float = 0.25
    iou: float = 0.45
    max_det: int = 100
    recipe: Path | None = None  # the recipe /inspect judges against when no ?recipe= is given
    recipe_dir: Path | None = None  # recipes named by id (file stem) with ?recipe=ID
    read: bool = True  # load the tag reader (needed by /inspect)
    journal: str | None = None  # journal every request like a station frame: a path, "" = the station's journal
    jpeg_decode: str = "auto"  # /detect JPEGs: "auto" on the GPU where the workers can, "gpu" or refuse, "cpu"
    batch_engines: bool = True  # on the GPU pipeline, an engine per batch size 1, 2, 4 below max_batch (worker.py)
    cuda_graph: bool = False  # on the GPU pipeline with ONNX Runtime, each engine replayed as a CUDA graph
    frontends: int = 0  # > 0: HTTP in this many front-end processes, the engines in one owner (owner.py)
    # each worker decodes batch N+1 on a thread of its own while batch N infers (batcher.py). Off by default: on the
    # H200 it raised the saturated rate by 12-15 % but not the rate within P99 25 ms (BENCHMARKS.md, issue 20,
    # twentieth session): two workers' four threads stretched every GPU stage of a batch by half
    decode_ahead: bool = False
    # each worker in a process of its own (worker_process.py): its own GIL and CUDA context, fed through shared memory.
    # Off by default: built to test whether the owner's threads wait on each other for the GIL (issue 20), not measured
    worker_processes: bool = False
    # the GIL switch interval of the owner (and of worker processes) in ms; None: CPython's 5 ms. A thread back from
    # a GPU wait may wait this long for a thread running Python to hand the GIL over
    switch_interval_ms: float | None = None

    def __post_init__(self) -> None:
        checks = [("max batch", self.max_batch, 1, 64), ("queue", self.queue, 1, 100_000),
                  ("workers", self.workers, 1, 64), ("front ends", self.frontends, 0, 64),
                  ("decode threads", self.decode_threads, 1, 256),
                  ("port", self.port, 0, 65535)]
        for name, value, low, high in checks:
            if not low <= int(value) <= high:
                raise ConfigError(f"{name} out of range", expected=f"{low} … {high}", found=str(value))
        if self.jpeg_decode not in JPEG_DECODE_MODES:
            raise ConfigError("unknown JPEG decode mode", expected=" | ".join(JPEG_DECODE_MODES),
                              found=str(self.jpeg_decode))
        if not 0.0 <= self.max_wait_ms <= 1000.0:
            raise ConfigError("max wait out of range", expected="0 … 1000 ms", found=f"{self.max_wait_ms} ms",
                              hint="the wait is added to a lone request's latency: keep it a few ms")
        if self.worker_processes and self.decode_ahead:
            raise ConfigError("decode-ahead runs on a worker's threads in the owner", expected="--decode-ahead or "
                              "--worker-processes", found="both", hint="leave out one of them")
        if self.switch_interval_ms is not None and not 0.01 <= self.switch_interval_ms <= 100.0:
            raise ConfigError("GIL switch interval out of range", expected="0.01 … 100 ms",
                              found=f"{self.switch_interval_ms} ms")
        if self.deadline_ms <= 0:
            raise ConfigError("deadline must be positive", expected="> 0 ms", found=f"{self.deadline_ms} ms")
        if self.max_body_bytes < 1024:
            raise ConfigError("body limit too small", expected="≥ 1024 bytes", found=str(self.max_body_bytes))
        if self.recipe_dir is not None and not Path(self.recipe_dir).is_dir():
            raise ConfigError("recipe folder not found", expected="a folder of .toml recipes",
                              found=str(self.recipe_dir), hint="pass --recipes with an existing folder")
