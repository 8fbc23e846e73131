"""`hangtag-inspect doctor`: check this machine's inference stack end to end, step by step.

Each step ends PASS, FAIL or SKIP with its reason. A step is SKIPPED when what it needs is absent
by choice (no NVIDIA GPU, TensorRT or cuda-python not installed: optional extras); it FAILS when
its prerequisites are present and it still does not work. The exit code is 1 when any step
FAILED and 0 otherwise, so a CPU-only machine with a healthy ONNX Runtime passes.

The TensorRT check builds a small FP32 engine (batch 1) from the shipped model, runs one sample
frame, and compares the raw output with ONNX Runtime CPU on the same tensor: class scores within
SCORE_TOLERANCE absolute, and box coordinates within BOX_TOLERANCE_PX where the reference score
is at least 0.25 (TensorRT may use TF32 and different kernels, so bit equality is not expected).
"""

from __future__ import annotations

import argparse
import json
import platform
import time
import traceback
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np

from inference.resources import default_model_path, samples_dir

SCORE_TOLERANCE = 0.02
BOX_TOLERANCE_PX = 2.0


@dataclass
class Step:
    name: str
    status: str  # PASS | FAIL | SKIP
    detail: str
    seconds: float = 0.0


class Skip(Exception):
    """Raised inside a check: the step does not apply here, with the reason."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("doctor", help="check drivers, CUDA, TensorRT and ONNX Runtime end to end",
                            description=__doc__.split("\n\n")[1] if __doc__ else None)
    parser.add_argument("--model", type=Path, default=default_model_path(), help="ONNX detector (default: shipped)")
    parser.add_argument("--json", type=Path, default=None, help="also write the steps as JSON")
    parser.set_defaults(func=doctor)


def _run(steps: list[Step], name: str, check: Callable[[], str]) -> Any:
    started = time.perf_counter()
    try:
        detail, status = check(), "PASS"
    except Skip as exc:
        detail, status = str(exc), "SKIP"
    except Exception as exc:  # a doctor reports every failure instead of stopping at the first
        detail = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
        status = "FAIL"
        if not hasattr(exc, "hint"):
            detail += " | " + traceback.format_exc(limit=2).strip().splitlines()[-1]
    step = Step(name, status, detail, round(time.perf_counter() - started, 2))
    steps.append(step)
    print(f"[{status}] {name}: {detail}", flush=True)
    return step


def _versions() -> str:
    import onnxruntime

    from inference.engines.tensorrt import libs

    parts = [f"Python {platform.python_version()} on {platform.platform()}", f"onnxruntime {onnxruntime.__version__}"]
    parts.append(f"TensorRT {libs.version_of('tensorrt') or 'not installed'}")
    parts.append(f"cuda-python {libs.version_of('cuda.bindings') or 'not installed'}")  # `cuda` itself has no version
    return "; ".join(parts)


def _driver() -> str:
    from inference.telemetry import _nvml, gpu_name, nvml_unavailable_reason

    nvml = _nvml()
    if nvml is None:
        raise Skip(f"no NVIDIA driver/GPU ({nvml_unavailable_reason()})")
    version = nvml.nvmlSystemGetDriverVersion()
    version = version.decode() if isinstance(version, bytes) else version
    return f"driver {version}, GPU 0: {gpu_name(0)}"


def _cuda(has_gpu: bool) -> str:
    from inference.engines.tensorrt import libs
    from inference.errors import BackendUnavailableError

    try:
        rt = libs.cudart()
    except BackendUnavailableError as exc:
        if has_gpu:
            raise Skip(f"{exc.message} ({exc.hint}); needed for the TensorRT backend") from exc
        raise Skip("no NVIDIA GPU, and cuda-python is not installed") from exc
    driver = libs.check(rt.cudaDriverGetVersion(), "cudaDriverGetVersion")
    runtime = libs.check(rt.cudaRuntimeGetVersion(), "cudaRuntimeGetVersion")
    count = libs.check(rt.cudaGetDeviceCount(), "cudaGetDeviceCount")
    fmt = lambda v: f"{v // 1000}.{v % 1000 // 10}"  # noqa: E731
    return f"CUDA driver API {fmt(driver)}, runtime {fmt(runtime)}, {count} device(s)"


def _providers() -> str:
    import onnxruntime

    providers = onnxruntime.get_available_providers()
    if "CPUExecutionProvider" not in providers:
        raise RuntimeError(f"CPUExecutionProvider missing from {providers}")
    return ", ".join(providers)


def _sample_tensor(input_hw: tuple[int, int]) -> np.ndarray:
    from inference.imageio import list_images, read_image
    from inference.preprocess import Letterboxer

    letterbox = Letterboxer(input_hw)
    images = list_images(samples_dir()) if samples_dir().is_dir() else []
    image = read_image(images[0]) if images else np.full((*input_hw, 3), 114, np.uint8)
    letterbox(image)
    return letterbox.tensor.copy()


def _onnxruntime_cpu(model: Path, state: dict[str, Any]) -> str:
    from inference.engines.onnxrt import OnnxRuntimeEngine

    if not model.is_file():
        raise FileNotFoundError(f"model not found: {model}")
    with OnnxRuntimeEngine(model) as engine:
        spec = engine.inputs[0]
        hw = (spec.shape[2], spec.shape[3]) if spec.shape[2] > 0 else (640, 640)
        x = _sample_tensor(hw)
        started = time.perf_counter()
        out = engine.infer({spec.name: x})
        elapsed = (time.perf_counter() - started) * 1000
    state.update(input_name=spec.name, x=x, reference=next(iter(out.values())))
    return f"{model.name}: input {list(spec.shape)}, output {list(state['reference'].shape)}, {elapsed:.1f} ms"


def compare_outputs(reference: np.ndarray, other: np.ndarray) -> list[str]:
    """Differences beyond the stated tolerance between two YOLOv8-layout [1, 4+C, A] outputs."""
    if reference.shape != other.shape:
        return [f"output shape {list(other.shape)} differs from ONNX Runtime's {list(reference.shape)}"]
    problems = []
    if reference.ndim == 3 and reference.shape[1] > 4:
        score_diff = float(np.abs(reference[:, 4:] - other[:, 4:]).max())
        confident = reference[:, 4:].max(axis=1) >= 0.25
        box_diff = float(np.abs(reference[:, :4] - other[:, :4]).max(axis=1)[confident].max()) if confident.any() else 0.0
        if score_diff > SCORE_TOLERANCE:
            problems.append(f"class scores differ by up to {score_diff:.4f} (tolerance {SCORE_TOLERANCE})")
        if box_diff > BOX_TOLERANCE_PX:
            problems.append(f"boxes differ by up to {box_diff:.2f} px (tolerance {BOX_TOLERANCE_PX} px)")
    else:
        diff = float(np.abs(reference - other).max())
        if diff > SCORE_TOLERANCE:
            problems.append(f"outputs differ by up to {diff:.4f} (tolerance {SCORE_TOLERANCE})")
    return problems


def _tensorrt(model: Path, state: dict[str, Any], has_gpu: bool) -> str:
    from inference.engines.tensorrt import libs
    from inference.engines.tensorrt.runner import TensorRTEngine
    from inference.errors import BackendUnavailableError

    if "reference" not in state:
        raise Skip("needs the ONNX Runtime CPU reference, which failed")
    try:
        libs.tensorrt()
    except BackendUnavailableError as exc:
        raise Skip(f"{exc.message} ({exc.hint})") from exc
    if not has_gpu:
        raise Skip("TensorRT is installed but no NVIDIA GPU is visible")
    reason = libs.probe()
    if reason:
        raise RuntimeError(reason)
    started = time.perf_counter()
    with TensorRTEngine(model, max_batch=1, workspace_mb=1024) as engine:
        built = time.perf_counter() - started
        out = engine.infer({state["input_name"]: state["x"]})
        result = next(iter(out.values()))
        stages = {k: round(v / 1e6, 3) for k, v in engine.last_stage_ns.items()}
        device = engine.device_name
    problems = compare_outputs(state["reference"], result)
    if problems:
        raise AssertionError("TensorRT disagrees with ONNX Runtime: " + "; ".join(problems))
    return (f"engine built/loaded in {built:.1f} s on {device}; one frame {stages} ms; matches ONNX Runtime CPU "
            f"(scores ±{SCORE_TOLERANCE}, boxes ±{BOX_TOLERANCE_PX} px)")


def _onnxruntime_cuda(model: Path, state: dict[str, Any], has_gpu: bool) -> str:
    from inference.engines.onnxrt import OnnxRuntimeCudaEngine, probe_cuda

    reason = probe_cuda()
    if reason:
        raise Skip(reason)
    if "reference" not in state:
        raise Skip("needs the ONNX Runtime CPU reference, which failed")
    with OnnxRuntimeCudaEngine(model) as engine:
        result = next(iter(engine.infer({state["input_name"]: state["x"]}).values()))
    problems = compare_outputs(state["reference"], result)
    if problems:
        raise AssertionError("CUDA provider disagrees with CPU: " + "; ".join(problems))
    return f"matches ONNX Runtime CPU on {engine.device_name}"


def matching_detections(reference, other, min_iou: float = 0.9) -> list[str]:
    """Problems when two frames' detections differ: count, class, or a box with IoU < min_iou."""
    from inference.precision.evaluate import box_iou

    if len(reference) != len(other):
        return [f"{len(other)} detections against {len(reference)}"]
    problems = []
    for i in range(len(reference)):
        ious = box_iou(reference.xyxy[i:i + 1], other.xyxy)[0]
        j = int(np.argmax(ious)) if len(ious) else -1
        if j < 0 or ious[j] < min_iou or other.class_id[j] != reference.class_id[i]:
            problems.append(f"detection {i} ({reference.labels[i]}) has no match (best IoU "
                            f"{float(ious[j]) if j >= 0 else 0:.2f})")
    return problems


