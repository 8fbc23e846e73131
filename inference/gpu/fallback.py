"""Pick the GPU pipeline where it can run, else the CPU-preprocessing Pipeline, and say why."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inference.errors import BackendUnavailableError
from inference.gpu.cuda import CudaError, gpu_unavailable_reason

GPU_ONLY_OPTIONS = ("batch", "postprocess", "max_frame_hw", "cuda_graph", "warmup")
CPU_ONLY_OPTIONS = ("threads",)


@dataclass(frozen=True)
class PipelineChoice:
    pipeline: Any  # GpuPipeline or Pipeline: the same process/refilter_last/close interface
    gpu: bool
    reason: str  # why the CPU path was taken; empty on the GPU path


def device_engine_for(backend: str | None) -> str:
    """The GpuPipeline engine a backend name asks for: TensorRT for tensorrt*, ONNX Runtime otherwise."""
    return "tensorrt" if (backend or "").startswith("tensorrt") else "onnxruntime"


def gpu_pipeline_unavailable_reason(device_id: int = 0, engine: str = "onnxruntime") -> str | None:
    reason = gpu_unavailable_reason(device_id)
    if reason is not None:
        return reason
    if engine == "tensorrt":
        from inference.gpu.trt_engine import probe
    else:
        from inference.gpu.ort_engine import probe
    return probe()


def open_pipeline(model_path: Path | str, *, prefer_gpu: bool = True, backend: str | None = None,
                  device_id: int = 0, **options: Any) -> PipelineChoice:
    """The GPU pipeline when cuda-python, a GPU, NVRTC and the engine's library (ORT's CUDA provider, or
    TensorRT for a tensorrt backend) are all present; otherwise the host-preprocessing Pipeline on `backend`,
    with the reason kept for the GUI."""
    gpu_options = {k: options.pop(k) for k in GPU_ONLY_OPTIONS if k in options}
    cpu_options = {k: options.pop(k) for k in CPU_ONLY_OPTIONS if k in options}
    engine = device_engine_for(backend)
    reason = "GPU pipeline not requested" if not prefer_gpu else gpu_pipeline_unavailable_reason(device_id, engine)
    if reason is None:
        from inference.gpu.degrade import guard_pressure
        from inference.gpu.pipeline import GpuPipeline

        try:
            pipeline = GpuPipeline.open(model_path, engine=engine, device_id=device_id, **gpu_options, **options)
        except (BackendUnavailableError, CudaError) as exc:  # a plan/model mismatch is raised, never hidden
            reason = f"GPU pipeline failed to open: {exc.message} ({exc.found})"
        else:  # under the memory-pressure policy (inference/gpu/pressure.py): degrade, don't fail
            return PipelineChoice(guard_pressure(pipeline, model_path, engine=engine, device_id=device_id,
                                                 **gpu_options, **options), True, "")
    from inference.pipeline import Pipeline

    return PipelineChoice(Pipeline.open(model_path, backend, **cpu_options, **options), False, reason)
