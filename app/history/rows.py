"""One journal row (a frame, or a moving line's tag) as the History window shows it: time, source, verdict, reasons,
the fields read, and which picture to show or why there is none. No widgets here; files are only asked whether they
exist, and only for the row being looked at."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path
from types import SimpleNamespace

from app.widgets.results_table import readable_name
from inference.records.report import expected_label, subject_label
from inference.records.tag_rows import TagRecord
from inference.records.types import FLAGGED, FrameRecord

NOT_JUDGED = "no recipe"  # the words and colour the Results table gives a frame inspected without a recipe


@dataclass(frozen=True)
class FieldRead:
    label: str  # "price 价格": the field's name with its Chinese label
    read: str
    confidence: float | None
    expected: str = ""  # "" when no recipe asked for it
    verdict: str = ""  # the check's verdict; "" when nothing was checked


@dataclass(frozen=True)
class HistoryRow:
    key: int  # the journal row's id: the next page starts after it
    timestamp: float
    source: str
    verdict: str  # OK, NG, REVIEW, ERROR or "no recipe"
    reasons: tuple[str, ...]
    record: FrameRecord | TagRecord

    @property
    def time_text(self) -> str:
        return time.strftime("%H:%M:%S", time.localtime(self.timestamp))

    @property
    def day_time_text(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(self.timestamp))

    @property
    def fields(self) -> tuple[FieldRead, ...]:
        if isinstance(self.record, TagRecord):
            return frame_fields(self.record.checks, (self.record.fields,) if self.record.fields else ())
        return frame_fields(self.record.checks, self.record.tags)

    def image(self) -> tuple[str, str]:
        """(file to show or "", what it is or why there is none); asks the disk, so only for the row looked at."""
        return tag_image(self.record) if isinstance(self.record, TagRecord) else frame_image(self.record)


def nothing_read(row: HistoryRow) -> str:
    """What the fields table says of a row with no field: why nothing was read, in the operator's words ("no fields
    read were journaled for this row" said it in the engineer's, for a tag that passed unread)."""
    record = row.record
    if isinstance(record, TagRecord) and not record.reads:
        return "nothing read: the tag passed unread"
    if isinstance(record, FrameRecord) and record.error:
        return "nothing read: the frame could not be inspected"
    return "no field was read"


def frame_row(frame: FrameRecord) -> HistoryRow:
    verdict = "ERROR" if frame.error else (frame.verdict or NOT_JUDGED)
    reasons = (frame.error,) if frame.error else frame.reasons
    return HistoryRow(frame.id, frame.timestamp, frame_source(frame.source_name, frame.frame_index), verdict, reasons,
                      frame)


def tag_row(tag: TagRecord) -> HistoryRow:
    source = f"trigger {tag.trigger_id}" if tag.trigger_id is not None else f"tag {tag.tag_id}"
    if tag.missed:
        source += " (passed unread)"
    return HistoryRow(tag.id, tag.timestamp, source, tag.verdict, tag.reasons, tag)


def frame_source(source_name: str, frame_index: int) -> str:
    """As the Results table names it: "camera 0 #57", "replay line.avi #57", files by their own name."""
    return readable_name(SimpleNamespace(source_name=source_name, index=frame_index))


def frame_fields(checks: tuple[dict, ...], tags: tuple[dict, ...]) -> tuple[FieldRead, ...]:
    """Every check (what the recipe expected, what was read, its verdict), then the fields read that no check was
    about (a frame inspected without a recipe has only these)."""
    out, checked = [], set()
    # the number a barcode check read is the tag's EAN-13 field too: one row, not "barcode" and "ean13 条码" twice
    barcodes: dict[tuple, int] = {}
    for row, check in enumerate(checks):
        if check.get("source") == "barcode" and check.get("read"):
            barcodes.setdefault((check.get("tag_index"), _text(check.get("read"))), row)
    # two tags judged: each row names its tag ("brand 品牌" twice said nothing of which tag read what)
    many = len({c.get("tag_index") for c in checks if isinstance(c.get("tag_index"), int)}) > 1 or len(tags) > 1
    for check in checks:
        subject, tag_index = str(check.get("subject", "?")), check.get("tag_index")
        checked.add((subject, tag_index))
        prefix = f"tag {tag_index + 1}: " if many and isinstance(tag_index, int) else ""
        out.append(FieldRead(prefix + subject_label(subject), _text(check.get("read")),
                             _confidence(check.get("confidence")), expected_label(subject, _text(check.get("expected"))),
                             str(check.get("verdict") or "")))
    for index, tag in enumerate(tags):
        tag_index = tag.get("tag_index", index)
        for name, field in (tag.get("fields") or {}).items():
            if (name, tag_index) in checked:
                continue
            field = field if isinstance(field, dict) else {"value": field}
            row = barcodes.get((tag_index, _text(field.get("value"))))
            if row is not None:  # the barcode check's row shows it, with the field's confidence where it had none
                if out[row].confidence is None:
                    out[row] = replace(out[row], confidence=_confidence(field.get("confidence")))
                continue
            prefix = f"tag {tag_index + 1}: " if many and isinstance(tag_index, int) else ""
            out.append(FieldRead(prefix + subject_label(name), _text(field.get("value")),
                                 _confidence(field.get("confidence"))))
    return tuple(out)


def frame_image(frame: FrameRecord) -> tuple[str, str]:
    archived = _archived(frame.archive_annotated, frame.archive_original)
    if archived is not None:
        return archived
    if frame.archive_annotated or frame.archive_original:
        why = f"image no longer in the archive (pruned or moved): {Path(frame.archive_annotated or frame.archive_original).name}"
    elif frame.error:
        why = "image not archived: the frame could not be inspected"
    elif frame.verdict in FLAGGED:
        why = "image not archived: archiving was off (or failed) when this frame was inspected"
    else:
        why = "image not archived: the station archives NG and REVIEW frames only"
    if frame.image_path and Path(frame.image_path).is_file():
        return frame.image_path, f"{why}. Showing the source file instead (not annotated): {Path(frame.image_path).name}"
    return "", why


def tag_image(tag: TagRecord) -> tuple[str, str]:
    archived = _archived(tag.archive_annotated, tag.archive_crop)
    if archived is not None:
        return archived
    if tag.archive_annotated or tag.archive_crop:
        return "", f"image no longer in the archive (pruned or moved): {Path(tag.archive_annotated or tag.archive_crop).name}"
    if tag.missed or not tag.reads:
        return "", "no image: the tag passed without being read"
    return "", "image not archived: archiving was off (or failed) when this tag was judged"


def _archived(annotated: str, original: str) -> tuple[str, str] | None:
    if annotated and Path(annotated).is_file():
        return annotated, f"annotated copy in the archive: {Path(annotated).name}"
    if original and Path(original).is_file():
        return original, f"original in the archive (its annotated copy is missing): {Path(original).name}"
    return None


def _text(value: object) -> str:
    return "" if value is None else str(value)


def _confidence(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) else None
