"""The reader follows the detector onto the GPU, whatever name the GPU pipeline gives its backend.

Before the fix the station compared `pipeline.backend == "onnxruntime-cuda"`, while the GPU pipeline calls
itself "onnxruntime-cuda-device+gpu-pre (cuda-graph)": the reader stayed on the CPU beside a GPU detector.
The names below are rendered by the real `GpuPipeline.backend` property over the real device engines'
names, so a renamed engine or a changed suffix is caught here, on a machine without a GPU."""

from __future__ import annotations

import pytest

from inference.gpu.ort_engine import OrtDeviceEngine
from inference.gpu.pipeline import GpuPipeline
from inference.gpu.trt_engine import TrtDeviceEngine
from inference.reading.placement import CPU_READER, GPU_OCR_ENV, GPU_READER, TORCH_READER, detector_on_gpu, reader_backend_for


class _Engine:
    def __init__(self, name: str, variant: str) -> None:
        self.backend_name = name
        self.variant = variant


class _PipelineShape:
    """Just what GpuPipeline.backend reads: its engine."""

    def __init__(self, engine: _Engine) -> None:
        self.engine = engine


def gpu_pipeline_name(engine_name: str, variant: str = "") -> str:
    return GpuPipeline.backend.fget(_PipelineShape(_Engine(engine_name, variant)))


GPU_NAMES = [
    gpu_pipeline_name(OrtDeviceEngine.backend_name, "cuda-graph"),
    gpu_pipeline_name(OrtDeviceEngine.backend_name, "iobinding"),
    gpu_pipeline_name(TrtDeviceEngine.backend_name),
    "onnxruntime-cuda",  # the host-preprocessing Pipeline on ONNX Runtime's CUDA provider
    "tensorrt",
]
CPU_NAMES = ["onnxruntime-cpu", "triton", ""]


def cuda_here() -> None:
    return None


@pytest.mark.parametrize("name", GPU_NAMES)
def test_gpu_detectors_get_a_gpu_reader_when_it_is_wanted(name):
    assert detector_on_gpu(name)
    assert reader_backend_for(name, cuda_here, gpu_ocr=GPU_READER) == (GPU_READER, "")


@pytest.mark.parametrize("name", GPU_NAMES)
def test_by_default_a_gpu_detectors_reader_stays_on_the_cpu_and_says_why(name, monkeypatch):
    monkeypatch.delenv(GPU_OCR_ENV, raising=False)
    backend, note = reader_backend_for(name, cuda_here)
    assert backend == CPU_READER
    assert "new text-line shape" in note and GPU_OCR_ENV in note
    monkeypatch.setenv(GPU_OCR_ENV, "1")
    assert reader_backend_for(name, cuda_here) == (GPU_READER, "")
    monkeypatch.setenv(GPU_OCR_ENV, "torch")
    assert reader_backend_for(name, cuda_here) == (TORCH_READER, "")


def test_the_gpu_pipelines_own_name_is_among_them():
    # the name the issue found: the ONNX Runtime device engine behind the GPU pipeline
    assert GPU_NAMES[1] == "onnxruntime-cuda-device+gpu-pre (iobinding)"


@pytest.mark.parametrize("name", CPU_NAMES)
def test_cpu_and_remote_detectors_read_on_the_cpu(name):
    assert not detector_on_gpu(name)
    assert reader_backend_for(name, cuda_here, gpu_ocr=GPU_READER) == (CPU_READER, "")


def test_a_gpu_detector_without_the_cuda_provider_reads_on_the_cpu_and_says_why():
    backend, note = reader_backend_for(GPU_NAMES[2], lambda: "this ONNX Runtime build has no CUDA provider", gpu_ocr=GPU_READER)
    assert backend == CPU_READER
    assert "no CUDA provider" in note and "CPU" in note


def test_the_pytorch_reader_without_a_gpu_for_pytorch_reads_on_the_cpu_and_says_why():
    import importlib.util

    if importlib.util.find_spec("torch") is not None:
        import torch

        if torch.cuda.is_available():
            pytest.skip("PyTorch sees a GPU here")
    backend, note = reader_backend_for(GPU_NAMES[0], gpu_ocr=TORCH_READER)
    assert backend == CPU_READER and "PyTorch" in note
