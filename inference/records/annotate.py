"""Annotated images for the archive and for exports: boxes, the tags' paper outlines, labels and a verdict stamp.

Latin text is drawn with OpenCV's Hershey font (fast, no dependency). OpenCV cannot draw Chinese,
so any label with a non-ASCII character is rendered once by Pillow with the bundled Noto Sans SC
into a small strip and pasted in; the strip is cached per (text, height).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache

import cv2
import numpy as np

from inference.reading.types import GROWN_NOTE
from inference.resources import font_path

# BGR. Verdict colors match the GUI's: green OK, red NG, amber REVIEW, grey when nothing was judged.
VERDICT_BGR = {"OK": (60, 160, 40), "NG": (40, 40, 220), "REVIEW": (0, 170, 240), "": (120, 120, 120)}
PAPER_RIM_BGR = (30, 30, 30)
_CLASS_BGR = ((255, 140, 30), (60, 200, 250), (200, 80, 200), (80, 200, 120), (40, 120, 255), (200, 200, 60))
_FONT = cv2.FONT_HERSHEY_SIMPLEX


def class_color(class_id: int) -> tuple[int, int, int]:
    return _CLASS_BGR[int(class_id) % len(_CLASS_BGR)]


def _ink_on(bg: tuple[int, int, int]) -> tuple[int, int, int]:
    b, g, r = bg
    return (20, 20, 20) if 0.114 * b + 0.587 * g + 0.299 * r > 150 else (255, 255, 255)


def _scale_for(image: np.ndarray) -> float:
    """Line widths and text grow with the image so a 5 MP frame's labels stay readable in a thumbnail."""
    return max(0.5, max(image.shape[:2]) / 1000.0)


def draw_boxes(image: np.ndarray, detections: Iterable[Mapping]) -> np.ndarray:
    thickness = max(1, round(2 * _scale_for(image)))
    for det in detections:
        x1, y1, x2, y2 = (int(round(v)) for v in det["xyxy"])
        cv2.rectangle(image, (x1, y1), (x2, y2), class_color(det.get("class_id", 0)), thickness, cv2.LINE_AA)
    return image


def draw_labels(image: np.ndarray, detections: Iterable[Mapping]) -> np.ndarray:
    scale = _scale_for(image)
    for det in detections:
        x1, y1 = (int(round(v)) for v in det["xyxy"][:2])
        text = f"{det.get('class_name', '?')} {float(det.get('confidence', 0.0)):.2f}"
        bg = class_color(det.get("class_id", 0))
        put_text(image, text, (x1, y1), height=int(22 * scale), bg=bg, fg=_ink_on(bg), anchor="above")
    return image


def tag_verdict(tag_index: int, checks: Iterable[Mapping], verdict: str) -> str:
    """The verdict a tag's outline is drawn in: the worst of the checks on that tag and on the whole frame (a
    count), so one tag alone on a frame shows the banner's verdict and of several tags the failing one stands out;
    the frame's `verdict` where nothing was checked."""
    judged = {str(c.get("verdict", "")) for c in checks if c.get("tag_index") in (None, tag_index)}
    return next((v for v in ("NG", "REVIEW", "OK") if v in judged), verdict)


def paper_outlines(tags: Iterable[Mapping], checks: Iterable[Mapping], verdict: str) -> list[tuple[np.ndarray, str]]:
    """Each tag's paper outline (corners in frame pixels, as `TagReading.to_record()` gives them under "paper") with
    the verdict to draw it in; where the reader found no outline but read the tag from a box it grew past the
    detector's (a box round a third of a wide card), that box, so the operator sees what the verdict read and not
    only the detector's part of it. Journals written before outlines were recorded have no "paper": nothing is
    drawn, and nothing is drawn for a box the reader rejected as no tag."""
    checks = list(checks)
    out = []
    for i, tag in enumerate(tags):
        corners = tag.get("paper") or ()
        box = tag.get("xyxy") or ()
        if len(corners) != 4 and len(box) == 4 and any(str(n).startswith(GROWN_NOTE) for n in tag.get("notes") or ()):
            x1, y1, x2, y2 = (float(v) for v in box)
            corners = ((x1, y1), (x2, y1), (x2, y2), (x1, y2))
        if len(corners) == 4 and not tag.get("rejected"):
            out.append((np.asarray(corners, np.float64).reshape(4, 2), tag_verdict(tag.get("tag_index", i), checks, verdict)))
    return out


