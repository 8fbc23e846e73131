"""Small owners for device memory, pinned host memory, streams and events, in the TensorRT samples' style.

Each owner frees its resource once; `free()` is idempotent and explicit. Every owner is created through
one `Allocator`, which counts what it made: "no allocation per frame" is a test that reads those counts.
The allocator also frees, newest first, whatever its owners have not freed yet (the pipeline's ExitStack).
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any

import numpy as np

from inference.errors import EngineStateError, InputShapeError
from inference.gpu.cuda import check, make_current, runtime


@dataclass(frozen=True)
class AllocationCounts:
    """What an allocator has made so far; compare two of these around a loop."""

    device: int
    pinned: int
    streams: int
    events: int
    live_device_bytes: int
    live_pinned_bytes: int

    @property
    def allocations(self) -> int:
        return self.device + self.pinned + self.streams + self.events


class _Owner:
    kind = "resource"

    def __init__(self, allocator: Allocator, name: str) -> None:
        self._allocator = allocator
        self.name = name
        self._freed = False

    @property
    def freed(self) -> bool:
        return self._freed

    def free(self) -> None:
        if self._freed:
            return
        self._freed = True
        try:
            self._release()
        finally:
            self._allocator._forget(self)

    def _release(self) -> None:
        raise NotImplementedError

    def _require_live(self, what: str) -> None:
        if self._freed:
            raise EngineStateError(f"{self.kind} '{self.name}' used after free()", expected="a live buffer",
                                   found=f"{what} on a freed {self.kind}",
                                   hint="the pipeline that owned it was closed; open a new one")

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.free()


class DeviceBuffer(_Owner):
    """`nbytes` of device memory from cudaMalloc. Shape and dtype describe it for interop (CuPy, ORT)."""

    kind = "device buffer"

    def __init__(self, allocator: Allocator, nbytes: int, shape: tuple[int, ...], dtype: np.dtype, name: str) -> None:
        super().__init__(allocator, name)
        self.nbytes = int(nbytes)
        self.shape = tuple(int(s) for s in shape)
        self.dtype = np.dtype(dtype)
        self._ptr = int(check(runtime().cudaMalloc(max(self.nbytes, 1)), f"cudaMalloc({self.nbytes}) for {name}",
                              hint="the GPU is out of memory; close other GPU programs or lower the batch size"))

    @property
    def ptr(self) -> int:
        self._require_live("ptr")
        return self._ptr

    def _release(self) -> None:
        ptr, self._ptr = self._ptr, 0
        check(runtime().cudaFree(ptr), f"cudaFree of {self.name}")

    @property
    def __cuda_array_interface__(self) -> dict:
        return {"shape": self.shape, "typestr": self.dtype.str, "data": (self.ptr, False), "version": 3}


class PinnedBuffer(_Owner):
    """Page-locked host memory (cudaHostAlloc) with a numpy view: the only host side the GPU copies touch."""

    kind = "pinned buffer"

    def __init__(self, allocator: Allocator, shape: tuple[int, ...], dtype: np.dtype, name: str) -> None:
        super().__init__(allocator, name)
        self.shape = tuple(int(s) for s in shape)
        self.dtype = np.dtype(dtype)
        self.nbytes = int(np.prod(self.shape, dtype=np.int64)) * self.dtype.itemsize
        self._ptr = _host_alloc(self.nbytes, name, "lower the batch size or frame size")
        raw = (ctypes.c_uint8 * max(self.nbytes, 1)).from_address(self._ptr)
        self._array = np.frombuffer(raw, dtype=np.uint8, count=self.nbytes).view(self.dtype).reshape(self.shape)

    @property
    def ptr(self) -> int:
        self._require_live("ptr")
        return self._ptr

    @property
    def array(self) -> np.ndarray:
        """A view of the pinned memory; valid until free(). Copy out what must outlive the buffer."""
        self._require_live("array")
        return self._array

    def _release(self) -> None:
        ptr, self._ptr = self._ptr, 0
        self._array = np.empty(0, np.uint8)
        check(runtime().cudaFreeHost(ptr), f"cudaFreeHost of {self.name}")


def _host_alloc(nbytes: int, what: str, remedy: str) -> int:
    """Page-locked host memory usable from every context (cudaHostAllocPortable); the address."""
    cudart = runtime()
    return int(check(cudart.cudaHostAlloc(max(nbytes, 1), cudart.cudaHostAllocPortable),
                     f"cudaHostAlloc({nbytes}) for {what}", hint=f"page-locked memory is limited; {remedy}"))


class Stream(_Owner):
    kind = "stream"

    def __init__(self, allocator: Allocator, name: str, *, urgent: bool = False) -> None:
        """`urgent`: the device's highest stream priority, so this stream's kernels are scheduled ahead of
        other streams' kernels waiting at the same time (the engine ahead of letterbox and decode)."""
        super().__init__(allocator, name)
        cudart = runtime()
        priority = 0
        if urgent:
            _, greatest = check(cudart.cudaDeviceGetStreamPriorityRange(), "reading the stream priority range")
            priority = int(greatest)
        self.priority = priority
        self._handle = int(check(cudart.cudaStreamCreateWithPriority(cudart.cudaStreamNonBlocking, priority),
                                 f"cudaStreamCreate for {name}"))

    @property
    def handle(self) -> int:
        self._require_live("handle")
        return self._handle

    def synchronize(self) -> None:
        check(runtime().cudaStreamSynchronize(self.handle), f"synchronizing stream {self.name}",
              hint="a kernel or copy on this stream failed; the error above names the first one")

    def wait(self, event: Event) -> None:
        """Later work on this stream waits for `event` (a no-op for an event never recorded)."""
        check(runtime().cudaStreamWaitEvent(self.handle, event.handle, 0), f"{self.name} waiting on {event.name}")

    def _release(self) -> None:
        handle, self._handle = self._handle, 0
        check(runtime().cudaStreamDestroy(handle), f"cudaStreamDestroy of {self.name}")


