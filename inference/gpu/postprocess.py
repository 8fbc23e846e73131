"""Raw output on the GPU → candidates and detections on the host, with the fewest bytes crossing the bus.

Both options start alike: a kernel keeps only anchors whose best class score reaches the candidate floor,
compacted into rows, and the host copies back the counts plus the head of each frame's rows (one small
copy; a second only when a frame has more candidates than the head holds).

- "cpu" (default): NMS in numpy over those few rows (`inference.postprocess.select`), as the CPU path does.
- "gpu": sort keys, IoU bitmask and greedy scan on the GPU (CuPy only sorts); the keep-list comes back
  with the rows. Kept as an option: with tens to hundreds of candidates the extra launches cost more
  than numpy's NMS (gpu-bench measures both).

Candidates always come back, because every FrameResult carries them for what-if re-filtering.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

import numpy as np

from inference.decode import Candidates
from inference.errors import BackendUnavailableError, InputShapeError
from inference.gpu.cuda import check, runtime
from inference.gpu.kernels import ROW_FIELDS
from inference.gpu.memory import Allocator, DeviceBuffer, Stream
from inference.gpu.nvrtc import KernelArgs, Module
from inference.postprocess import CANDIDATE_FLOOR, Thresholds

POSTPROCESS_MODES = ("cpu", "gpu")
HEAD_ROWS = 1024
NMS_CAP = 4096  # at most this many rows above the confidence threshold enter GPU NMS per frame
_BLOCK = 256


@dataclass(frozen=True)
class FrameCandidates:
    """One frame's rows sorted by anchor (the CPU decoder's order), and where each sat on the device."""

    rows: np.ndarray  # (n, 7) float32: cx, cy, w, h, score, class, anchor
    device_order: np.ndarray  # rows[i] was device row device_order[i]

    def sorted_positions(self, device_rows: np.ndarray) -> np.ndarray:
        """Device row indices (a GPU keep-list) → positions in `rows`."""
        inverse = np.empty_like(self.device_order)
        inverse[self.device_order] = np.arange(self.device_order.shape[0])
        return inverse[device_rows]


def rows_to_candidates(rows: np.ndarray) -> Candidates:
    """Rows in input pixels → the same Candidates `decode_yolov8` gives (xyxy, score, class)."""
    centre, half = rows[:, 0:2], rows[:, 2:4] / 2
    xyxy = np.empty((rows.shape[0], 4), np.float32)
    np.subtract(centre, half, out=xyxy[:, 0:2])
    np.add(centre, half, out=xyxy[:, 2:4])
    return Candidates(xyxy, rows[:, 4].astype(np.float32), rows[:, 5].astype(np.int32))


class CompactDecoder:
    """yolov8-layout output [B, 4+C, A] on device → per-frame candidate rows on the host."""

    def __init__(self, allocator: Allocator, module: Module, output: DeviceBuffer, num_classes: int, *,
                 in_flight: int = 2, floor: float = CANDIDATE_FLOOR, head_rows: int = HEAD_ROWS) -> None:
        if len(output.shape) != 3 or output.shape[1] != 4 + num_classes:
            raise InputShapeError("GPU decode expects the yolov8 layout", expected=f"[N, {4 + num_classes}, A]",
                                  found=str(list(output.shape)))
        self.kernel = {np.dtype(np.float32): "compact_yolov8_f32", np.dtype(np.float16): "compact_yolov8_f16"}.get(output.dtype)
        if self.kernel is None:
            raise InputShapeError("unsupported output type for GPU decode", expected="float32 or float16",
                                  found=str(output.dtype))
        self.batch, _, self.anchors = output.shape
        self.num_classes = num_classes
        self.floor = float(floor)
        self.head_rows = min(head_rows, self.anchors)
        self._module = module
        # Per slot in flight: batch n's overflow copy may run after batch n+1's decode was queued.
        self.rows = [allocator.device((self.batch, self.anchors, ROW_FIELDS), np.float32, f"candidate_rows_{i}")
                     for i in range(in_flight)]
        self.counts = [allocator.device((self.batch,), np.int32, f"candidate_counts_{i}") for i in range(in_flight)]
        # Full-size pinned landing areas, one per frame in flight: an overflowing frame needs no allocation.
        self._host_rows = [allocator.pinned((self.batch, self.anchors, ROW_FIELDS), np.float32, f"rows_host_{i}")
                           for i in range(in_flight)]
        self._host_counts = [allocator.pinned((self.batch,), np.int32, f"counts_host_{i}") for i in range(in_flight)]
        self._args = KernelArgs([ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.c_float, ctypes.c_void_p,
                                 ctypes.c_void_p])
        self._row_bytes = ROW_FIELDS * 4

    def enqueue(self, stream: Stream, slot: int, output: DeviceBuffer) -> None:
        """Compact `output`, a buffer of the engine output's shape (the pipeline passes the slot's copy)."""
        cudart = runtime()
        rows, counts = self.rows[slot], self.counts[slot]
        check(cudart.cudaMemsetAsync(counts.ptr, 0, counts.nbytes, stream.handle), "clearing candidate counts")
        self._args.set(output.ptr, self.anchors, self.num_classes, self.floor, rows.ptr, counts.ptr)
        self._module.launch(self.kernel, ((self.anchors + _BLOCK - 1) // _BLOCK, self.batch, 1), (_BLOCK, 1, 1),
                            self._args, stream.handle)

    def enqueue_download(self, stream: Stream, slot: int) -> None:
        cudart = runtime()
        rows, counts = self.rows[slot], self.counts[slot]
        check(cudart.cudaMemcpyAsync(self._host_counts[slot].ptr, counts.ptr, counts.nbytes,
                                     cudart.cudaMemcpyKind.cudaMemcpyDeviceToHost, stream.handle), "copying counts")
        pitch = self.anchors * self._row_bytes
        check(cudart.cudaMemcpy2DAsync(self._host_rows[slot].ptr, pitch, rows.ptr, pitch,
                                       self.head_rows * self._row_bytes, self.batch,
                                       cudart.cudaMemcpyKind.cudaMemcpyDeviceToHost, stream.handle),
              "copying candidate rows")

    def collect(self, stream: Stream, slot: int, frames: int) -> list[FrameCandidates]:
        """After the stream reached the download: each frame's rows copied out, sorted by anchor."""
        counts = self._host_counts[slot].array
        host = self._host_rows[slot].array
        overflow = [b for b in range(frames) if counts[b] > self.head_rows]
        if overflow:
            cudart = runtime()
            for b in overflow:
                start = (b * self.anchors + self.head_rows) * self._row_bytes
                check(cudart.cudaMemcpyAsync(self._host_rows[slot].ptr + start, self.rows[slot].ptr + start,
                                             (int(counts[b]) - self.head_rows) * self._row_bytes,
                                             cudart.cudaMemcpyKind.cudaMemcpyDeviceToHost, stream.handle),
                      "copying overflow candidate rows")
            stream.synchronize()
        out = []
        for b in range(frames):
            rows = host[b, :int(counts[b])]
            order = np.argsort(rows[:, 6], kind="stable")
            out.append(FrameCandidates(rows[order], order))  # fancy indexing copies out of pinned memory
        return out


