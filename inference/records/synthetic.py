"""Synthetic inspection sessions for the benchmark and the tests: realistic rows, real image files.

Failures follow a skewed mix (a few causes dominate) so a Pareto chart has something to show.
"""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np

from inference.decode import Candidates
from inference.detections import Detections
from inference.pipeline import FrameResult
from inference.postprocess import Thresholds
from inference.reading.types import FieldReading, TagReading
from inference.reading.verdict import Check, FrameVerdict, Verdict
from inference.records.convert import file_hash
from inference.telemetry import MemorySample, StageTimings

CLASS_NAMES = ("hangtag", "barcode", "qr_code")
EXPECTED = {"product_name": "针织衫", "style_number": "HT24-0815", "color": "藏青", "size": "M", "price": "299.00",
            "ean13": "6901234567892"}
# (subject, verdict, read value, weight): how often each cause shows up among flagged frames.
FAILURES = (
    ("price", "NG", "199.00", 34), ("style_number", "REVIEW", "HT24-O815", 22), ("ean13", "NG", "6901234567885", 14),
    ("color", "REVIEW", "藏青", 10), ("count:hangtag", "NG", "0", 8), ("size", "NG", "L", 6),
    ("product_name", "REVIEW", "针织彩", 4), ("composition", "NG", "棉 80% 涤纶 20%", 2),
)
_EMPTY = Candidates(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int32))


