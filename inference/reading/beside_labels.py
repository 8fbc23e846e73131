"""A field's value printed beside its label, read where the text detector boxed the label alone.

PP-OCR's text detector misses short values that stand apart: a size 'L' a few character widths right of
its label (规格   L) is left unboxed while the label is found. The strip right of such a label, up to the next
box on its row, is enlarged and searched for text on its own, and what it holds is read as the rest of the
label's line. That read is evidence that the field is printed as expected, never that it differs: a ruled
line, a box's edge or a neighbour's stroke in the strip may read as a character.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import cv2
import numpy as np

from inference.reading.labels import split_labeled
from inference.reading.lines import Box, union
from inference.reading.ocr.detector import TextDetector
from inference.reading.ocr.recognizer import Recognized, TextRecognizer
from inference.reading.text_lines import join_row
from inference.reading.types import OcrLine

# How far right of the label a value is looked for, in line heights (group_rows joins pieces up to 3 apart;
# a value printed in a column of its own stands further off).
STRIP_REACH = 8.0
# The strip's margin above and below the label's box, and the gap left after it, in line heights.
STRIP_MARGIN = 0.25
LABEL_GAP = 0.1
# The strip is enlarged towards this height before text detection (the detector found nothing there at
# the tag's scale), at most this many times.
STRIP_TEXT_HEIGHT = 96
MAX_SCALE = 3.0
# A value's box must sit on the label's row: its centre within the label's box, its height like the label's.
MIN_HEIGHT_SHARE = 0.5
MAX_HEIGHT_SHARE = 1.8
# The recognizer reads the value as it reads any second read: unsqueezed.
SQUEEZE = 1.0


def label_alone(text: str, name: str) -> bool:
    """Whether a line reads as the label of field `name` and nothing else."""
    labels = split_labeled(text)
    return len(labels) == 1 and labels[0][0] == name and not text[labels[0][1]:].strip(" :：/")


def read_beside_labels(image: np.ndarray, boxes: Sequence[Box], rows: Sequence[Sequence[int]],
                       first: Mapping[int, OcrLine], names: Sequence[str], detector: TextDetector,
                       recognizer: TextRecognizer, vocabulary: str = "") -> list[OcrLine]:
    """For each row whose first read is a label of one of `names` alone, its line with the value read in the
    strip beside it (upright-crop pixels, the label's own read first); rows whose strip holds no text are left
    out. `boxes` and `rows` are the tag's text boxes and their rows (group_rows), `first` the first read of
    each row."""
    out: list[OcrLine] = []
    for k, line in first.items():
        if not any(label_alone(line.text, name) for name in names):
            continue
        label_box = union([boxes[i] for i in rows[k]])
        strip = _strip(label_box, boxes, image.shape[:2])
        if strip is None:
            continue
        found = _read_strip(image, strip, label_box, detector, recognizer, vocabulary)
        if not found:
            continue
        label = Recognized(line.text, line.confidence, line.char_confidences, line.char_alternatives)
        value_boxes = [box for box, _rec in found]
        joined = join_row([label_box, *value_boxes], [label, *(rec for _box, rec in found)], range(len(found) + 1))
        if joined is not None and joined.text != line.text:
            out.append(joined)
    return out


def _strip(label: Box, boxes: Sequence[Box], shape: tuple[int, int]) -> tuple[int, int, int, int] | None:
    """The pixels right of `label` on its row: up to the next text box that shares the row, at most
    STRIP_REACH line heights; None where there is no room for a character."""
    x1, y1, x2, y2 = label
    h = y2 - y1
    right = min(float(shape[1]), x2 + STRIP_REACH * h)
    for bx1, by1, bx2, by2 in boxes:
        overlap = min(y2, by2) - max(y1, by1)
        if bx1 >= x2 - 1 and overlap > 0.5 * min(h, by2 - by1):
            right = min(right, bx1)
    left = max(0.0, x2 + LABEL_GAP * h)  # a label boxed off the crop (a first read's line mapped into a grown one)
    top, bottom = max(0.0, y1 - STRIP_MARGIN * h), min(float(shape[0]), y2 + STRIP_MARGIN * h)
    if right - left < 0.5 * h or bottom - top < 4:
        return None
    return int(left), int(top), int(np.ceil(right)), int(np.ceil(bottom))


def _read_strip(image: np.ndarray, strip: tuple[int, int, int, int], label: Box, detector: TextDetector,
                recognizer: TextRecognizer, vocabulary: str) -> list[tuple[Box, Recognized]]:
    """The text boxes the detector finds in the enlarged strip on the label's row, left to right, with their
    reads, in upright-crop pixels."""
    left, top, right, bottom = strip
    patch = image[top:bottom, left:right]
    scale = min(MAX_SCALE, max(1.0, STRIP_TEXT_HEIGHT / max(1, bottom - top)))
    big = cv2.resize(patch, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC) if scale > 1 else patch
    h = label[3] - label[1]
    kept: list[Box] = []
    for bx1, by1, bx2, by2 in sorted((box for box, _score in detector.detect(big)), key=lambda b: b[0]):
        box = (left + bx1 / scale, top + by1 / scale, left + bx2 / scale, top + by2 / scale)
        centre = (box[1] + box[3]) / 2
        if label[1] <= centre <= label[3] and MIN_HEIGHT_SHARE * h <= box[3] - box[1] <= MAX_HEIGHT_SHARE * h:
            kept.append(box)
    crops = [big[int((b[1] - top) * scale) : int(np.ceil((b[3] - top) * scale)),
                 int((b[0] - left) * scale) : int(np.ceil((b[2] - left) * scale))] for b in kept]
    pairs = [(b, c) for b, c in zip(kept, crops) if c.shape[0] >= 4 and c.shape[1] >= 4]
    if not pairs:
        return []
    read = recognizer.recognize([c for _b, c in pairs], squeeze=SQUEEZE, vocabulary=vocabulary)
    return [(b, rec) for (b, _c), rec in zip(pairs, read)]
