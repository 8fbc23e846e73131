"""Buffers for one execution context: pure planning from I/O descriptions, then small owners.

Planning (`TensorDesc` → `BufferSpec`) is plain Python and numpy, tested without TensorRT.
The owners (device memory, pinned host memory, stream, events, CUDA graph) each free exactly once
through an idempotent `free()`, called by whoever allocated them (an ExitStack in the runner),
never from `__del__` alone.
"""

from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from inference.errors import ModelError

ALIGNMENT = 256  # bytes; what cudaMalloc guarantees and TensorRT expects for I/O tensors

# TensorRT DataType member names → numpy. BF16/FP8/INT4/FP4 have no numpy type: unsupported at the I/O.
TRT_DTYPES: dict[str, np.dtype] = {
    "FLOAT": np.dtype(np.float32),
    "HALF": np.dtype(np.float16),
    "INT8": np.dtype(np.int8),
    "UINT8": np.dtype(np.uint8),
    "INT32": np.dtype(np.int32),
    "INT64": np.dtype(np.int64),
    "BOOL": np.dtype(np.bool_),
}


def numpy_dtype(trt_dtype_name: str) -> np.dtype:
    name = trt_dtype_name.rsplit(".", 1)[-1].upper()
    try:
        return TRT_DTYPES[name]
    except KeyError:
        raise ModelError("engine I/O tensor has a type the station cannot feed", expected=", ".join(TRT_DTYPES),
                         found=name, hint="keep the model's inputs and outputs FP32 (the precision step does)") \
            from None


@dataclass(frozen=True)
class TensorDesc:
    """One engine I/O tensor as TensorRT describes it; -1 marks a dynamic dimension."""

    name: str
    is_input: bool
    shape: tuple[int, ...]
    dtype: np.dtype
    profile_max: tuple[int, ...] | None = None  # inputs: the optimization profile's max shape

    @property
    def is_dynamic(self) -> bool:
        return any(d < 0 for d in self.shape)


