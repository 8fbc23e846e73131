"""PP-OCR text-line recognition: many line crops, one batched engine call, greedy CTC decoding.

Recognition cost grows with the pixels fed to the network, so crops are resized to the model's
48-px height with a horizontal `squeeze` (<1 narrows the line; PP-OCR is trained on squeezed long
lines and keeps reading them) and sorted by width so padding stays small.
"""

from __future__ import annotations

import math
import os
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from inference.engines.base import Engine
from inference.errors import InputShapeError, ModelError
from inference.reading.spotting import Posteriors, PosteriorTable

REC_HEIGHT = 48
# The network downsamples width by 8: one CTC step per 8 input columns.
WIDTH_STEP = 8
MAX_WIDTH = 1600


@dataclass(frozen=True)
class Recognized:
    """`alternatives[i]`: the recognizer's runners-up for character i (most likely first), so a
    lexicon can mend a near miss (镍纶 → 锦纶) without guessing."""

    text: str
    confidence: float
    char_confidences: tuple[float, ...]
    alternatives: tuple[str, ...] = ()
    # the line's posteriors over a vocabulary, where the caller asked for one (verification)
    posteriors: Posteriors | None = None


def charset_from_metadata(metadata: dict[str, str]) -> tuple[str, ...]:
    """CTC classes: blank, the model's characters, then the space PaddleOCR appends."""
    chars = metadata.get("character")
    if not chars:
        raise ModelError(
            "PP-OCR recognizer has no character list",
            expected="an ONNX file with a 'character' metadata entry (rapidocr's PP-OCR exports have one)",
            found=f"metadata keys: {sorted(metadata)}",
            hint="use the rec model shipped with rapidocr",
        )
    return ("",) + tuple(chars.split("\n")) + (" ",)


def rec_width(crop: np.ndarray, squeeze: float = 1.0, max_width: int = MAX_WIDTH) -> int:
    h, w = crop.shape[:2]
    return int(min(max_width, max(WIDTH_STEP, math.ceil(REC_HEIGHT * w / max(h, 1) * squeeze))))


def prepare_batch(crops: Sequence[np.ndarray], squeeze: float = 1.0, max_width: int = MAX_WIDTH,
                  pad_to: int = 0) -> tuple[np.ndarray, list[int]]:
    """(N, 3, 48, W) float32 in [-1, 1], right-padded with 0; and each line's valid width. W is the
    widest line's width rounded up to a multiple of 8, or `pad_to` where that is wider."""
    widths = [rec_width(crop, squeeze, max_width) for crop in crops]
    batch_w = max(padded_width(widths), pad_to)
    batch = np.zeros((len(crops), 3, REC_HEIGHT, batch_w), np.float32)
    for i, (crop, w) in enumerate(zip(crops, widths)):
        if crop.ndim == 2:
            crop = cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR)
        resized = cv2.resize(crop, (w, REC_HEIGHT), interpolation=cv2.INTER_AREA if w < crop.shape[1] else cv2.INTER_LINEAR)
        batch[i, :, :, :w] = resized.transpose(2, 0, 1) * np.float32(1 / 127.5) - np.float32(1.0)
    return batch, widths


ALTERNATIVES = 2
MIN_ALTERNATIVE_P = 0.02


def ctc_greedy(probs: np.ndarray, charset: Sequence[str], steps: Sequence[int], table: PosteriorTable | None = None) -> list[Recognized]:
    """Best class per step, repeats merged, blanks dropped; confidence is the mean kept probability.
    With a `table`, each line also keeps its posteriors over the table's vocabulary."""
    best = probs.argmax(axis=2)
    best_p = np.take_along_axis(probs, best[:, :, None], axis=2)[:, :, 0]
    out = []
    for b, (row, row_p, n) in enumerate(zip(best, best_p, steps)):
        keep, text, confs = collapse(row[:n], row_p[:n], charset)
        aligned = len(text) == len(confs)
        alternatives = _runners_up(probs[b, :n][keep], charset) if aligned and confs else ()
        posteriors = table.take(probs[b, :n], best[b, :n]) if table is not None else None
        out.append(Recognized(text, float(np.mean(confs)) if confs else 0.0, confs if aligned else (), alternatives, posteriors))
    return out


def collapse(row: np.ndarray, row_p: np.ndarray, charset: Sequence[str]) -> tuple[np.ndarray, str, tuple[float, ...]]:
    """One line's best class per step as text: repeats merged, blanks dropped. (steps kept, text, the kept
    steps' probabilities)."""
    keep = np.ones(len(row), bool)
    keep[1:] = row[1:] != row[:-1]
    keep &= row != 0
    text = "".join(charset[int(k)] if int(k) < len(charset) else "" for k in row[keep])
    return keep, text, tuple(float(p) for p in row_p[keep])


