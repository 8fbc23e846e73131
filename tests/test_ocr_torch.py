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


@pytest.mark.parametrize("conv_as_matmul", [False, True], ids=["conv2d", "matmul"])
@pytest.mark.parametrize("net, shape", [("det", (1, 3, 224, 320)), ("rec", (3, 3, 48, 200))])
def test_the_graphs_give_onnx_runtimes_outputs(models, tmp_path, net, shape, conv_as_matmul):
    """Either way of running a convolution (PyTorch's conv2d; a matrix product, what the GPU runs)."""
    path = models.det if net == "det" else recognizer_with_top_classes(models.rec, tmp_path)
    graph = TorchGraph(path, "cpu", conv_as_matmul=conv_as_matmul)
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


# -- CUDA graphs (torch_cuda_graphs.py) -----------------------------------------------------------------


@pytest.mark.parametrize("net, shape", [("det", (1, 3, 224, 320)), ("rec", (4, 3, 48, 200))])
def test_the_graphs_read_no_number_back_from_the_device(models, tmp_path, net, shape):
    """A CUDA graph cannot capture a run that reads a device tensor back (a shape, a scale, TopK's k): on
    PyTorch's meta device, which holds no numbers, such a read fails, so a whole run there proves none."""
    path = models.det if net == "det" else recognizer_with_top_classes(models.rec, tmp_path)
    graph = TorchGraph(path, "meta")
    out = graph.forward({graph.input_names[0]: torch.empty(shape, device="meta")}, graph.output_names)
    assert list(out) == graph.output_names and all(t.device.type == "meta" for t in out.values())


def test_a_run_keeps_only_the_outputs_asked_for_and_gives_the_same_numbers(models, tmp_path):
    graph = TorchGraph(recognizer_with_top_classes(models.rec, tmp_path), "cpu")
    x = np.random.default_rng(5).uniform(-1, 1, (2, 3, 48, 96)).astype(np.float32)
    everything = graph.run({graph.input_names[0]: x})
    top = graph.forward({graph.input_names[0]: torch.from_numpy(x)}, [TOP_P, TOP_I])
    assert list(top) == [TOP_P, TOP_I]
    assert torch.equal(top[TOP_P], everything[TOP_P]) and torch.equal(top[TOP_I], everything[TOP_I])


def test_without_a_gpu_a_session_runs_node_by_node_and_warms_nothing(models, monkeypatch):
    from inference.reading.ocr.torch_cuda_graphs import CudaGraphs

    ours = BucketedTextRecognizer.open(models.rec, "torch-cuda", 1, device="cpu", squeeze=0.7)
    session = ours.session
    assert session.cuda_graphs is None and not session.captures_graphs
    assert "CUDA device" in session.graphs_off
    assert session.seen == set()  # every shape is warmed only where graphs make a shape cheap to keep
    out = session.run({session.input_name: np.zeros((1, 3, 48, 32), np.float32)}, [TOP_P, TOP_I])
    assert out[TOP_P].shape == (1, 4, 3)
    with pytest.raises(RuntimeError, match="CUDA device"):
        CudaGraphs(session.graph)
    monkeypatch.setenv("HANGTAG_OCR_CUDA_GRAPHS", "0")
    assert TorchSession(models.det, device="cpu").graphs_off == "HANGTAG_OCR_CUDA_GRAPHS=0"


@pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA graphs need a GPU (run on the H200: BENCHMARKS.md, issue 19)")
def test_graph_replays_give_the_node_by_node_numbers(models, tmp_path):
    path = recognizer_with_top_classes(models.rec, tmp_path)
    graphed = TorchSession(path, device="cuda", graphs=True)
    plain = TorchSession(path, device="cuda", graphs=False)
    assert graphed.captures_graphs and plain.graphs_off
    rng = np.random.default_rng(6)
    for shape in [(2, 3, 48, 96), (4, 3, 48, 320), (2, 3, 48, 96), (1, 3, 48, 1600), (4, 3, 48, 320)]:
        x = rng.uniform(-1, 1, shape).astype(np.float32)
        for fetch in ([TOP_P, TOP_I], [graphed.output_names[0]]):
            got, expected = graphed.run({graphed.input_name: x}, fetch), plain.run({plain.input_name: x}, fetch)
            for name in fetch:
                np.testing.assert_array_equal(got[name], expected[name])
    assert graphed.graphs_off is None
    # one graph a shape serves both fetches; the input buffer grew twice (each time the graphs so far went and
    # were captured again as met)
    assert (graphed.cuda_graphs.captures, graphed.cuda_graphs.replays) == (5, 10)
    det = TorchSession(models.det, device="cuda", graphs=True)
    det_plain = TorchSession(models.det, device="cuda", graphs=False)
    x = rng.uniform(-1, 1, (1, 3, 224, 448)).astype(np.float32)
    for _ in range(2):
        got = det.run({det.input_name: x}, det.output_names)[det.output_names[0]]
        np.testing.assert_array_equal(got, det_plain.run({det.input_name: x}, det.output_names)[det.output_names[0]])


@pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA graphs need a GPU (run on the H200: BENCHMARKS.md, issue 19)")
def test_shapes_warmed_for_topk_serve_the_full_distribution_without_a_capture(models, tmp_path):
    """Issue 19: a recipe's vocabulary fetches the full distribution; it must replay the graph warmed at open for
    the TopK read, not capture one in the middle of reading."""
    path = recognizer_with_top_classes(models.rec, tmp_path)
    graphed = TorchSession(path, device="cuda", graphs=True)
    plain = TorchSession(path, device="cuda", graphs=False)
    shapes = [(1, 3, 48, 96), (4, 3, 48, 320), (2, 3, 48, 1600)]
    graphed.warm_up(shapes, [TOP_P, TOP_I])
    graphs = graphed.cuda_graphs
    assert graphs.captures == 3
    rng = np.random.default_rng(7)
    for shape in shapes[::-1] + shapes:
        x = rng.uniform(-1, 1, shape).astype(np.float32)
        for fetch in ([graphed.output_names[0]], [TOP_P, TOP_I], graphed.output_names):
            got, expected = graphed.run({graphed.input_name: x}, fetch), plain.run({plain.input_name: x}, fetch)
            assert list(got) == list(fetch)
            for name in fetch:
                np.testing.assert_array_equal(got[name], expected[name])
    assert graphs.captures == 3 and graphed.new_after_warmup == 0
    probs = plain.run({plain.input_name: np.zeros(shapes[2], np.float32)}, [plain.output_names[0]])[plain.output_names[0]]
    assert graphs.output_bytes >= probs.nbytes  # the shared buffers, sized for the largest shape
    assert graphs.output_bytes < 2 * probs.nbytes  # and nothing of each graph's own


def test_the_shipped_small_print_recognizer_with_fp16_stored_weights_gives_onnx_runtimes_outputs(tmp_path):
    """Its weights are stored as FP16 read through Casts: the PyTorch runtime folds those once, at load, and reads
    as ONNX Runtime does (the GPU reader opens it for the last read of fields in doubt)."""
    from inference.reading.ocr.models import tuned_rec

    path = recognizer_with_top_classes(tuned_rec(), tmp_path)
    graph = TorchGraph(path, "cpu", conv_as_matmul=True)
    assert not any(op.__name__ == "_op_Cast" for op, *_ in graph.nodes)  # every Cast was of a weight: folded
    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    x = np.random.default_rng(5).uniform(-1, 1, (2, 3, 48, 160)).astype(np.float32)
    got = graph.run({graph.input_names[0]: x})
    ref = session.run(None, {session.get_inputs()[0].name: x})[0]
    np.testing.assert_allclose(got[graph.output_names[0]].numpy(), ref, atol=1e-4, rtol=0)