def _gpu_pipeline(model: Path, engine: str) -> str:
    """The GPU pipeline (letterbox, decode and NMS on the device) around `engine` finds what the CPU Pipeline
    finds on a sample frame."""
    import cv2

    from inference.gpu.fallback import gpu_pipeline_unavailable_reason
    from inference.gpu.pipeline import GpuPipeline
    from inference.pipeline import Pipeline

    reason = gpu_pipeline_unavailable_reason(0, engine)
    if reason:
        raise Skip(reason)
    frame = cv2.imread(str(sorted(samples_dir().glob("*.jpg"))[0]))
    with Pipeline.open(model, "onnxruntime-cpu") as cpu:
        reference = cpu.process(frame).detections
    with GpuPipeline.open(model, engine=engine) as gpu:
        result = gpu.process(frame)
        backend = gpu.backend
        camera_frame = gpu.frame_memory(frame.shape)  # where the station's camera source reads frames
        camera_frame[...] = frame
        from_camera = gpu.process(camera_frame)
        in_place = gpu.slots[0].sources[0] == camera_frame.ctypes.data
    problems = matching_detections(reference, result.detections)
    if problems:
        raise AssertionError(f"{backend} disagrees with the CPU pipeline: " + "; ".join(problems[:3]))
    if not in_place:
        raise AssertionError("a frame in the pipeline's page-locked frame memory was copied before upload: "
                             "camera frames would pay a host copy each (cudaPointerGetAttributes disagrees)")
    problems = matching_detections(reference, from_camera.detections)
    if problems:
        raise AssertionError("a camera frame uploaded in place disagrees with the CPU pipeline: " + "; ".join(problems[:3]))
    return (f"{backend}: {len(reference)} detections, all matched (IoU ≥ 0.9, same class); "
            f"{result.timings.total_ms:.2f} ms for the frame, {from_camera.timings.total_ms:.2f} ms for the same "
            "frame in camera (page-locked) memory, uploaded in place")