def check_crops(crops: Sequence[np.ndarray]) -> None:
    for crop in crops:
        if crop.ndim not in (2, 3) or crop.shape[0] == 0 or crop.shape[1] == 0:
            raise InputShapeError("text line crop is empty or not an image", expected="(H, W[, 3]) uint8, H, W > 0", found=str(crop.shape))


def _runners_up(step_probs: np.ndarray, charset: Sequence[str]) -> tuple[str, ...]:
    """The next ALTERNATIVES classes of each kept step, blank left out, unlikely ones dropped.

    Only classes near MIN_ALTERNATIVE_P or above can be picked, and a step has few of them: they are
    found for all steps in one pass instead of partitioning every step's thousands of classes. A step
    whose candidates tie falls back to the partition, whose order among equals is its own."""
    flat = np.flatnonzero(step_probs >= _CANDIDATE_P)  # np.nonzero on 2-D is several times slower
    rows, cols = np.divmod(flat, step_probs.shape[1])
    bounds = np.searchsorted(rows, np.arange(len(step_probs) + 1)).tolist()
    cols_list = cols.tolist()
    values = step_probs.reshape(-1)[flat].tolist()
    out = []
    for r in range(len(step_probs)):
        lo, hi = bounds[r], bounds[r + 1]
        ps = values[lo:hi]
        if len(set(ps)) < len(ps):
            out.append(_runners_up_partitioned(step_probs[r : r + 1], charset)[0])
            continue
        ranked = sorted(range(hi - lo), key=lambda k: -ps[k])[1 : ALTERNATIVES + 1]  # the best class is the read itself
        picked = [charset[cols_list[lo + k]] for k in ranked
                  if step_probs[r, cols_list[lo + k]] >= MIN_ALTERNATIVE_P and 0 < cols_list[lo + k] < len(charset)]
        out.append("".join(c for c in picked if len(c) == 1))
    return tuple(out)


# candidates for runners-up: well below MIN_ALTERNATIVE_P so no rounding of the comparison matters
_CANDIDATE_P = MIN_ALTERNATIVE_P / 2


def _runners_up_partitioned(step_probs: np.ndarray, charset: Sequence[str]) -> tuple[str, ...]:
    top = np.argpartition(-step_probs, ALTERNATIVES + 1, axis=1)[:, : ALTERNATIVES + 1]
    top_p = np.take_along_axis(step_probs, top, axis=1)
    order = np.argsort(-top_p, axis=1)
    out = []
    for ranks, indices, ps in zip(order, top, top_p):
        picked = [charset[int(indices[r])] for r in ranks[1:] if ps[r] >= MIN_ALTERNATIVE_P and 0 < int(indices[r]) < len(charset)]
        out.append("".join(c for c in picked if len(c) == 1))
    return tuple(out)


def padded_width(widths: Sequence[int]) -> int:
    """The width a call of lines this wide is padded to: the widest, rounded up to a multiple of 8."""
    return int(math.ceil(max(widths) / WIDTH_STEP) * WIDTH_STEP)


def plan_batches(widths: Sequence[int], call_overhead_px: int = 96, max_batch: int = 32) -> list[list[int]]:
    """Split lines into engine calls so padded pixels plus per-call overhead are least.

    Padding every line to the widest one wastes half the work on a tag whose lines range from a
    2-character size to a 30-character standard; one call per line pays the call overhead 13 times.
    Lines sorted by width, an O(n²) dynamic programme picks the cut points.
    """
    order = sorted(range(len(widths)), key=lambda i: widths[i])
    w = [widths[i] for i in order]
    n = len(w)
    best = [0.0] + [math.inf] * n
    cut = [0] * (n + 1)
    for j in range(1, n + 1):
        for i in range(max(0, j - max_batch), j):
            cost = best[i] + (j - i) * w[j - 1] + call_overhead_px
            if cost < best[j]:
                best[j], cut[j] = cost, i
    batches = []
    j = n
    while j > 0:
        batches.append(order[cut[j] : j])
        j = cut[j]
    return batches[::-1]


def split_calls(calls: Sequence[tuple[list[int], int]], parts: int) -> list[tuple[list[int], int]]:
    """Each planned call of several lines cut into `parts` calls padded to the same width, largest first.

    A line reads the same in any call padded to its planned width (the network mixes a line across its width,
    not across the batch), so the pieces read exactly as the whole; they run side by side, each engine call on
    one thread, where one call on two threads spends a large share of its time handing work between them."""
    out: list[tuple[list[int], int]] = []
    for rows, pad in calls:
        k = min(parts, len(rows))
        size = math.ceil(len(rows) / k)
        out.extend((rows[i : i + size], pad) for i in range(0, len(rows), size))
    return sorted(out, key=lambda call: -len(call[0]) * call[1])


