"""Run a TensorRT engine: one execution context, preallocated pinned and device buffers, own stream.

Per frame: copy the feed into pinned memory, `set_input_shape`, async host→device copies,
`execute_async_v3` (or a captured CUDA graph replay when shapes are static), async device→host
copies, one stream synchronize, CUDA-event timings per stage, and copies of the outputs handed to
the caller. One engine instance belongs to one worker thread: create one per thread.
"""

from __future__ import annotations

import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import numpy as np

from inference.engines.base import Engine, TensorSpec
from inference.engines.tensorrt import libs
from inference.engines.tensorrt.buffers import (CudaEvent, CudaGraph, CudaStream, DeviceBuffer,
                                                PinnedBuffer, TensorDesc, frame_shape, numpy_dtype, plan_buffers)
from inference.engines.tensorrt.builder import BuildSettings, build_engine, verify_plan
from inference.engines.tensorrt.errors import REBUILD_HINT, EngineFileError
from inference.engines.tensorrt.model_info import SystemInfo
from inference.errors import InputShapeError

PLAN_SUFFIXES = (".plan", ".engine", ".trt")


class TensorRTEngine(Engine):
    backend_name = "tensorrt"

    def __init__(self, model_path: Path, *, device_id: int = 0, threads: int | None = None, max_batch: int = 1,
                 workspace_mb: int = 1024, input_hw: tuple[int, int] | None = None, cuda_graph: bool = False,
                 warmup_runs: int = 2, cache_root: Path | None = None) -> None:
        super().__init__(model_path)
        del threads  # CPU threads mean nothing here; accepted so every backend takes the same options
        self.device_id = device_id
        self.settings = BuildSettings(max_batch=max_batch, opt_batch=1, workspace_mb=workspace_mb, input_hw=input_hw)
        self.use_cuda_graph = cuda_graph
        self.warmup_runs = warmup_runs
        self.cache_root = cache_root
        self.plan_path: Path | None = None
        self.info = None
        self.graph_status = "off"
        self._resources = ExitStack()
        self._thread: int | None = None

    # -- make ----------------------------------------------------------------------------------
    def _resolve_plan(self, system: SystemInfo) -> Path:
        if self.model_path.suffix.lower() in PLAN_SUFFIXES:
            self.info = verify_plan(self.model_path, system)
            return self.model_path
        plan = build_engine(self.model_path, self.settings, cache_root=self.cache_root, device_id=self.device_id)
        self.info = verify_plan(plan, system)
        return plan

    def _describe(self, trt: Any, engine: Any) -> list[TensorDesc]:
        tensors = []
        for i in range(engine.num_io_tensors):
            name = engine.get_tensor_name(i)
            is_input = engine.get_tensor_mode(name) == trt.TensorIOMode.INPUT
            shape = tuple(int(d) for d in engine.get_tensor_shape(name))
            dtype = numpy_dtype(str(engine.get_tensor_dtype(name)))
            profile_max = tuple(int(d) for d in engine.get_tensor_profile_shape(name, 0)[2]) if is_input else None
            tensors.append(TensorDesc(name, is_input, shape, dtype, profile_max))
        return tensors

    def _load_impl(self):
        trt = libs.tensorrt()
        rt = libs.cudart()
        libs.check(rt.cudaSetDevice(self.device_id), "cudaSetDevice")
        self._thread = threading.get_ident()
        system = SystemInfo.current(self.device_id)
        self.plan_path = self._resolve_plan(system)
        with ExitStack() as stack:
            self._logger = trt.Logger(trt.Logger.ERROR)
            self._runtime = trt.Runtime(self._logger)
            try:
                self._engine = self._runtime.deserialize_cuda_engine(self.plan_path.read_bytes())
            except Exception:  # some versions raise instead of returning None; either way the plan is unusable
                self._engine = None
            if self._engine is None:
                raise EngineFileError("TensorRT could not deserialize the engine", expected="an intact plan",
                                      found=f"{self.plan_path} ({self.plan_path.stat().st_size} bytes)",
                                      hint=REBUILD_HINT)
            self._context = self._engine.create_execution_context()
            tensors = self._describe(trt, self._engine)
            inputs = [t for t in tensors if t.is_input]
            for desc in inputs:
                self._context.set_input_shape(desc.name, desc.profile_max or desc.shape)
            output_shapes = {t.name: tuple(self._context.get_tensor_shape(t.name)) for t in tensors if not t.is_input}
            self._plan = plan_buffers(tensors, self.info.batch_range[1], output_shapes)
            self._stream = stack.enter_context(_freeing(CudaStream()))
            self._events = [stack.enter_context(_freeing(CudaEvent())) for _ in range(4)]
            self._host: dict[str, PinnedBuffer] = {}
            self._device: dict[str, DeviceBuffer] = {}
            for spec in self._plan:
                self._host[spec.name] = stack.enter_context(_freeing(PinnedBuffer(spec)))
                self._device[spec.name] = stack.enter_context(_freeing(DeviceBuffer(spec.alloc_bytes)))
                self._context.set_tensor_address(spec.name, self._device[spec.name].ptr)
            self._graph: CudaGraph | None = None
            self._resources = stack.pop_all()
        self.metadata = dict(self.info.model_metadata)
        self.device_name = system.gpu_name
        specs_in = tuple(TensorSpec(t.name, t.shape, t.dtype) for t in tensors if t.is_input)
        specs_out = tuple(TensorSpec(t.name, t.shape, t.dtype) for t in tensors if not t.is_input)
        self._static = all(not t.is_dynamic for t in inputs)
        try:
            self._warm_up(inputs)
        except Exception:
            self._close_impl()
            raise
        return specs_in, specs_out

    def _warm_up(self, inputs: list[TensorDesc]) -> None:
        feeds = {d.name: np.zeros((1, *(d.profile_max or d.shape)[1:]), d.dtype) for d in inputs}
        for _ in range(self.warmup_runs):
            self._infer_impl(feeds)
        if self.use_cuda_graph:
            self._capture_graph()

    def _capture_graph(self) -> None:
        """Record one execute_async_v3; later frames of the same shapes replay it with one launch."""
        if not self._static:
            self.graph_status = "off: dynamic input shapes"
            return
        rt = libs.cudart()
        mode = rt.cudaStreamCaptureMode.cudaStreamCaptureModeThreadLocal
        libs.check(rt.cudaStreamBeginCapture(self._stream.handle, mode), "cudaStreamBeginCapture")
        ok = False
        try:
            ok = bool(self._context.execute_async_v3(self._stream.ptr))
        finally:
            graph = libs.check(rt.cudaStreamEndCapture(self._stream.handle), "cudaStreamEndCapture")
        if not ok or graph is None:
            self.graph_status = "off: this engine cannot be captured"
            return
        graph_exec = libs.check(rt.cudaGraphInstantiate(graph, 0), "cudaGraphInstantiate")
        self._graph = CudaGraph(graph, graph_exec)
        self._resources.callback(self._graph.free)
        self.graph_status = "on"

    # -- run -----------------------------------------------------------------------------------
    def _infer_impl(self, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        rt = libs.cudart()
        if threading.get_ident() != self._thread:  # CUDA's current device is per thread
            libs.check(rt.cudaSetDevice(self.device_id), "cudaSetDevice")
            self._thread = threading.get_ident()
        to_device = rt.cudaMemcpyKind.cudaMemcpyHostToDevice
        to_host = rt.cudaMemcpyKind.cudaMemcpyDeviceToHost
        stream = self._stream
        start, copied_in, computed, copied_out = self._events
        inputs = [s for s in self._plan if s.is_input]
        outputs = [s for s in self._plan if not s.is_input]
        shapes: dict[str, tuple[int, ...]] = {}
        t0 = time.perf_counter_ns()
        for spec in inputs:
            array = feeds[spec.name]
            shape = tuple(array.shape)
            if shape[1:] != spec.max_shape[1:] and self._static:
                raise InputShapeError(f"input '{spec.name}' has the wrong shape", expected=str(spec.max_shape),
                                      found=str(shape))
            frame_shape(spec, shape[0])
            host = self._host[spec.name].view(shape)
            np.copyto(host, array, casting="same_kind")
            if not self._context.set_input_shape(spec.name, shape):
                raise InputShapeError(f"input '{spec.name}' shape is outside the engine's profile",
                                      expected=f"up to {spec.max_shape}", found=str(shape))
            shapes[spec.name] = shape
        start.record(stream)
        for spec in inputs:
            nbytes = int(np.prod(shapes[spec.name])) * spec.dtype.itemsize
            libs.check(rt.cudaMemcpyAsync(self._device[spec.name].ptr, self._host[spec.name].ptr, nbytes, to_device,
                                          stream.handle), "cudaMemcpyAsync")
        copied_in.record(stream)
        if self._graph is not None and all(shapes[s.name] == s.max_shape for s in inputs):
            self._graph.launch(stream)
        elif not self._context.execute_async_v3(stream.ptr):
            raise EngineFileError("TensorRT execution failed", expected="execute_async_v3 to enqueue",
                                  found="it returned False", hint=REBUILD_HINT)
        computed.record(stream)
        out_shapes = {s.name: tuple(int(d) for d in self._context.get_tensor_shape(s.name)) for s in outputs}
        for spec in outputs:
            nbytes = int(np.prod(out_shapes[spec.name])) * spec.dtype.itemsize
            libs.check(rt.cudaMemcpyAsync(self._host[spec.name].ptr, self._device[spec.name].ptr, nbytes, to_host,
                                          stream.handle), "cudaMemcpyAsync")
        copied_out.record(stream)
        stream.synchronize()  # the one synchronize of this frame
        results = {s.name: self._host[s.name].view(out_shapes[s.name]).copy() for s in outputs}
        host_ns = time.perf_counter_ns() - t0
        h2d, infer, d2h = copied_in.ms_since(start), computed.ms_since(copied_in), copied_out.ms_since(computed)
        gpu_ns = int((h2d + infer + d2h) * 1e6)
        self.last_stage_ns = {"h2d": int(h2d * 1e6) + max(0, host_ns - gpu_ns), "infer": int(infer * 1e6),
                              "d2h": int(d2h * 1e6)}
        return results

    def _close_impl(self) -> None:
        self._resources.close()  # graph, buffers, events, stream: each freed once, in reverse order
        self._graph = None
        for name in ("_context", "_engine", "_runtime"):  # context before engine before runtime
            if hasattr(self, name):
                delattr(self, name)


class _freeing:
    """Context manager that calls `free()` on exit: ExitStack ownership for the buffer owners."""

    def __init__(self, owner: Any) -> None:
        self.owner = owner

    def __enter__(self) -> Any:
        return self.owner

    def __exit__(self, *exc: object) -> None:
        self.owner.free()
