"""Pinned staging slots: where decoded frames wait, page-locked, for their one copy to the GPU.

There are two slots (double buffering): a CPU thread fills one while the GPU works from the other.
A slot holds up to `batch` frames, each at a fixed offset of `frame_capacity` bytes. Filling a slot
is plain numpy work with no CUDA call, so any thread may do it; growing it (a frame larger than any
before) is left to the GPU thread, which alone allocates.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from inference.gpu.memory import Allocator, Event, PinnedBuffer
from inference.gpu.preprocess import as_bgr

GPU_STAGES = ("h2d", "letterbox", "infer", "decode_gpu", "d2h")


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
    stage_ns: int = 0

    @property
    def frames(self) -> int:
        return len(self.shapes)

    def clear(self) -> None:
        self.shapes.clear()
        self.infos.clear()
        self.oversize.clear()
        self.transforms = []
        self.errors.clear()
        self.stage_ns = 0

    def add(self, image: np.ndarray, info: FrameInfo) -> None:
        """Copy one frame into the next free place (host memcpy into pinned memory; any thread)."""
        t0 = time.perf_counter_ns()
        image = as_bgr(image)
        i = len(self.shapes)
        if image.nbytes > self.frame_capacity:
            self.oversize[i] = image  # the GPU thread grows the slot, then copies
        else:
            view = self.staging.array[i, :image.nbytes].reshape(image.shape)
            np.copyto(view, image, casting="no")
        self.shapes.append((int(image.shape[0]), int(image.shape[1])))
        self.infos.append(info)
        self.stage_ns += time.perf_counter_ns() - t0


def make_slots(allocator: Allocator, count: int, batch: int, frame_capacity: int) -> list[Slot]:
    slots = []
    for n in range(count):
        staging = allocator.pinned((batch, frame_capacity), np.uint8, f"staging_{n}")
        events = {name: allocator.event(f"{name}_{n}") for name in ("start", *GPU_STAGES)}
        slots.append(Slot(n, staging, frame_capacity, events))
    return slots


def grow(allocator: Allocator, slot: Slot, frame_capacity: int) -> None:
    """Replace a slot's staging with a larger one, keeping the frames already copied into it."""
    batch = slot.staging.shape[0]
    old = slot.staging
    new = allocator.pinned((batch, frame_capacity), np.uint8, old.name)
    for i, (h, w) in enumerate(slot.shapes):
        if i not in slot.oversize:
            new.array[i, :h * w * 3] = old.array[i, :h * w * 3]
    old.free()
    slot.staging, slot.frame_capacity = new, frame_capacity
    for i, image in slot.oversize.items():
        new.array[i, :image.nbytes] = image.reshape(-1)
    slot.oversize.clear()
