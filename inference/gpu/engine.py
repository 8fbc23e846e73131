"""The seam between the GPU pipeline and an engine: device buffers in, device buffers out, one stream.

The pipeline owns the memory and the stream; an engine only describes the shapes it needs, is bound
to the pipeline's buffers once, and is enqueued on the pipeline's stream each frame. Everything around
the engine call (upload, letterbox kernel, compact decode, NMS, copies, events) is the same for every
backend: ONNX Runtime's CUDA provider here (`OrtDeviceEngine`), TensorRT through the same protocol
(bind → `set_tensor_address`, enqueue → `execute_async_v3(stream)`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Mapping, Protocol

from inference.engines.base import TensorSpec
from inference.errors import ModelError
from inference.gpu.memory import DeviceBuffer, Stream


class DeviceEngine(Protocol):
    backend_name: str
    device_name: str
    model_path: Path
    metadata: dict[str, str]

    def describe(self, batch: int, input_hw: tuple[int, int] | None) -> tuple[TensorSpec, tuple[TensorSpec, ...]]:
        """Static input and output specs for this batch size (dynamic dims resolved)."""

    def bind(self, stream: Stream, inputs: Mapping[str, DeviceBuffer], outputs: Mapping[str, DeviceBuffer]) -> None:
        """Point the engine at the pipeline's buffers and stream; called once, before the first enqueue."""

    def enqueue(self) -> None:
        """Run once on the bound stream. May return before the GPU finishes (the pipeline synchronizes)."""

    def close(self) -> None:
        """Release what the engine made itself (sessions, contexts); never the pipeline's buffers."""


def resolve_input_shape(spec: TensorSpec, batch: int, input_hw: tuple[int, int] | None,
                        default_hw: tuple[int, int]) -> tuple[int, int, int, int]:
    """[N, 3, H, W] with the batch and, for dynamic models, the spatial size filled in."""
    if len(spec.shape) != 4:
        raise ModelError("the model input is not an image batch", expected="[N, 3, H, W]", found=str(list(spec.shape)))
    n, c, h, w = spec.shape
    if n > 0 and n != batch:
        raise ModelError("the model's batch size is fixed", expected=f"batch {batch} or a dynamic batch dimension",
                         found=f"input {spec.name} of shape {list(spec.shape)}",
                         hint="re-export the ONNX with a dynamic batch axis, or run with --batch " + str(n))
    if h <= 0 or w <= 0:
        h, w = input_hw or default_hw
    elif input_hw and tuple(input_hw) != (h, w):
        raise ModelError("the model's input size is fixed", expected=f"{h}×{w}", found=f"{input_hw[0]}×{input_hw[1]}")
    return (batch, 3 if c <= 0 else c, int(h), int(w))
