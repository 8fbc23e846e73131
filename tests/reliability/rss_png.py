"""An RSS-over-frames curve as a small PNG, drawn with OpenCV (matplotlib is not a dependency)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from inference.records.svg import nice_ticks

_BLUE, _GRID, _TEXT, _ORANGE = (235, 111, 31), (227, 222, 217), (40, 40, 40), (12, 89, 232)


_SERIES = (_BLUE, (60, 160, 60), (40, 40, 200), (150, 80, 150))


def write_rss_png(path: Path, points: Sequence[tuple[int, float]], warmup: int, *, title: str,
                  note: str = "") -> None:
    """`points`: (frames, RSS MiB). The warm-up's end is a dashed line; `note` goes under the title."""
    write_curves_png(path, [("", points)], warmup, title=title, note=note)


def write_curves_png(path: Path, series: Sequence[tuple[str, Sequence[tuple[int, float]]]], warmup: int, *,
                     title: str, note: str = "", unit: str = "RSS MiB") -> None:
    """Several curves on one frame axis: `series` is (label, [(frames, value)]); labelled curves get a legend."""
    width, height, left, right, top, bottom = 800, 380, 74, 24, 58, 48
    image = np.full((height, width, 3), 255, np.uint8)
    points = [p for _, curve in series for p in curve]
    frames = [p[0] for p in points] or [0]
    rss = [p[1] for p in points] or [0.0]
    xticks = nice_ticks(0, max(frames))
    yticks = nice_ticks(min(rss) - 1, max(rss) + 1)
    x0, x1, y0, y1 = xticks[0], xticks[-1], yticks[0], yticks[-1]

    def sx(f: float) -> int:
        return int(round(left + (f - x0) / max(1e-9, x1 - x0) * (width - left - right)))

    def sy(v: float) -> int:
        return int(round(height - bottom - (v - y0) / max(1e-9, y1 - y0) * (height - top - bottom)))

    font, small = cv2.FONT_HERSHEY_SIMPLEX, 0.42
    cv2.putText(image, title, (left, 22), font, 0.55, _TEXT, 1, cv2.LINE_AA)
    if note:
        cv2.putText(image, note, (left, 42), font, small, _TEXT, 1, cv2.LINE_AA)
    for t in yticks:
        cv2.line(image, (left, sy(t)), (width - right, sy(t)), _GRID, 1)
        label = f"{t:g}"
        (w, _), _ = cv2.getTextSize(label, font, small, 1)
        cv2.putText(image, label, (left - 8 - w, sy(t) + 4), font, small, _TEXT, 1, cv2.LINE_AA)
    for t in xticks:
        label = f"{t:g}"
        (w, _), _ = cv2.getTextSize(label, font, small, 1)
        cv2.putText(image, label, (sx(t) - w // 2, height - bottom + 18), font, small, _TEXT, 1, cv2.LINE_AA)
    cv2.putText(image, "frames", ((left + width - right) // 2 - 20, height - 8), font, small, _TEXT, 1, cv2.LINE_AA)
    cv2.putText(image, unit, (6, top - 8), font, small, _TEXT, 1, cv2.LINE_AA)
    if warmup and warmup < max(frames):
        for y in range(top, height - bottom, 8):
            cv2.line(image, (sx(warmup), y), (sx(warmup), min(y + 4, height - bottom)), _ORANGE, 1)
        cv2.putText(image, "warm-up ends", (sx(warmup) + 4, top + 12), font, small, _ORANGE, 1, cv2.LINE_AA)
    for k, (label, curve_points) in enumerate(series):
        colour = _SERIES[k % len(_SERIES)]
        curve = np.array([(sx(f), sy(v)) for f, v in curve_points], np.int32).reshape(-1, 1, 2)
        if len(curve) > 1:
            cv2.polylines(image, [curve], False, colour, 2, cv2.LINE_AA)
        if label:
            y = height - bottom - 12 - 18 * (len(series) - 1 - k)
            cv2.line(image, (width - right - 250, y - 4), (width - right - 226, y - 4), colour, 2, cv2.LINE_AA)
            cv2.putText(image, label, (width - right - 220, y), font, small, _TEXT, 1, cv2.LINE_AA)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), image, [cv2.IMWRITE_PNG_COMPRESSION, 9]):
        raise OSError(f"could not write {path}")
