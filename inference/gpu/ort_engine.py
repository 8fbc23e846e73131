"""ONNX Runtime's CUDA provider as a DeviceEngine: IOBinding to the pipeline's buffers, its stream, optional CUDA graph.

The session computes on the pipeline's stream (`user_compute_stream`), so the letterbox kernel before it
and the decode kernel after it are ordered without any host synchronization. With `cuda_graph=True`
ORT captures the whole model once (input and output addresses never change: they are ours) and replays
it; ORT 1.31 still synchronizes after a replay, which the pipeline's timing shows.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Mapping

import numpy as np

from inference.engines.base import TensorSpec
from inference.engines.onnxrt import _ort, _spec
from inference.engines.onnxrt import cuda_provider_missing
from inference.errors import BackendUnavailableError, EngineStateError, ModelError
from inference.gpu.engine import resolve_input_shape
from inference.gpu.memory import DeviceBuffer, Stream

DEFAULT_HW = (640, 640)


def probe() -> str | None:
    """None when ONNX Runtime's CUDA provider can load here, else why not."""
    return cuda_provider_missing()


def static_copy(model_path: Path, input_spec: TensorSpec, output_specs: tuple[TensorSpec, ...]) -> Path:
    """The model with every I/O dimension fixed, in a temp folder; the model itself when already static.

    With static shapes ONNX Runtime folds the Shape→Gather→Reshape chains a dynamic-batch export carries;
    left in, those run on the CPU provider and ORT refuses to capture a CUDA graph.
    """
    import onnx

    model = onnx.load(str(model_path))
    fixed = {input_spec.name: input_spec.shape, **{o.name: o.shape for o in output_specs}}
    changed = False
    for value in (*model.graph.input, *model.graph.output):
        dims = value.type.tensor_type.shape.dim
        if value.name in fixed and any(not d.HasField("dim_value") for d in dims):
            for dim, size in zip(dims, fixed[value.name]):
                dim.dim_value = int(size)
            changed = True
    if not changed:
        return model_path
    folder = Path(tempfile.mkdtemp(prefix="hangtag-static-"))
    path = folder / f"{model_path.stem}_{'x'.join(str(d) for d in input_spec.shape)}.onnx"
    onnx.save(model, str(path))
    return path


class OrtDeviceEngine:
    backend_name = "onnxruntime-cuda-device"

    def __init__(self, model_path: Path, *, device_id: int = 0, cuda_graph: bool = False,
                 async_run: bool = False) -> None:
        self.model_path = Path(model_path)
        self.device_id = device_id
        self.cuda_graph = cuda_graph
        self.async_run = async_run
        self.metadata: dict[str, str] = {}
        self.device_name = f"cuda:{device_id}"
        self._session = None
        self._binding = None
        self._run_options = None
        self._input: TensorSpec | None = None
        self._outputs: tuple[TensorSpec, ...] = ()
        self._stream_handle = 0
        self._static_model: Path | None = None

    @property
    def variant(self) -> str:
        return "cuda-graph" if self.cuda_graph else "iobinding"

    # -- DeviceEngine ------------------------------------------------------------------------
    def describe(self, batch: int, input_hw: tuple[int, int] | None) -> tuple[TensorSpec, tuple[TensorSpec, ...]]:
        """Reads the model with a CPU session (no GPU memory); a model with dynamic output dimensions is run
        on one frame on the CPU, because the output buffers must be sized before binding."""
        ort = _ort()
        if not self.model_path.is_file():
            raise ModelError("model file not found", expected="an .onnx file", found=str(self.model_path))
        options = ort.SessionOptions()
        options.log_severity_level = 3
        cpu = ort.InferenceSession(str(self.model_path), options, providers=["CPUExecutionProvider"])
        self.metadata = dict(cpu.get_modelmeta().custom_metadata_map)
        in_spec = _spec(cpu.get_inputs()[0])
        shape = resolve_input_shape(in_spec, batch, input_hw, DEFAULT_HW)
        self._input = TensorSpec(in_spec.name, shape, in_spec.dtype)
        outs = [_spec(o) for o in cpu.get_outputs()]
        if any(o.is_dynamic for o in outs):  # run one frame on the CPU; outputs scale with the batch in dim 0
            one = np.zeros((1, *shape[1:]), in_spec.dtype)
            results = cpu.run([o.name for o in outs], {in_spec.name: one})
            outs = [TensorSpec(o.name, (batch, *r.shape[1:]), o.dtype) for o, r in zip(outs, results)]
        self._outputs = tuple(outs)
        return self._input, self._outputs

    def bind(self, stream: Stream, inputs: Mapping[str, DeviceBuffer], outputs: Mapping[str, DeviceBuffer]) -> None:
        if self._input is None:
            raise EngineStateError("bind() before describe()", expected="describe(batch, input_hw) first",
                                   found="no resolved shapes")
        ort = _ort()
        if hasattr(ort, "preload_dlls"):
            try:  # finds the CUDA/cuDNN libraries of the nvidia-* wheels; harmless when already loaded
                ort.preload_dlls()
            except Exception:
                pass
        self._stream_handle = stream.handle
        cuda_options = {"device_id": str(self.device_id), "user_compute_stream": str(stream.handle),
                        "enable_cuda_graph": "1" if self.cuda_graph else "0"}
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        model = static_copy(self.model_path, self._input, self._outputs)
        self._static_model = model if model != self.model_path else None
        try:
            self._session = ort.InferenceSession(str(model), options,
                                                 providers=[("CUDAExecutionProvider", cuda_options)])
        except Exception as exc:  # ORT raises untyped errors for provider failures
            raise BackendUnavailableError("ONNX Runtime could not start the CUDA provider",
                                          expected="onnxruntime-gpu with its CUDA and cuDNN libraries",
                                          found=str(exc).splitlines()[0][:300],
                                          hint="pip install onnxruntime-gpu matching the CUDA major version") from exc
        if self._session.get_providers()[0] != "CUDAExecutionProvider":
            raise BackendUnavailableError("ONNX Runtime fell back to the CPU", expected="CUDAExecutionProvider",
                                          found=str(self._session.get_providers()))
        binding = self._session.io_binding()
        spec = self._input
        binding.bind_input(spec.name, "cuda", self.device_id, spec.dtype, list(spec.shape), inputs[spec.name].ptr)
        for spec in self._outputs:
            buffer = outputs[spec.name]
            binding.bind_output(spec.name, "cuda", self.device_id, spec.dtype, list(spec.shape), buffer.ptr)
        self._binding = binding
        self._run_options = ort.RunOptions()
        if self.async_run:
            self._run_options.add_run_config_entry("disable_synchronize_execution_providers", "1")
        from inference.telemetry import gpu_name

        self.device_name = gpu_name(self.device_id) or self.device_name

    def enqueue(self) -> None:
        if self._session is None:
            raise EngineStateError("ONNX Runtime engine used before bind()", expected="bind() first",
                                   found="enqueue() on an unbound engine")
        self._session.run_with_iobinding(self._binding, self._run_options)

    def close(self) -> None:
        self._binding = None
        self._session = None
        if self._static_model is not None:
            shutil.rmtree(self._static_model.parent, ignore_errors=True)
            self._static_model = None
