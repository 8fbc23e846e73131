"""The one call the GUI and the CLI make: a model at a precision, converted once and cached.

    path = prepare_model(model, "int8", backend="tensorrt", calibration_dir=folder,
                         method="percentile", progress=on_step, cancel=lambda: abort.is_set())

FP32 returns the model itself. FP16 and INT8 return a file in the content-hash cache; the same
inputs return the same file without converting again. Runs in a worker thread: `progress(step,
fraction)` is called from that thread, and `cancel()` is polled between steps and images.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

from inference.errors import ModelError
from inference.precision import cache
from inference.precision.errors import Cancelled, PrecisionError
from inference.precision.fp16 import DEFAULT_FP16_BLOCK

PRECISIONS = ("fp32", "fp16", "int8")
RECIPE_VERSION = 2  # bump when the conversion recipe changes, so old entries are not reused

Progress = Callable[[str, float], None]
CancelCheck = Callable[[], bool]


def flavour_for(backend: str) -> str:
    """INT8 flavour for a backend name ('tensorrt' → symmetric S8S8; anything else → U8S8 for the CPU)."""
    return "tensorrt" if backend.startswith("tensorrt") else "cpu"


def _tool_versions() -> dict[str, str]:
    """What made a cached model: a new converter version means a new conversion."""
    from importlib.metadata import PackageNotFoundError, version

    import onnx
    import onnxruntime

    try:
        converter = version("onnxconverter-common")
    except PackageNotFoundError:  # FP16 conversion says so, with the fix, when it is asked for
        converter = "not installed"
    return {"onnx": onnx.__version__, "onnxruntime": onnxruntime.__version__, "onnxconverter_common": converter}


def calibration_input_hw(model_path: Path, dims: tuple[int, ...], input_hw: tuple[int, int] | None) -> tuple[int, int]:
    if input_hw is not None:
        return (int(input_hw[0]), int(input_hw[1]))
    if len(dims) == 4 and dims[2] > 0 and dims[3] > 0:
        return (dims[2], dims[3])
    import onnx

    from inference.model_info import read_model_spec

    metadata = {p.key: p.value for p in onnx.load(str(model_path), load_external_data=False).metadata_props}
    spec = read_model_spec(model_path, metadata)
    if spec.input_hw is None:
        raise PrecisionError("the model has dynamic input shapes and no size hint",
                             expected="a static [1, 3, H, W] input, 'imgsz' metadata, or an input size",
                             found=f"input dims {list(dims)}",
                             hint="re-export with a fixed size, add imgsz to the model's sidecar JSON, "
                                  "or pass input_hw")
    return spec.input_hw


class _Steps:
    """Maps each step to a slice of the 0..1 bar and polls cancel on every report."""

    def __init__(self, progress: Progress | None, cancel: CancelCheck | None) -> None:
        self._progress, self._cancel = progress, cancel
        self.started = time.perf_counter()

    def check(self) -> None:
        if self._cancel is not None and self._cancel():
            raise Cancelled("model preparation cancelled", hint="nothing was written to the cache")

    def report(self, step: str, fraction: float) -> None:
        self.check()
        if self._progress is not None:
            self._progress(step, float(min(max(fraction, 0.0), 1.0)))


def prepare_model(model_path: Path | str, precision: str, backend: str = "onnxruntime-cpu",
                  calibration_dir: Path | str | None = None, method: str = "minmax",
                  progress: Progress | None = None, cancel: CancelCheck | None = None, *,
                  calibration_limit: int = 64, input_hw: tuple[int, int] | None = None,
                  fp16_block_list: Sequence[str] = DEFAULT_FP16_BLOCK, cache_root: Path | None = None,
                  verify: bool = True) -> Path:
    """Path of `model_path` converted to `precision` for `backend` (see module docstring)."""
    model_path = Path(model_path)
    precision = precision.lower()
    if precision not in PRECISIONS:
        raise PrecisionError("unknown precision", expected=" | ".join(PRECISIONS), found=precision)
    if not model_path.is_file():
        raise ModelError("model file not found", expected="an .onnx file", found=str(model_path))
    steps = _Steps(progress, cancel)
    if precision == "fp32":
        steps.report("ready", 1.0)
        return model_path

    from inference.precision import graph

    steps.report("hashing model", 0.0)
    model_sha = cache.file_sha256(model_path)
    root = cache.writable_root(Path(cache_root)) if cache_root is not None else cache.default_root("precision")
    onnx_model = graph.load(model_path, weights=False)
    input_name, dims = graph.image_input(onnx_model)
    if graph.detect_precision(onnx_model) != "fp32":
        raise PrecisionError("the model is already reduced precision",
                             expected="an FP32 ONNX model to convert from",
                             found=f"{model_path.name} is {graph.detect_precision(onnx_model).upper()}",
                             hint="start from the FP32 export")

    settings: dict[str, Any] = {"recipe": RECIPE_VERSION, "tools": _tool_versions()}
    calibration_paths: list[Path] = []
    calibration_hashes: list[str] = []
    quant = None
    hw = None
    if precision == "fp16":
        settings["fp16_block_list"] = sorted(fp16_block_list)
        flavour = "any"
    else:
        from inference.precision.calibration import select_images
        from inference.precision.int8 import QuantSettings
        from inference.resources import samples_dir

        flavour = flavour_for(backend)
        quant = QuantSettings(flavour=flavour, method=method.lower())
        hw = calibration_input_hw(model_path, dims, input_hw)
        folder = Path(calibration_dir) if calibration_dir is not None else samples_dir()
        steps.report("checking calibration images", 0.05)
        calibration_paths = select_images(folder, calibration_limit)
        for i, path in enumerate(calibration_paths):
            calibration_hashes.append(cache.file_sha256(path))
            if i % 8 == 0:
                steps.report("checking calibration images", 0.05 + 0.1 * i / len(calibration_paths))
        settings.update({"quant": quant.to_dict(), "input_hw": list(hw), "calibration_limit": calibration_limit})

    key = cache.cache_key(model_sha, precision, flavour, calibration_hashes, settings)
    hit = cache.lookup(root, key)
    if hit is not None:
        steps.report("ready (cached)", 1.0)
        return hit

    with cache.PendingEntry(root, key) as pending:
        if precision == "fp16":
            from inference.precision.fp16 import save_fp16

            steps.report("converting to FP16", 0.3)
            save_fp16(model_path, pending.model_path, op_block_list=fp16_block_list)
        else:
            from inference.precision.calibration import LetterboxCalibrationReader
            from inference.precision.int8 import quantize_int8

            reader = LetterboxCalibrationReader(
                calibration_paths, input_name, hw,
                progress=lambda i, n: steps.report(f"calibrating ({i}/{n} images)", 0.15 + 0.7 * i / n),
                cancel=cancel)
            quantize_int8(model_path, pending.model_path, reader, quant)
            steps.report("quantized", 0.9)
        if verify:
            steps.report("verifying", 0.95)
            verify_runs(pending.model_path, input_name, hw or _static_hw(dims))
        steps.check()
        record = {"source": str(model_path), "source_sha256": model_sha, "precision": precision,
                  "flavour": flavour, "calibration_files": [p.name for p in calibration_paths],
                  "calibration_sha256": calibration_hashes, "settings": settings,
                  "seconds": round(time.perf_counter() - steps.started, 2)}
        _copy_sidecar(model_path, pending.model_path)
        result = pending.commit(record)
    steps.report("ready", 1.0)
    return result


def prepare_for_backend(model_path: Path | str, precision: str, backend: str = "onnxruntime-cpu",
                        calibration_dir: Path | str | None = None, method: str = "minmax",
                        progress: Progress | None = None, cancel: CancelCheck | None = None,
                        **options: Any) -> Path:
    """`prepare_model`, then for TensorRT also the engine build (the slow part), with one progress bar.

    Returns the ONNX path to open with `Pipeline.open(path, backend)`; TensorRT finds the plan
    built here in its cache. When TensorRT is unavailable the build is skipped with the reason as
    the last step name, and opening the pipeline will say the same.
    """
    tensorrt = backend.startswith("tensorrt")
    share = 0.4 if tensorrt else 1.0
    sub = (lambda step, f: progress(step, share * f)) if progress else None  # noqa: E731
    path = prepare_model(model_path, precision, backend, calibration_dir, method, sub, cancel, **options)
    if not tensorrt:
        return path
    from inference.engines.tensorrt import probe

    reason = probe()
    if reason:
        if progress:
            progress(f"engine build skipped: {reason}", 1.0)
        return path
    from inference.engines.tensorrt.builder import build_engine

    build_engine(path, progress=(lambda step, f: progress(step, share + (1 - share) * f)) if progress else None,
                 cancel=cancel)
    return path


def _static_hw(dims: tuple[int, ...]) -> tuple[int, int] | None:
    return (dims[2], dims[3]) if len(dims) == 4 and dims[2] > 0 and dims[3] > 0 else None


def _copy_sidecar(source: Path, converted: Path) -> None:
    """Class names in `<model>.json` (read_model_spec's override) follow the converted model."""
    side = source.with_suffix(".json")
    if side.is_file():
        converted.with_suffix(".json").write_bytes(side.read_bytes())


def verify_runs(model_path: Path, input_name: str, input_hw: tuple[int, int] | None) -> None:
    """One run on a gray frame with ONNX Runtime CPU: a graph that cannot run never enters the cache."""
    import onnxruntime as ort

    if input_hw is None:
        return
    options = ort.SessionOptions()
    options.log_severity_level = 3
    try:
        session = ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
        session.run(None, {input_name: np.full((1, 3, *input_hw), 114 / 255, np.float32)})
    except Exception as exc:
        raise PrecisionError("the converted model does not run", expected="ONNX Runtime CPU can execute it",
                             found=f"{type(exc).__name__}: {str(exc)[:200]}",
                             hint="report this model; meanwhile run it at FP32") from exc


def cached_entry(model_path: Path) -> dict[str, Any] | None:
    """What a cached model was made from (precision, flavour, calibration files, settings), or None."""
    return cache.read_entry(model_path)