def cpu_calls_at_once(threads: int | None) -> tuple[int, int]:
    """(engine calls run side by side, ONNX Runtime threads each) for the CPU recognizer: two calls whenever there
    are two cores, the threads shared between them."""
    cores = os.cpu_count() or 1
    total = threads or max(1, min(cores, 8))
    at_once = 2 if total >= 2 else 1
    return at_once, max(1, total // at_once)


class TextRecognizer:
    """Owns a loaded engine for a PP-OCR rec model; `recognize` is the only per-frame call.

    `calls_at_once` > 1: the engine calls of one read run side by side on that many threads (the engine's
    session is asked from several threads at once, as ONNX Runtime allows)."""

    def __init__(self, engine: Engine, squeeze: float = 1.0, max_batch: int = 32, call_overhead_px: int = 96,
                 calls_at_once: int = 1) -> None:
        self.engine = engine.load()
        self.charset = charset_from_metadata(engine.metadata)
        self.input_name = engine.inputs[0].name
        self.output_name = engine.outputs[0].name
        self.squeeze = squeeze
        self.max_batch = max_batch
        self.call_overhead_px = call_overhead_px
        self.calls_at_once = max(1, calls_at_once)
        self._tables: dict[str, PosteriorTable] = {}
        self._pool: ThreadPoolExecutor | None = None
        self._pool_lock = threading.Lock()

    @classmethod
    def open(cls, model_path: Path, backend: str = "onnxruntime-cpu", threads: int | None = None, **kwargs: float) -> TextRecognizer:
        if backend in ("onnxruntime-cuda", "torch-cuda"):  # the GPU reader: batches padded, TopK on the GPU (ocr/gpu.py)
            from inference.reading.ocr.gpu import BucketedTextRecognizer

            return BucketedTextRecognizer.open(model_path, backend, threads, **kwargs)
        from inference.engines.registry import create_engine

        options: dict[str, object] = {"threads": threads} if threads else {}
        if backend == "onnxruntime-cpu":  # a new input shape every few calls: no per-shape memory plans
            options["varying_shapes"] = True
            at_once, options["threads"] = cpu_calls_at_once(threads)
            kwargs.setdefault("calls_at_once", at_once)
        return cls(create_engine(backend, model_path, **options), **kwargs)

    def recognize(self, crops: Sequence[np.ndarray], squeeze: float | None = None, vocabulary: str = "") -> list[Recognized]:
        """`squeeze` overrides the recognizer's own for this call (a second read of doubtful lines);
        with a `vocabulary`, each line keeps its posteriors over those characters (spotting.py)."""
        found = self.recognize_only(crops, range(len(crops)), squeeze, vocabulary)
        return [found[i] for i in range(len(crops))]

    def recognize_only(self, crops: Sequence[np.ndarray], only: Iterable[int], squeeze: float | None = None,
                       vocabulary: str = "") -> dict[int, Recognized]:
        """The lines `only` of `crops`, each read exactly as `recognize(crops)` reads it.

        A line's read depends on the width its call is padded to (the network mixes a line across
        its whole width, padding included), not on the other lines of the call: the calls are planned
        over every crop and only the rows asked for are run, each padded as in the full plan. So a
        caller can read the lines it knows it needs now and the rest later, or never."""
        wanted = set(only)
        if not crops or not wanted:
            return {}
        squeeze = self.squeeze if squeeze is None else squeeze
        check_crops(crops)
        widths = [rec_width(crop, squeeze) for crop in crops]
        table = self._table(vocabulary) if vocabulary else None
        calls = [([i for i in chunk if i in wanted], padded_width([widths[i] for i in chunk]))
                 for chunk in plan_batches(widths, self.call_overhead_px, self.max_batch)]
        calls = [call for call in calls if call[0]]

        def run(call: tuple[list[int], int]) -> list[tuple[int, Recognized]]:
            rows, pad = call
            batch, row_widths = prepare_batch([crops[i] for i in rows], squeeze, pad_to=pad)
            probs = self.engine.infer({self.input_name: batch})[self.output_name]
            steps = [math.ceil(w / WIDTH_STEP) for w in row_widths]
            return list(zip(rows, ctc_greedy(probs, self.charset, steps, table)))

        results: dict[int, Recognized] = {}
        if self.calls_at_once > 1:
            calls = split_calls(calls, self.calls_at_once)
        for found in (self._calls_pool().map(run, calls) if len(calls) > 1 and self.calls_at_once > 1 else map(run, calls)):
            results.update(found)
        return results

    def _calls_pool(self) -> ThreadPoolExecutor:
        with self._pool_lock:  # tags read on several threads may ask at once
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.calls_at_once, thread_name_prefix="ocr-rec")
            return self._pool

    def _table(self, vocabulary: str) -> PosteriorTable:
        table = self._tables.get(vocabulary)
        if table is None:
            if len(self._tables) >= 8:  # a few recipes in turn; never one per frame
                self._tables.pop(next(iter(self._tables)))
            table = self._tables[vocabulary] = PosteriorTable(self.charset, vocabulary)
        return table

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None
        self.engine.close()