def _precision(model: Path) -> str:
    """FP16 conversion runs and stays close to FP32 (INT8 needs calibration images: see precision-report)."""
    import tempfile

    import onnxruntime as ort

    from inference.precision import prepare_model

    if not model.is_file():
        raise Skip("no model to convert")
    with tempfile.TemporaryDirectory(prefix="hangtag-doctor-") as tmp:
        converted = prepare_model(model, "fp16", cache_root=Path(tmp))
        session = ort.InferenceSession(str(converted), providers=["CPUExecutionProvider"])
        spec = session.get_inputs()[0]
        hw = tuple(spec.shape[2:]) if isinstance(spec.shape[2], int) else (640, 640)
        x = _sample_tensor(hw)
        fp16 = session.run(None, {spec.name: x})[0]
        fp32 = ort.InferenceSession(str(model), providers=["CPUExecutionProvider"]).run(None, {spec.name: x})[0]
    problems = compare_outputs(fp32, fp16)
    if problems:
        raise AssertionError("FP16 drifts from FP32: " + "; ".join(problems))
    return "FP16 conversion runs on ONNX Runtime CPU and matches FP32 within tolerance"


def doctor(args: argparse.Namespace) -> int:
    from inference.telemetry import gpu_name

    steps: list[Step] = []
    state: dict[str, Any] = {}
    has_gpu = gpu_name(0) is not None
    _run(steps, "versions", _versions)
    _run(steps, "NVIDIA driver", _driver)
    _run(steps, "CUDA (cuda-python)", lambda: _cuda(has_gpu))
    _run(steps, "ONNX Runtime providers", _providers)
    _run(steps, "ONNX Runtime CPU runs the model", lambda: _onnxruntime_cpu(args.model, state))
    _run(steps, "ONNX Runtime CUDA matches CPU", lambda: _onnxruntime_cuda(args.model, state, has_gpu))
    _run(steps, "TensorRT builds, runs and matches", lambda: _tensorrt(args.model, state, has_gpu))
    _run(steps, "GPU pipeline on ONNX Runtime CUDA matches CPU", lambda: _gpu_pipeline(args.model, "onnxruntime"))
    _run(steps, "GPU pipeline on TensorRT matches CPU", lambda: _gpu_pipeline(args.model, "tensorrt"))
    _run(steps, "FP16 conversion", lambda: _precision(args.model))
    counts = {s: sum(step.status == s for step in steps) for s in ("PASS", "FAIL", "SKIP")}
    verdict = "FAIL" if counts["FAIL"] else "PASS"
    print(f"doctor {verdict}: {counts['PASS']} PASS, {counts['FAIL']} FAIL, {counts['SKIP']} SKIP "
          "(SKIP = not applicable here; exit code 1 only on FAIL)")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"verdict": verdict, "steps": [asdict(s) for s in steps]}, indent=2) + "\n",
                             encoding="utf-8")
    return 1 if counts["FAIL"] else 0
