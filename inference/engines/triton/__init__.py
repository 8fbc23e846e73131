"""Triton Inference Server backend (KServe v2 over HTTP or gRPC); tritonclient is imported lazily."""

from __future__ import annotations

from inference.engines.triton.client import probe
from inference.engines.triton.engine import TritonEngine, TritonUnavailableError

__all__ = ["TritonEngine", "TritonUnavailableError", "probe"]
