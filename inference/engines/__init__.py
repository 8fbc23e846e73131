"""Inference backends behind one small protocol (see base.Engine) and a registry."""

from inference.engines.base import Engine, TensorSpec
from inference.engines.registry import BackendStatus, create_engine, default_backend, list_backends

__all__ = ["Engine", "TensorSpec", "BackendStatus", "create_engine", "default_backend", "list_backends"]
