"""Frames onto the GPU once, letterboxed straight into the engine's input buffer.

A frame goes host → pinned staging (a plain memcpy, done by whichever thread decoded it) → device in one
async copy → one kernel per frame that writes the whole letterboxed canvas of its batch slot. The host
computes only the plan (`plan_letterbox`, shared with the CPU path), so both paths map boxes back alike.
"""

from __future__ import annotations

import ctypes

import cv2
import numpy as np

from inference.errors import InputShapeError
from inference.gpu.cuda import check, runtime
from inference.gpu.memory import Allocator, DeviceBuffer, PinnedBuffer, Stream
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
    """Owns the device copy of the frames of one batch; writes letterboxed slots of the input buffer."""

    def __init__(self, allocator: Allocator, module: Module, input_buffer: DeviceBuffer,
                 frame_capacity_bytes: int) -> None:
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
        self.slot_bytes = 3 * self.out_h * self.out_w * input_buffer.dtype.itemsize
        self.frame_capacity = 0
        self.frames: DeviceBuffer | None = None
        self.reserve(frame_capacity_bytes)
        self._args = KernelArgs(_ARG_TYPES)
        self._grid = grid_for(self.out_w, self.out_h, BLOCK)

    def reserve(self, frame_bytes: int) -> bool:
        """Grow the device frame store to hold `frame_bytes` per slot; True when it had to allocate."""
        if frame_bytes <= self.frame_capacity:
            return False
        if self.frames is not None:
            self.frames.free()
        self.frame_capacity = int(frame_bytes)
        self.frames = self._allocator.device((self.batch, self.frame_capacity), np.uint8, "frames_u8")
        return True

    def upload(self, stream: Stream, staged: PinnedBuffer, slot: int, nbytes: int, stage_offset: int = 0) -> None:
        """Async copy of `nbytes` from the pinned staging buffer into device slot `slot`."""
        cudart = runtime()
        check(cudart.cudaMemcpyAsync(self.frames.ptr + slot * self.frame_capacity, staged.ptr + stage_offset, nbytes,
                                     cudart.cudaMemcpyKind.cudaMemcpyHostToDevice, stream.handle),
              "copying a frame to the GPU")

    def launch(self, stream: Stream, source_hw: tuple[int, int], slot: int) -> LetterboxTransform:
        transform, (rh, rw) = plan_letterbox(source_hw, (self.out_h, self.out_w))
        sh, sw = source_hw
        self._args.set(self.frames.ptr + slot * self.frame_capacity, sh, sw, sw * 3,
                       self.input.ptr + slot * self.slot_bytes, self.out_h, self.out_w,
                       int(transform.pad_y), int(transform.pad_x), rh, rw, sh / rh, sw / rw,
                       1 if uses_area(source_hw, (rh, rw)) else 0)
        self._module.launch(self.kernel, self._grid, (*BLOCK, 1), self._args, stream.handle)
        return transform
