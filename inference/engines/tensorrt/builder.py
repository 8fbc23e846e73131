"""Make a TensorRT engine from an ONNX graph: strongly typed, batch 1..max, cached with its sidecar.

Precision is already in the graph (FP16 casts, INT8 Q/DQ from `inference.precision`), so the
same code builds every precision on TensorRT 10.x (STRONGLY_TYPED flag) and 11.x (always strongly
typed; the flag is deprecated there and ignored). No FP16/INT8 builder flags are ever set.

Building takes seconds to minutes: run it in a worker. `progress(step, fraction)` reports named
steps (TensorRT's own build phases included, through IProgressMonitor) and `cancel()` is polled
between steps and on every TensorRT build step. A failed or cancelled build writes nothing, so
the engine in use stays in use.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Callable

from inference.engines.tensorrt import libs
from inference.engines.tensorrt.errors import BuildError, EngineFileError, EngineMismatchError
from inference.engines.tensorrt.model_info import EngineInfo, SystemInfo

PLAN_NAME = "engine.plan"
Progress = Callable[[str, float], None]
CancelCheck = Callable[[], bool]


@dataclass(frozen=True)
class BuildSettings:
    max_batch: int = 1
    opt_batch: int = 1
    workspace_mb: int = 1024
    input_hw: tuple[int, int] | None = None  # needed when the ONNX input has dynamic H, W
    optimization_level: int | None = None  # TensorRT's default (3) when None

    def __post_init__(self) -> None:
        if not 1 <= self.opt_batch <= self.max_batch:
            raise BuildError("batch range is inconsistent", expected="1 ≤ opt_batch ≤ max_batch",
                             found=f"opt {self.opt_batch}, max {self.max_batch}")
        if self.workspace_mb < 16:
            raise BuildError("workspace limit too small", expected="≥ 16 MiB", found=f"{self.workspace_mb} MiB")


def engine_key(model_sha256: str, settings: BuildSettings, system: SystemInfo) -> str:
    payload = json.dumps({"model": model_sha256, "settings": asdict(settings), "system": asdict(system)},
                         sort_keys=True, default=list)
    return hashlib.sha256(payload.encode()).hexdigest()[:24]


def timing_cache_path(root: Path, system: SystemInfo) -> Path:
    """One timing cache per TensorRT version and GPU: tactic timings do not transfer between them."""
    slug = re.sub(r"[^A-Za-z0-9.]+", "-", f"{system.tensorrt_version}-{system.gpu_name}-sm{system.compute_capability[0]}{system.compute_capability[1]}")
    return root / f"timing-{slug}.cache"


class _Monitor:
    """Adapter from TensorRT's IProgressMonitor to (step, fraction) and the cancel flag.

    TensorRT calls it from its own threads; only the callbacks given by the caller run there.
    """

    def __init__(self, trt: Any, progress: Progress | None, cancel: CancelCheck | None) -> None:
        base = trt.IProgressMonitor

        class Monitor(base):  # type: ignore[misc, valid-type]
            def __init__(inner) -> None:
                base.__init__(inner)
                inner.top_steps = {}

            def phase_start(inner, phase_name: str, parent_phase: str | None, num_steps: int) -> None:
                if parent_phase is None:
                    inner.top_steps[phase_name] = max(1, num_steps)
                self._report(phase_name, 0, max(1, num_steps))

            def step_complete(inner, phase_name: str, step: int) -> bool:
                total = inner.top_steps.get(phase_name)
                if total:
                    self._report(phase_name, step + 1, total)
                return not self.cancelled()

            def phase_finish(inner, phase_name: str) -> None:
                pass

        self._progress, self._cancel = progress, cancel
        self._lock = threading.Lock()
        self._fraction = 0.3
        self.monitor = Monitor()

    def cancelled(self) -> bool:
        return bool(self._cancel and self._cancel())

    def _report(self, phase: str, step: int, total: int) -> None:
        if self._progress is not None:
            with self._lock:  # phases nest and repeat; the bar only moves forward
                self._fraction = max(self._fraction, 0.3 + 0.6 * min(step / total, 1.0))
                self._progress(f"TensorRT: {phase}", self._fraction)


def _make_logger(trt: Any) -> Any:
    """TensorRT logger that keeps the errors, so a failed build can say why."""
    base = trt.ILogger
    severe = {trt.ILogger.Severity.INTERNAL_ERROR, trt.ILogger.Severity.ERROR}

    class Logger(base):  # type: ignore[misc, valid-type]
        def __init__(self) -> None:
            base.__init__(self)
            self.errors: list[str] = []

        def log(self, severity: Any, msg: str) -> None:
            if severity in severe:
                self.errors.append(msg)

    return Logger()


def _check_cancel(cancel: CancelCheck | None) -> None:
    if cancel is not None and cancel():
        from inference.precision.errors import Cancelled

        raise Cancelled("engine build cancelled", hint="nothing was written; the current engine stays in use")


def _network_flags(trt: Any) -> int:
    flag = getattr(trt.NetworkDefinitionCreationFlag, "STRONGLY_TYPED", None)
    major = int(str(trt.__version__).split(".")[0])
    return 0 if flag is None or major >= 11 else 1 << int(flag)


def _parse(trt: Any, builder: Any, logger: Any, onnx_path: Path) -> tuple[Any, Any]:
    network = builder.create_network(_network_flags(trt))
    parser = trt.OnnxParser(network, logger)
    if not parser.parse_from_file(str(onnx_path)):
        errors = [str(parser.get_error(i).desc()) for i in range(parser.num_errors)] or logger.errors[-3:]
        raise BuildError("TensorRT's ONNX parser rejected the model", expected="ops TensorRT supports",
                         found="; ".join(errors)[:400] or "no parser message",
                         hint="check the opset and unsupported ops; the ONNX Runtime backends still run it")
    return network, parser


def _profile(builder: Any, network: Any, settings: BuildSettings) -> tuple[Any, str, tuple[int, int]]:
    if network.num_inputs != 1:
        raise BuildError("the detector must have one image input", expected="1 input",
                         found=f"{network.num_inputs} inputs")
    tensor = network.get_input(0)
    dims = tuple(tensor.shape)
    if len(dims) != 4:
        raise BuildError("the model input is not an image batch", expected="[N, 3, H, W]", found=str(list(dims)))
    if dims[2] > 0 and dims[3] > 0:
        hw = (int(dims[2]), int(dims[3]))
    elif settings.input_hw is not None:
        hw = settings.input_hw
    else:
        raise BuildError("the model has dynamic input shapes and no profile hint",
                         expected="a static H×W or an input size (imgsz)", found=str(list(dims)),
                         hint="add imgsz to the model metadata/sidecar or pass input_hw")
    if dims[0] > 0 and settings.max_batch > dims[0]:
        raise BuildError("the model's batch dimension is fixed", expected=f"batch {dims[0]}",
                         found=f"max batch {settings.max_batch}", hint="re-export with a dynamic batch")
    channels = int(dims[1]) if dims[1] > 0 else 3
    profile = builder.create_optimization_profile()
    lo = dims[0] if dims[0] > 0 else 1
    shape = lambda batch: (batch, channels, *hw)  # noqa: E731
    profile.set_shape(tensor.name, shape(lo), shape(max(lo, settings.opt_batch)), shape(max(lo, settings.max_batch)))
    return profile, tensor.name, hw


def build_engine(onnx_path: Path | str, settings: BuildSettings = BuildSettings(), *,
                 progress: Progress | None = None, cancel: CancelCheck | None = None,
                 cache_root: Path | None = None, device_id: int = 0, force: bool = False) -> Path:
    """Path of a plan for `onnx_path` on this GPU: from the cache when it still fits, else built now."""
    from inference.precision import cache as content_cache
    from inference.precision.graph import detect_precision, load

    onnx_path = Path(onnx_path)
    report = progress or (lambda step, fraction: None)
    report("checking", 0.0)
    trt = libs.tensorrt()
    rt = libs.cudart()
    libs.check(rt.cudaSetDevice(device_id), "cudaSetDevice")
    system = SystemInfo.current(device_id)
    root = content_cache.writable_root(Path(cache_root)) if cache_root else content_cache.default_root("tensorrt")
    model_sha = content_cache.file_sha256(onnx_path)
    folder = root / engine_key(model_sha, settings, system)
    if not force and (folder / PLAN_NAME).is_file():
        try:
            verify_plan(folder / PLAN_NAME, system, model_sha256=model_sha)
            report("ready (cached)", 1.0)
            return folder / PLAN_NAME
        except (EngineFileError, EngineMismatchError):
            pass  # damaged entry: rebuild below
    _check_cancel(cancel)

    started = time.perf_counter()
    onnx_model = load(onnx_path, weights=False)
    metadata = {p.key: p.value for p in onnx_model.metadata_props}
    if settings.input_hw is None:  # dynamic H×W: the model's own imgsz is the profile hint
        from inference.model_info import read_model_spec

        hint = read_model_spec(onnx_path, metadata).input_hw
        settings = replace(settings, input_hw=hint) if hint else settings
    logger = _make_logger(trt)
    builder = trt.Builder(logger)
    report("parsing ONNX", 0.1)
    network, _parser = _parse(trt, builder, logger, onnx_path)
    _check_cancel(cancel)

    report("configuring", 0.2)
    config = builder.create_builder_config()
    config.set_memory_pool_limit(trt.MemoryPoolType.WORKSPACE, settings.workspace_mb << 20)
    if settings.optimization_level is not None:
        config.builder_optimization_level = settings.optimization_level
    profile, input_name, hw = _profile(builder, network, settings)
    config.add_optimization_profile(profile)
    timing_path = timing_cache_path(root, system)
    timing_cache = config.create_timing_cache(timing_path.read_bytes() if timing_path.is_file() else b"")
    config.set_timing_cache(timing_cache, ignore_mismatch=False)
    monitor = _Monitor(trt, progress, cancel)
    if hasattr(trt, "IProgressMonitor"):
        config.progress_monitor = monitor.monitor

    report("building engine", 0.3)
    serialized = builder.build_serialized_network(network, config)
    _check_cancel(cancel)
    if serialized is None:
        raise BuildError("TensorRT could not build an engine", expected="a serialized plan",
                         found="; ".join(logger.errors[-3:])[:400] or "no message from TensorRT",
                         hint="try a larger workspace, or FP32; the current engine stays in use")
    plan = bytes(memoryview(serialized))

    report("saving", 0.95)
    _save_timing_cache(config, timing_path)
    info = EngineInfo(model_sha256=model_sha, precision=detect_precision(onnx_model), input_name=input_name,
                      input_hw=hw, batch_range=(1, settings.max_batch), tensorrt_version=system.tensorrt_version,
                      gpu_name=system.gpu_name, compute_capability=system.compute_capability,
                      build_time=time.strftime("%Y-%m-%dT%H:%M:%S%z"), plan_sha256=hashlib.sha256(plan).hexdigest(),
                      plan_bytes=len(plan), workspace_mb=settings.workspace_mb,
                      build_seconds=round(time.perf_counter() - started, 2), model_metadata=metadata)
    _commit(root, folder, plan, info)
    report("ready", 1.0)
    return folder / PLAN_NAME


def _save_timing_cache(config: Any, path: Path) -> None:
    try:
        data = bytes(memoryview(config.get_timing_cache().serialize()))
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError:
        pass  # a timing cache only speeds up the next build; losing it is not an error


def _commit(root: Path, folder: Path, plan: bytes, info: EngineInfo) -> None:
    pending = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=root))
    try:
        (pending / PLAN_NAME).write_bytes(plan)
        info.write(pending)
        if folder.exists():
            shutil.rmtree(folder, ignore_errors=True)
        os.replace(pending, folder)
    finally:
        shutil.rmtree(pending, ignore_errors=True)


def verify_plan(plan_path: Path, system: SystemInfo, *, model_sha256: str | None = None) -> EngineInfo:
    """Sidecar present, plan intact, built here: or EngineFileError / EngineMismatchError saying what differs."""
    plan_path = Path(plan_path)
    if not plan_path.is_file():
        raise EngineFileError("engine file not found", expected="a serialized TensorRT plan", found=str(plan_path),
                              hint="build the engine first")
    info = EngineInfo.read(plan_path.parent)
    size = plan_path.stat().st_size
    digest = hashlib.sha256(plan_path.read_bytes()).hexdigest() if size == info.plan_bytes else None
    info.require(system, model_sha256=model_sha256, plan_bytes=size, plan_sha256=digest)
    return info
