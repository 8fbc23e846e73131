"""Per-stage timings, rolling percentiles, and memory readings (host RSS, this process's VRAM via NVML)."""

from __future__ import annotations

import os
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

import numpy as np

# Stages in pipeline order. "host side" is everything except the engine call itself.
STAGES = ("decode", "preprocess", "h2d", "infer", "d2h", "postprocess", "read")
HOST_STAGES = ("decode", "preprocess", "h2d", "d2h", "postprocess")


@dataclass(frozen=True)
class StageTimings:
    """Milliseconds per stage for one frame; `total` is wall time from decode start to result."""

    stages_ms: Mapping[str, float]
    total_ms: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "stages_ms", MappingProxyType(dict(self.stages_ms)))

    def get(self, stage: str) -> float:
        return float(self.stages_ms.get(stage, 0.0))

    @property
    def host_ms(self) -> float:
        return sum(self.get(s) for s in HOST_STAGES)

    @property
    def host_share(self) -> float:
        """Share of detection latency spent outside the engine call (the thesis' number)."""
        detect = self.host_ms + self.get("infer")
        return self.host_ms / detect if detect > 0 else 0.0

    def to_dict(self) -> dict[str, float]:
        out = {k: round(v, 3) for k, v in self.stages_ms.items()}
        out["total"] = round(self.total_ms, 3)
        return out


class StageClock:
    """Collects perf_counter_ns stamps for one frame; not shared between threads."""

    def __init__(self) -> None:
        self._ns: dict[str, int] = {}
        self._start = _now()

    def add_ns(self, stage: str, ns: int) -> None:
        self._ns[stage] = self._ns.get(stage, 0) + int(ns)

    def stage(self, name: str) -> _StageScope:
        return _StageScope(self, name)

    def finish(self) -> StageTimings:
        return StageTimings({k: v / 1e6 for k, v in self._ns.items()}, (_now() - self._start) / 1e6)


_now = time.perf_counter_ns


class _StageScope:
    __slots__ = ("_clock", "_name", "_t0")

    def __init__(self, clock: StageClock, name: str) -> None:
        self._clock, self._name = clock, name

    def __enter__(self) -> None:
        self._t0 = _now()

    def __exit__(self, *exc: object) -> None:
        self._clock.add_ns(self._name, _now() - self._t0)


@dataclass(frozen=True)
class Percentiles:
    p50: float
    p95: float
    p99: float
    count: int


class RollingStats:
    """p50/p95/p99 per stage over the last `window` frames. Thread-safe; fixed memory."""

    def __init__(self, window: int = 500) -> None:
        self.window = window
        self._rows: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def add(self, timings: StageTimings) -> None:
        with self._lock:
            for stage, ms in list(timings.stages_ms.items()) + [("total", timings.total_ms),
                                                                 ("host", timings.host_ms)]:
                self._rows.setdefault(stage, deque(maxlen=self.window)).append(ms)

    def percentiles(self, stage: str) -> Percentiles:
        with self._lock:
            values = np.fromiter(self._rows.get(stage, ()), dtype=np.float64)
        if values.size == 0:
            return Percentiles(0.0, 0.0, 0.0, 0)
        p50, p95, p99 = np.percentile(values, [50, 95, 99])
        return Percentiles(float(p50), float(p95), float(p99), int(values.size))

    def stages(self) -> list[str]:
        with self._lock:
            return list(self._rows)

    def summary(self) -> dict[str, dict[str, float]]:
        return {s: {"p50": round(p.p50, 3), "p95": round(p.p95, 3), "p99": round(p.p99, 3), "n": p.count}
                for s in self.stages() for p in [self.percentiles(s)]}


# -- memory ----------------------------------------------------------------------------------
def process_rss_mb() -> float:
    import psutil

    return psutil.Process(os.getpid()).memory_info().rss / 2**20


_nvml_lock = threading.Lock()
_nvml_state: dict[str, object] = {}


def _nvml():
    """pynvml after nvmlInit, or None when no driver/GPU; the reason is kept in _nvml_state."""
    with _nvml_lock:
        if "module" in _nvml_state:
            return _nvml_state["module"]
        try:
            import pynvml

            pynvml.nvmlInit()
            module = pynvml if pynvml.nvmlDeviceGetCount() > 0 else None
            if module is None:
                _nvml_state["reason"] = "NVML sees no GPU"
        except Exception as exc:  # ImportError, NVMLError_LibraryNotFound, driver errors
            module = None
            _nvml_state["reason"] = f"NVML unavailable: {exc}"
        _nvml_state["module"] = module
        return module


def nvml_unavailable_reason() -> str | None:
    return None if _nvml() is not None else str(_nvml_state.get("reason", "NVML unavailable"))


def gpu_name(index: int = 0) -> str | None:
    nvml = _nvml()
    if nvml is None:
        return None
    try:
        name = nvml.nvmlDeviceGetName(nvml.nvmlDeviceGetHandleByIndex(index))
    except Exception:
        return None
    return name.decode() if isinstance(name, bytes) else str(name)


def process_vram_mb(index: int = 0) -> float | None:
    """VRAM this process holds on GPU `index`, or None when it can't be measured."""
    nvml = _nvml()
    if nvml is None:
        return None
    try:
        handle = nvml.nvmlDeviceGetHandleByIndex(index)
        pid = os.getpid()
        for getter in ("nvmlDeviceGetComputeRunningProcesses", "nvmlDeviceGetGraphicsRunningProcesses"):
            for proc in getattr(nvml, getter)(handle):
                if proc.pid == pid and proc.usedGpuMemory is not None:
                    return proc.usedGpuMemory / 2**20
        return 0.0
    except Exception:
        return None


@dataclass(frozen=True)
class MemorySample:
    rss_mb: float
    vram_mb: float | None = field(default=None)


def sample_memory(gpu_index: int = 0) -> MemorySample:
    return MemorySample(process_rss_mb(), process_vram_mb(gpu_index))


def drift_per_1000(values: np.ndarray) -> float:
    """Least-squares slope × 1000: MiB gained per 1000 frames (the drift alarm's number)."""
    values = np.asarray(values, dtype=np.float64)
    if values.size < 3:
        return 0.0
    x = np.arange(values.size, dtype=np.float64)
    slope = np.polyfit(x, values, 1)[0]
    return float(slope * 1000.0)
