"""The station's version and every library version a support ticket needs, without Qt.

`--version` prints them, the About dialog shows them, and the start-up line names the backends.
Each probe may fail on its own: a missing TensorRT or driver is a row saying so, never a crash.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import platform
import sys
from collections.abc import Callable
from pathlib import Path

DIST_NAME = "hangtag-station"
APP_TITLE = "Hangtag Station"


def app_version() -> str:
    """From the installed package metadata (the bundle carries it), else from pyproject.toml."""
    try:
        return importlib.metadata.version(DIST_NAME)
    except importlib.metadata.PackageNotFoundError:
        pass
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    try:
        import tomllib

        return str(tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"])
    except (OSError, KeyError, ValueError):
        return "unknown"


def build_kind() -> str:
    return "bundle" if getattr(sys, "frozen", False) else "source"


def _qt() -> str:
    from PySide6.QtCore import qVersion

    return qVersion()


def _pyside() -> str:
    import PySide6

    return PySide6.__version__


def _onnxruntime() -> str:
    import onnxruntime

    providers = ", ".join(p.removesuffix("ExecutionProvider") for p in onnxruntime.get_available_providers())
    return f"{onnxruntime.__version__} ({providers})"


def _opencv() -> str:
    import cv2

    return cv2.__version__


def _numpy() -> str:
    import numpy

    return numpy.__version__


def _dist_version(dist: str) -> Callable[[], str]:
    def probe() -> str:
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"

    return probe


def _ocr_models() -> str:
    from inference.reading.ocr.models import SECOND_READ_NOTE, find_ppocr_models, shipped_models, tuned_rec

    shipped = shipped_models()
    if shipped is not None:
        return shipped.describe()
    return find_ppocr_models().version + (SECOND_READ_NOTE if tuned_rec() is not None else "")


def _module_version(name: str) -> Callable[[], str]:
    def probe() -> str:
        if importlib.util.find_spec(name) is None:
            return "not installed"
        module = importlib.import_module(name)
        return str(getattr(module, "__version__", "installed"))

    return probe


def _cuda_python() -> str:
    """cuda-python's bindings, which the GPU pipeline and TensorRT use: the version, or why they do not load."""
    try:
        version = importlib.metadata.version("cuda-bindings")
    except importlib.metadata.PackageNotFoundError:
        return "not installed"
    try:
        importlib.import_module("cuda.bindings.runtime")
    except Exception as exc:  # a bundle missing a piece: say which, do not crash the version list
        return f"{version}, but its runtime bindings do not load: {type(exc).__name__}: {exc}"
    return version


def _cuda_driver() -> str:
    """Driver and the CUDA version it supports, from NVML: works without the CUDA toolkit."""
    import pynvml

    try:
        pynvml.nvmlInit()
    except pynvml.NVMLError as exc:
        return f"no NVIDIA driver ({exc})"
    try:
        driver = pynvml.nvmlSystemGetDriverVersion()
        cuda = pynvml.nvmlSystemGetCudaDriverVersion_v2()
        gpus = [pynvml.nvmlDeviceGetName(pynvml.nvmlDeviceGetHandleByIndex(i))
                for i in range(pynvml.nvmlDeviceGetCount())]
    finally:
        pynvml.nvmlShutdown()
    names = ", ".join(str(g) for g in gpus) or "no GPU"
    return f"{driver} (CUDA {cuda // 1000}.{cuda % 1000 // 10}; {names})"


PROBES: tuple[tuple[str, Callable[[], str]], ...] = (
    ("Qt", _qt),
    ("PySide6", _pyside),
    ("ONNX Runtime", _onnxruntime),
    ("OpenCV", _opencv),
    ("NumPy", _numpy),
    ("OCR models", _ocr_models),
    ("RapidOCR (model files)", _dist_version("rapidocr")),
    ("zxing-cpp", _dist_version("zxing-cpp")),
    ("TensorRT", _module_version("tensorrt")),
    ("cuda-python", _cuda_python),
    ("NVIDIA driver", _cuda_driver),
)


def backends_text() -> str:
    """One line: which inference backends this machine and build can use, and why not the others."""
    from inference.engines.registry import list_backends

    return "; ".join(s.name if s.available else f"{s.name} unavailable ({s.reason.splitlines()[0]})"
                     for s in list_backends())


def library_versions() -> list[tuple[str, str]]:
    rows = [("Python", f"{platform.python_version()} ({platform.machine()}, {platform.system()})")]
    for name, probe in PROBES:
        try:
            value = probe()
        except Exception as exc:  # one broken probe must not hide the others
            value = f"unavailable ({type(exc).__name__}: {exc})"
        rows.append((name, value))
    try:
        rows.append(("Backends", backends_text()))
    except Exception as exc:
        rows.append(("Backends", f"unavailable ({type(exc).__name__}: {exc})"))
    return rows


def version_text(versions: list[tuple[str, str]] | None = None) -> str:
    """Plain text for `--version` and the dialog's Copy button."""
    lines = [f"{APP_TITLE} {app_version()} ({build_kind()})"]
    lines += [f"  {name}: {value}" for name, value in (library_versions() if versions is None else versions)]
    return "\n".join(lines)