class Event(_Owner):
    """A CUDA event with timing: per-stage times are differences between two of these on one stream."""

    kind = "event"

    def __init__(self, allocator: Allocator, name: str) -> None:
        super().__init__(allocator, name)
        cudart = runtime()
        self._handle = int(check(cudart.cudaEventCreateWithFlags(cudart.cudaEventDefault), f"cudaEventCreate {name}"))

    @property
    def handle(self) -> int:
        self._require_live("handle")
        return self._handle

    def record(self, stream: Stream) -> None:
        check(runtime().cudaEventRecord(self.handle, stream.handle), f"cudaEventRecord {self.name}")

    def synchronize(self) -> None:
        check(runtime().cudaEventSynchronize(self.handle), f"cudaEventSynchronize {self.name}")

    def ms_since(self, start: Event) -> float:
        return float(check(runtime().cudaEventElapsedTime(start.handle, self.handle),
                           f"cudaEventElapsedTime {start.name}→{self.name}"))

    def _release(self) -> None:
        handle, self._handle = self._handle, 0
        check(runtime().cudaEventDestroy(handle), f"cudaEventDestroy of {self.name}")


class Allocator:
    """Makes every CUDA owner of one pipeline, counts them, and frees the rest on close()."""

    def __init__(self, device_id: int = 0) -> None:
        self.device_id = device_id
        make_current(device_id)
        self._made = {"device": 0, "pinned": 0, "streams": 0, "events": 0}
        self._live: dict[int, _Owner] = {}

    def device(self, shape: tuple[int, ...], dtype: np.dtype | type, name: str) -> DeviceBuffer:
        dtype = np.dtype(dtype)
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        return self._keep(DeviceBuffer(self, nbytes, shape, dtype, name), "device")

    def pinned(self, shape: tuple[int, ...], dtype: np.dtype | type, name: str) -> PinnedBuffer:
        return self._keep(PinnedBuffer(self, shape, np.dtype(dtype), name), "pinned")

    def stream(self, name: str, *, urgent: bool = False) -> Stream:
        return self._keep(Stream(self, name, urgent=urgent), "streams")

    def event(self, name: str) -> Event:
        return self._keep(Event(self, name), "events")

    def counts(self) -> AllocationCounts:
        live = list(self._live.values())
        return AllocationCounts(**self._made,
                                live_device_bytes=sum(o.nbytes for o in live if isinstance(o, DeviceBuffer)),
                                live_pinned_bytes=sum(o.nbytes for o in live if isinstance(o, PinnedBuffer)))

    @property
    def live(self) -> int:
        return len(self._live)

    def free_all(self) -> None:
        """Free every owner still live, newest first; the first failure is raised after all were tried."""
        first_error: Exception | None = None
        for owner in reversed(list(self._live.values())):
            try:
                owner.free()
            except Exception as exc:  # keep freeing the rest, then report the first failure
                first_error = first_error or exc
        if first_error is not None:
            raise first_error

    def _keep(self, owner: _Owner, kind: str) -> Any:
        self._made[kind] += 1
        self._live[id(owner)] = owner
        return owner

    def _forget(self, owner: _Owner) -> None:
        self._live.pop(id(owner), None)


