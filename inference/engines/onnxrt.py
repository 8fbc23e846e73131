"""ONNX Runtime backend: CPUExecutionProvider always; CUDAExecutionProvider with IOBinding when present."""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np

from inference.engines.base import Engine, TensorSpec
from inference.errors import BackendUnavailableError, ModelError

_ORT_DTYPES = {
    "tensor(float)": np.float32,
    "tensor(float16)": np.float16,
    "tensor(double)": np.float64,
    "tensor(uint8)": np.uint8,
    "tensor(int8)": np.int8,
    "tensor(int32)": np.int32,
    "tensor(int64)": np.int64,
    "tensor(bool)": np.bool_,
}


def _ort():
    try:
        import onnxruntime
    except ImportError as exc:  # pragma: no cover - base dependency
        raise BackendUnavailableError("ONNX Runtime is not installed", expected="the onnxruntime package",
                                      found=str(exc), hint="pip install onnxruntime (or onnxruntime-gpu)") from exc
    return onnxruntime


def _spec(node) -> TensorSpec:
    shape = tuple(d if isinstance(d, int) and d > 0 else -1 for d in node.shape)
    dtype = _ORT_DTYPES.get(node.type)
    if dtype is None:
        raise ModelError(f"tensor '{node.name}' has an unsupported type", expected=", ".join(_ORT_DTYPES),
                         found=node.type)
    return TensorSpec(node.name, shape, np.dtype(dtype))


def probe_cpu() -> str | None:
    """None when the backend can run here, else the reason it cannot."""
    try:
        _ort()
    except BackendUnavailableError as exc:
        return exc.message
    return None


def cuda_provider_missing() -> str | None:
    """None when ONNX Runtime's CUDA provider can load here, else why not."""
    try:
        ort = _ort()
    except BackendUnavailableError as exc:
        return exc.message
    if "CUDAExecutionProvider" not in ort.get_available_providers():
        return "this ONNX Runtime build has no CUDA provider (install onnxruntime-gpu)"
    return None


def probe_cuda() -> str | None:
    missing = cuda_provider_missing()
    if missing:
        return missing
    from inference.telemetry import gpu_name

    if gpu_name() is None:
        return "no NVIDIA GPU visible (NVML found none)"
    return None


class OnnxRuntimeEngine(Engine):
    backend_name = "onnxruntime-cpu"

    def __init__(self, model_path: Path, *, threads: int | None = None, device_id: int = 0,
                 varying_shapes: bool = False) -> None:
        """`varying_shapes`: the inputs change shape from call to call (OCR line batches, tag crops).
        ONNX Runtime's memory pattern keeps a plan per input shape it has seen, for the life of the
        session (measured: ~50 KB per new recognizer width, ~150 KB per new text-detector size): on a line whose tags keep
        bringing new shapes that memory only grows, so such sessions run without it."""
        super().__init__(model_path)
        self.threads = threads
        self.device_id = device_id
        self.varying_shapes = varying_shapes
        self._session = None

    def _providers(self) -> list:
        return ["CPUExecutionProvider"]

    def _session_options(self):
        ort = _ort()
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.intra_op_num_threads = self.threads or max(1, min(os.cpu_count() or 1, 8))
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        # The station runs several sessions in turn on one thread (detector, OCR detector, OCR
        # recognizer); an idle session's spinning pool would take the core from the busy one.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        if self.varying_shapes:
            options.enable_mem_pattern = False
        return options

    def _load_impl(self):
        ort = _ort()
        if not self.model_path.is_file():
            raise ModelError("model file not found", expected="an .onnx file", found=str(self.model_path),
                             hint="pass --model with the path of an ONNX detector")
        try:
            self._session = ort.InferenceSession(str(self.model_path), self._session_options(),
                                                 providers=self._providers())
        except Exception as exc:  # ORT raises its own untyped errors for bad files
            raise ModelError("ONNX Runtime could not load the model", expected="a valid ONNX file",
                             found=f"{self.model_path.name}: {str(exc).splitlines()[0][:200]}",
                             hint="re-export the model or check the file is complete") from exc
        self.metadata = dict(self._session.get_modelmeta().custom_metadata_map)
        return (tuple(_spec(n) for n in self._session.get_inputs()),
                tuple(_spec(n) for n in self._session.get_outputs()))

    def _infer_impl(self, feeds):
        names = [o.name for o in self._outputs]
        results = self._session.run(names, feeds)
        return dict(zip(names, results))

    def _close_impl(self) -> None:
        self._session = None


class OnnxRuntimeCudaEngine(OnnxRuntimeEngine):
    """CUDA provider with IOBinding: the host→device and device→host copies are timed as their own stages."""

    backend_name = "onnxruntime-cuda"

    def _providers(self) -> list:
        return [("CUDAExecutionProvider", {"device_id": self.device_id}), "CPUExecutionProvider"]

    def _load_impl(self):
        specs = super()._load_impl()
        if "CUDAExecutionProvider" not in self._session.get_providers():
            raise BackendUnavailableError("ONNX Runtime fell back to the CPU", expected="CUDAExecutionProvider active",
                                          found=str(self._session.get_providers()),
                                          hint="check the CUDA and cuDNN libraries onnxruntime-gpu needs")
        from inference.telemetry import gpu_name

        self.device_name = gpu_name(self.device_id) or f"cuda:{self.device_id}"
        self._binding = self._session.io_binding()
        return specs

    def _infer_impl(self, feeds):
        ort = _ort()
        binding = self._binding
        binding.clear_binding_inputs()
        binding.clear_binding_outputs()
        t0 = time.perf_counter_ns()
        for name, arr in feeds.items():
            binding.bind_ortvalue_input(name, ort.OrtValue.ortvalue_from_numpy(arr, "cuda", self.device_id))
        for spec in self._outputs:
            binding.bind_output(spec.name, "cuda", self.device_id)
        t1 = time.perf_counter_ns()
        self._session.run_with_iobinding(binding)
        binding.synchronize_outputs()
        t2 = time.perf_counter_ns()
        outputs = binding.copy_outputs_to_cpu()
        t3 = time.perf_counter_ns()
        self.last_stage_ns = {"h2d": t1 - t0, "infer": t2 - t1, "d2h": t3 - t2}
        return {spec.name: out for spec, out in zip(self._outputs, outputs)}
