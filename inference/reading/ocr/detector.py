"""PP-OCR (DB) text detection on an upright tag crop, with axis-aligned line boxes.

The crop is already turned upright, so a line is an axis-aligned box: connected components of the
thresholded probability map replace DB's polygon search, and the DB "unclip" becomes a margin.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from inference.engines.base import Engine

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class DbParams:
    limit_side: int = 320  # longest side fed to the network, rounded to a multiple of 32
    thresh: float = 0.3
    box_thresh: float = 0.5
    unclip_ratio: float = 1.6
    min_size: int = 3


# A small tag's crop may be enlarged up to the limit by this much (1.0: never). Enlarging 2x cost
# time and changed no verdict on 60 independent tags, so it is off.
MAX_UPSCALE = 1.0


def prepare(image_bgr: np.ndarray, limit_side: int) -> tuple[np.ndarray, float, float]:
    h, w = image_bgr.shape[:2]
    scale = min(MAX_UPSCALE, limit_side / max(h, w))
    nh = max(32, int(round(h * scale / 32)) * 32)
    nw = max(32, int(round(w * scale / 32)) * 32)
    resized = cv2.resize(image_bgr, (nw, nh), interpolation=cv2.INTER_AREA if scale <= 1.0 else cv2.INTER_CUBIC)
    blob = resized.transpose(2, 0, 1)[None].astype(np.float32) * np.float32(1 / 127.5) - np.float32(1.0)
    return blob, w / nw, h / nh


def boxes_from_map(prob: np.ndarray, params: DbParams, sx: float, sy: float, size_hw: tuple[int, int]) -> list[tuple[Box, float]]:
    """(box in crop pixels, mean probability) for each text region, top to bottom.

    Each region's probability is summed over its own pixels only (the background, most of the map, is left out of
    the sum: the same sums, as each region's pixels are added in the same order), and the regions are filtered,
    widened and scaled as arrays, in the arithmetic a loop over them did."""
    binary = (prob > params.thresh).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=4)
    if n <= 1:
        return []
    text = labels > 0
    sums = np.bincount(labels[text], weights=prob[text], minlength=n)[1:]
    x, y, bw, bh, area = (stats[1:, k] for k in range(5))
    score = sums / area
    kept = (np.minimum(bw, bh) >= params.min_size) & ~(score < params.box_thresh)
    x, y, bw, bh, score = x[kept], y[kept], bw[kept], bh[kept], score[kept]
    d = bw * bh * params.unclip_ratio / (2.0 * (bw + bh))
    h, w = size_hw
    x1 = np.maximum((x - d) * sx, 0.0)
    y1 = np.maximum((y - d) * sy, 0.0)
    x2 = np.minimum((x + bw + d) * sx, float(w))
    y2 = np.minimum((y + bh + d) * sy, float(h))
    order = np.argsort((y1 + y2) / 2, kind="stable")
    corners = np.stack([x1, y1, x2, y2], axis=1)[order].tolist()
    return [(tuple(box), s) for box, s in zip(corners, score[order].tolist())]


class TextDetector:
    def __init__(self, engine: Engine, params: DbParams = DbParams()) -> None:
        self.engine = engine.load()
        self.params = params
        self.input_name = engine.inputs[0].name
        self.output_name = engine.outputs[0].name

    @classmethod
    def open(cls, model_path: Path, backend: str = "onnxruntime-cpu", threads: int | None = None, params: DbParams = DbParams()) -> TextDetector:
        if backend in ("onnxruntime-cuda", "torch-cuda"):  # the GPU reader (ocr/gpu.py)
            from inference.reading.ocr.gpu import BucketedTextDetector

            return BucketedTextDetector.open(model_path, backend, threads, params)
        from inference.engines.registry import create_engine

        options: dict[str, object] = {"threads": threads} if threads else {}
        if backend == "onnxruntime-cpu":  # a new input shape every few calls: no per-shape memory plans
            options["varying_shapes"] = True
        return cls(create_engine(backend, model_path, **options), params)

    def probability(self, image_bgr: np.ndarray) -> np.ndarray:
        """Text probability map at the network's (downscaled) resolution."""
        blob, _, _ = prepare(image_bgr, self.params.limit_side)
        return self.engine.infer({self.input_name: blob})[self.output_name][0, 0]

    def detect(self, image_bgr: np.ndarray) -> list[tuple[Box, float]]:
        blob, sx, sy = prepare(image_bgr, self.params.limit_side)
        prob = self.engine.infer({self.input_name: blob})[self.output_name][0, 0]
        return boxes_from_map(prob, self.params, sx, sy, image_bgr.shape[:2])

    def close(self) -> None:
        self.engine.close()
