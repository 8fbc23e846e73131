"""The TensorRT backend end to end. Without TensorRT and a GPU only the 'unavailable' behaviour runs;
the rest is marked and skipped with the probe's reason. Nothing here imitates TensorRT.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
from pathlib import Path

import numpy as np
import onnxruntime as ort
import pytest

from inference.engines import create_engine, list_backends
from inference.engines.registry import BACKENDS
from inference.engines.tensorrt import probe
from inference.errors import BackendUnavailableError
from tests.conv_models import conv_detector, random_images
from tests.factories import blob_detector, scene_with_squares

UNAVAILABLE = probe()


def needs_tensorrt(test):
    for mark in (pytest.mark.tensorrt, pytest.mark.gpu,
                 pytest.mark.skipif(UNAVAILABLE is not None, reason=f"TensorRT backend unavailable: {UNAVAILABLE}")):
        test = mark(test)
    return test


def test_tensorrt_is_the_first_preference():
    assert BACKENDS[0].name == "tensorrt" and BACKENDS[0].label == "TensorRT"


def test_backend_modules_import_without_tensorrt():
    for module in ("runner", "builder", "buffers", "model_info"):
        importlib.import_module(f"inference.engines.tensorrt.{module}")


@pytest.mark.skipif(importlib.util.find_spec("tensorrt") is not None, reason="TensorRT is installed here")
def test_missing_tensorrt_disables_only_that_backend(tmp_path):
    status = {s.name: s for s in list_backends()}
    assert not status["tensorrt"].available
    assert status["tensorrt"].reason == "TensorRT is not installed (pip install tensorrt; needs an NVIDIA GPU)"
    assert status["onnxruntime-cpu"].available
    with pytest.raises(BackendUnavailableError, match="not available here"):
        create_engine("tensorrt", blob_detector(tmp_path / "m.onnx"))


# -- on a machine with TensorRT and an NVIDIA GPU -------------------------------------------------
def ort_cpu(model: Path, x: np.ndarray) -> np.ndarray:
    return ort.InferenceSession(str(model), providers=["CPUExecutionProvider"]).run(None, {"images": x})[0]


@needs_tensorrt
@pytest.mark.parametrize(("precision", "atol"), [("fp32", 1e-3), ("fp16", 0.05), ("int8", 0.15)])
def test_engine_matches_onnx_runtime(tmp_path, precision, atol):
    from inference.precision import prepare_model

    source = conv_detector(tmp_path / "det.onnx", 64)
    model = prepare_model(source, precision, "tensorrt", random_images(tmp_path / "calib", 8),
                          cache_root=tmp_path / "cache")
    x = np.random.default_rng(0).random((1, 3, 64, 64), dtype=np.float32)
    with create_engine("tensorrt", model, cache_root=tmp_path / "engines") as engine:
        out = engine.infer({"images": x})["output0"]
        assert set(engine.last_stage_ns) == {"h2d", "infer", "d2h"}
        assert engine.info.precision == precision
    scores_ref = ort_cpu(model, x)[:, 4:]
    np.testing.assert_allclose(out[:, 4:], scores_ref, atol=atol)


@needs_tensorrt
def test_cuda_graph_replay_gives_the_same_outputs(tmp_path):
    model = conv_detector(tmp_path / "det.onnx", 64)
    x = np.random.default_rng(1).random((1, 3, 64, 64), dtype=np.float32)
    with create_engine("tensorrt", model, cache_root=tmp_path / "e") as plain:
        expected = plain.infer({"images": x})["output0"]
    with create_engine("tensorrt", model, cache_root=tmp_path / "e", cuda_graph=True) as graphed:
        assert graphed.graph_status == "on"
        for _ in range(3):
            np.testing.assert_allclose(graphed.infer({"images": x})["output0"], expected, rtol=1e-5, atol=1e-5)


@needs_tensorrt
def test_pipeline_runs_on_tensorrt_and_outputs_are_owned(tmp_path):
    from inference.pipeline import Pipeline

    model = blob_detector(tmp_path / "blob.onnx", 64)
    with Pipeline.open(model, "tensorrt") as pipe:
        first = pipe.process(scene_with_squares(64, 64, [(8, 8, 16)]))
        raw = pipe._last_raw.copy()
        pipe.process(scene_with_squares(64, 64, [(40, 40, 16)]))
        assert not np.array_equal(raw, pipe._last_raw)  # the first frame's array was not overwritten in place
        assert len(first.detections) >= 1


@needs_tensorrt
def test_corrupt_plan_with_consistent_sidecar_is_refused_by_tensorrt(tmp_path):
    from inference.engines.tensorrt.builder import build_engine
    from inference.engines.tensorrt.errors import EngineFileError
    from inference.engines.tensorrt.model_info import EngineInfo

    plan = build_engine(conv_detector(tmp_path / "det.onnx", 64), cache_root=tmp_path / "e")
    garbage = bytes(reversed(plan.read_bytes()))
    plan.write_bytes(garbage)
    info = EngineInfo.read(plan.parent)
    dataclasses.replace(info, plan_sha256=hashlib.sha256(garbage).hexdigest()).write(plan.parent)
    with pytest.raises(EngineFileError, match="could not deserialize"):
        create_engine("tensorrt", plan).load()


@needs_tensorrt
def test_build_reports_progress_and_can_be_cancelled(tmp_path):
    from inference.engines.tensorrt.builder import build_engine
    from inference.precision import Cancelled

    steps: list[tuple[str, float]] = []
    with pytest.raises(Cancelled):
        build_engine(conv_detector(tmp_path / "det.onnx", 64), cache_root=tmp_path / "e",
                     progress=lambda s, f: steps.append((s, f)), cancel=lambda: len(steps) > 3)
    assert not any(p.suffix == ".plan" for p in (tmp_path / "e").rglob("*"))
    plan = build_engine(conv_detector(tmp_path / "det.onnx", 64), cache_root=tmp_path / "e")
    assert plan.is_file() and (plan.parent / "model_info.json").is_file()
