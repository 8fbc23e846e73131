"""The PP-OCR graphs run by PyTorch (inference/reading/ocr/torch_graph.py) give ONNX Runtime's outputs, and the
GPU reader's classes read the same text and find the same lines on it (here on PyTorch's CPU device)."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import onnxruntime  # noqa: E402

from inference.reading.ocr.detector import DbParams, TextDetector  # noqa: E402
from inference.reading.ocr.gpu import BucketedTextDetector, BucketedTextRecognizer  # noqa: E402
from inference.reading.ocr.models import find_ocr_models  # noqa: E402
from inference.reading.ocr.recognizer import TextRecognizer  # noqa: E402
from inference.reading.ocr.topk import TOP_I, TOP_P, recognizer_with_top_classes  # noqa: E402
from inference.reading.ocr.torch_graph import TorchGraph, TorchSession  # noqa: E402
from tests.test_ocr_gpu import LINES, text_line  # noqa: E402


@pytest.fixture(scope="module")
def models():
    return find_ocr_models("fp32", "gb2312")


@pytest.mark.parametrize("net, shape", [("det", (1, 3, 224, 320)), ("rec", (3, 3, 48, 200))])
def test_the_graphs_give_onnx_runtimes_outputs(models, tmp_path, net, shape):
    path = models.det if net == "det" else recognizer_with_top_classes(models.rec, tmp_path)
    graph = TorchGraph(path, "cpu")
    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    x = np.random.default_rng(4).uniform(-1, 1, shape).astype(np.float32)
    got = graph.run({graph.input_names[0]: x})
    for name, ref in zip(graph.output_names, session.run(None, {session.get_inputs()[0].name: x})):
        value = got[name].numpy()
        assert value.shape == ref.shape
        if value.dtype.kind == "f":
            np.testing.assert_allclose(value, ref, atol=1e-4, rtol=0)
    if net == "rec":  # the most likely class of each step, which is what greedy decoding keeps
        assert (got[TOP_I].numpy()[:, :, 0] == got[graph.output_names[0]].numpy().argmax(axis=2)).all()


def test_the_pytorch_reader_reads_what_the_cpu_reader_reads(models, tmp_path, monkeypatch):
    monkeypatch.setattr("inference.reading.ocr.models.int8_dir", lambda: tmp_path)
    cpu = TextRecognizer.open(models.rec, "onnxruntime-cpu", 1, squeeze=0.7)
    ours = BucketedTextRecognizer.open(models.rec, "torch-cuda", 1, device="cpu", warm=[(2, 64)], squeeze=0.7)
    assert isinstance(ours.session, TorchSession) and ours.session.seen == {(2, 3, 48, 64)}
    crops = [text_line(t, scale=s) for t in LINES for s in (0.6, 1.0)]
    expected, got = cpu.recognize(crops), ours.recognize(crops)
    assert [r.text for r in got] == [r.text for r in expected]
    assert [r.alternatives for r in got] == [r.alternatives for r in expected]
    np.testing.assert_allclose([r.confidence for r in got], [r.confidence for r in expected], atol=1e-4)
    out = ours.session.run({ours.input_name: np.zeros((1, 3, 48, 32), np.float32)}, [TOP_P, TOP_I])
    assert out[TOP_I].dtype == np.int64 and out[TOP_P].shape == out[TOP_I].shape


def test_the_pytorch_detector_finds_the_cpu_detectors_lines(models):
    cpu = TextDetector.open(models.det, "onnxruntime-cpu", 1, DbParams(limit_side=448))
    ours = BucketedTextDetector.open(models.det, "torch-cuda", 1, params=DbParams(limit_side=448), device="cpu")
    card = np.full((420, 300, 3), 240, np.uint8)
    for k, t in enumerate(LINES[:6]):
        line = text_line(t, scale=0.7)[:, :280]
        card[30 + 60 * k: 30 + 60 * k + line.shape[0], 10: 10 + line.shape[1]] = line
    expected, got = cpu.detect(card), ours.detect(card)
    assert len(got) == len(expected) >= 4
    for (a, sa), (b, sb) in zip(got, expected):
        assert np.abs(np.subtract(a, b)).max() <= 1.5 and abs(sa - sb) < 1e-3
