"""Input shapes for the OCR networks on the GPU: the CPU reader's own, so the GPU reads what the CPU reads.

On ONNX Runtime's CUDA provider every new input shape costs cuDNN algorithm choices and new memory plans:
with one shape per text line, reading took seconds per tag (issue 19). Padding to a few fixed shapes is
the usual cure, but both PP-OCR networks see the padding: the text detector's squeeze-excitation blocks pool
over the whole input (padding a 256×448 input to 448×448 changed its boxes on every one of 19 tags) and the
recognizer mixes each line globally ('170/00' read as '170/' once the line was padded from 168 to 768
columns). So the shapes stay the CPU reader's: the detector's input as `detector.prepare` sizes it (multiples
of 32 up to its limit: 14 × 14 shapes at 448), the recognizer's lines in the CPU's batches
(`recognizer.plan_batches`) at the CPU's padded width (a multiple of 8). Only the batch dimension is padded,
to a power of two: rows are independent (a zero row changes no other row's output, checked in the tests),
so that costs no equality. Each new shape still costs a first run (about 2.6 s on the H200: gpu.py), and
which shapes to run at open is the caller's choice (`rec_shapes`, `det_shapes` list them all).

Pure planning and array work: no ONNX Runtime here (gpu.py runs the sessions).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import cv2
import numpy as np

from inference.reading.ocr.recognizer import (
    ALTERNATIVES,
    MAX_WIDTH,
    MIN_ALTERNATIVE_P,
    REC_HEIGHT,
    WIDTH_STEP,
    Recognized,
    collapse,
    plan_batches,
)

# The CPU recognizer's batching (TextRecognizer defaults): at most 32 lines a call, a call worth 96 columns.
MAX_LINES = 32
CALL_OVERHEAD_PX = 96
# Batch sizes the recognizer runs at: a call of n lines is padded to the next of these.
REC_BATCHES = (1, 2, 4, 8, 16, 32)
DET_STEP = 32


def batch_for(count: int, batches: Sequence[int] = REC_BATCHES) -> int:
    for n in batches:
        if n >= count:
            return n
    raise ValueError(f"{count} lines are more than the largest batch ({batches[-1]})")


def plan_calls(widths: Sequence[int], batches: Sequence[int] = REC_BATCHES) -> list[tuple[list[int], int, int]]:
    """The CPU reader's calls, each `(line indices, padded batch, padded width)`: the same lines together at
    the same width as `TextRecognizer.recognize` puts them, the batch rounded up to one of `batches`."""
    calls = []
    for chunk in plan_batches(widths, CALL_OVERHEAD_PX, MAX_LINES):
        width = int(math.ceil(max(widths[i] for i in chunk) / WIDTH_STEP) * WIDTH_STEP)
        calls.append((chunk, batch_for(len(chunk), batches), width))
    return calls


def rec_shapes(batches: Sequence[int] = REC_BATCHES, widths: Sequence[int] | None = None) -> list[tuple[int, int]]:
    """Every (batch, width) a recognizer call can have (`widths`: default every multiple of 8 up to MAX_WIDTH)."""
    widths = range(WIDTH_STEP, MAX_WIDTH + 1, WIDTH_STEP) if widths is None else widths
    return [(n, w) for w in widths for n in batches]


def det_shapes(limit_side: int) -> list[tuple[int, int]]:
    """Every (height, width) `detector.prepare` can give for this limit: multiples of 32 from 32 up to it."""
    top = max(DET_STEP, int(round(limit_side / DET_STEP)) * DET_STEP)
    sides = range(DET_STEP, top + 1, DET_STEP)
    return [(h, w) for h in sides for w in sides]


def fill_lines(crops: Sequence[np.ndarray], widths: Sequence[int], batch: int, width: int) -> np.ndarray:
    """(batch, 3, 48, width) float32 in [-1, 1], each line resized to its width and right-padded with 0;
    rows past the lines are 0 too. The same arithmetic as recognizer.prepare_batch."""
    out = np.zeros((batch, 3, REC_HEIGHT, width), np.float32)
    for i, (crop, w) in enumerate(zip(crops, widths)):
        if crop.ndim == 2:
            crop = cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR)
        resized = cv2.resize(crop, (w, REC_HEIGHT), interpolation=cv2.INTER_AREA if w < crop.shape[1] else cv2.INTER_LINEAR)
        out[i, :, :, :w] = resized.transpose(2, 0, 1) * np.float32(1 / 127.5) - np.float32(1.0)
    return out


def ctc_from_top(top_p: np.ndarray, top_i: np.ndarray, charset: Sequence[str], steps: Sequence[int]) -> list[Recognized]:
    """Greedy CTC from each step's few most likely classes (the recognizer's TopK outputs, most likely first):
    the same texts, confidences and runners-up as recognizer.ctc_greedy over the whole distribution, from
    (N, T, k) arrays instead of (N, T, classes) — 3 numbers a step instead of 7 232 to copy and scan.

    The steps kept and each kept step's runners-up are found for the whole batch in a few array operations;
    only the joining of characters into each line's strings is left per line."""
    lines = len(steps)
    if lines == 0:
        return []
    best = top_i[:lines, :, 0]
    keep = np.ones(best.shape, bool)
    keep[:, 1:] = best[:, 1:] != best[:, :-1]
    keep &= best != 0
    keep &= np.arange(best.shape[1])[None, :] < np.asarray(steps, np.int64)[:, None]
    rows, cols = np.nonzero(keep)
    chars = _charset_table(charset)
    kept_i = best[rows, cols]
    texts_per_step = chars.text[np.minimum(kept_i, len(chars.text) - 1)].tolist()
    confs_per_step = top_p[rows, cols, 0].tolist()
    runners = _runners_up_all(top_p[rows, cols, 1 : ALTERNATIVES + 1], top_i[rows, cols, 1 : ALTERNATIVES + 1], chars)
    bounds = np.searchsorted(rows, np.arange(lines + 1)).tolist()
    out = []
    for b in range(lines):
        lo, hi = bounds[b], bounds[b + 1]
        text = "".join(texts_per_step[lo:hi])
        confs = tuple(confs_per_step[lo:hi])
        aligned = len(text) == len(confs)
        alternatives = tuple(runners[lo:hi]) if aligned and confs else ()
        out.append(Recognized(text, float(np.mean(confs)) if confs else 0.0, confs if aligned else (), alternatives))
    return out