def draw_papers(image: np.ndarray, papers: Iterable[tuple[np.ndarray, str]]) -> np.ndarray:
    """Thin polygons round the tags' paper in their verdict's colour, on a dark rim that keeps a green line visible on a
    green cloth: whether the tag was cut round its paper or round a box that spills onto what lies under it."""
    thickness = max(1, round(2 * _scale_for(image)))
    for corners, verdict in papers:
        points = [np.round(corners).astype(np.int32).reshape(-1, 1, 2)]
        cv2.polylines(image, points, True, PAPER_RIM_BGR, thickness + 2, cv2.LINE_AA)
        cv2.polylines(image, points, True, VERDICT_BGR.get(verdict, VERDICT_BGR[""]), thickness, cv2.LINE_AA)
    return image


def stamp_verdict(image: np.ndarray, verdict: str, note: str = "") -> np.ndarray:
    """A solid verdict badge in the top-left corner: readable even in a 320 px thumbnail."""
    scale = _scale_for(image)
    label = verdict or "NOT JUDGED"
    put_text(image, label + (f"  {note}" if note else ""), (0, 0), height=int(44 * scale),
             bg=VERDICT_BGR.get(verdict, VERDICT_BGR[""]), anchor="below")
    return image


def annotate_frame(image_bgr: np.ndarray, detections: Iterable[Mapping], verdict: str, note: str = "",
                   tags: Iterable[Mapping] = (), checks: Iterable[Mapping] = ()) -> np.ndarray:
    """A copy of the frame with boxes, the tags' paper outlines, labels and the verdict stamp. `detections`, `tags`
    and `checks` are journal records (a frame's "detections", "fields" and "checks")."""
    detections = list(detections)
    out = np.ascontiguousarray(image_bgr.copy())
    if out.ndim == 2:
        out = cv2.cvtColor(out, cv2.COLOR_GRAY2BGR)
    draw_boxes(out, detections)
    draw_papers(out, paper_outlines(tags, checks, verdict))
    draw_labels(out, detections)
    return stamp_verdict(out, verdict, note)


def put_text(image: np.ndarray, text: str, origin: tuple[int, int], *, height: int, bg: tuple[int, int, int],
             fg: tuple[int, int, int] = (255, 255, 255), anchor: str = "below") -> None:
    """Text on a filled background; `anchor="above"` puts the strip on top of `origin` (box labels)."""
    strip = _text_strip(text, max(10, height), bg, fg)
    h, w = strip.shape[:2]
    x, y = origin
    y = y - h if anchor == "above" else y
    x, y = max(0, min(x, image.shape[1] - 1)), max(0, min(y, image.shape[0] - 1))
    w, h = min(w, image.shape[1] - x), min(h, image.shape[0] - y)
    if w > 0 and h > 0:
        image[y:y + h, x:x + w] = strip[:h, :w]


@lru_cache(maxsize=512)
def _text_strip(text: str, height: int, bg: tuple[int, int, int], fg: tuple[int, int, int]) -> np.ndarray:
    if text.isascii():
        return _hershey_strip(text, height, bg, fg)
    return _pillow_strip(text, height, bg, fg)


def _hershey_strip(text: str, height: int, bg: tuple[int, int, int], fg: tuple[int, int, int]) -> np.ndarray:
    pad = max(2, height // 6)
    font_scale = (height - 2 * pad) / 22.0
    thickness = max(1, round(font_scale * 1.6))
    (tw, th), base = cv2.getTextSize(text, _FONT, font_scale, thickness)
    strip = np.full((th + base + 2 * pad, tw + 2 * pad, 3), bg, np.uint8)
    cv2.putText(strip, text, (pad, pad + th), _FONT, font_scale, fg, thickness, cv2.LINE_AA)
    return strip


def _pillow_strip(text: str, height: int, bg: tuple[int, int, int], fg: tuple[int, int, int]) -> np.ndarray:
    from PIL import Image, ImageDraw, ImageFont

    pad = max(2, height // 6)
    font = ImageFont.truetype(str(font_path("Bold")), max(8, height - 2 * pad))
    left, top, right, bottom = font.getbbox(text)
    rgb = lambda c: (c[2], c[1], c[0])  # noqa: E731 — Pillow wants RGB
    canvas = Image.new("RGB", (right - left + 2 * pad, bottom - top + 2 * pad), rgb(bg))
    ImageDraw.Draw(canvas).text((pad - left, pad - top), text, font=font, fill=rgb(fg))
    return np.ascontiguousarray(np.asarray(canvas)[:, :, ::-1])
