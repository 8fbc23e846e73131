"""training.interpolate blends a detector and its fine-tune weight by weight, and refuses unrelated models."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from training.interpolate import blend, main


def _conv_model(weight: np.ndarray, bias: np.ndarray, op: str = "Conv") -> onnx.ModelProto:
    x = helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 2, 4, 4])
    y = helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 3, 4, 4])
    node = helper.make_node(op, ["images", "w", "b"] if op == "Conv" else ["images", "w"], ["out"])
    inits = [numpy_helper.from_array(weight.astype(np.float32), "w"), numpy_helper.from_array(bias.astype(np.float32), "b"),
             numpy_helper.from_array(np.array([1, 2], np.int64), "shape")]
    graph = helper.make_graph([node], "g", [x], [y], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    helper.set_model_props(model, {"names": "{0: 'hangtag'}"})
    return model


def _weights(model: onnx.ModelProto) -> dict[str, np.ndarray]:
    return {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}


def test_blend_is_the_weighted_mean_of_float_weights_and_keeps_the_base_graph():
    rng = np.random.default_rng(0)
    base = _conv_model(rng.normal(size=(3, 2, 1, 1)), rng.normal(size=3))
    tuned = _conv_model(rng.normal(size=(3, 2, 1, 1)), rng.normal(size=3))
    for alpha in (0.0, 0.3, 1.0):
        mixed = _weights(blend(base, tuned, alpha))
        for name in ("w", "b"):
            expected = (1 - alpha) * _weights(base)[name] + alpha * _weights(tuned)[name]
            np.testing.assert_allclose(mixed[name], expected, rtol=1e-6, atol=1e-7)
        np.testing.assert_array_equal(mixed["shape"], [1, 2])
    # A 1x1 convolution is linear in its weights: the blend's output is the blend of the outputs.
    image = rng.random((1, 2, 4, 4), dtype=np.float32)

    def run(m: onnx.ModelProto) -> np.ndarray:
        return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"images": image})[0]

    np.testing.assert_allclose(run(blend(base, tuned, 0.25)), 0.75 * run(base) + 0.25 * run(tuned), rtol=1e-5, atol=1e-5)
    assert {p.key: p.value for p in blend(base, tuned, 0.5).metadata_props} == {"names": "{0: 'hangtag'}"}


def test_models_of_another_graph_are_refused():
    rng = np.random.default_rng(1)
    base = _conv_model(rng.normal(size=(3, 2, 1, 1)), rng.normal(size=3))
    with pytest.raises(ValueError, match="graphs differ"):
        blend(base, _conv_model(rng.normal(size=(3, 2, 1, 1)), rng.normal(size=3), op="Mul"), 0.5)
    with pytest.raises(ValueError, match="initializer w"):
        blend(base, _conv_model(rng.normal(size=(4, 2, 1, 1)), rng.normal(size=4)), 0.5)


def test_cli_writes_a_checked_model_and_refuses_alpha_outside_0_1(tmp_path: Path, capsys):
    rng = np.random.default_rng(2)
    a, b = tmp_path / "a.onnx", tmp_path / "b.onnx"
    onnx.save(_conv_model(rng.normal(size=(3, 2, 1, 1)), rng.normal(size=3)), str(a))
    onnx.save(_conv_model(rng.normal(size=(3, 2, 1, 1)), rng.normal(size=3)), str(b))
    assert main(["--base", str(a), "--tuned", str(b), "--alpha", "0.5", "--out", str(tmp_path / "m" / "c.onnx")]) == 0
    onnx.checker.check_model(str(tmp_path / "m" / "c.onnx"))
    with pytest.raises(SystemExit):
        main(["--base", str(a), "--tuned", str(b), "--alpha", "1.5", "--out", str(tmp_path / "d.onnx")])
    assert "--alpha must lie in [0, 1]" in capsys.readouterr().err
