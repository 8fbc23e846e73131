"""TensorRT backend, split like Polygraphy's: make (`builder`, `model_info`) and run (`runner`, `buffers`).

Importing this package needs neither TensorRT nor cuda-python; `probe()` says why the backend is
unavailable, and the first real use raises BackendUnavailableError naming the package to install.
"""

from __future__ import annotations

from typing import Any

from inference.engines.tensorrt.libs import probe


def __getattr__(name: str) -> Any:  # TensorRTEngine and build_engine load their modules on first use
    if name == "TensorRTEngine":
        from inference.engines.tensorrt.runner import TensorRTEngine

        return TensorRTEngine
    if name in ("build_engine", "BuildSettings"):
        from inference.engines.tensorrt import builder

        return getattr(builder, name)
    raise AttributeError(name)


__all__ = ["probe", "TensorRTEngine", "build_engine", "BuildSettings"]
