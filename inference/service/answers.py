"""FrameResult → the JSON the service answers: boxes in original pixels, timings in ms, the verdict's words."""

from __future__ import annotations

from typing import Any

from inference.pipeline import FrameResult


def detection_records(result: FrameResult) -> list[dict]:
    d = result.detections
    return [{"x1": round(float(b[0]), 2), "y1": round(float(b[1]), 2), "x2": round(float(b[2]), 2),
             "y2": round(float(b[3]), 2), "score": round(float(s), 4), "class_id": int(c),
             "class_name": d.name_of(int(c))}
            for b, s, c in zip(d.xyxy, d.confidence, d.class_id)]


def detect_answer(result: FrameResult, *, request_id: str, time_ms: float, queue_ms: float, batch: int,
                  model: str, precision: str, backend: str) -> dict[str, Any]:
    h, w = result.image_hw
    stages = {"queue": round(queue_ms, 3), **{k: round(v, 3) for k, v in result.timings.stages_ms.items()}}
    return {"code": 0, "request_id": request_id, "time": round(time_ms, 3), "model": model,
            "precision": precision, "backend": backend, "image": {"width": int(w), "height": int(h)},
            "batch": batch, "detections": detection_records(result), "timings_ms": stages}


def inspect_answer(result: FrameResult, recipe: Any, **detect_parts: Any) -> dict[str, Any]:
    """What the station shows: each tag's fields and barcodes, then the verdict and its reasons
    (no recipe → no verdict: null, never an invented OK)."""
    answer = detect_answer(result, **detect_parts)
    verdict = result.verdict
    answer.update({
        "recipe": getattr(recipe, "name", None) if recipe is not None else None,
        "tags": [reading.to_record() for reading in result.readings],
        "verdict": verdict.verdict.value if verdict is not None else None,
        "reasons": list(verdict.reasons) if verdict is not None else [],
    })
    return answer
