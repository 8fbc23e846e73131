"""FP16 and INT8 conversions on small real conv graphs, checked node by node and against FP32."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, numpy_helper

from inference.precision import CalibrationError, Cancelled, PrecisionError, prepare_model
from inference.precision.graph import decode_tail, detect_precision, output_layers
from tests.conv_models import conv_detector, random_images

SIZE = 64


def run(model: Path, x: np.ndarray) -> np.ndarray:
    options = ort.SessionOptions()
    options.log_severity_level = 3
    return ort.InferenceSession(str(model), options, providers=["CPUExecutionProvider"]).run(None, {"images": x})[0]


def frame(seed: int = 1) -> np.ndarray:
    return np.random.default_rng(seed).random((1, 3, SIZE, SIZE), dtype=np.float32)


def quant_nodes(model: onnx.ModelProto) -> tuple[list, dict]:
    inits = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    return [n for n in model.graph.node if n.op_type in ("QuantizeLinear", "DequantizeLinear")], inits


def activation_zero_points(model: onnx.ModelProto) -> list[np.ndarray]:
    nodes, inits = quant_nodes(model)
    return [inits[n.input[2]] for n in nodes if n.op_type == "QuantizeLinear" and len(n.input) > 2]


def weight_dequantizers(model: onnx.ModelProto) -> list[tuple[np.ndarray, np.ndarray]]:
    """(quantized weight, scale) for every DequantizeLinear fed by a 4-D initializer (conv weights)."""
    nodes, inits = quant_nodes(model)
    return [(inits[n.input[0]], inits[n.input[1]]) for n in nodes
            if n.op_type == "DequantizeLinear" and n.input[0] in inits and inits[n.input[0]].ndim == 4]


@pytest.fixture
def workdir(tmp_path: Path) -> dict[str, Path]:
    return {"model": conv_detector(tmp_path / "det.onnx", SIZE), "images": random_images(tmp_path / "calib", 6),
            "cache": tmp_path / "cache"}


def test_fp32_is_the_model_itself(workdir):
    assert prepare_model(workdir["model"], "fp32", cache_root=workdir["cache"]) == workdir["model"]
    assert not workdir["cache"].exists()


def test_fp16_keeps_float32_io_and_matches_fp32(workdir):
    path = prepare_model(workdir["model"], "fp16", cache_root=workdir["cache"])
    model = onnx.load(str(path))
    assert model.graph.input[0].type.tensor_type.elem_type == TensorProto.FLOAT
    assert model.graph.output[0].type.tensor_type.elem_type == TensorProto.FLOAT
    assert detect_precision(model) == "fp16"
    assert {p.key for p in model.metadata_props} >= {"names", "imgsz", "stride"}
    ref, out = run(workdir["model"], frame()), run(path, frame())
    assert out.dtype == np.float32
    np.testing.assert_allclose(out[:, 4:], ref[:, 4:], atol=2e-3)  # scores
    np.testing.assert_allclose(out[:, :4], ref[:, :4], atol=0.1)  # boxes, in pixels


def test_fp16_without_its_converter_says_what_to_install(workdir, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "onnxconverter_common", None)  # as on a machine that lacks it
    with pytest.raises(PrecisionError) as caught:
        prepare_model(workdir["model"], "fp16", cache_root=workdir["cache"])
    assert "onnxconverter-common" in caught.value.message and "pip install onnxconverter-common" in caught.value.hint
    assert prepare_model(workdir["model"], "fp32", cache_root=workdir["cache"]) == workdir["model"]  # FP32 still runs


def test_fp16_block_list_keeps_those_ops_float32(workdir):
    path = prepare_model(workdir["model"], "fp16", cache_root=workdir["cache"], fp16_block_list=["Conv"])
    model = onnx.load(str(path))
    conv_weights = {n.input[1] for n in model.graph.node if n.op_type == "Conv"}
    types = {i.name: i.data_type for i in model.graph.initializer if i.name in conv_weights}
    assert types and set(types.values()) == {TensorProto.FLOAT}


@pytest.mark.parametrize(("backend", "activation_dtype"), [
    ("onnxruntime-cpu", np.uint8),
    ("tensorrt", np.int8),
])
def test_int8_inserts_qdq_with_the_backends_activation_type(workdir, backend, activation_dtype):
    path = prepare_model(workdir["model"], "int8", backend, workdir["images"], cache_root=workdir["cache"])
    model = onnx.load(str(path))
    ops = {n.op_type for n in model.graph.node}
    assert {"QuantizeLinear", "DequantizeLinear"} <= ops
    zero_points = activation_zero_points(model)
    assert zero_points and all(zp.dtype == activation_dtype for zp in zero_points)
    assert detect_precision(model) == "int8"


def test_tensorrt_flavour_is_symmetric_with_per_channel_int8_weights(workdir):
    path = prepare_model(workdir["model"], "int8", "tensorrt", workdir["images"], cache_root=workdir["cache"])
    model = onnx.load(str(path))
    assert all(int(np.abs(zp).max()) == 0 for zp in activation_zero_points(model))
    weights = weight_dequantizers(model)
    assert len(weights) == 6  # every backbone conv; the two head output convs stay float
    for weight, scale in weights:
        assert weight.dtype == np.int8
        assert scale.shape == (weight.shape[0],)  # one scale per output channel


def test_int8_leaves_the_decode_tail_and_output_layers_in_float(workdir):
    source = onnx.load(str(workdir["model"]))
    tail = set(decode_tail(source))
    assert {"decode/Concat", "decode/Sigmoid", "decode/Tanh"} <= tail
    assert not any(name.startswith("backbone") for name in tail)
    assert sorted(output_layers(source)) == ["head.box/Conv", "head.cls/Conv"]
    path = prepare_model(workdir["model"], "int8", "tensorrt", workdir["images"], cache_root=workdir["cache"])
    quantized_tensors = {n.input[0] for n in onnx.load(str(path)).graph.node if n.op_type == "QuantizeLinear"}
    assert not quantized_tensors & {"boxes", "scores", "output0"}


@pytest.mark.parametrize("method", ["minmax", "entropy", "percentile"])
def test_int8_output_stays_close_to_fp32(workdir, method):
    path = prepare_model(workdir["model"], "int8", "onnxruntime-cpu", workdir["images"], method,
                         cache_root=workdir["cache"])
    x = np.full((1, 3, SIZE, SIZE), 0.45, np.float32)
    x[..., 10:40, 10:40] = 0.95
    ref, out = run(workdir["model"], x), run(path, x)
    assert np.abs(out[:, 4:] - ref[:, 4:]).max() < 0.08
    assert np.abs(out[:, :4] - ref[:, :4]).max() < 4.0  # pixels at stride 8


def test_progress_reports_named_steps_ending_at_one(workdir):
    seen: list[tuple[str, float]] = []
    prepare_model(workdir["model"], "int8", "onnxruntime-cpu", workdir["images"], cache_root=workdir["cache"],
                  progress=lambda step, fraction: seen.append((step, fraction)))
    fractions = [f for _, f in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert any(step.startswith("calibrating (6/6") for step, _ in seen)


def test_cancel_stops_and_leaves_no_cache_entry(workdir):
    calls = {"n": 0}

    def cancel() -> bool:
        calls["n"] += 1
        return calls["n"] > 4  # a few checks in: mid-calibration

    with pytest.raises(Cancelled):
        prepare_model(workdir["model"], "int8", "onnxruntime-cpu", workdir["images"], cache_root=workdir["cache"],
                      cancel=cancel)
    assert list(workdir["cache"].iterdir()) == []


@pytest.mark.parametrize(("make_folder", "needle"), [
    (lambda d: d, "no image files"),
    (lambda d: (d / "a.png").write_bytes(b"not a png") and d, "none decodable"),
    (lambda d: d / "missing", "not found"),
])
def test_calibration_folder_without_readable_images_is_a_clear_error(workdir, tmp_path, make_folder, needle):
    folder = tmp_path / "empty"
    folder.mkdir()
    folder = make_folder(folder)
    with pytest.raises(CalibrationError) as info:
        prepare_model(workdir["model"], "int8", "onnxruntime-cpu", folder, cache_root=workdir["cache"])
    assert needle in str(info.value)
    assert "hint" in str(info.value)


def test_calibration_uses_the_yolo_images_subfolder(workdir, tmp_path):
    random_images(tmp_path / "dataset" / "images", 3)
    path = prepare_model(workdir["model"], "int8", "onnxruntime-cpu", tmp_path / "dataset", cache_root=workdir["cache"])
    assert path.is_file()


@pytest.mark.parametrize(("precision", "error"), [("int4", "unknown precision"), ("FP64", "unknown precision")])
def test_unknown_precision(workdir, precision, error):
    with pytest.raises(PrecisionError, match=error):
        prepare_model(workdir["model"], precision, cache_root=workdir["cache"])


def test_unknown_calibration_method(workdir):
    with pytest.raises(PrecisionError, match="calibration method"):
        prepare_model(workdir["model"], "int8", "onnxruntime-cpu", workdir["images"], "kl",
                      cache_root=workdir["cache"])


def test_already_quantized_model_is_refused(workdir):
    path = prepare_model(workdir["model"], "int8", "onnxruntime-cpu", workdir["images"], cache_root=workdir["cache"])
    with pytest.raises(PrecisionError, match="already reduced precision"):
        prepare_model(path, "fp16", cache_root=workdir["cache"])


def test_dynamic_model_without_size_hint_is_refused(tmp_path, workdir):
    model = conv_detector(tmp_path / "dyn.onnx", SIZE, dynamic=True)
    stripped = onnx.load(str(model))
    del stripped.metadata_props[:]
    onnx.save(stripped, str(model))
    with pytest.raises(PrecisionError, match="dynamic input shapes"):
        prepare_model(model, "int8", "onnxruntime-cpu", workdir["images"], cache_root=workdir["cache"])
    path = prepare_model(model, "int8", "onnxruntime-cpu", workdir["images"], cache_root=workdir["cache"],
                         input_hw=(SIZE, SIZE))
    assert detect_precision(onnx.load(str(path))) == "int8"


def test_prepare_for_tensorrt_without_tensorrt_converts_and_says_why_no_engine(workdir):
    from inference.engines.tensorrt import probe
    from inference.precision import prepare_for_backend

    if probe() is None:
        pytest.skip("TensorRT is available here; the build path is covered by the tensorrt-marked tests")
    steps: list[tuple[str, float]] = []
    path = prepare_for_backend(workdir["model"], "int8", "tensorrt", workdir["images"],
                               progress=lambda s, f: steps.append((s, f)), cache_root=workdir["cache"])
    assert detect_precision(onnx.load(str(path))) == "int8"
    assert steps[-1][0].startswith("engine build skipped: TensorRT is not installed") and steps[-1][1] == 1.0
    assert max(f for s, f in steps[:-1]) <= 0.4  # the conversion fills the first part of the bar


def test_int8_preprocessing_leaves_nothing_in_the_working_folder(tmp_path, monkeypatch):
    """ONNX Runtime's symbolic shape inference gives up on the shipped detector and saves its partial
    model (8 MB of external data) into the working folder; the station removes it."""
    from inference.precision.int8 import _preprocess
    from inference.resources import default_model_path

    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    out = _preprocess(default_model_path(), tmp_path / "pre.onnx")
    assert out.is_file()
    assert list(work.iterdir()) == []
