"""Lazy access to TensorRT and cuda-python: importing this package never needs either.

The first real use raises BackendUnavailableError naming the missing package and how to get it.
"""

from __future__ import annotations

import importlib
from typing import Any

from inference.errors import BackendUnavailableError, HangtagError

TENSORRT_HINT = "pip install tensorrt; needs an NVIDIA GPU"
CUDA_PYTHON_HINT = "pip install cuda-python; needs an NVIDIA driver"


class CudaError(HangtagError):
    """A CUDA runtime call failed; the message names the call and CUDA's error name."""


def tensorrt() -> Any:
    try:
        return importlib.import_module("tensorrt")
    except ImportError as exc:
        raise BackendUnavailableError("TensorRT is not installed", expected="the tensorrt Python package",
                                      found=str(exc), hint=TENSORRT_HINT) from exc
    except Exception as exc:  # a wheel whose native libraries failed to load
        raise BackendUnavailableError("TensorRT is installed but cannot be loaded", expected="import tensorrt",
                                      found=f"{type(exc).__name__}: {exc}", hint=TENSORRT_HINT) from exc


def cudart() -> Any:
    """cuda-python's runtime module: `cuda.bindings.runtime` (12.6+) or the older `cuda.cudart`."""
    for name in ("cuda.bindings.runtime", "cuda.cudart"):
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    raise BackendUnavailableError("cuda-python is not installed", expected="cuda.bindings.runtime or cuda.cudart",
                                  found="neither importable", hint=CUDA_PYTHON_HINT)


def check(result: Any, call: str) -> Any:
    """Unpack a cuda-python result tuple `(err, *values)`, raising CudaError when err is not success."""
    rt = cudart()
    if isinstance(result, tuple):
        err, values = result[0], result[1:]
    else:
        err, values = result, ()
    if err != rt.cudaError_t.cudaSuccess:
        name = rt.cudaGetErrorName(err)[1]
        name = name.decode() if isinstance(name, bytes) else str(name)
        raise CudaError(f"CUDA call {call} failed", expected="cudaSuccess", found=name,
                        hint="check the driver (nvidia-smi) and free GPU memory")
    if not values:
        return None
    return values[0] if len(values) == 1 else values


def version_of(module_name: str) -> str | None:
    try:
        module = importlib.import_module(module_name)
    except Exception:
        return None
    return str(getattr(module, "__version__", "unknown"))


def probe() -> str | None:
    """None when TensorRT can run here, else the reason it cannot (shown in the GUI)."""
    try:
        tensorrt()
    except BackendUnavailableError as exc:
        return f"{exc.message} ({exc.hint})"
    try:
        rt = cudart()
    except BackendUnavailableError as exc:
        return f"{exc.message} ({exc.hint})"
    try:
        count = check(rt.cudaGetDeviceCount(), "cudaGetDeviceCount")
    except CudaError as exc:
        return f"no usable NVIDIA GPU: {exc.found}"
    if not count:
        return "no NVIDIA GPU visible to CUDA"
    return None
