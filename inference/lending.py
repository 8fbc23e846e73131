"""Frames lent to a source to read into, returned when nothing refers to them any more.

A camera source reads each frame into memory the GPU pipeline can upload from where it lies (page-locked),
so the pipeline makes no host copy. The frame then travels on: to the inspector, the journal, the window,
which may keep it as long as it likes. So the memory is lent, not cycled: a lent frame goes back to its
lender only when the last array over it (the frame, or any slice or view of it) is gone, by reference
counting, in whatever thread drops it. A holder that keeps frames for long (the window's history) takes
`detach(frame)`, its own copy, so the lender does not run dry. When it does run dry, `lend()` says None
and the source reads into ordinary memory: slower by one copy in the pipeline, never wrong.
"""

from __future__ import annotations

import threading
import weakref
from typing import Callable

import numpy as np

FrameMemory = Callable[[tuple[int, ...]], np.ndarray]  # shape → a new uint8 array (page-locked, say)


class _Lease:
    """The one object every array over a lent frame leads back to (numpy stops collapsing view bases at a
    non-array), so the frame is free again exactly when this object is collected."""

    def __init__(self, backing: np.ndarray) -> None:
        self.backing = backing  # keeps the memory alive however long the lease lives
        self.__array_interface__ = {"shape": backing.shape, "typestr": backing.dtype.str,
                                    "data": (int(backing.ctypes.data), False), "version": 3}


class FrameLender:
    """`count` frames of one shape, made once by `make`; `lend()` hands out a free one or None."""

    def __init__(self, shape: tuple[int, ...], count: int, make: FrameMemory) -> None:
        if count < 1:
            raise ValueError("a frame lender needs at least one frame")
        self.shape = tuple(int(s) for s in shape)
        self.make = make
        self._backing = [np.asarray(make(self.shape)) for _ in range(count)]
        for frame in self._backing:
            if frame.shape != self.shape or frame.dtype != np.uint8 or not frame.flags.c_contiguous:
                raise ValueError(f"frame memory of shape {frame.shape} {frame.dtype} for frames of {self.shape} uint8")
        self._free = list(range(count - 1, -1, -1))
        self._lock = threading.Lock()
        self.lent = 0  # frames handed out so far
        self.refused = 0  # lend() calls that found every frame out

    @property
    def count(self) -> int:
        return len(self._backing)

    @property
    def available(self) -> int:
        with self._lock:
            return len(self._free)

    def lend(self) -> np.ndarray | None:
        """A frame no one else refers to, or None when all are out (read into ordinary memory then)."""
        with self._lock:
            if not self._free:
                self.refused += 1
                return None
            index = self._free.pop()
            self.lent += 1
        lease = _Lease(self._backing[index])
        weakref.finalize(lease, self._give_back, index)
        return np.asarray(lease)

    def _give_back(self, index: int) -> None:
        with self._lock:
            self._free.append(index)


def is_lent(image: np.ndarray) -> bool:
    """Whether `image` lies in a lent frame (it, or the array it is a view of, came from `lend()`)."""
    base = image
    while isinstance(base, np.ndarray):
        base = base.base
    return isinstance(base, _Lease)


def detach(image: np.ndarray) -> np.ndarray:
    """`image` itself, or a private copy when it lies in a lent frame: what to keep beyond the current frame."""
    return image.copy() if is_lent(image) else image
