"""FrameResult → the plain values one journal row holds, plus the content hashes that tie a row to its image.

The reader and the verdict are duck-typed: a FrameResult made without a recipe has `verdict=None`
and is journaled with an empty verdict, so the journal never depends on which reader ran.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping
from enum import Enum
from pathlib import Path
from typing import Any

import numpy as np

from inference.pipeline import FrameResult

HASH_NAME = "sha256"


def file_hash(path: Path | str, chunk: int = 1 << 20) -> str:
    """`sha256:<hex>` of a file's bytes: what an auditor recomputes to prove the image is the one judged."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(chunk):
            digest.update(block)
    return f"{HASH_NAME}:{digest.hexdigest()}"


def bytes_hash(data: bytes) -> str:
    return f"{HASH_NAME}:{hashlib.sha256(data).hexdigest()}"


def pixels_hash(image: np.ndarray) -> str:
    """For camera frames that never were a file: shape and dtype are hashed with the pixels."""
    digest = hashlib.sha256(f"{image.shape}{image.dtype}".encode())
    digest.update(np.ascontiguousarray(image).data)
    return f"{HASH_NAME}:{digest.hexdigest()}"


def plain(value: Any) -> Any:
    """Dataclasses, enums, mappings and tuples → JSON-ready values."""
    if isinstance(value, Enum):
        return plain(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, float):
        return round(value, 6)
    return value


def verdict_parts(verdict: Any) -> tuple[str, list[str], list[dict]]:
    """(verdict, reasons, checks) from a FrameVerdict, a bare Verdict/str, or None."""
    if verdict is None:
        return "", [], []
    inner = getattr(verdict, "verdict", verdict)
    name = str(plain(inner))
    reasons = [str(r) for r in getattr(verdict, "reasons", ())]
    checks = [plain(c) for c in getattr(verdict, "checks", ())]
    return name, reasons, checks


def tag_records(readings: tuple[Any, ...]) -> list[dict]:
    out = []
    for reading in readings:
        to_record = getattr(reading, "to_record", None)
        out.append(plain(to_record()) if callable(to_record) else plain(reading))
    return out


def frame_values(result: FrameResult) -> dict[str, Any]:
    """The row's columns that come from the result itself (no session, hash or archive)."""
    verdict, reasons, checks = verdict_parts(result.verdict)
    timings = result.timings.to_dict()
    memory = result.memory
    return {
        "frame_index": int(result.index),
        "timestamp": float(result.timestamp),
        "source_name": str(result.source_name),
        "image_path": str(result.source_path or ""),
        "image_h": int(result.image_hw[0]),
        "image_w": int(result.image_hw[1]),
        "verdict": verdict,
        "reasons": reasons,
        "checks": checks,
        "detections": result.detections.to_records(),
        "fields": tag_records(result.readings),
        "thresholds": plain(result.thresholds.to_dict()),
        "timings": timings,
        "total_ms": timings.get("total"),
        "rss_mb": round(memory.rss_mb, 2) if memory is not None else None,
        "vram_mb": round(memory.vram_mb, 2) if memory is not None and memory.vram_mb is not None else None,
        "error": result.error or "",
    }