class _CharsetTable:
    """A charset as arrays: each class's text ("" past the charset's end, where a spare class would read as
    nothing) and, for runners-up, the class's text where it is one character, else ""."""

    def __init__(self, charset: Sequence[str]) -> None:
        self.charset = tuple(charset)
        self.text = np.array([*self.charset, ""], object)
        single = [c if len(c) == 1 and 0 < k else "" for k, c in enumerate(self.charset)]
        self.runner = np.array([*single, ""], object)


_TABLES: dict[int, _CharsetTable] = {}


def _charset_table(charset: Sequence[str]) -> _CharsetTable:
    table = _TABLES.get(id(charset))
    if table is None or table.charset is not charset and table.charset != tuple(charset):
        if len(_TABLES) >= 8:
            _TABLES.pop(next(iter(_TABLES)), None)
        table = _TABLES[id(charset)] = _CharsetTable(charset)
    return table


def _runners_up_all(top_p: np.ndarray, top_i: np.ndarray, chars: _CharsetTable) -> list[str]:
    """Each kept step's runners-up (its next ALTERNATIVES classes, most likely first) as one string: a class
    counts where it is at least MIN_ALTERNATIVE_P likely, not the blank, inside the charset and one character."""
    last = len(chars.runner) - 1
    picked = np.where((top_p >= MIN_ALTERNATIVE_P) & (top_i > 0) & (top_i < last), chars.runner[np.clip(top_i, 0, last)], "")
    if picked.shape[1] == 0:
        return [""] * len(picked)
    joined = picked[:, 0]
    for k in range(1, picked.shape[1]):
        joined = joined + picked[:, k]
    return joined.tolist()
