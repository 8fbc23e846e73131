"""serve on the GPU pipeline keeps an engine per batch size (1, 2, 4, 8 below the max batch, and the max batch) and
runs each batch on the smallest that holds it (issue 20: a static engine costs a full batch's time for a batch of
2). The GPU pipeline does not run here, so the pipelines below are the real CPU pipeline behind the GPU pipeline's
batch interface (`batch`, `process_batch`); what is tested is the worker's choice, warm-up and closing, with real
detections."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from inference.errors import BackendUnavailableError
from inference.pipeline import Pipeline
from inference.postprocess import Thresholds
from inference.resources import default_model_path
from inference.service.worker import DETECT, InferenceWorker, Job, smaller_batches


class BatchPipeline:
    """The CPU pipeline frame by frame behind the GPU pipeline's batch interface; says which batches it ran."""

    def __init__(self, inner: Pipeline, batch: int) -> None:
        self.inner, self.batch = inner, batch
        self.input_hw, self.thresholds, self.class_names = inner.input_hw, inner.thresholds, inner.class_names
        self.ran: list[int] = []
        self.closed = False

    @property
    def backend(self) -> str:
        return self.inner.backend

    def process_batch(self, images, infos=None):
        if not 1 <= len(images) <= self.batch:
            raise ValueError(f"{len(images)} frames for a pipeline of batch {self.batch}")
        self.ran.append(len(images))
        return [self.inner.process(image) for image in images]

    def close(self) -> None:
        self.closed = True


def test_each_batch_runs_on_the_smallest_engine_that_holds_it():
    assert smaller_batches(16) == [1, 2, 4, 8] and smaller_batches(8) == [1, 2, 4] and smaller_batches(4) == [1, 2]
    assert smaller_batches(1) == []
    inner = Pipeline.open(default_model_path(), "onnxruntime-cpu")
    try:
        largest = BatchPipeline(inner, 8)
        smaller = [BatchPipeline(inner, b) for b in (4, 1, 2)]
        worker = InferenceWorker(largest, max_batch=8, smaller=smaller)
        assert worker.engine_batches == (1, 2, 4, 8)
        worker.warm_up()
        by_size = {p.batch: p for p in worker.ladder}
        assert {b: p.ran for b, p in by_size.items()} == {1: [1], 2: [2], 4: [4], 8: [8]}  # each engine once, full
        frame = np.full((480, 640, 3), 200, np.uint8)
        thresholds = Thresholds(confidence=0.25, iou=0.45, max_detections=100)
        for p in worker.ladder:
            p.ran.clear()
        for n in (1, 2, 3, 5, 8, 11):
            results = worker([Job(DETECT, frame, thresholds, f"r{n}-{i}") for i in range(n)])
            assert len(results) == n and all(not isinstance(r, Exception) for r in results)
        # 3 on the batch-4 engine, 5 on the batch-8 one; 11 frames: a full batch of 8, then 3 on the batch-4 engine
        assert {b: p.ran for b, p in by_size.items()} == {1: [1], 2: [2], 4: [3, 3], 8: [5, 8, 8]}
        worker.close()
        assert all(p.closed for p in worker.ladder)
    finally:
        inner.close()


def test_with_one_engine_every_batch_runs_on_it():
    inner = Pipeline.open(default_model_path(), "onnxruntime-cpu")
    try:
        only = BatchPipeline(inner, 8)
        worker = InferenceWorker(only, max_batch=8)
        assert worker.engine_batches == (8,)
        frame = np.full((480, 640, 3), 200, np.uint8)
        worker([Job(DETECT, frame, Thresholds(confidence=0.25, iou=0.45, max_detections=100), "a")] * 2)
        assert only.ran == [2]
    finally:
        inner.close()


def test_prepare_thread_runs_every_engine_on_the_calling_thread_twice_with_cuda_graphs_once_without():
    """ONNX Runtime captures a CUDA graph per calling thread on that thread's second run: a worker whose engines
    replay graphs runs each twice on the thread the batcher will serve it from; without graphs once."""
    inner = Pipeline.open(default_model_path(), "onnxruntime-cpu")
    try:
        for cuda_graph, runs in ((True, 2), (False, 1)):
            largest = BatchPipeline(inner, 4)
            smaller = [BatchPipeline(inner, b) for b in (1, 2)]
            worker = InferenceWorker(largest, max_batch=4, smaller=smaller, cuda_graph=cuda_graph)
            threads: dict[int, set[int]] = {}
            for p in worker.ladder:
                original = p.process_batch

                def process_batch(images, infos=None, p=p, original=original):
                    threads.setdefault(p.batch, set()).add(threading.get_ident())
                    return original(images, infos)

                p.process_batch = process_batch
            worker.prepare_thread()
            assert {p.batch: p.ran for p in worker.ladder} == {1: [1] * runs, 2: [2] * runs, 4: [4] * runs}
            assert threads == {1: {threading.get_ident()}, 2: {threading.get_ident()}, 4: {threading.get_ident()}}
    finally:
        inner.close()


def test_the_cuda_graph_engine_on_a_detector_off_the_gpu_pipeline_is_refused_with_the_reason():
    with pytest.raises(BackendUnavailableError) as caught:
        InferenceWorker.open(default_model_path(), "onnxruntime-cpu", thresholds=Thresholds(), read=False,
                             max_batch=2, cuda_graph=True)
    assert "CUDA-graph engine" in caught.value.message
    assert "onnxruntime-cpu" in caught.value.found
