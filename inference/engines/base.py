"""The engine protocol every backend implements, and a base class that owns the lifecycle.

Like Polygraphy's runners: public `load/infer/close` check state and time the call;
a backend fills in only the `_*_impl` methods. Engines are context managers.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from inference.errors import EngineStateError, InputShapeError


@dataclass(frozen=True)
class TensorSpec:
    """One input or output: dims are ints, or -1 where the model leaves them dynamic."""

    name: str
    shape: tuple[int, ...]
    dtype: np.dtype

    @property
    def is_dynamic(self) -> bool:
        return any(d < 0 for d in self.shape)


class Engine:
    """Base class of all backends. Subclasses set `backend_name` and implement the `_impl` hooks."""

    backend_name = "abstract"

    def __init__(self, model_path: Path) -> None:
        self.model_path = Path(model_path)
        self.metadata: dict[str, str] = {}
        self.device_name = "CPU"
        self.last_stage_ns: dict[str, int] = {}
        self._inputs: tuple[TensorSpec, ...] = ()
        self._outputs: tuple[TensorSpec, ...] = ()
        self._loaded = False
        self._closed = False
        self.calls = 0

    # -- lifecycle -------------------------------------------------------------------------
    def load(self) -> Engine:
        if self._closed:
            raise EngineStateError(f"{self.backend_name} engine was closed", expected="a fresh engine",
                                   found="load() after close()", hint="create a new engine")
        if not self._loaded:
            self._inputs, self._outputs = self._load_impl()
            self._loaded = True
        return self

    def close(self) -> None:
        if self._loaded and not self._closed:
            self._close_impl()
        self._closed = True
        self._loaded = False

    def __enter__(self) -> Engine:
        return self.load()

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def is_loaded(self) -> bool:
        return self._loaded

    # -- description -----------------------------------------------------------------------
    @property
    def inputs(self) -> tuple[TensorSpec, ...]:
        self._require_loaded("inputs")
        return self._inputs

    @property
    def outputs(self) -> tuple[TensorSpec, ...]:
        self._require_loaded("outputs")
        return self._outputs

    # -- running ---------------------------------------------------------------------------
    def infer(self, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        """Run once. Returned arrays belong to the caller (copies, never views of engine buffers)."""
        self._require_loaded("infer")
        for spec in self._inputs:
            arr = feeds.get(spec.name)
            if arr is None:
                raise InputShapeError(f"input '{spec.name}' missing", expected=f"feeds for {[s.name for s in self._inputs]}",
                                      found=f"{sorted(feeds)}")
            if arr.ndim != len(spec.shape) or any(d >= 0 and d != a for d, a in zip(spec.shape, arr.shape)):
                raise InputShapeError(f"input '{spec.name}' has the wrong shape", expected=str(spec.shape),
                                      found=str(tuple(arr.shape)))
        start = time.perf_counter_ns()
        self.last_stage_ns = {}
        outputs = self._infer_impl(feeds)
        self.last_stage_ns.setdefault("infer", time.perf_counter_ns() - start)
        self.calls += 1
        return outputs

    def _require_loaded(self, what: str) -> None:
        if not self._loaded:
            state = "closed" if self._closed else "not loaded"
            raise EngineStateError(f"{self.backend_name} engine used while {state}", expected="load() first",
                                   found=f"{what} on a {state} engine")

    # -- backend hooks ---------------------------------------------------------------------
    def _load_impl(self) -> tuple[tuple[TensorSpec, ...], tuple[TensorSpec, ...]]:
        raise NotImplementedError

    def _infer_impl(self, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        raise NotImplementedError

    def _close_impl(self) -> None:
        raise NotImplementedError
