"""Where the tag reader runs: on the detector's device.

The detector's pipeline names its backend in several ways: the plain ONNX Runtime / TensorRT engines
("onnxruntime-cuda", "tensorrt") and the GPU pipeline around a device engine
("onnxruntime-cuda-device+gpu-pre (cuda-graph)", "tensorrt-device+gpu-pre"). Every one of those runs on
the local GPU, so the reader's OCR goes there too (ONNX Runtime's CUDA provider). Comparing with one exact
name missed the GPU pipeline's and left reading on the CPU beside a GPU detector.
"""

from __future__ import annotations

from typing import Callable

GPU_READER = "onnxruntime-cuda"
CPU_READER = "onnxruntime-cpu"
# Engine names (the part before "+gpu-pre") that run on this machine's GPU.
_LOCAL_GPU_ENGINES = ("onnxruntime-cuda", "onnxruntime-cuda-device", "tensorrt", "tensorrt-device")


def detector_on_gpu(detector_backend: str) -> bool:
    """Whether a pipeline's `backend` name is an engine on this machine's GPU (a remote Triton is not)."""
    engine = (detector_backend or "").split(" ", 1)[0].split("+", 1)[0]
    return engine in _LOCAL_GPU_ENGINES


def reader_backend_for(detector_backend: str, cuda_missing: Callable[[], str | None] | None = None) -> tuple[str, str]:
    """(OCR backend, note): the GPU when the detector runs there and ONNX Runtime's CUDA provider can load,
    else the CPU; the note says why a GPU detector's reader stays on the CPU (a TensorRT station without
    onnxruntime-gpu). `cuda_missing` answers None when the CUDA provider can run (default: ask ONNX Runtime)."""
    if not detector_on_gpu(detector_backend):
        return CPU_READER, ""
    if cuda_missing is None:
        from inference.engines.onnxrt import cuda_provider_missing as cuda_missing
    missing = cuda_missing()
    if missing:
        return CPU_READER, f"OCR runs on the CPU beside the GPU detector: {missing}"
    return GPU_READER, ""
