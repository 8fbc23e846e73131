"""Where frames wait, page-locked, for their one copy to the GPU.

A slot is one batch in flight. Each frame in it is uploaded from one of three places (or not at all: a frame
decoded on the GPU, inference/gpu/jpeg.py, is letterboxed from the device memory it was decoded into):
- page-locked memory the source wrote into (a camera source reading into lent page-locked frames, a
  `FramePool`, a camera SDK's registered buffers): uploaded from where it lies, with no host copy at all;
- the caller's own array, when the pipeline uploads "pageable" (the driver stages it, synchronously);
- otherwise the slot's pinned staging, at a fixed offset of `frame_capacity` bytes per frame, after a
  plain memcpy that any thread may do ("staged", the default).
Growing a slot (a frame larger than any before) is left to the thread that stages, which alone allocates.
There are IN_FLIGHT slots: one filling and uploading, one waiting for the engine, one in it, one finishing.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from inference.gpu.jpeg import is_device_frame
from inference.gpu.memory import Allocator, Event, PinnedBuffer
from inference.gpu.preprocess import as_bgr

# Events per slot, in stream order. Copy stream: start → h2d → letterbox (into the slot's own input). Compute stream: compute → infer (the
# slot's input copied into the engine's, the engine) → output (copied aside). Post stream: → decode_gpu → d2h.
EVENTS = ("start", "h2d", "letterbox", "compute", "infer", "output", "decode_gpu", "d2h")
UPLOAD_MODES = ("staged", "pageable")


@dataclass
class FrameInfo:
    name: str = "frame"
    path: str | None = None
    index: int | None = None
    decode_ms: float = 0.0
    error: str | None = None  # set when the frame could not be decoded


@dataclass
class Slot:
    """One batch in flight: its pinned frames, what they are, and the events that time its GPU stages."""

    number: int
    staging: PinnedBuffer
    frame_capacity: int
    events: dict[str, Event]
    shapes: list[tuple[int, int]] = field(default_factory=list)
    infos: list[FrameInfo] = field(default_factory=list)
    oversize: dict[int, np.ndarray] = field(default_factory=dict)
    transforms: list = field(default_factory=list)
    errors: list[tuple[FrameInfo, str]] = field(default_factory=list)  # frames that failed to decode
    gpu_nms: bool = False  # whether enqueue() queued NMS on the device for this batch
    stage_ns: int = 0
    sources: list[int] = field(default_factory=list)  # per frame: host address to upload from, 0 = staging
    on_device: dict[int, tuple[int, int]] = field(default_factory=dict)  # position → (device address, row pitch)
    held: list[np.ndarray] = field(default_factory=list)  # arrays uploaded from in place, alive until finished
    in_place: Callable[[np.ndarray], bool] = lambda image: False  # the pipeline's page-locked test
    upload: str = "staged"

    @property
    def frames(self) -> int:
        return len(self.shapes)

    def clear(self) -> None:
        self.shapes.clear()
        self.infos.clear()
        self.oversize.clear()
        self.transforms = []
        self.errors.clear()
        self.gpu_nms = False
        self.stage_ns = 0
        self.sources.clear()
        self.on_device.clear()
        self.held.clear()

    def place(self, image: np.ndarray, info: FrameInfo) -> tuple[np.ndarray, np.ndarray] | None:
        """Give a frame the next position; returns (pinned view, frame) for the caller to copy, or None when
        nothing is to be copied: the frame is uploaded from where it lies (page-locked memory, or any frame when
        uploading "pageable"), or it is larger than the slot (the thread that stages grows the slot and copies it).
        A frame already in device memory (a GPU-decoded JPEG, inference/gpu/jpeg.py) is letterboxed from there."""
        i = len(self.shapes)
        if is_device_frame(image):
            self.shapes.append((int(image.shape[0]), int(image.shape[1])))
            self.infos.append(info)
            self.sources.append(0)
            self.on_device[i] = (image.ptr, image.pitch)
            self.held.append(image)  # its memory stays alive until the batch is finished
            return None
        image = as_bgr(image)
        self.shapes.append((int(image.shape[0]), int(image.shape[1])))
        self.infos.append(info)
        if self.upload == "pageable" or self.in_place(image):
            self.sources.append(int(image.ctypes.data))
            self.held.append(image)
            return None
        self.sources.append(0)
        if image.nbytes > self.frame_capacity:
            self.oversize[i] = image
            return None
        return self.staging.array[i, :image.nbytes].reshape(image.shape), image

    def source_of(self, position: int) -> int:
        """The host address frame `position` is uploaded from."""
        return self.sources[position] or self.staging.ptr + position * self.frame_capacity

    def add(self, image: np.ndarray, info: FrameInfo) -> None:
        """Place and copy one frame (host memcpy into pinned memory; any thread)."""
        t0 = time.perf_counter_ns()
        pair = self.place(image, info)
        if pair is not None:
            parallel_copy(*pair)
        self.stage_ns += time.perf_counter_ns() - t0


_copy_pool: ThreadPoolExecutor | None = None
_copy_pool_lock = threading.Lock()
COPY_THREADS = 4
PARALLEL_COPY_BYTES = 1 << 20


def parallel_copy(dst: np.ndarray, src: np.ndarray) -> None:
    """Copy a frame in row bands on a few threads (numpy drops the GIL for big copies): one full-HD frame
    is ~0.5 ms on one core, most of the 1 ms host budget of a synchronous frame."""
    global _copy_pool
    rows = src.shape[0]
    if src.nbytes < PARALLEL_COPY_BYTES or rows < COPY_THREADS:
        np.copyto(dst, src, casting="no")
        return
    with _copy_pool_lock:
        if _copy_pool is None:
            _copy_pool = ThreadPoolExecutor(max_workers=COPY_THREADS, thread_name_prefix="stage-copy")
    step = -(-rows // COPY_THREADS)
    futures = [_copy_pool.submit(np.copyto, dst[r:r + step], src[r:r + step]) for r in range(step, rows, step)]
    np.copyto(dst[:step], src[:step], casting="no")
    for future in futures:
        future.result()


class FramePool:
    """Pinned frames owned by the pipeline, written once and reused (the benchmark's stand-in for a camera's
    announced buffers): a frame from here is uploaded from where it lies, with no staging copy. The writer
    must not write a frame again before the result of its last use came back; the station's camera source
    uses lent frames (inference/lending.py) instead, which the pipeline's lifetime does not bound."""

    def __init__(self, allocator: Allocator, count: int, hw: tuple[int, int], name: str = "frame_pool") -> None:
        if count < 1:
            raise ValueError("a frame pool needs at least one frame")
        self.buffer = allocator.pinned((count, int(hw[0]), int(hw[1]), 3), np.uint8, name)
        self.frames = [self.buffer.array[i] for i in range(count)]


def make_slots(allocator: Allocator, count: int, batch: int, frame_capacity: int) -> list[Slot]:
    slots = []
    for n in range(count):
        staging = allocator.pinned((batch, frame_capacity), np.uint8, f"staging_{n}")
        events = {name: allocator.event(f"{name}_{n}") for name in EVENTS}
        slots.append(Slot(n, staging, frame_capacity, events))
    return slots


def grow(allocator: Allocator, slot: Slot, frame_capacity: int) -> None:
    """Replace a slot's staging with a larger one, keeping the frames already copied into it."""
    batch = slot.staging.shape[0]
    old = slot.staging
    new = allocator.pinned((batch, frame_capacity), np.uint8, old.name)
    for i, (h, w) in enumerate(slot.shapes):
        if i not in slot.oversize and not slot.sources[i]:
            new.array[i, :h * w * 3] = old.array[i, :h * w * 3]
    old.free()
    slot.staging, slot.frame_capacity = new, frame_capacity
    for i, image in slot.oversize.items():
        new.array[i, :image.nbytes] = image.reshape(-1)
    slot.oversize.clear()
