"""CSV, JSON and COCO forms of a session's journal rows.

frames.csv and frames.json hold one row per journal row, with the same values (`FrameRecord.to_flat`
and `to_dict`). CSV is written as UTF-8 with a BOM so spreadsheet programs show Chinese, and text
cells that a spreadsheet would run as a formula (=, +, -, @ first) get a leading apostrophe:
`unguard_cell` undoes it. The JSON file is the exact record; the CSV is for people.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from inference.records.tag_rows import TagRecord
from inference.records.types import FrameRecord, SessionInfo, compact_json, iso_time
from inference.telemetry import STAGES

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
FRAMES_FORMAT = "hangtag-station/frames"
FRAMES_FORMAT_VERSION = 1


def guard_cell(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return "" if value is None else value


def unguard_cell(text: str) -> str:
    return text[1:] if text.startswith("'") and text[1:2] in FORMULA_START else text


def latency_columns(frames: Sequence[FrameRecord]) -> tuple[str, ...]:
    seen = {stage for f in frames for stage in f.timings_ms}
    ordered = [s for s in STAGES if s in seen] + sorted(seen - set(STAGES) - {"total"})
    return tuple(ordered + (["total"] if "total" in seen else []))


def _csv_text(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows([[guard_cell(v) for v in row] for row in rows])
    return "\ufeff" + buffer.getvalue()


def frames_csv(session: SessionInfo, frames: Sequence[FrameRecord]) -> str:
    stages = latency_columns(frames)
    flat = [f.to_flat(session, stages) for f in frames]
    header = list(flat[0]) if flat else list(FrameRecord.__dataclass_fields__)
    return _csv_text(header, [[row.get(k) for k in header] for row in flat])


def frames_json(session: SessionInfo, frames: Sequence[FrameRecord]) -> str:
    """One frame per line: diffable and greppable, and json's C encoder (indent= would fall back to Python)."""
    head = json.dumps({"format": FRAMES_FORMAT, "version": FRAMES_FORMAT_VERSION, "session": session.to_dict()},
                      ensure_ascii=False)
    body = ",\n".join(json.dumps(f.to_dict(session), ensure_ascii=False) for f in frames)
    return f'{head[:-1]}, "frames": [\n{body}\n]}}\n'


TAG_CSV_COLUMNS = ("tag_row_id", "tag_id", "trigger_id", "time", "job", "lot", "verdict", "reasons", "missed",
                   "frames_seen",
                   "first_frame", "last_frame", "best_frame", "read_frame", "reads", "timed_out", "latency_ms", "box",
                   "fields", "archive_crop")


def tags_csv(tags: Sequence[TagRecord]) -> str:
    """One row per physical tag (a moving line's sessions)."""
    rows = []
    for tag in tags:
        row = tag.to_dict()
        rows.append([compact_json(row[k]) if k in ("reasons", "box", "fields") else row[k] for k in TAG_CSV_COLUMNS])
    return _csv_text(TAG_CSV_COLUMNS, rows)


def tags_json(session: SessionInfo, tags: Sequence[TagRecord]) -> str:
    head = json.dumps({"format": "hangtag-station/tags", "version": 1, "session": session.to_dict()},
                      ensure_ascii=False)
    body = ",\n".join(json.dumps(t.to_dict(), ensure_ascii=False) for t in tags)
    return f'{head[:-1]}, "tags": [\n{body}\n]}}\n'


def detections_csv(frames: Sequence[FrameRecord]) -> str:
    header = ["frame_id", "frame_index", "source_name", "verdict", "detection", "class_id", "class_name",
              "confidence", "x1", "y1", "x2", "y2"]
    rows = [[f.id, f.frame_index, f.source_name, f.verdict, i, d.get("class_id"), d.get("class_name"),
             d.get("confidence"), *d.get("xyxy", [None] * 4)]
            for f in frames for i, d in enumerate(f.detections)]
    return _csv_text(header, rows)


def fields_csv(frames: Sequence[FrameRecord]) -> str:
    """One row per field read, beside what the recipe expected and the check's result."""
    header = ["frame_id", "frame_index", "source_name", "verdict", "tag", "field", "value", "confidence", "source",
              "raw", "expected", "result", "reason"]
    rows = []
    for f in frames:
        checks = {(c.get("subject"), c.get("tag_index")): c for c in f.checks}
        for tag in f.tags:
            tag_index = tag.get("tag_index", 0)
            for name, read in (tag.get("fields") or {}).items():
                check = checks.get((name, tag_index), {})
                rows.append([f.id, f.frame_index, f.source_name, f.verdict, tag_index, name, read.get("value"),
                             read.get("confidence"), read.get("source"), read.get("raw"), check.get("expected", ""),
                             check.get("verdict", ""), check.get("reason", "")])
        read_names = {(name, tag.get("tag_index", 0)) for tag in f.tags for name in (tag.get("fields") or {})}
        for (subject, tag_index), c in checks.items():  # expected fields that were never read
            if tag_index is not None and (subject, tag_index) not in read_names and c.get("verdict") != "OK":
                rows.append([f.id, f.frame_index, f.source_name, f.verdict, tag_index, subject, "", "", "", "",
                             c.get("expected", ""), c.get("verdict", ""), c.get("reason", "")])
    return _csv_text(header, rows)


def coco(session: SessionInfo, frames: Sequence[FrameRecord], image_files: dict[int, str]) -> tuple[dict, list]:
    """(dataset with scored annotations, results list for `COCO.loadRes`). Category ids are the model's class ids."""
    names: dict[int, str] = {}
    for f in frames:
        for d in f.detections:
            names.setdefault(int(d["class_id"]), str(d["class_name"]))
    images, annotations, results = [], [], []
    for f in frames:
        h, w = f.image_hw
        images.append({"id": f.id, "file_name": image_files.get(f.id) or f.image_path or f.source_name,
                       "height": h, "width": w, "frame_index": f.frame_index, "verdict": f.verdict,
                       "date_captured": iso_time(f.timestamp)})
        for d in f.detections:
            x1, y1, x2, y2 = (float(v) for v in d["xyxy"])
            bbox = [round(x1, 2), round(y1, 2), round(x2 - x1, 2), round(y2 - y1, 2)]
            result = {"image_id": f.id, "category_id": int(d["class_id"]), "bbox": bbox,
                      "score": float(d["confidence"])}
            results.append(result)
            annotations.append({"id": len(annotations) + 1, **result, "area": round(bbox[2] * bbox[3], 2),
                                "iscrowd": 0})
    dataset = {
        "info": {"description": f"Hangtag Station session {session.id} ({session.job or session.recipe_name})",
                 "version": "1", "date_created": iso_time(session.started_at), "model_hash": session.model_hash},
        "licenses": [], "images": images, "annotations": annotations,
        "categories": [{"id": cid, "name": name, "supercategory": "hangtag"} for cid, name in sorted(names.items())],
    }
    return dataset, results
