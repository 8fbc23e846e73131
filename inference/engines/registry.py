"""Backend registry: a name maps to a module; a missing optional library disables only that backend."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path

from inference.engines.base import Engine
from inference.errors import BackendUnavailableError


@dataclass(frozen=True)
class BackendInfo:
    name: str
    label: str
    module: str
    probe: str
    factory: str


@dataclass(frozen=True)
class BackendStatus:
    name: str
    label: str
    available: bool
    reason: str  # why it is unavailable; empty when available


# Order is preference: the first available one is the default.
BACKENDS: tuple[BackendInfo, ...] = (
    BackendInfo("tensorrt", "TensorRT", "inference.engines.tensorrt", "probe", "TensorRTEngine"),
    BackendInfo("onnxruntime-cuda", "ONNX Runtime CUDA", "inference.engines.onnxrt", "probe_cuda", "OnnxRuntimeCudaEngine"),
    BackendInfo("onnxruntime-cpu", "ONNX Runtime CPU", "inference.engines.onnxrt", "probe_cpu", "OnnxRuntimeEngine"),
    # Remote: never the default (it needs a server URL); chosen with --backend triton.
    BackendInfo("triton", "Triton Inference Server", "inference.engines.triton", "probe", "TritonEngine"),
)


def _info(name: str) -> BackendInfo:
    for info in BACKENDS:
        if info.name == name:
            return info
    raise BackendUnavailableError(f"unknown backend '{name}'", expected=" | ".join(b.name for b in BACKENDS),
                                  found=name)


def backend_status(name: str) -> BackendStatus:
    info = _info(name)
    try:
        module = importlib.import_module(info.module)
        reason = getattr(module, info.probe)()
    except ImportError as exc:
        reason = f"cannot import {info.module}: {exc}"
    except Exception as exc:  # a probe must never break the station; report why instead
        reason = f"probe failed: {exc}"
    return BackendStatus(info.name, info.label, reason is None, reason or "")


def list_backends() -> list[BackendStatus]:
    return [backend_status(info.name) for info in BACKENDS]


def default_backend() -> str:
    for status in list_backends():
        if status.available:
            return status.name
    return "onnxruntime-cpu"


def create_engine(name: str, model_path: Path, **options: object) -> Engine:
    """Instantiate (not yet load) an engine; raises BackendUnavailableError with the reason."""
    status = backend_status(name)
    if not status.available:
        raise BackendUnavailableError(f"backend '{name}' is not available here", expected="an available backend",
                                      found=status.reason,
                                      hint="available: " + ", ".join(s.name for s in list_backends() if s.available))
    factory = getattr(importlib.import_module(_info(name).module), _info(name).factory)
    return factory(Path(model_path), **options)
