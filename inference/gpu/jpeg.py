"""JPEG files → pixels, on the GPU where nvImageCodec (nvJPEG underneath) and a CUDA device are present,
on CPU threads (OpenCV) otherwise.

A batch of encoded images goes to nvImageCodec in one call and comes back as `DeviceFrame`s: packed
H×W×3 uint8 BGR in device memory that the decoder allocated and the frame owns. The GPU pipeline
letterboxes straight from there (inference/gpu/staging.py: a device frame has no host copy and no upload),
so a JPEG crosses the bus once, compressed. `DeviceFrame` also speaks `__cuda_array_interface__`, so CuPy,
PyTorch or Numba read it without a copy.

Beside an engine that ONNX Runtime runs as a CUDA graph, decode only after the graph is captured on every
thread that will run it: ORT keeps a graph per calling thread and captures it on that thread's second run, and a
decode issued while a capture is under way fails ("operation not permitted when stream is capturing"; nvJPEG
"execution failed"), as does the capture. Measured on the H200 (BENCHMARKS.md, twelfth session): 13 of 111 engine
runs and 17 of 76 decodes failed with 30 fresh threads capturing beside decodes; none of 1 362 with the captures
done first. `serve --cuda-graph` captures each worker's graph on its own thread before it accepts a request.

Results keep their positions: an image that cannot be decoded is a `Decoded` with `image=None` and an
error message that says expected / found / what to do; the rest of the batch is unaffected. Images whose
header asks for a reduced decode (long side ≥ 2 × KEEP_LONG_SIDE, see inference/imageio.py) and non-JPEG
files go through the CPU decoder, so both paths give the same pixels' geometry.
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from inference.errors import BackendUnavailableError, HangtagError, ImageDecodeError
from inference.imageio import decode_image, header_size, max_pixels, reduction_for

INSTALL_HINT = "pip install nvidia-nvimgcodec-cu13 nvidia-nvjpeg (CUDA 13) — or nvidia-nvimgcodec-cu12[nvjpeg]"
JPEG_MAGIC = b"\xff\xd8"


@dataclass(frozen=True)
class DeviceFrame:
    """One decoded image in device memory: H×W×3 uint8, BGR, rows `pitch` bytes apart. `owner` holds the
    memory (an nvImageCodec Image); it is freed when the last reference to this frame goes."""

    ptr: int
    shape: tuple[int, int, int]
    pitch: int
    device_id: int
    owner: Any

    dtype = np.dtype(np.uint8)
    ndim = 3

    @property
    def nbytes(self) -> int:
        return self.shape[0] * self.shape[1] * self.shape[2]

    @property
    def __cuda_array_interface__(self) -> dict:
        strides = None if self.pitch == self.shape[1] * 3 else (self.pitch, 3, 1)
        return {"shape": self.shape, "typestr": "|u1", "data": (self.ptr, False), "strides": strides,
                "version": 3, "stream": None}  # decode is synchronized before a frame is handed out

    def to_host(self) -> np.ndarray:
        """A host copy (for consumers that need one: the CPU reader, a journal's snapshot)."""
        from inference.gpu.cuda import check, runtime

        cudart = runtime()
        h, w, c = self.shape
        out = np.empty(self.shape, np.uint8)
        check(cudart.cudaMemcpy2D(out.ctypes.data, w * c, self.ptr, self.pitch, w * c, h,
                                  cudart.cudaMemcpyKind.cudaMemcpyDeviceToHost), "copying a decoded frame to the host")
        return out



# A whole JPEG ends with its EOI marker; some writers pad a few bytes after it.
JPEG_END = b"\xff\xd9"
JPEG_END_SLACK = 64


def ends_as_jpeg(blob: bytes) -> bool:
    """Whether a JPEG's end-of-image marker is at (or a little before) the end of `blob`: one cut short has none."""
    return JPEG_END in blob[-JPEG_END_SLACK:]

def is_device_frame(image: object) -> bool:
    return isinstance(image, DeviceFrame)


@dataclass(frozen=True)
class Decoded:
    """One position of a decoded batch: pixels (a DeviceFrame or a host BGR array), or None and why."""

    image: DeviceFrame | np.ndarray | None
    error: str | None = None
    cause: ImageDecodeError | None = None  # the decoder's own error, for callers that re-raise it in their terms


class CpuJpegDecoder:
    """OpenCV on a pool of threads (cv2.imdecode releases the GIL): the fallback, and the reference."""

    gpu = False
    name = "cpu (OpenCV)"

    def __init__(self, threads: int | None = None) -> None:
        self.threads = max(1, threads or os.cpu_count() or 1)
        self._pool = ThreadPoolExecutor(max_workers=self.threads, thread_name_prefix="jpeg-cpu")

    def decode(self, data: Sequence[bytes], names: Sequence[str] | None = None) -> list[Decoded]:
        names = names or [f"image {i}" for i in range(len(data))]
        return list(self._pool.map(_decode_on_cpu, data, names))

    def close(self) -> None:
        self._pool.shutdown(wait=True)

    def __enter__(self) -> CpuJpegDecoder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _decode_on_cpu(data: bytes, name: str) -> Decoded:
    try:
        return Decoded(decode_image(data, name))
    except ImageDecodeError as exc:
        return Decoded(None, str(exc), exc)


class GpuJpegDecoder:
    """nvImageCodec's batched decoder on one device, BGR interleaved output, its own CUDA stream. Thread-safe
    (one decode at a time; nvImageCodec spreads a batch's host work over its own threads)."""

    gpu = True

    def __init__(self, device_id: int = 0, *, cpu_threads: int = 0, backend: str = "default") -> None:
        reason = gpu_jpeg_unavailable_reason(device_id)
        if reason is not None:
            raise BackendUnavailableError("GPU JPEG decode is not available", expected="nvImageCodec and a CUDA GPU",
                                          found=reason, hint=INSTALL_HINT)
        from nvidia import nvimgcodec

        from inference.gpu.cuda import check, make_current, runtime

        self._nv = nvimgcodec
        self.device_id = device_id
        make_current(device_id)
        kinds = {"default": None, "gpu": nvimgcodec.BackendKind.GPU_ONLY,
                 "hardware": nvimgcodec.BackendKind.HW_GPU_ONLY, "hybrid": nvimgcodec.BackendKind.HYBRID_CPU_GPU}
        if backend not in kinds:
            raise HangtagError("unknown JPEG decode backend", expected=" | ".join(kinds), found=backend)
        backends = None if kinds[backend] is None else [nvimgcodec.Backend(kinds[backend])]
        try:
            self._decoder = nvimgcodec.Decoder(device_id=device_id, max_num_cpu_threads=cpu_threads,
                                               backends=backends)
        except RuntimeError as exc:
            raise BackendUnavailableError("nvImageCodec could not create a decoder", expected="a usable CUDA GPU",
                                          found=str(exc).splitlines()[0][:200], hint=INSTALL_HINT) from None
        self.backend = backend
        self.name = f"gpu (nvImageCodec {_version()}, {backend} backends)"
        self._params = nvimgcodec.DecodeParams(color_spec=nvimgcodec.ColorSpec.SRGB,
                                               sample_format=nvimgcodec.SampleFormat.I_BGR)
        cudart = runtime()
        self._check, self._cudart = check, cudart
        self._stream = int(check(cudart.cudaStreamCreateWithFlags(cudart.cudaStreamNonBlocking),
                                 "creating the JPEG decode stream"))
        self._lock = threading.Lock()
        self._cpu: CpuJpegDecoder | None = None
        self.on_gpu = 0  # images decoded by nvImageCodec, and those it handed to the CPU decoder
        self.on_cpu = 0

    def decode(self, data: Sequence[bytes], names: Sequence[str] | None = None) -> list[Decoded]:
        """Decode a batch; returns once the pixels are in device memory (the decode stream is synchronized)."""
        names = names or [f"image {i}" for i in range(len(data))]
        out: list[Decoded | None] = [None] * len(data)
        streams, positions, on_cpu = [], [], []
        for i, (blob, name) in enumerate(zip(data, names)):
            size = header_size(blob) if blob[:2] == JPEG_MAGIC else None
            # not a JPEG, one the CPU path decodes reduced, or one cut short (nvJPEG decodes the part that came and
            # leaves the rest grey; the CPU path refuses it with the reason)
            if size is None or reduction_for(size) > 1 or not ends_as_jpeg(blob):
                on_cpu.append(i)
                continue
            if size[0] * size[1] > max_pixels():
                out[i] = _decode_on_cpu(blob, name)  # the CPU path's own "too large" message
                continue
            try:
                streams.append(self._nv.CodeStream(blob))
            except RuntimeError:
                out[i] = _decode_on_cpu(blob, name)  # a header nvImageCodec cannot parse: let OpenCV say why
                continue
            positions.append(i)
        if streams:
            with self._lock:
                images = self._decoder.decode(streams, params=self._params, cuda_stream=self._stream)
                self._check(self._cudart.cudaStreamSynchronize(self._stream), "waiting for the JPEG decode",
                            hint="the GPU decoder failed; the CPU decoder still works (--jpeg-decode cpu)")
            for i, image in zip(positions, images):
                out[i] = self._frame(image) if image is not None else _decode_on_cpu(data[i], names[i])
        gpu_done = sum(o is not None and is_device_frame(o.image) for o in out)
        self.on_gpu += gpu_done
        self.on_cpu += len(data) - gpu_done
        if on_cpu:
            if self._cpu is None:
                self._cpu = CpuJpegDecoder(threads=4)
            for i, result in zip(on_cpu, self._cpu.decode([data[i] for i in on_cpu], [names[i] for i in on_cpu])):
                out[i] = result
        return [o if o is not None else Decoded(None, "not decoded") for o in out]

    def prepare_thread(self) -> None:
        """This decoder's device made current on a thread that will call `decode` (serve's decode thread)."""
        from inference.gpu.cuda import make_current

        make_current(self.device_id)

    def _frame(self, image: Any) -> Decoded:
        cai = image.__cuda_array_interface__
        h, w, c = (int(v) for v in cai["shape"])
        pitch = int(cai["strides"][0]) if cai.get("strides") else w * c
        return Decoded(DeviceFrame(int(cai["data"][0]), (h, w, c), pitch, self.device_id, image))

    def close(self) -> None:
        with self._lock:
            if self._stream:
                stream, self._stream = self._stream, 0
                self._check(self._cudart.cudaStreamDestroy(stream), "destroying the JPEG decode stream")
            self._decoder = None
        if self._cpu is not None:
            self._cpu.close()

    def __enter__(self) -> GpuJpegDecoder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("nvidia-nvimgcodec-cu13")
    except Exception:  # cu12 builds, source builds: the module's own attribute
        from nvidia import nvimgcodec

        return str(getattr(nvimgcodec, "__version__", "?"))


def gpu_jpeg_unavailable_reason(device_id: int = 0) -> str | None:
    """None when nvImageCodec can decode on CUDA device `device_id` here; else why not, in one line."""
    if os.environ.get("HANGTAG_FORCE_NO_GPU"):
        return "GPU decode disabled by HANGTAG_FORCE_NO_GPU"
    try:
        from nvidia import nvimgcodec  # noqa: F401
    except ImportError as exc:
        return f"nvImageCodec is not installed ({exc})"
    from inference.gpu.cuda import gpu_unavailable_reason

    return gpu_unavailable_reason(device_id)


@dataclass(frozen=True)
class DecoderChoice:
    decoder: GpuJpegDecoder | CpuJpegDecoder
    gpu: bool
    reason: str  # why the CPU decoder was taken; empty on the GPU


def open_jpeg_decoder(prefer_gpu: bool = True, device_id: int = 0, *, cpu_threads: int | None = None,
                      backend: str = "default") -> DecoderChoice:
    """The GPU decoder where it can run, else OpenCV on `cpu_threads` threads, with the reason kept."""
    reason = "GPU decode not requested" if not prefer_gpu else gpu_jpeg_unavailable_reason(device_id)
    if reason is None:
        try:
            return DecoderChoice(GpuJpegDecoder(device_id, backend=backend), True, "")
        except BackendUnavailableError as exc:
            reason = f"{exc.message} ({exc.found})"
    return DecoderChoice(CpuJpegDecoder(cpu_threads), False, reason)


# -- image folders: per-frame jobs for inference/gpu/overlap.run_overlapped, decoded a batch at a time -------------
def folder_jobs(paths: Sequence[Path], decoder: GpuJpegDecoder | CpuJpegDecoder, batch: int,
                start_index: int = 0) -> list[Callable]:
    """One job per file, as `overlap.jpeg_job` makes, but the files of each group of `batch` are read and
    decoded together by whichever job of the group runs first (the others wait for it). Each frame is handed
    out once and then dropped by the group, so device memory is held only for frames in flight."""
    from inference.gpu.staging import FrameInfo

    jobs: list[Callable] = []
    for first in range(0, len(paths), max(1, batch)):
        group = _Group(list(paths[first:first + batch]), decoder)
        for k in range(len(group.paths)):
            def job(group=group, k=k, index=start_index + first + k):
                image, error, ms = group.take(k)
                path = group.paths[k]
                if image is None:
                    return None, FrameInfo(path.name, str(path), index, error=error)
                return image, FrameInfo(path.name, str(path), index, ms)
            jobs.append(job)
    return jobs


class _Group:
    def __init__(self, paths: list[Path], decoder: GpuJpegDecoder | CpuJpegDecoder) -> None:
        self.paths = paths
        self._decoder = decoder
        self._lock = threading.Lock()
        self._results: list[Decoded | None] | None = None
        self._ms = 0.0

    def take(self, k: int) -> tuple[DeviceFrame | np.ndarray | None, str | None, float]:
        with self._lock:
            if self._results is None:
                t0 = time.perf_counter_ns()
                blobs, errors = [], {}
                for i, path in enumerate(self.paths):
                    try:
                        blobs.append(Path(path).read_bytes())
                    except OSError as exc:
                        blobs.append(b"")
                        errors[i] = str(ImageDecodeError(f"cannot read {Path(path).name}", expected="a readable file",
                                                         found=str(exc), hint="check the path and its permissions"))
                decoded = self._decoder.decode(blobs, [Path(p).name for p in self.paths])
                self._results = [Decoded(None, errors[i]) if i in errors else d for i, d in enumerate(decoded)]
                self._ms = (time.perf_counter_ns() - t0) / 1e6 / max(1, len(self.paths))  # each frame's share
            result, self._results[k] = self._results[k], None
        if result is None:
            return None, "frame already taken", self._ms
        return result.image, result.error, self._ms