class _PageLockedFrame:
    """cudaHostAlloc'd bytes owned by reference counting, not by an Allocator: freed when the last numpy array
    over them is gone. For frames lent to a source, which may outlive the pipeline that asked for them."""

    def __init__(self, shape: tuple[int, ...], dtype: np.dtype) -> None:
        self._ptr = _host_alloc(int(np.prod(shape, dtype=np.int64)) * dtype.itemsize, "a camera frame",
                                "lower the camera resolution")
        self.__array_interface__ = {"shape": shape, "typestr": dtype.str, "data": (self._ptr, False), "version": 3}

    def __del__(self) -> None:
        ptr, self._ptr = getattr(self, "_ptr", 0), 0
        if ptr:
            try:
                runtime().cudaFreeHost(ptr)
            except Exception:  # interpreter shutdown: the driver frees it with the process
                pass


def page_locked_array(shape: tuple[int, ...], dtype: np.dtype | type = np.uint8) -> np.ndarray:
    """A new array in page-locked memory, freed with its last reference: the GPU copies it without staging."""
    return np.asarray(_PageLockedFrame(tuple(int(s) for s in shape), np.dtype(dtype)))


def is_page_locked(image: np.ndarray) -> bool:
    """Whether a C-contiguous array lies wholly in page-locked memory (any: ours, or a camera SDK's registered
    buffers), so it can be uploaded from where it lies. One driver query per end of the array."""
    if not image.flags.c_contiguous or image.nbytes == 0:
        return False
    cudart = runtime()
    start = int(image.ctypes.data)
    for address in (start, start + image.nbytes - 1):
        status, attributes = cudart.cudaPointerGetAttributes(address)
        if status != cudart.cudaError_t.cudaSuccess:
            cudart.cudaGetLastError()  # drivers before CUDA 11 answer an unknown pointer with an error: clear it
            return False
        if attributes.type != cudart.cudaMemoryType.cudaMemoryTypeHost:
            return False
    return True


def copy_into(dst: PinnedBuffer, image: np.ndarray) -> np.ndarray:
    """Copy a frame into the head of a pinned buffer; returns the view that now holds it."""
    flat = dst.array.reshape(-1)
    if image.nbytes > flat.nbytes:
        raise InputShapeError("frame is larger than the pinned staging buffer", expected=f"≤ {flat.nbytes} bytes",
                              found=f"{image.nbytes} bytes ({image.shape})",
                              hint="raise max_frame_hw when opening the GPU pipeline")
    view = flat[:image.nbytes].reshape(image.shape)
    np.copyto(view, image, casting="no")
    return view
