"""cuda-python, loaded lazily, and one place that turns CUDA status codes into HangtagErrors."""

from __future__ import annotations

import os
import threading
from types import ModuleType
from typing import Any

from inference.errors import BackendUnavailableError, HangtagError

INSTALL_HINT = "pip install 'hangtag-station[gpu]' (cuda-python ≥ 12 with NVRTC: nvidia-cuda-nvrtc)"


class CudaError(HangtagError):
    """A CUDA runtime, driver or NVRTC call returned an error status."""


def _import(name: str) -> ModuleType:
    try:
        if name == "runtime":
            from cuda.bindings import runtime as module
        elif name == "driver":
            from cuda.bindings import driver as module
        else:
            from cuda.bindings import nvrtc as module
    except ImportError as exc:
        raise BackendUnavailableError("cuda-python is not installed", expected="the cuda.bindings package",
                                      found=str(exc), hint=INSTALL_HINT) from exc
    return module


def runtime() -> ModuleType:
    return _import("runtime")


def driver() -> ModuleType:
    return _import("driver")


def nvrtc() -> ModuleType:
    return _import("nvrtc")


def _status_text(status: Any) -> str:
    name = getattr(status, "name", str(status))
    try:
        if type(status).__name__ == "cudaError_t":
            return f"{name}: {runtime().cudaGetErrorString(status)[1].decode()}"
        if type(status).__name__ == "CUresult":
            err, text = driver().cuGetErrorString(status)
            return f"{name}: {text.decode() if text else ''}"
    except Exception:  # the description is a nicety; the name alone still says what failed
        pass
    return name


def check(result: Any, what: str, hint: str = "") -> Any:
    """Unpack a cuda-python result tuple `(status, *values)`; raise CudaError unless the status is success."""
    status, *values = result if isinstance(result, tuple) else (result,)
    if int(status) != 0:
        raise CudaError(f"{what} failed", expected="success (0)", found=_status_text(status), hint=hint)
    if not values:
        return None
    return values[0] if len(values) == 1 else tuple(values)


_probe_lock = threading.Lock()
_probe_cache: dict[int, str | None] = {}


def gpu_unavailable_reason(device_id: int = 0) -> str | None:
    """None when cuda-python, a CUDA device and NVRTC are all usable here; else why not, in one line."""
    with _probe_lock:
        if device_id not in _probe_cache:
            _probe_cache[device_id] = _probe(device_id)
        return _probe_cache[device_id]


def _probe(device_id: int) -> str | None:
    if os.environ.get("HANGTAG_FORCE_NO_GPU"):
        return "GPU pipeline disabled by HANGTAG_FORCE_NO_GPU"
    try:
        cudart = runtime()
        nvrtc_module = nvrtc()
    except BackendUnavailableError as exc:
        return f"{exc.message} ({exc.found})"
    try:
        status, count = cudart.cudaGetDeviceCount()
    except Exception as exc:  # a broken install raises instead of returning a status
        return f"CUDA runtime unusable: {exc}"
    if int(status) != 0:
        return f"no CUDA device: {_status_text(status)}"
    if device_id >= count:
        return f"CUDA device {device_id} not present ({count} found)"
    try:
        driver().cuDriverGetVersion()
    except RuntimeError as exc:  # cuda.bindings raises when libcuda.so.1 cannot be opened
        return f"CUDA driver library unavailable: {exc}"
    try:
        nvrtc_module.nvrtcVersion()
    except Exception as exc:  # DynamicLibNotFoundError when the NVRTC wheel is missing
        return f"NVRTC unavailable (needed to compile the pre/post kernels): {str(exc).splitlines()[0]}"
    return None


_thread_state = threading.local()


def make_current(device_id: int) -> None:
    """Make the device's primary context current on this thread (driver calls need one), once per thread."""
    if getattr(_thread_state, "device", None) != device_id:
        check(runtime().cudaSetDevice(device_id), f"cudaSetDevice({device_id})")
        check(runtime().cudaFree(0), "initializing the CUDA context")
        _thread_state.device = device_id


def compute_capability(device_id: int) -> tuple[int, int]:
    cudart = runtime()
    major = check(cudart.cudaDeviceGetAttribute(cudart.cudaDeviceAttr.cudaDevAttrComputeCapabilityMajor, device_id),
                  "reading the compute capability")
    minor = check(cudart.cudaDeviceGetAttribute(cudart.cudaDeviceAttr.cudaDevAttrComputeCapabilityMinor, device_id),
                  "reading the compute capability")
    return int(major), int(minor)


def device_memory_used_mb(device_id: int = 0) -> float:
    """Device-wide used memory from cudaMemGetInfo: the VRAM reading when NVML cannot see processes."""
    make_current(device_id)
    free, total = check(runtime().cudaMemGetInfo(), "cudaMemGetInfo")
    return (int(total) - int(free)) / 2**20


def versions() -> dict[str, str]:
    """Driver, runtime and NVRTC versions as text, for benchmark records."""
    out: dict[str, str] = {}
    try:
        cudart = runtime()
        out["cuda_driver"] = _version_text(check(cudart.cudaDriverGetVersion(), "cudaDriverGetVersion"))
        out["cuda_runtime"] = _version_text(check(cudart.cudaRuntimeGetVersion(), "cudaRuntimeGetVersion"))
        major, minor = check(nvrtc().nvrtcVersion(), "nvrtcVersion")
        out["nvrtc"] = f"{major}.{minor}"
    except Exception as exc:  # recorded, not raised: a benchmark record must still be written
        out["error"] = str(exc).splitlines()[0]
    try:
        from importlib.metadata import version

        out["cuda_bindings"] = version("cuda-bindings")
    except Exception:
        pass
    return out


def _version_text(value: int) -> str:
    value = int(value)
    return f"{value // 1000}.{(value % 1000) // 10}"
