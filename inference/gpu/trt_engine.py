"""TensorRT as a DeviceEngine: the GPU pipeline's buffers bound with `set_tensor_address`, one
`execute_async_v3` per batch on the pipeline's stream.

Everything around the call (upload, letterbox kernel, compact decode, NMS, events) is the pipeline's
and the same as with ONNX Runtime. The plan comes from the TensorRT backend's builder (strongly typed,
batch 1..max, cached with its sidecar) and is checked against this GPU before it is used, so a plan
built elsewhere is refused with the reason rather than run. Written against the TensorRT 10.x/11.x
Python API; `hangtag-inspect doctor` runs it on a GPU machine (no TensorRT is installed in CI).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from inference.engines.base import TensorSpec
from inference.engines.tensorrt import libs
from inference.engines.tensorrt.buffers import numpy_dtype
from inference.engines.tensorrt.errors import REBUILD_HINT, EngineFileError
from inference.engines.tensorrt.runner import PLAN_SUFFIXES
from inference.errors import EngineStateError, InputShapeError
from inference.gpu.memory import DeviceBuffer, Stream


def probe() -> str | None:
    """None when TensorRT and cuda-python import here, else why not."""
    return libs.probe()


class TrtDeviceEngine:
    backend_name = "tensorrt-device"
    variant = "execute_async_v3"

    def __init__(self, model_path: Path, *, device_id: int = 0, max_batch: int = 8, workspace_mb: int = 1024,
                 cache_root: Path | None = None) -> None:
        self.model_path = Path(model_path)
        self.device_id = device_id
        self.max_batch = max_batch
        self.workspace_mb = workspace_mb
        self.cache_root = cache_root
        self.metadata: dict[str, str] = {}
        self.device_name = f"cuda:{device_id}"
        self.plan_path: Path | None = None
        self._context: Any = None
        self._engine: Any = None
        self._runtime: Any = None
        self._stream_handle = 0

    def _load(self, input_hw: tuple[int, int] | None) -> None:
        from inference.engines.tensorrt.builder import BuildSettings, build_engine, verify_plan
        from inference.engines.tensorrt.model_info import SystemInfo

        trt = libs.tensorrt()
        libs.check(libs.cudart().cudaSetDevice(self.device_id), "cudaSetDevice")
        system = SystemInfo.current(self.device_id)
        if self.model_path.suffix.lower() in PLAN_SUFFIXES:
            plan = self.model_path
        else:
            settings = BuildSettings(max_batch=self.max_batch, workspace_mb=self.workspace_mb, input_hw=input_hw)
            plan = build_engine(self.model_path, settings, cache_root=self.cache_root, device_id=self.device_id)
        info = verify_plan(plan, system)
        self._logger = trt.Logger(trt.Logger.ERROR)
        self._runtime = trt.Runtime(self._logger)
        self._engine = self._runtime.deserialize_cuda_engine(plan.read_bytes())
        if self._engine is None:
            raise EngineFileError("TensorRT could not deserialize the engine", expected="an intact plan",
                                  found=str(plan), hint=REBUILD_HINT)
        self._context = self._engine.create_execution_context()
        self.plan_path, self.metadata, self.device_name = plan, dict(info.model_metadata), system.gpu_name
        self._batch_range = info.batch_range

    # -- DeviceEngine ------------------------------------------------------------------------
    def describe(self, batch: int, input_hw: tuple[int, int] | None) -> tuple[TensorSpec, tuple[TensorSpec, ...]]:
        if self._engine is None:
            self._load(input_hw)
        lo, hi = self._batch_range
        if not lo <= batch <= hi:
            raise InputShapeError("batch size outside the engine's profile", expected=f"{lo} … {hi}",
                                  found=str(batch), hint=f"rebuild with --max-batch {batch}")
        trt, engine, context = libs.tensorrt(), self._engine, self._context
        names = [engine.get_tensor_name(i) for i in range(engine.num_io_tensors)]
        inputs = [n for n in names if engine.get_tensor_mode(n) == trt.TensorIOMode.INPUT]
        if len(inputs) != 1:
            raise InputShapeError("the engine needs one image input", expected="1 input", found=", ".join(inputs))
        shape = tuple(int(d) for d in engine.get_tensor_profile_shape(inputs[0], 0)[2])
        shape = (batch, *shape[1:])
        if not context.set_input_shape(inputs[0], shape):
            raise InputShapeError("input shape outside the engine's profile", expected="the built profile",
                                  found=str(shape), hint=REBUILD_HINT)
        spec = lambda n: TensorSpec(n, tuple(int(d) for d in context.get_tensor_shape(n)),  # noqa: E731
                                    numpy_dtype(str(engine.get_tensor_dtype(n))))
        return spec(inputs[0]), tuple(spec(n) for n in names if n not in inputs)

    def bind(self, stream: Stream, inputs: Mapping[str, DeviceBuffer], outputs: Mapping[str, DeviceBuffer]) -> None:
        if self._context is None:
            raise EngineStateError("bind() before describe()", expected="describe(batch, input_hw) first",
                                   found="no execution context")
        for name, buffer in {**inputs, **outputs}.items():
            if not self._context.set_tensor_address(name, buffer.ptr):
                raise EngineStateError("TensorRT refused a buffer address", expected=f"a device pointer for {name}",
                                       found=hex(buffer.ptr))
        self._stream_handle = int(stream.handle)

    def enqueue(self) -> None:
        if not self._stream_handle:
            raise EngineStateError("TensorRT engine used before bind()", expected="bind() first",
                                   found="enqueue() on an unbound engine")
        if not self._context.execute_async_v3(self._stream_handle):
            raise EngineFileError("TensorRT execution failed", expected="execute_async_v3 to enqueue",
                                  found="it returned False", hint=REBUILD_HINT)

    def close(self) -> None:
        self._context = self._engine = self._runtime = None  # context before engine before runtime
        self._stream_handle = 0