@dataclass(frozen=True)
class BufferSpec:
    name: str
    is_input: bool
    max_shape: tuple[int, ...]
    dtype: np.dtype

    @property
    def nbytes(self) -> int:
        return int(math.prod(self.max_shape)) * self.dtype.itemsize

    @property
    def alloc_bytes(self) -> int:
        return max(ALIGNMENT, -(-self.nbytes // ALIGNMENT) * ALIGNMENT)


def _max_input_shape(desc: TensorDesc, max_batch: int) -> tuple[int, ...]:
    if desc.profile_max is not None:
        shape = tuple(desc.profile_max)
    else:
        shape = tuple(max_batch if (i == 0 and d < 0) else d for i, d in enumerate(desc.shape))
    if any(d < 0 for d in shape):
        raise ModelError(f"input '{desc.name}' has dynamic dimensions besides the batch and no profile",
                         expected="a static H×W, or an optimization profile max shape", found=str(list(desc.shape)),
                         hint="build the engine with an input size (imgsz) for dynamic-shape models")
    if shape and shape[0] > max_batch:
        shape = (max_batch, *shape[1:])
    return shape


def plan_buffers(tensors: Sequence[TensorDesc], max_batch: int,
                 output_shapes: Mapping[str, Sequence[int]] | None = None) -> tuple[BufferSpec, ...]:
    """Largest buffer each tensor can need for batches up to `max_batch`.

    `output_shapes` are the context's output shapes after setting every input to its max shape;
    without them an output's dynamic batch dimension is taken as `max_batch`. Other dynamic output
    dimensions (data-dependent shapes, e.g. NMS inside the model) cannot be preallocated.
    """
    if max_batch < 1:
        raise ModelError("max batch must be positive", expected="≥ 1", found=str(max_batch))
    names = [t.name for t in tensors]
    if len(set(names)) != len(names):
        raise ModelError("engine I/O tensor names repeat", expected="unique names", found=str(names))
    if not any(t.is_input for t in tensors) or all(t.is_input for t in tensors):
        raise ModelError("engine needs at least one input and one output", expected="≥ 1 of each",
                         found=f"{sum(t.is_input for t in tensors)} inputs, {sum(not t.is_input for t in tensors)} outputs")
    specs = []
    for desc in tensors:
        if desc.is_input:
            shape = _max_input_shape(desc, max_batch)
        else:
            resolved = (output_shapes or {}).get(desc.name)
            shape = tuple(int(d) for d in resolved) if resolved is not None else \
                tuple(max_batch if (i == 0 and d < 0) else d for i, d in enumerate(desc.shape))
            if any(d < 0 for d in shape):
                raise ModelError(f"output '{desc.name}' has a data-dependent shape",
                                 expected="output dims fixed by the input shape", found=str(list(desc.shape)),
                                 hint="export the detector without NMS inside (the station runs NMS itself)")
        specs.append(BufferSpec(desc.name, desc.is_input, shape, desc.dtype))
    return tuple(specs)


def frame_shape(spec: BufferSpec, batch: int) -> tuple[int, ...]:
    if not 1 <= batch <= spec.max_shape[0]:
        raise ModelError(f"batch {batch} is outside the engine's range", expected=f"1 … {spec.max_shape[0]}",
                         found=str(batch), hint="rebuild the engine with a larger max batch")
    return (batch, *spec.max_shape[1:])


# -- owners (need cuda-python) -----------------------------------------------------------------
class DeviceBuffer:
    def __init__(self, nbytes: int) -> None:
        from inference.engines.tensorrt import libs

        self.nbytes = int(nbytes)
        self.ptr: int = int(libs.check(libs.cudart().cudaMalloc(self.nbytes), "cudaMalloc"))

    def free(self) -> None:
        if self.ptr:
            from inference.engines.tensorrt import libs

            ptr, self.ptr = self.ptr, 0
            libs.check(libs.cudart().cudaFree(ptr), "cudaFree")


class PinnedBuffer:
    """Page-locked host memory viewed as a numpy array of the buffer's max shape."""

    def __init__(self, spec: BufferSpec) -> None:
        from inference.engines.tensorrt import libs

        self.nbytes = spec.alloc_bytes
        self.ptr: int = int(libs.check(libs.cudart().cudaMallocHost(self.nbytes), "cudaMallocHost"))
        raw = (ctypes.c_uint8 * self.nbytes).from_address(self.ptr)
        flat = np.frombuffer(raw, dtype=np.uint8, count=spec.nbytes)
        self.array = flat.view(spec.dtype).reshape(spec.max_shape)

    def view(self, shape: tuple[int, ...]) -> np.ndarray:
        """The leading part of the buffer shaped for one frame (contiguous, so copies stay single)."""
        count = int(math.prod(shape))
        return self.array.reshape(-1)[:count].reshape(shape)

    def free(self) -> None:
        if self.ptr:
            from inference.engines.tensorrt import libs

            ptr, self.ptr = self.ptr, 0
            self.array = np.empty(0, self.array.dtype)  # no view may outlive the memory
            libs.check(libs.cudart().cudaFreeHost(ptr), "cudaFreeHost")


class CudaStream:
    def __init__(self) -> None:
        from inference.engines.tensorrt import libs

        rt = libs.cudart()
        non_blocking = getattr(rt, "cudaStreamNonBlocking", 1)  # not synchronised with the legacy default stream
        self.handle: Any = libs.check(rt.cudaStreamCreateWithFlags(non_blocking), "cudaStreamCreateWithFlags")

    @property
    def ptr(self) -> int:
        return int(self.handle)

    def synchronize(self) -> None:
        from inference.engines.tensorrt import libs

        libs.check(libs.cudart().cudaStreamSynchronize(self.handle), "cudaStreamSynchronize")

    def free(self) -> None:
        if self.handle is not None:
            from inference.engines.tensorrt import libs

            handle, self.handle = self.handle, None
            libs.check(libs.cudart().cudaStreamDestroy(handle), "cudaStreamDestroy")


class CudaEvent:
    def __init__(self) -> None:
        from inference.engines.tensorrt import libs

        self.handle: Any = libs.check(libs.cudart().cudaEventCreate(), "cudaEventCreate")

    def record(self, stream: CudaStream) -> None:
        from inference.engines.tensorrt import libs

        libs.check(libs.cudart().cudaEventRecord(self.handle, stream.handle), "cudaEventRecord")

    def ms_since(self, start: CudaEvent) -> float:
        from inference.engines.tensorrt import libs

        return float(libs.check(libs.cudart().cudaEventElapsedTime(start.handle, self.handle), "cudaEventElapsedTime"))

    def free(self) -> None:
        if self.handle is not None:
            from inference.engines.tensorrt import libs

            handle, self.handle = self.handle, None
            libs.check(libs.cudart().cudaEventDestroy(handle), "cudaEventDestroy")


class CudaGraph:
    """One captured `execute_async_v3` replayed with `cudaGraphLaunch` (static shapes only)."""

    def __init__(self, graph: Any, graph_exec: Any) -> None:
        self.graph, self.graph_exec = graph, graph_exec

    def launch(self, stream: CudaStream) -> None:
        from inference.engines.tensorrt import libs

        libs.check(libs.cudart().cudaGraphLaunch(self.graph_exec, stream.handle), "cudaGraphLaunch")

    def free(self) -> None:
        from inference.engines.tensorrt import libs

        rt = libs.cudart()
        if self.graph_exec is not None:
            graph_exec, self.graph_exec = self.graph_exec, None
            libs.check(rt.cudaGraphExecDestroy(graph_exec), "cudaGraphExecDestroy")
        if self.graph is not None:
            graph, self.graph = self.graph, None
            libs.check(rt.cudaGraphDestroy(graph), "cudaGraphDestroy")
