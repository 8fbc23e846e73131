"""Where the tag reader runs: on the detector's device.

The detector's pipeline names its backend in several ways: the plain ONNX Runtime / TensorRT engines
("onnxruntime-cuda", "tensorrt") and the GPU pipeline around a device engine
("onnxruntime-cuda-device+gpu-pre (cuda-graph)", "tensorrt-device+gpu-pre"). Every one of those runs on
the local GPU. Comparing with one exact name missed the GPU pipeline's, so the station never even asked
for the GPU reader; now it knows the detector is on the GPU, and says why its reader stays on the CPU
until the GPU reader is asked for (see GPU_OCR_NOT_YET).
"""

from __future__ import annotations

import os
from typing import Callable

GPU_READER = "onnxruntime-cuda"
TORCH_READER = "torch-cuda"  # the same ONNX graphs run by PyTorch (ocr/torch_graph.py)
CPU_READER = "onnxruntime-cpu"
# The GPU reader is used beside a GPU detector only when asked for: HANGTAG_GPU_OCR=1 (or onnxruntime) for ONNX
# Runtime's CUDA provider, =torch for PyTorch. On the H200 (onnxruntime-gpu 1.31.1, cuDNN 9) each new OCR input
# shape costs ONNX Runtime a first run of ~2.6 s with cuDNN's heuristics, and the CPU reader's shapes change with
# every tag (padding them to a few fixed ones changes what both networks read), so reading there is slower than on
# the CPU until that cost is gone (BENCHMARKS.md, issue 19). The PyTorch reader captures every shape of the CPU
# reader's plan as a CUDA graph at open (~30 s on the H200) and then read one-tag frames at 42-55 ms p50 end to
# end, fields equal to the CPU reader's on every frame compared (the CPU reader: 112-147 ms on those machines);
# not the default yet: the station would open half a minute slower and the 25 ms is still missed.
GPU_OCR_ENV = "HANGTAG_GPU_OCR"
_REQUESTS = {"1": GPU_READER, "onnxruntime": GPU_READER, "torch": TORCH_READER}
GPU_OCR_NOT_YET = ("OCR stays on the CPU beside the GPU detector: the GPU reader pays ~2.6 s for each new text-line "
                   f"shape on ONNX Runtime's CUDA provider (set {GPU_OCR_ENV}=1 to use it anyway, or ={TORCH_READER.split('-')[0]} "
                   "for PyTorch's reader: every shape captured as a CUDA graph at open, ~30 s)")
# Engine names (the part before "+gpu-pre") that run on this machine's GPU.
_LOCAL_GPU_ENGINES = ("onnxruntime-cuda", "onnxruntime-cuda-device", "tensorrt", "tensorrt-device")


def detector_on_gpu(detector_backend: str) -> bool:
    """Whether a pipeline's `backend` name is an engine on this machine's GPU (a remote Triton is not)."""
    engine = (detector_backend or "").split(" ", 1)[0].split("+", 1)[0]
    return engine in _LOCAL_GPU_ENGINES


def requested_gpu_reader() -> str:
    """The GPU reader HANGTAG_GPU_OCR asks for ("onnxruntime-cuda", "torch-cuda"), or "" for none."""
    return _REQUESTS.get(os.environ.get(GPU_OCR_ENV, "").strip().lower(), "")


def _torch_gpu_missing() -> str | None:
    import importlib.util

    if importlib.util.find_spec("torch") is None:
        return "PyTorch is not installed"
    import torch

    return None if torch.cuda.is_available() else "PyTorch sees no GPU"


def reader_backend_for(detector_backend: str, cuda_missing: Callable[[], str | None] | None = None,
                       gpu_ocr: str | None = None) -> tuple[str, str]:
    """(OCR backend, note): beside a GPU detector, the GPU reader `gpu_ocr` asks for ("onnxruntime-cuda" or
    "torch-cuda"; default: HANGTAG_GPU_OCR) when its runtime can use the GPU here; else the CPU, with a note
    saying why a GPU detector's reader stays there. `cuda_missing` answers None when the runtime can run (default:
    ask ONNX Runtime for its CUDA provider, or PyTorch for a GPU)."""
    if not detector_on_gpu(detector_backend):
        return CPU_READER, ""
    wanted = requested_gpu_reader() if gpu_ocr is None else gpu_ocr
    if not wanted:
        return CPU_READER, GPU_OCR_NOT_YET
    if cuda_missing is None:
        if wanted == TORCH_READER:
            cuda_missing = _torch_gpu_missing
        else:
            from inference.engines.onnxrt import cuda_provider_missing as cuda_missing
    missing = cuda_missing()
    if missing:
        return CPU_READER, f"OCR runs on the CPU beside the GPU detector: {missing}"
    return wanted, ""
