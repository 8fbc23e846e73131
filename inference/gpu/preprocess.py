"""Frames onto the GPU once, letterboxed straight into the engine's input buffer.

A frame goes host → device in one copy (from pinned staging or a pinned frame pool, asynchronously) →
one kernel per frame that writes the whole letterboxed canvas of its batch position. The host
computes only the plan (`plan_letterbox`, shared with the CPU path), so both paths map boxes back alike.
"""

from __future__ import annotations

import ctypes

import cv2
import numpy as np

from inference.errors import InputShapeError
from inference.gpu.cuda import check, runtime
from inference.gpu.memory import Allocator, DeviceBuffer, Stream
from inference.gpu.nvrtc import KernelArgs, Module, grid_for
from inference.preprocess import LetterboxTransform, plan_letterbox

BLOCK = (32, 8)
_ARG_TYPES = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
              ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_float, ctypes.c_float, ctypes.c_int]


def as_bgr(image: np.ndarray) -> np.ndarray:
    """The kernel reads packed 3-channel uint8; grey and BGRA frames are converted on the host (rare)."""
    if image.dtype != np.uint8:
        raise InputShapeError("frame is not 8-bit", expected="uint8 BGR", found=str(image.dtype))
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim != 3 or image.shape[2] != 3:
        raise InputShapeError("frame is not a colour image", expected="H×W×3 BGR uint8", found=f"shape {image.shape}")
    return image if image.flags.c_contiguous else np.ascontiguousarray(image)


def uses_area(source_hw: tuple[int, int], resized_hw: tuple[int, int]) -> bool:
    """The CPU Letterboxer's rule: INTER_AREA when the frame shrinks, INTER_LINEAR otherwise."""
    return resized_hw[0] < source_hw[0]


class GpuLetterboxer:
    """Owns the device copies of the frames (one store per slot in flight, so the upload of the next batch
    overlaps the engine on this one) and writes letterboxed batch positions of the engine's input buffer."""

    def __init__(self, allocator: Allocator, module: Module, input_buffer: DeviceBuffer,
                 frame_capacity_bytes: int, slots: int = 1) -> None:
        self._allocator = allocator
        self._module = module
        self.input = input_buffer
        self.batch, channels, self.out_h, self.out_w = input_buffer.shape
        if channels != 3:
            raise InputShapeError("the engine input is not 3-channel", expected="[N, 3, H, W]",
                                  found=str(list(input_buffer.shape)))
        self.kernel = {np.dtype(np.float32): "letterbox_f32", np.dtype(np.float16): "letterbox_f16"}.get(input_buffer.dtype)
        if self.kernel is None:
            raise InputShapeError("unsupported engine input type", expected="float32 or float16",
                                  found=str(input_buffer.dtype), hint="export the detector with a float input")
        self.position_bytes = 3 * self.out_h * self.out_w * input_buffer.dtype.itemsize
        self.capacity = [0] * slots
        self.frames: list[DeviceBuffer | None] = [None] * slots
        for slot in range(slots):
            self.reserve(slot, frame_capacity_bytes)
        self._args = KernelArgs(_ARG_TYPES)
        self._grid = grid_for(self.out_w, self.out_h, BLOCK)

    def reserve(self, slot: int, frame_bytes: int) -> bool:
        """Grow slot `slot`'s device store to `frame_bytes` per position; True when it had to allocate.
        (cudaFree waits for the device, so a copy still reading the old store is not cut short.)"""
        if frame_bytes <= self.capacity[slot]:
            return False
        old = self.frames[slot]
        if old is not None:
            old.free()
        self.capacity[slot] = int(frame_bytes)
        self.frames[slot] = self._allocator.device((self.batch, int(frame_bytes)), np.uint8, f"frames_u8_{slot}")
        return True

    def upload(self, stream: Stream, host_address: int, slot: int, position: int, nbytes: int) -> None:
        """Copy of one frame from host memory into its slot's device store: asynchronous from pinned memory,
        returning once the driver has staged it from pageable memory."""
        cudart = runtime()
        dst = self.frames[slot].ptr + position * self.capacity[slot]
        check(cudart.cudaMemcpyAsync(dst, host_address, nbytes, cudart.cudaMemcpyKind.cudaMemcpyHostToDevice,
                                     stream.handle), "copying a frame to the GPU")

    def launch(self, stream: Stream, source_hw: tuple[int, int], slot: int, position: int,
               target: DeviceBuffer | None = None, on_device: tuple[int, int] | None = None) -> LetterboxTransform:
        """Letterbox frame `position` of `slot` into batch position `position` of `target` (default: the
        engine's input buffer), which has the engine input's shape and type. `on_device`: (address, row pitch)
        of a frame already in device memory, read from there instead of the slot's store."""
        transform, (rh, rw) = plan_letterbox(source_hw, (self.out_h, self.out_w))
        sh, sw = source_hw
        src, pitch = on_device or (self.frames[slot].ptr + position * self.capacity[slot], sw * 3)
        self._args.set(src, sh, sw, pitch,
                       (target or self.input).ptr + position * self.position_bytes, self.out_h, self.out_w,
                       int(transform.pad_y), int(transform.pad_x), rh, rw, sh / rh, sw / rw,
                       1 if uses_area(source_hw, (rh, rw)) else 0)
        self._module.launch(self.kernel, self._grid, (*BLOCK, 1), self._args, stream.handle)
        return transform
