"""Issue 19: every recognizer shape the GPU reader meets while reading — with a recipe's vocabulary too — is one
it warmed at open, so no CUDA graph is captured in the middle of a read. The plan is checked here on the CPU; that
a graph serves both the TopK and the full-distribution fetch is checked on a GPU (tests/test_ocr_torch.py)."""

from __future__ import annotations

import numpy as np
import pytest

from inference.reading.ocr.buckets import REC_BATCHES, plan_calls, rec_shapes
from inference.reading.ocr.gpu import GPU_REC_BATCHES, BucketedTextRecognizer, run_calls
from inference.reading.ocr.models import find_ocr_models
from inference.reading.ocr.recognizer import MAX_WIDTH
from tests.test_ocr_gpu import LINES, text_line


def widths_of(count: int, seed: int) -> list[int]:
    return np.random.default_rng(seed).integers(8, MAX_WIDTH + 1, count).tolist()


@pytest.mark.parametrize("widths, wanted, batches, expected", [
    ([40, 48, 56], {0, 1, 2}, REC_BATCHES, [([0, 1, 2], 4, 56)]),
    ([40, 48, 56], {1}, REC_BATCHES, [([1], 1, 56)]),  # a row asked alone keeps its call's width
    ([40] * 5, {0, 1, 2, 3, 4}, (1, 2), [([0, 1], 2, 40), ([2, 3], 2, 40), ([4], 1, 40)]),
    ([40] * 9, set(range(9)), (1, 2, 4, 8), [(list(range(8)), 8, 40), ([8], 1, 40)]),
    ([40, 48], set(), REC_BATCHES, []),
])
def test_runs_are_the_cpu_calls_split_at_the_largest_batch(widths, wanted, batches, expected):
    assert run_calls(widths, wanted, batches) == expected


@pytest.mark.parametrize("batches", [GPU_REC_BATCHES, REC_BATCHES, (1, 4)])
@pytest.mark.parametrize("seed", range(6))
def test_every_run_is_a_warmed_shape_at_the_cpu_calls_width(batches, seed):
    rng = np.random.default_rng(seed)
    widths = widths_of(int(rng.integers(1, 60)), seed)
    wanted = {i for i in range(len(widths)) if rng.random() < 0.7}
    warmed = set(rec_shapes(batches))
    width_of = {i: w for chunk, _b, w in plan_calls(widths) for i in chunk}
    runs = run_calls(widths, wanted, batches)
    assert sorted(i for rows, _b, _w in runs for i in rows) == sorted(wanted)
    for rows, batch, width in runs:
        assert (batch, width) in warmed and len(rows) <= batch
        assert {width_of[i] for i in rows} == {width}


@pytest.fixture(scope="module")
def models():
    return find_ocr_models("fp32", "gb2312")


def test_a_recipes_vocabulary_meets_no_shape_a_plain_read_does_not(models, tmp_path, monkeypatch):
    """The same input shapes with and without a vocabulary: the full distribution is fetched from the graphs of
    the plain read's shapes (torch_cuda_graphs.py keys a graph by its input shape alone)."""
    pytest.importorskip("torch")
    monkeypatch.setattr("inference.reading.ocr.models.int8_dir", lambda: tmp_path)
    crops = [text_line(t) for t in LINES]
    plain = BucketedTextRecognizer.open(models.rec, "torch-cuda", 1, device="cpu", warm=[], squeeze=0.7)
    spotting = BucketedTextRecognizer.open(models.rec, "torch-cuda", 1, device="cpu", warm=[], squeeze=0.7)
    read = plain.recognize(crops)
    spotted = spotting.recognize(crops, vocabulary="GB18401-20170/8Y")
    assert plain.session.seen == spotting.session.seen and plain.session.seen <= {(n, 3, 48, w) for n, w in rec_shapes(plain.batches)}
    assert [r.text for r in read] == [r.text for r in spotted]
    plain.close()
    spotting.close()


def test_lines_split_over_smaller_batches_read_as_in_one_call(models, tmp_path, monkeypatch):
    monkeypatch.setattr("inference.reading.ocr.models.int8_dir", lambda: tmp_path)
    crops = [text_line(t) for t in LINES] * 2
    whole = BucketedTextRecognizer.open(models.rec, device="cpu", threads=1, warm=[], squeeze=0.7, batches=REC_BATCHES)
    split = BucketedTextRecognizer.open(models.rec, device="cpu", threads=1, warm=[], squeeze=0.7, batches=(1, 2, 4))
    expected, got = whole.recognize(crops), split.recognize(crops)
    assert [(r.text, r.confidence) for r in got] == [(r.text, r.confidence) for r in expected]
    assert max(shape[0] for shape in split.session.seen) <= 4 < max(shape[0] for shape in whole.session.seen)
    whole.close()
    split.close()
