"""What the journal gives back: one `SessionInfo` per run and one `FrameRecord` per inspected frame.

Both are frozen and built only from the stored row, so an export shows exactly what was journaled.
`to_dict` is the JSON form, `to_flat` the CSV form: one column per scalar, nested parts as JSON text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

VERDICTS = ("OK", "NG", "REVIEW")
FLAGGED = ("NG", "REVIEW")


def iso_time(timestamp: float | None) -> str:
    if timestamp is None:
        return ""
    return datetime.fromtimestamp(timestamp, timezone.utc).astimezone().isoformat(timespec="milliseconds")


def compact_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


@dataclass(frozen=True)
class SessionInfo:
    """One run of one source under one recipe and one model; changing any of them starts a new session."""

    id: int
    started_at: float
    ended_at: float | None
    station_id: str
    job: str
    lot: str
    recipe_name: str
    recipe_path: str
    source: str
    model_hash: str
    backend: str
    precision: str
    exported_at: float | None
    export_path: str
    frame_count: int = 0
    end_reason: str = ""  # "" while running or ended normally; "interrupted" when its station was killed
    owner: str = ""  # "host:pid" of the station process that writes it

    @property
    def exported(self) -> bool:
        return self.exported_at is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "station_id": self.station_id, "job": self.job, "lot": self.lot,
            "recipe_name": self.recipe_name, "recipe_path": self.recipe_path, "source": self.source,
            "model_hash": self.model_hash, "backend": self.backend, "precision": self.precision,
            "started_at": iso_time(self.started_at), "ended_at": iso_time(self.ended_at),
            "frame_count": self.frame_count,
        }


@dataclass(frozen=True)
class EventRecord:
    """A station event that is not a frame (a Triton server down or back, the local fallback)."""

    id: int
    session_id: int | None  # the session being recorded when it happened; None before the first
    at: float
    kind: str  # e.g. "triton_server_down", "triton_all_down", "triton_fallback_local"
    subject: str  # what it is about: a server URL
    detail: str  # in the operator's words

    def to_dict(self) -> dict[str, Any]:
        return {"event_id": self.id, "session_id": self.session_id, "time": iso_time(self.at), "kind": self.kind,
                "subject": self.subject, "detail": self.detail}


@dataclass(frozen=True)
class FrameRecord:
    """One journal row. Nested parts are plain JSON values; treat them as read-only."""

    id: int
    session_id: int
    frame_index: int
    timestamp: float
    source_name: str
    image_path: str
    image_hash: str
    image_hw: tuple[int, int]
    verdict: str  # "OK", "NG", "REVIEW", or "" when no recipe judged the frame
    reasons: tuple[str, ...]
    checks: tuple[dict, ...]
    detections: tuple[dict, ...]
    tags: tuple[dict, ...]  # one TagReading.to_record() per tag: fields read, barcodes, OCR lines
    thresholds: dict
    timings_ms: dict  # per stage, plus "total"
    rss_mb: float | None
    vram_mb: float | None
    error: str
    archive_original: str
    archive_annotated: str
    job: str = ""  # the job and lot the frame was inspected under (a PLC may change them within a run)
    lot: str = ""

    @property
    def flagged(self) -> bool:
        return self.verdict in FLAGGED

    @property
    def total_ms(self) -> float | None:
        value = self.timings_ms.get("total")
        return float(value) if value is not None else None

    def to_dict(self, session: SessionInfo | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"frame_id": self.id, "session_id": self.session_id}
        if session is not None:
            out.update(_session_columns(session))
        out.update({
            "frame_index": self.frame_index, "time": iso_time(self.timestamp), "timestamp": self.timestamp,
            "source_name": self.source_name, "image_path": self.image_path, "image_hash": self.image_hash,
            "image_h": self.image_hw[0], "image_w": self.image_hw[1],
            "verdict": self.verdict, "reasons": list(self.reasons), "checks": list(self.checks),
            "detections": list(self.detections), "tags": list(self.tags), "thresholds": self.thresholds,
            "timings_ms": self.timings_ms, "rss_mb": self.rss_mb, "vram_mb": self.vram_mb, "error": self.error,
            "archive_original": self.archive_original, "archive_annotated": self.archive_annotated,
        })
        out["job"], out["lot"] = self.job, self.lot  # the frame's own, where a session's would stand
        return out

    def to_flat(self, session: SessionInfo | None = None, stages: tuple[str, ...] = ()) -> dict[str, Any]:
        """CSV columns; `stages` fixes the latency columns so every row of a file has the same ones."""
        row = self.to_dict(session)
        for key in ("reasons", "checks", "detections", "tags", "thresholds"):
            row[key] = compact_json(row[key])
        timings = row.pop("timings_ms")
        for stage in stages or tuple(timings):
            row[f"{stage}_ms"] = timings.get(stage, "")
        row["fields"] = compact_json([{name: f.get("value") for name, f in (tag.get("fields") or {}).items()}
                                      for tag in self.tags])
        return row


def _session_columns(session: SessionInfo) -> dict[str, Any]:
    return {"station_id": session.station_id, "job": session.job, "lot": session.lot,
            "recipe": session.recipe_name, "model_hash": session.model_hash, "backend": session.backend,
            "precision": session.precision}
