"""INT8 Q/DQ text detector: built from recorded inputs, it still finds the same text."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from inference.reading.ocr.detector import prepare
from inference.reading.ocr.models import find_ppocr_models
from inference.reading.ocr.quantize import quantize_model

ort = pytest.importorskip("onnxruntime")
pytest.importorskip("onnxruntime.quantization")


def text_card(seed: int) -> np.ndarray:
    """A white card with dark lines of printed digits and letters, as a tag's text block."""
    rng = np.random.default_rng(seed)
    card = np.full((256, 192, 3), 245, np.uint8)
    for row in range(8):
        text = "".join(rng.choice(list("0123456789ABCDEFGH:-/"), 12))
        cv2.putText(card, text, (8, 24 + 28 * row), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (20, 20, 20), 1, cv2.LINE_AA)
    return card


def test_int8_detector_agrees_with_fp32(tmp_path) -> None:
    source = find_ppocr_models().det
    feeds = [{"x": prepare(text_card(seed), 256)[0]} for seed in range(4)]
    out = quantize_model(source, feeds, tmp_path / "det.int8.onnx")
    fp32 = ort.InferenceSession(str(source), providers=["CPUExecutionProvider"])
    int8 = ort.InferenceSession(str(out), providers=["CPUExecutionProvider"])
    assert any(node.op_type == "DequantizeLinear" for node in __import__("onnx").load(str(out)).graph.node)
    blob = prepare(text_card(99), 256)[0]
    a = fp32.run(None, {"x": blob})[0][0, 0] > 0.3
    b = int8.run(None, {"x": blob})[0][0, 0] > 0.3
    assert a.sum() > 500  # there is text to find
    assert (a & b).sum() / (a | b).sum() > 0.85
