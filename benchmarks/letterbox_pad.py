"""A letterbox pad that continues the frame, measured with the existing detector measures (issues 17, 18).

    PADMODE=constant|replicate|reflect [VISIBLE=0.5] python benchmarks/letterbox_pad.py ARGS   # edge_cut_tags.py
    PADMODE=... [VISIBLE=0.5] python benchmarks/letterbox_pad.py -m training.compare ARGS     # any module

Swaps `Letterboxer.__call__` so that the pad around the resized frame is OpenCV's BORDER_REPLICATE or
BORDER_REFLECT_101 of it instead of the constant 114; with VISIBLE, zeroes the class scores of every raw box less
than that share inside the frame's own region of the input (what the pad itself draws). The station does not do
this: BENCHMARKS.md, "tags cut by the frame's edge — the letterbox's pad filled from the frame", says why.
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from inference import preprocess  # noqa: E402

BORDERS = {"replicate": cv2.BORDER_REPLICATE, "reflect": cv2.BORDER_REFLECT_101}
_frame_region: list[tuple[float, float, float, float]] = []  # the last letterboxed frame's region of the input


def _letterbox(mode: str):
    plain = preprocess.Letterboxer.__call__

    def call(self, image_bgr: np.ndarray, slot: int = 0):
        if mode == "constant" or image_bgr.ndim != 3 or image_bgr.shape[2] != 3:
            transform = plain(self, image_bgr, slot)
        else:
            transform, (rh, rw) = preprocess.plan_letterbox(image_bgr.shape[:2], self.input_hw)
            top, left = int(transform.pad_y), int(transform.pad_x)
            interp = cv2.INTER_AREA if rh < image_bgr.shape[0] else cv2.INTER_LINEAR
            small = cv2.resize(image_bgr, (rw, rh), interpolation=interp)
            height, width = self.input_hw
            self._canvas[:] = cv2.copyMakeBorder(small, top, height - rh - top, left, width - rw - left, BORDERS[mode])
            for c in range(3):
                np.multiply(self._canvas[:, :, 2 - c], 1.0 / 255.0, out=self.tensor[slot][c], casting="unsafe")
        h, w = image_bgr.shape[:2]
        _frame_region[:] = [(transform.pad_x, transform.pad_y, transform.pad_x + w * transform.scale,
                             transform.pad_y + h * transform.scale)]
        return transform

    return call


def _drop_boxes_in_the_pad(visible: float) -> None:
    import onnxruntime as ort

    plain = ort.InferenceSession.run

    def run(self, names, feeds, *args, **kwargs):
        out = plain(self, names, feeds, *args, **kwargs)
        raw = out[0]
        if _frame_region and raw.ndim == 3 and raw.shape[1] == 7:  # (1, 4 + 3 classes, N): the detector's output
            x0, y0, x1, y1 = _frame_region[0]
            cx, cy, bw, bh = raw[0, 0], raw[0, 1], raw[0, 2], raw[0, 3]
            iw = np.clip(np.minimum(cx + bw / 2, x1) - np.maximum(cx - bw / 2, x0), 0, None)
            ih = np.clip(np.minimum(cy + bh / 2, y1) - np.maximum(cy - bh / 2, y0), 0, None)
            raw = raw.copy()
            raw[0, 4:, iw * ih / np.maximum(bw * bh, 1e-6) < visible] = 0
            out[0] = raw
        return out

    ort.InferenceSession.run = run


def main() -> None:
    mode = os.environ.get("PADMODE", "constant")
    if mode != "constant" and mode not in BORDERS:
        raise SystemExit(f"PADMODE: expected constant, replicate or reflect, found {mode!r}")
    preprocess.Letterboxer.__call__ = _letterbox(mode)
    visible = float(os.environ.get("VISIBLE", "0"))
    if visible > 0:
        _drop_boxes_in_the_pad(visible)
    if sys.argv[1:2] == ["-m"]:
        module = sys.argv[2]
        sys.argv = [module, *sys.argv[3:]]
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    else:
        sys.argv = ["edge_cut_tags.py", *sys.argv[1:]]
        runpy.run_path(str(ROOT / "benchmarks" / "edge_cut_tags.py"), run_name="__main__")


if __name__ == "__main__":
    main()