class GpuNms:
    """Class-wise greedy NMS on the device over the compacted rows (the "gpu" postprocess option)."""

    def __init__(self, allocator: Allocator, module: Module, decoder: CompactDecoder, max_det_cap: int = 300,
                 in_flight: int = 2) -> None:
        try:
            import cupy
        except ImportError as exc:
            raise BackendUnavailableError("GPU NMS needs CuPy for its sort", expected="cupy (cupy-cuda12x/13x)",
                                          found=str(exc), hint="use postprocess='cpu', or pip install cupy-cuda13x") from exc
        self._cupy = cupy
        self._module = module
        self._decoder = decoder
        b, a = decoder.batch, decoder.anchors
        if a >= 1 << 16:
            raise InputShapeError("too many anchors for the GPU NMS key", expected="< 65536", found=str(a),
                                  hint="use postprocess='cpu'")
        self.cap = min(a, NMS_CAP)
        self.words = (self.cap + 63) // 64
        self.max_det_cap = max_det_cap
        self.keys = allocator.device((b, a), np.uint64, "nms_keys")
        self.eligible = allocator.device((b,), np.int32, "nms_eligible")
        self.mask = allocator.device((b, self.cap, self.words), np.uint64, "nms_mask")
        self.keep = allocator.device((b, max_det_cap), np.int32, "nms_keep")
        self.keep_count = allocator.device((b,), np.int32, "nms_keep_count")
        self.class_conf = allocator.device((max(decoder.num_classes, 1),), np.float32, "class_conf")
        self._conf_host = allocator.pinned((max(decoder.num_classes, 1),), np.float32, "class_conf_host")
        self._keep_host = [allocator.pinned((b, max_det_cap), np.int32, f"keep_host_{i}") for i in range(in_flight)]
        self._keep_count_host = [allocator.pinned((b,), np.int32, f"keep_count_host_{i}") for i in range(in_flight)]
        memory = cupy.cuda.UnownedMemory(self.keys.ptr, self.keys.nbytes, self.keys)
        self._keys_view = cupy.ndarray((b, a), cupy.uint64, cupy.cuda.MemoryPointer(memory, 0))
        self._key_args = KernelArgs([ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int,
                                     ctypes.c_void_p, ctypes.c_void_p])
        self._mask_args = KernelArgs([ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                                      ctypes.c_int, ctypes.c_float, ctypes.c_void_p])
        self._scan_args = KernelArgs([ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int,
                                      ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p])
        self._cupy_stream = None
        self._cupy_stream_handle = 0

    def enqueue(self, stream: Stream, slot: int, thresholds: Thresholds, class_names: tuple[str, ...]) -> None:
        cudart, d = runtime(), self._decoder
        conf = self._conf_host.array
        for c in range(conf.shape[0]):
            name = class_names[c] if c < len(class_names) else f"class_{c}"
            conf[c] = 2.0 if name in thresholds.disabled_classes else thresholds.confidence_for(name)
        check(cudart.cudaMemcpyAsync(self.class_conf.ptr, self._conf_host.ptr, self.class_conf.nbytes,
                                     cudart.cudaMemcpyKind.cudaMemcpyHostToDevice, stream.handle), "class thresholds")
        check(cudart.cudaMemsetAsync(self.eligible.ptr, 0, self.eligible.nbytes, stream.handle), "clearing NMS counts")
        self._key_args.set(d.rows[slot].ptr, d.counts[slot].ptr, d.anchors, self.class_conf.ptr, d.num_classes,
                           self.keys.ptr, self.eligible.ptr)
        self._module.launch("nms_keys", ((d.anchors + _BLOCK - 1) // _BLOCK, d.batch, 1), (_BLOCK, 1, 1),
                            self._key_args, stream.handle)
        if self._cupy_stream_handle != stream.handle:
            self._cupy_stream = self._cupy.cuda.ExternalStream(stream.handle)
            self._cupy_stream_handle = stream.handle
        with self._cupy_stream:
            self._keys_view.sort(axis=-1)  # in place; CuPy's pool serves CUB's scratch after the first frame
        blocks = (self.cap + 63) // 64
        self._mask_args.set(d.rows[slot].ptr, self.keys.ptr, self.eligible.ptr, d.anchors, self.cap, self.words,
                            float(thresholds.iou), self.mask.ptr)
        self._module.launch("nms_mask", (blocks, blocks, d.batch), (64, 1, 1), self._mask_args, stream.handle)
        max_det = min(int(thresholds.max_detections), self.max_det_cap)
        self._scan_args.set(self.keys.ptr, self.mask.ptr, self.eligible.ptr, d.anchors, self.cap, self.words, max_det,
                            self.max_det_cap, self.keep.ptr, self.keep_count.ptr)
        self._module.launch("nms_scan", (d.batch, 1, 1), (128, 1, 1), self._scan_args, stream.handle,
                            shared_bytes=self.words * 8)
        check(cudart.cudaMemcpyAsync(self._keep_host[slot].ptr, self.keep.ptr, self.keep.nbytes,
                                     cudart.cudaMemcpyKind.cudaMemcpyDeviceToHost, stream.handle), "copying keep-lists")
        check(cudart.cudaMemcpyAsync(self._keep_count_host[slot].ptr, self.keep_count.ptr, self.keep_count.nbytes,
                                     cudart.cudaMemcpyKind.cudaMemcpyDeviceToHost, stream.handle), "copying keep counts")

    def keep_lists(self, slot: int, frames: int) -> list[np.ndarray]:
        """Row indices (positions in the unsorted device rows) kept per frame, best first."""
        counts, keep = self._keep_count_host[slot].array, self._keep_host[slot].array
        return [keep[b, :int(counts[b])].copy() for b in range(frames)]
