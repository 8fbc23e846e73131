"""The OCR networks on the GPU: the CPU reader's shapes, TopK on the device.

`TextDetector.open` / `TextRecognizer.open` hand "onnxruntime-cuda" here. Each session runs on ONNX Runtime's
CUDA provider with cuDNN's algorithm choice by heuristic (no timed search) and TF32 off (the CPU reader's
FP32 arithmetic, so fields read here are the CPU reader's). The shapes are the CPU reader's, batches padded
to a power of two (buckets.py says why nothing else is padded).

Measured on the H200 (onnxruntime-gpu 1.31.1, cuDNN 9 of the image, BENCHMARKS.md issue 19): a recognizer
call at a shape the session has run before takes 7.9 ms p50, but the first run at a new shape 2.6 s
(heuristic search; 0.19 s with "DEFAULT", whose convolutions then run in ONNX Runtime's slow fallback at
0.12 s a call). With 196 detector and 1 200 recognizer shapes, warming them all would take about an hour,
so nothing is warmed by default (`warm` lists the shapes to run at open) and the station keeps reading on
the CPU unless asked (placement.py). `device="cpu"` runs the same code on the CPU provider (tests).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import Executor, Future
from pathlib import Path

import numpy as np

from inference.errors import BackendUnavailableError, ModelError
from inference.reading.ocr.buckets import REC_BATCHES, batch_for, ctc_from_top, det_shapes, fill_lines, plan_calls, rec_shapes
from inference.reading.ocr.detector import Box, DbParams, TextDetector, boxes_from_map, prepare
from inference.reading.ocr.recognizer import (
    REC_HEIGHT,
    WIDTH_STEP,
    Recognized,
    TextRecognizer,
    charset_from_metadata,
    check_crops,
    ctc_greedy,
    rec_width,
)
from inference.reading.ocr.sessions import ShapeCountingSession
from inference.reading.ocr.topk import TOP_I, TOP_P, recognizer_with_top_classes

DEVICES = ("cuda", "cpu")
# Crops detected ahead (BucketedTextDetector.detect_ahead) kept for `detect`: a frame's tags read side by side.
AHEAD_KEPT = 8
# Reader backends that run here, by the runtime under them: ONNX Runtime's CUDA provider, or PyTorch
# running the same ONNX graphs (torch_graph.py).
GPU_BACKENDS = {"onnxruntime-cuda": "onnxruntime", "torch-cuda": "torch"}
# Batch sizes a recognizer run is padded to; a CPU call of more lines runs as several (run_calls). The CPU's calls
# go up to 32 lines, but on 48 one-tag frames read against their recipes (tagset seed 1401, 2026-12-03) 16 of 383
# stock calls and 4 of 128 small-print calls had more than 8 lines, none more than 12 (benchmarks/gpu-2026-12-03d/
# call_sizes.json). Each batch size warmed is 200 CUDA graphs captured at open (~16 ms each on the H200), so 16
# and 32 cost ~6 s of open per recognizer and saved one run on 4 % of calls.
GPU_REC_BATCHES = (1, 2, 4, 8)


def open_session(model_path: Path, backend: str, device: str, threads: int | None):
    """A BucketSession (ONNX Runtime) or a TorchSession (PyTorch) for `backend` (a key of GPU_BACKENDS)."""
    if GPU_BACKENDS.get(backend) == "torch":
        from inference.reading.ocr.torch_graph import TorchSession

        return TorchSession(model_path, device=device, threads=threads)
    return BucketSession(model_path, device=device, threads=threads)


# cuDNN's algorithm choice: "HEURISTIC" (no timed search per shape) or "DEFAULT"; never "EXHAUSTIVE" here.
CONV_ALGO_SEARCH = "HEURISTIC"


class BucketSession(ShapeCountingSession):
    """One ONNX Runtime session whose inputs come from the host and whose outputs stay where the network ran
    until asked for: `run` copies back only the outputs named in `fetch`."""

    def __init__(self, model_path: Path, *, device: str = "cuda", device_id: int = 0, threads: int | None = None,
                 conv_algo_search: str = CONV_ALGO_SEARCH) -> None:
        from inference.engines.onnxrt import _ort

        if device not in DEVICES:
            raise ValueError(f"device must be one of {DEVICES}, not {device!r}")
        ort = _ort()
        self.model_path = Path(model_path)
        self.device = device
        self.device_id = device_id
        if not self.model_path.is_file():
            raise ModelError("OCR model file not found", expected="an .onnx file", found=str(self.model_path))
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        if device == "cuda":
            if hasattr(ort, "preload_dlls"):
                try:  # the CUDA/cuDNN libraries of the nvidia-* wheels; harmless when already loaded
                    ort.preload_dlls()
                except Exception:
                    pass
            cuda = {"device_id": str(device_id), "cudnn_conv_algo_search": conv_algo_search, "use_tf32": "0",
                    "do_copy_in_default_stream": "1"}
            providers: list = [("CUDAExecutionProvider", cuda), "CPUExecutionProvider"]
            options.intra_op_num_threads = 1
        else:
            providers = ["CPUExecutionProvider"]
            if threads:
                options.intra_op_num_threads = threads
        self._session = ort.InferenceSession(str(self.model_path), options, providers=providers)
        if device == "cuda" and "CUDAExecutionProvider" not in self._session.get_providers():
            raise BackendUnavailableError("ONNX Runtime fell back to the CPU for the OCR model",
                                          expected="CUDAExecutionProvider active", found=str(self._session.get_providers()),
                                          hint="install onnxruntime-gpu with the CUDA and cuDNN libraries it needs")
        self.metadata = dict(self._session.get_modelmeta().custom_metadata_map)
        self.input_name = self._session.get_inputs()[0].name
        self.output_names = [o.name for o in self._session.get_outputs()]
        self._start_counting()

    def run(self, feeds: dict[str, np.ndarray], fetch: Sequence[str]) -> dict[str, np.ndarray]:
        binding = self._session.io_binding()
        for name, array in feeds.items():
            binding.bind_cpu_input(name, np.ascontiguousarray(array))
        for name in self.output_names:
            binding.bind_output(name, self.device, self.device_id)
        self._count(tuple(feeds[self.input_name].shape))
        self._session.run_with_iobinding(binding)
        binding.synchronize_outputs()
        values = binding.get_outputs()
        self.runs += 1
        return {name: values[i].numpy() for i, name in enumerate(self.output_names) if name in fetch}

    def close(self) -> None:
        self._session = None


def warms_every_shape(session) -> bool:
    """Whether running every shape at open is the default: where a shape run once is replayed as a CUDA
    graph (torch_cuda_graphs.py: a capture each, seconds for all of them), not where it costs a cuDNN
    search (ONNX Runtime: minutes)."""
    return bool(getattr(session, "captures_graphs", False))


class BucketedTextDetector(TextDetector):
    """DB text detection at the CPU reader's input sizes; with `warm` every one is run at open (minutes on
    ONNX Runtime's CUDA provider: see the module's note; default: only where the session captures CUDA
    graphs)."""

    def __init__(self, session: BucketSession, params: DbParams = DbParams(), warm: bool | None = None) -> None:
        self.session = session
        self.params = params
        self.input_name = session.input_name
        self.output_name = session.output_names[0]
        warm = warms_every_shape(session) if warm is None else warm
        shapes = [(1, 3, h, w) for h, w in det_shapes(params.limit_side)] if warm else []
        self.warmup_s = session.warm_up(shapes, [self.output_name])
        self._ahead: list[tuple[np.ndarray, Future]] = []  # (crop, its boxes to come), oldest first
        self._ahead_lock = threading.Lock()
        self.ahead_runs = self.ahead_used = 0  # crops detected ahead; of them, asked about by `detect`

    @classmethod
    def open(cls, model_path: Path, backend: str = "onnxruntime-cuda", threads: int | None = None,
             params: DbParams = DbParams(), device: str = "cuda", warm: bool | None = None) -> BucketedTextDetector:
        return cls(open_session(model_path, backend, device, threads), params, warm)

    def probability(self, image_bgr: np.ndarray) -> np.ndarray:
        blob, _, _ = prepare(image_bgr, self.params.limit_side)
        return self.session.run({self.input_name: blob}, [self.output_name])[self.output_name][0, 0]

    def detect(self, image_bgr: np.ndarray) -> list[tuple[Box, float]]:
        """The text boxes of a crop; a crop handed to `detect_ahead` before (that very array) gets the boxes
        found then."""
        with self._ahead_lock:
            ahead = next((k for k, (image, _found) in enumerate(self._ahead) if image is image_bgr), None)
            found = self._ahead.pop(ahead)[1] if ahead is not None else None
            self.ahead_used += found is not None
        if found is not None:
            return list(found.result())
        return self._detect(image_bgr)

    def detect_ahead(self, image_bgr: np.ndarray, pool: Executor) -> None:
        """Start detecting on `pool` in a crop the reader expects to ask `detect` about (a tag warped upright while
        its codes are still being decoded: most tags are read in that very crop). Kept for the last AHEAD_KEPT crops
        only; a crop never asked about costs one detector run."""
        future = pool.submit(self._detect, image_bgr)
        with self._ahead_lock:
            self.ahead_runs += 1
            self._ahead.append((image_bgr, future))
            del self._ahead[:-AHEAD_KEPT]

    def _detect(self, image_bgr: np.ndarray) -> list[tuple[Box, float]]:
        blob, sx, sy = prepare(image_bgr, self.params.limit_side)
        prob = self.session.run({self.input_name: blob}, [self.output_name])[self.output_name][0, 0]
        return boxes_from_map(prob, self.params, sx, sy, image_bgr.shape[:2])

    def close(self) -> None:
        self.session.close()


class BucketedTextRecognizer(TextRecognizer):
    """PP-OCR recognition in the CPU reader's calls, each run padded to one of `batches`; greedy CTC from the
    device's TopK unless posteriors are asked for (a recipe's vocabulary: the same runs, the full distribution
    fetched). `warm`: the (batch, width) shapes to run at open (default: all of buckets.rec_shapes(batches)
    where the session captures CUDA graphs, none elsewhere): every shape a read can meet, with a recipe or
    without."""

    def __init__(self, session: BucketSession, squeeze: float = 1.0, batches: Sequence[int] = GPU_REC_BATCHES,
                 warm: Sequence[tuple[int, int]] | None = None, **_cpu_only: float) -> None:
        self.session = session
        self.charset = charset_from_metadata(session.metadata)
        self.input_name = session.input_name
        self.output_name = session.output_names[0]  # the full distribution
        if TOP_P not in session.output_names or TOP_I not in session.output_names:
            raise ModelError("recognizer copy has no TopK outputs", expected=f"outputs {TOP_P}, {TOP_I}",
                             found=str(session.output_names), hint="open it through BucketedTextRecognizer.open")
        self.squeeze = squeeze
        self.batches = tuple(batches)
        self.max_batch = self.batches[-1]
        self._tables: dict = {}
        shapes = (rec_shapes(self.batches) if warms_every_shape(session) else ()) if warm is None else warm
        self.warmup_s = session.warm_up([(n, 3, REC_HEIGHT, w) for n, w in shapes], [TOP_P, TOP_I])

    @classmethod
    def open(cls, model_path: Path, backend: str = "onnxruntime-cuda", threads: int | None = None, *,
             device: str = "cuda", warm: Sequence[tuple[int, int]] | None = None, **kwargs: float) -> BucketedTextRecognizer:
        session = open_session(recognizer_with_top_classes(Path(model_path)), backend, device, threads)
        return cls(session, warm=warm, **kwargs)

    def recognize_only(self, crops: Sequence[np.ndarray], only: Iterable[int], squeeze: float | None = None,
                       vocabulary: str = "") -> dict[int, Recognized]:
        """As TextRecognizer.recognize_only (and so `recognize`); with a `vocabulary` the full distribution
        comes back for the posteriors. A call's rows are independent, so the rows asked for are run at
        their call's width in the next batch size up."""
        wanted = set(only)
        if not crops or not wanted:
            return {}
        squeeze = self.squeeze if squeeze is None else squeeze
        check_crops(crops)
        widths = [rec_width(crop, squeeze) for crop in crops]
        results: dict[int, Recognized] = {}
        for rows, batch, width in run_calls(widths, wanted, self.batches):
            lines = fill_lines([crops[i] for i in rows], [widths[i] for i in rows], batch, width)
            steps = [math.ceil(widths[i] / WIDTH_STEP) for i in rows]
            if vocabulary:
                probs = self.session.run({self.input_name: lines}, [self.output_name])[self.output_name]
                recognized = ctc_greedy(probs[: len(rows)], self.charset, steps, self._table(vocabulary))
            else:
                out = self.session.run({self.input_name: lines}, [TOP_P, TOP_I])
                recognized = ctc_from_top(out[TOP_P], out[TOP_I], self.charset, steps)
            results.update(zip(rows, recognized))
        return results

    def close(self) -> None:
        self.session.close()


def run_calls(widths: Sequence[int], wanted: set[int], batches: Sequence[int] = REC_BATCHES) -> list[tuple[list[int], int, int]]:
    """The recognizer runs for the lines `wanted`, each `(line indices, padded batch, width)`: the CPU reader's calls
    (buckets.plan_calls, planned over every line, so a line's width is the CPU's), only the rows asked for, and a
    call of more rows than the largest of `batches` split into runs of that many at the call's width (rows are
    independent: splitting changes no row's read, as padding the batch does not)."""
    largest = batches[-1]
    runs = []
    for chunk, _batch, width in plan_calls(widths, REC_BATCHES):
        rows = [i for i in chunk if i in wanted]
        for start in range(0, len(rows), largest):
            part = rows[start : start + largest]
            runs.append((part, batch_for(len(part), batches), width))
    return runs