def tag_image(rng: np.random.Generator, hw: tuple[int, int] = (960, 1280), label: str = "HT24-0815") -> np.ndarray:
    """A grey conveyor with one white hangtag, printed lines and a barcode-like stripe block."""
    h, w = hw
    image = np.full((h, w, 3), 96, np.uint8)
    image += rng.integers(0, 12, (h, w, 1), dtype=np.uint8)
    x1, y1 = int(w * 0.3), int(h * 0.12)
    x2, y2 = int(w * 0.7), int(h * 0.88)
    cv2.rectangle(image, (x1, y1), (x2, y2), (245, 245, 245), -1)
    cv2.circle(image, ((x1 + x2) // 2, y1 + 40), 14, (96, 96, 96), -1)
    scale = w / 1280
    for i, text in enumerate(("BRAND", label, "COLOR NAVY  SIZE M", "RMB 299.00")):
        cv2.putText(image, text, (x1 + 30, y1 + int((120 + 70 * i) * scale)), cv2.FONT_HERSHEY_SIMPLEX,
                    1.1 * scale, (30, 30, 30), max(1, int(2 * scale)), cv2.LINE_AA)
    bars = rng.integers(0, 2, 95)
    bx, by, bar_w = x1 + 30, y2 - int(200 * scale), max(1, int(3 * scale))
    for i, on in enumerate(bars):
        if on:
            cv2.rectangle(image, (bx + i * bar_w, by), (bx + (i + 1) * bar_w - 1, by + int(120 * scale)), (20, 20, 20), -1)
    return image


def _readings(box: tuple[float, ...], failure: tuple | None, rng: np.random.Generator, text: str | None) -> TagReading:
    fields = {}
    for name, value in EXPECTED.items():
        read = value
        conf = float(rng.uniform(0.9, 0.99))
        if failure and failure[0] == name:
            read = failure[2]
            conf = float(rng.uniform(0.45, 0.7)) if failure[1] == "REVIEW" else conf
        fields[name] = FieldReading(name, read, conf, "barcode" if name == "ean13" else "ocr", read)
    if text is not None:
        fields["product_name"] = FieldReading("product_name", text, 0.95, "ocr", text)
    return TagReading(0, box, fields, summary=text or "")


def _verdict(failure: tuple | None, readings: TagReading) -> FrameVerdict:
    checks = []
    for name, expected in EXPECTED.items():
        got = readings.fields[name]
        ok = failure is None or failure[0] != name
        checks.append(Check(name, 0, expected, got.value, got.confidence, got.source,
                            Verdict.OK if ok else Verdict(failure[1]), "" if ok else _reason(name, expected, failure)))
    if failure and failure[0] not in EXPECTED:
        checks.append(Check(failure[0], None if failure[0].startswith("count") else 0, "1" if failure[0].startswith("count") else "棉 100%",
                            failure[2], None, "detector", Verdict(failure[1]), _reason(failure[0], "", failure)))
    reasons = tuple(c.reason for c in checks if c.verdict is Verdict.NG) + \
        tuple(c.reason for c in checks if c.verdict is Verdict.REVIEW)
    verdict = Verdict.NG if any(c.verdict is Verdict.NG for c in checks) else \
        Verdict.REVIEW if any(c.verdict is Verdict.REVIEW for c in checks) else Verdict.OK
    return FrameVerdict(verdict, reasons, tuple(checks))


def _reason(name: str, expected: str, failure: tuple) -> str:
    label = name.replace("_", " ")
    if name.startswith("count:"):
        return "no hangtag, expected 1"
    if failure[1] == "REVIEW":
        return f"{label} {failure[2]} read at 55% confidence, minimum 80%"
    return f"{label} {failure[2]} ≠ expected {expected or '棉 100%'}"


def synthetic_result(index: int, rng: np.random.Generator, *, flagged: bool, image_hw: tuple[int, int],
                     source_name: str, source_path: str | None, timestamp: float, tag_text: str | None = None,
                     judged: bool = True) -> FrameResult:
    h, w = image_hw
    box = (w * 0.3, h * 0.12, w * 0.7, h * 0.88)
    weights = np.array([f[3] for f in FAILURES], np.float64)
    failure = FAILURES[int(rng.choice(len(FAILURES), p=weights / weights.sum()))] if flagged else None
    xyxy = [box, (w * 0.32, h * 0.66, w * 0.55, h * 0.8)]
    if failure and failure[0] == "count:hangtag":
        xyxy = xyxy[1:]
    dets = Detections(np.array(xyxy, np.float32), rng.uniform(0.6, 0.98, len(xyxy)).astype(np.float32),
                      np.array([0, 1][-len(xyxy):], np.int32), CLASS_NAMES)
    readings = _readings(box, failure, rng, tag_text)
    infer = float(rng.gamma(9.0, 1.4))
    stages = {"decode": float(rng.uniform(3, 6)), "preprocess": float(rng.uniform(1.5, 3)), "infer": infer,
              "postprocess": float(rng.uniform(0.3, 1.0)), "read": float(rng.gamma(6.0, 4.0))}
    memory = MemorySample(410.0 + index * 0.002 + float(rng.normal(0, 1.5)), 1180.0 + float(rng.normal(0, 3)))
    return FrameResult(index, source_name, source_path, image_hw, dets, _EMPTY, Thresholds(confidence=0.35),
                       StageTimings(stages, sum(stages.values()) + 0.4), memory, (readings,),
                       _verdict(failure, readings) if judged else None, timestamp=timestamp)


def build_session(journal, archive, *, frames: int, flagged_rate: float, image_dir: Path,
                  image_hw: tuple[int, int] = (960, 1280), seed: int = 0, fps: float = 8.0,
                  tag_text: str | None = None, job: str = "LOT-2611 针织衫") -> int:
    """Journal `frames` frames; flagged ones get a real image file, archived as the station would."""
    rng = np.random.default_rng(seed)
    image_dir.mkdir(parents=True, exist_ok=True)
    start = time.time() - frames / fps
    session = journal.start_session(station_id="station-07", job=job, lot="L2611-03", recipe_path="recipes/针织衫_HT24.toml",
                                    source=str(image_dir), model_hash="sha256:9f2c1e0b7a", backend="onnxruntime-cpu",
                                    precision="fp32", started_at=start)
    flagged = rng.random(frames) < flagged_rate
    for i in range(frames):
        name = f"tag_{i:06d}.jpg"
        path = image_dir / name
        result = synthetic_result(i, rng, flagged=bool(flagged[i]), image_hw=image_hw, source_name=name,
                                  source_path=str(path), timestamp=start + i / fps, tag_text=tag_text)
        image_hash = ""
        archived = None
        if result.verdict is not None and result.verdict.verdict is not Verdict.OK:
            image = tag_image(rng, image_hw, label=f"#{i}")
            cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 88])
            image_hash = file_hash(path)
            if archive is not None:
                archived = archive.save(session_id=session, frame_index=i, verdict=result.verdict.verdict.value,
                                        source_name=name, detections=result.detections.to_records(),
                                        image_bgr=image, source_file=path, timestamp=result.timestamp)
        journal.record(session, result, image_hash=image_hash,
                       archive_original=archived.original if archived else "",
                       archive_annotated=archived.annotated if archived else "")
    journal.end_session(session, start + frames / fps)
    return session
