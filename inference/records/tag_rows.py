"""One journal row per physical tag (the moving line's verdict), beside the per-frame rows engineers keep.

A tag row says which frames the tag was seen in, which frame its verdict rests on, how it was read, where its
best crop was archived and, in triggered mode, the trigger's id. A tag the line saw pass but never read is a
row too (`missed`, verdict REVIEW): nothing that crossed the view is silently lost.

`tag_values` turns an `inference.tracking.TagVerdict` into the row's plain values (duck-typed: this module
does not import the tracker); `TagRecord` is what the journal gives back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from inference.records.convert import plain
from inference.records.types import FLAGGED, iso_time

TAG_COLUMNS = ("session_id", "tag_id", "trigger_id", "timestamp", "verdict", "reasons", "frames_seen", "first_frame",
               "last_frame", "best_frame", "read_frame", "reads", "missed", "timed_out", "latency_ms", "box",
               "fields", "archive_crop", "archive_annotated", "job", "lot", "checks")
JSON_COLUMNS = frozenset({"reasons", "box", "fields", "checks"})
INSERT_TAG = f"INSERT INTO tags ({', '.join(TAG_COLUMNS)}) VALUES ({', '.join('?' * len(TAG_COLUMNS))})"
SELECT_TAGS = f"SELECT id, {', '.join(TAG_COLUMNS)} FROM tags"


def tag_values(verdict: Any, *, timestamp: float, session_id: int, archive_crop: str = "",
               archive_annotated: str = "", job: str | None = None, lot: str | None = None) -> dict[str, Any]:
    """A TagVerdict as one row's values."""
    box = verdict.read_box if verdict.read_box is not None else verdict.last_box
    reading = verdict.reading
    return {
        "session_id": session_id, "tag_id": int(verdict.track_id),
        "trigger_id": None if verdict.trigger_id is None else str(verdict.trigger_id), "timestamp": timestamp,
        "verdict": str(getattr(verdict.verdict, "value", verdict.verdict)), "reasons": list(verdict.reasons),
        "frames_seen": int(verdict.frames_seen), "first_frame": verdict.first_frame, "last_frame": verdict.last_frame,
        "best_frame": verdict.best_frame, "read_frame": verdict.read_frame, "reads": int(verdict.reads),
        "missed": int(verdict.reads == 0 and verdict.trigger_id is None), "timed_out": int(verdict.timed_out),
        "latency_ms": round(float(verdict.latency_s) * 1000, 2),
        "box": [round(float(v), 1) for v in box],
        "fields": plain(reading.to_record()) if reading is not None and hasattr(reading, "to_record") else {},
        "archive_crop": str(archive_crop), "archive_annotated": str(archive_annotated), "job": job, "lot": lot,
        "checks": [plain(check) for check in getattr(verdict, "checks", ())],
    }


def row_params(values: dict[str, Any]) -> list[Any]:
    return [json.dumps(values.get(c), ensure_ascii=False, separators=(",", ":")) if c in JSON_COLUMNS
            else values.get(c) for c in TAG_COLUMNS]


@dataclass(frozen=True)
class TagRecord:
    """One tag row. Nested parts are plain JSON values; treat them as read-only."""

    id: int
    session_id: int
    tag_id: int
    trigger_id: str | None
    timestamp: float
    verdict: str
    reasons: tuple[str, ...]
    frames_seen: int
    first_frame: int | None
    last_frame: int | None
    best_frame: int | None
    read_frame: int | None
    reads: int
    missed: bool
    timed_out: bool
    latency_ms: float | None
    box: tuple[float, ...]
    fields: dict
    archive_crop: str
    archive_annotated: str
    job: str = ""
    lot: str = ""
    checks: tuple[dict, ...] = ()  # the checks of the read the verdict rests on, as a frame row's

    @classmethod
    def from_row(cls, row: tuple) -> TagRecord:
        (rid, sid, tag_id, trigger_id, ts, verdict, reasons, frames_seen, first, last, best, read, reads, missed,
         timed_out, latency, box, fields, crop, annotated, job, lot, checks) = row
        return cls(rid, sid, tag_id, trigger_id, ts, verdict, tuple(json.loads(reasons)), frames_seen, first, last,
                   best, read, reads, bool(missed), bool(timed_out), latency, tuple(json.loads(box)),
                   json.loads(fields), crop, annotated, job, lot, tuple(json.loads(checks)))

    @property
    def flagged(self) -> bool:
        return self.verdict in FLAGGED

    def to_dict(self) -> dict[str, Any]:
        return {"tag_row_id": self.id, "session_id": self.session_id, "tag_id": self.tag_id,
                "trigger_id": self.trigger_id, "time": iso_time(self.timestamp), "timestamp": self.timestamp,
                "verdict": self.verdict, "reasons": list(self.reasons), "frames_seen": self.frames_seen,
                "first_frame": self.first_frame, "last_frame": self.last_frame, "best_frame": self.best_frame,
                "read_frame": self.read_frame, "reads": self.reads, "missed": self.missed,
                "timed_out": self.timed_out, "latency_ms": self.latency_ms, "box": list(self.box),
                "fields": self.fields, "archive_crop": self.archive_crop,
                "archive_annotated": self.archive_annotated, "job": self.job, "lot": self.lot,
                "checks": list(self.checks)}


def archive_tag_crop(archive: Any, session_id: int, verdict: Any) -> tuple[str, str]:
    """The crop the tag's verdict rests on, into the image archive (original + stamped copy); ("", "") when the
    tag has no crop (never read). Raises the archive's own ArchiveError."""
    if verdict.crop is None or getattr(verdict.crop, "size", 0) == 0:
        return "", ""
    label = f"tag{int(verdict.track_id)}" if verdict.trigger_id is None else f"trigger{verdict.trigger_id}"
    frame = verdict.read_frame if verdict.read_frame is not None else verdict.last_frame
    saved = archive.save(session_id=session_id, frame_index=int(frame or 0),
                         verdict=str(getattr(verdict.verdict, "value", verdict.verdict)), source_name=label,
                         detections=[], image_bgr=verdict.crop)
    return saved.original, saved.annotated
