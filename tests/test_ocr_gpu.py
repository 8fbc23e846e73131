"""The GPU reader's OCR (inference/reading/ocr/gpu.py, buckets.py, topk.py), run here on the CPU provider.

What must hold for fields read on the GPU to be the CPU reader's: the recognizer is called with the CPU's
batches at the CPU's widths (only the batch is padded, and a zero row changes no other row), the TopK
decoding gives what the full-distribution decoding gives, and the detector sees the CPU's input sizes."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from inference.errors import BackendUnavailableError
from inference.reading.ocr.buckets import REC_BATCHES, det_shapes, fill_lines, plan_calls, rec_shapes
from inference.reading.ocr.detector import DbParams, TextDetector, prepare
from inference.reading.ocr.gpu import BucketedTextDetector, BucketedTextRecognizer, BucketSession
from inference.reading.ocr.models import find_ocr_models
from inference.reading.ocr.recognizer import (
    MAX_WIDTH,
    TextRecognizer,
    ctc_greedy,
    plan_batches,
    prepare_batch,
    rec_width,
)
from inference.reading.ocr.topk import TOP_I, TOP_K, TOP_P, recognizer_with_top_classes


@pytest.fixture(scope="module")
def models():
    return find_ocr_models("fp32", "gb2312")


def text_line(text: str, height: int = 40, scale: float = 1.0) -> np.ndarray:
    (w, h), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
    image = np.full((height, w + 20, 3), 245, np.uint8)
    cv2.putText(image, text, (10, (height + h) // 2), cv2.FONT_HERSHEY_SIMPLEX, scale, (20, 20, 20), 2, cv2.LINE_AA)
    return image


LINES = ["170/88Y", "GB 18401-2010", "FS-36358", "100% COTTON", "RMB 79.00", "M", "6901234567892", "STYLE NO. A-1"]


def test_topk_decoding_equals_full_decoding_on_random_distributions():
    rng = np.random.default_rng(7)
    charset = ("",) + tuple(chr(0x4E00 + i) for i in range(60)) + ("a", "b", "1", " ")
    for _ in range(20):
        n, t = int(rng.integers(1, 6)), int(rng.integers(1, 40))
        logits = rng.normal(0, 3, (n, t, len(charset))).astype(np.float32)
        logits[:, :, 0] += rng.uniform(0, 4)  # blanks common, as in a real line
        probs = np.exp(logits) / np.exp(logits).sum(axis=2, keepdims=True)
        steps = [int(rng.integers(1, t + 1)) for _ in range(n)]
        order = np.argsort(-probs, axis=2, kind="stable")[:, :, :TOP_K]
        top_p = np.take_along_axis(probs, order, axis=2)
        from inference.reading.ocr.buckets import ctc_from_top

        assert ctc_from_top(top_p, order, charset, steps) == ctc_greedy(probs, charset, steps)


def test_calls_are_the_cpu_recognizers_batches_at_its_widths():
    rng = np.random.default_rng(3)
    for _ in range(30):
        widths = [int(w) for w in rng.integers(8, MAX_WIDTH + 1, int(rng.integers(1, 70)))]
        calls = plan_calls(widths)
        assert [c[0] for c in calls] == plan_batches(widths, 96, 32)
        for chunk, batch, width in calls:
            assert width == math.ceil(max(widths[i] for i in chunk) / 8) * 8
            assert batch in REC_BATCHES and batch >= len(chunk) and (batch == 1 or batch // 2 < len(chunk))
            assert (batch, width) in set(rec_shapes())


def test_filled_lines_are_the_cpu_batch_with_zero_rows_after():
    crops = [text_line(t) for t in LINES[:3]]
    cpu, widths = prepare_batch(crops, 0.7)
    filled = fill_lines(crops, widths, 4, cpu.shape[3])
    assert np.array_equal(filled[:3], cpu)
    assert not filled[3].any()


def test_detector_sizes_are_all_warmed_up():
    shapes = set(det_shapes(448))
    assert len(shapes) == 14 * 14
    rng = np.random.default_rng(5)
    for _ in range(200):
        h, w = int(rng.integers(8, 2000)), int(rng.integers(8, 2000))
        blob, _, _ = prepare(np.zeros((h, w, 3), np.uint8), 448)
        assert tuple(blob.shape[2:]) in shapes


def test_topk_copy_outputs_the_top_classes(models, tmp_path):
    path = recognizer_with_top_classes(models.rec, tmp_path)
    assert recognizer_with_top_classes(models.rec, tmp_path) == path  # built once, then found
    session = BucketSession(path, device="cpu", threads=1)
    crops = [text_line(t) for t in LINES[:2]]
    batch, _ = prepare_batch(crops, 0.7)
    out = session.run({session.input_name: batch}, [session.output_names[0], TOP_P, TOP_I])
    probs = out[session.output_names[0]]
    assert out[TOP_I].shape == (*probs.shape[:2], TOP_K)
    assert np.array_equal(out[TOP_I][:, :, 0], probs.argmax(axis=2))
    np.testing.assert_allclose(out[TOP_P], np.sort(probs, axis=2)[:, :, ::-1][:, :, :TOP_K], rtol=0, atol=0)


def test_a_zero_row_changes_no_other_row(models, tmp_path):
    session = BucketSession(recognizer_with_top_classes(models.rec, tmp_path), device="cpu", threads=1)
    crop = text_line("GB 18401-2010")
    w = rec_width(crop, 0.7)
    width = math.ceil(w / 8) * 8
    name = session.output_names[0]
    alone = session.run({session.input_name: fill_lines([crop], [w], 1, width)}, [name])[name]
    padded = session.run({session.input_name: fill_lines([crop], [w], 4, width)}, [name])[name]
    assert np.array_equal(alone[0], padded[0])


def test_bucketed_recognizer_reads_what_the_cpu_recognizer_reads(models, tmp_path, monkeypatch):
    monkeypatch.setattr("inference.reading.ocr.models.int8_dir", lambda: tmp_path)
    cpu = TextRecognizer.open(models.rec, "onnxruntime-cpu", 1, squeeze=0.7)
    gpu_code = BucketedTextRecognizer.open(models.rec, device="cpu", threads=1, warm=[(4, 128)], squeeze=0.7)
    assert gpu_code.warmup_s > 0 and gpu_code.session.seen == {(4, 3, 48, 128)}
    crops = [text_line(t, scale=s) for t in LINES for s in (0.6, 1.0)]
    expected = cpu.recognize(crops)
    assert gpu_code.recognize(crops) == expected
    assert gpu_code.recognize(crops, squeeze=1.0) == cpu.recognize(crops, squeeze=1.0)
    assert any(r.text for r in expected)
    assert gpu_code.session.new_after_warmup > 0  # shapes a frame met first are counted
    cpu.close()
    gpu_code.close()


def test_bucketed_detector_finds_what_the_cpu_detector_finds(models):
    cpu = TextDetector.open(models.det, "onnxruntime-cpu", 1, DbParams(limit_side=448))
    gpu_code = BucketedTextDetector.open(models.det, device="cpu", threads=1, params=DbParams(limit_side=448), warm=False)
    card = np.full((420, 300, 3), 240, np.uint8)
    for k, t in enumerate(LINES[:6]):
        line = text_line(t, scale=0.7)[:, :280]
        card[30 + 60 * k: 30 + 60 * k + line.shape[0], 10: 10 + line.shape[1]] = line
    found = cpu.detect(card)
    assert len(found) >= 4
    assert gpu_code.detect(card) == found
    assert np.array_equal(gpu_code.probability(card), cpu.probability(card))


def test_asking_for_the_gpu_without_the_cuda_provider_says_so(models):
    import onnxruntime

    if "CUDAExecutionProvider" in onnxruntime.get_available_providers():
        pytest.skip("this machine has ONNX Runtime's CUDA provider")
    with pytest.raises(BackendUnavailableError) as err:
        TextDetector.open(models.det, "onnxruntime-cuda", None, DbParams(limit_side=448))
    assert "onnxruntime-gpu" in err.value.hint


def test_posteriors_for_verification_are_the_cpu_recognizers(models, tmp_path, monkeypatch):
    monkeypatch.setattr("inference.reading.ocr.models.int8_dir", lambda: tmp_path)
    cpu = TextRecognizer.open(models.rec, "onnxruntime-cpu", 1, squeeze=0.7)
    gpu_code = BucketedTextRecognizer.open(models.rec, device="cpu", threads=1, warm=[], squeeze=0.7)
    crops = [text_line(t) for t in LINES[:5]]
    vocabulary = "GB18401-20170/8Y"
    expected, got = cpu.recognize(crops, vocabulary=vocabulary), gpu_code.recognize(crops, vocabulary=vocabulary)
    assert [(r.text, r.confidence, r.alternatives) for r in got] == [(r.text, r.confidence, r.alternatives) for r in expected]
    for a, b in zip(got, expected):
        assert a.posteriors is not None and a.posteriors.vocabulary == vocabulary
        for field in ("probs", "blank", "best", "kinds"):
            assert np.array_equal(getattr(a.posteriors, field), getattr(b.posteriors, field))
    cpu.close()
    gpu_code.close()
