"""The station's per-frame recording: journal every verdict, archive NG/REVIEW images, and start a
new session whenever what defines one changes (source, recipe, model, backend, precision).

Called on the inspection thread right after a frame is inspected, so the verdict is committed
before the window shows it. A session runs from its first frame's time to the last thing journaled in it: it is
journaled seconds later (reading) and ended when the next session's first frame arrives, and neither moment is
when the line ran.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from inference.pipeline import FrameResult
from inference.records.archive import Archive, ArchiveError
from inference.records.convert import file_hash, pixels_hash, tag_records, verdict_parts
from inference.records.journal import Journal, JournalError
from inference.records.tag_rows import archive_tag_crop, tag_values

FLAGGED = ("NG", "REVIEW")


@dataclass(frozen=True)
class SessionKey:
    """What one session means: one run of a source under one recipe, model, backend and precision."""

    source: str
    recipe_name: str
    recipe_path: str
    model_path: str
    backend: str
    precision: str
    job: str = ""
    lot: str = ""


class Recorder:
    def __init__(self, journal: Journal, archive: Archive | None = None) -> None:
        self.journal = journal
        self.archive = archive
        self.session_id: int | None = None
        self._key: SessionKey | None = None
        self._model_hashes: dict[str, str] = {}
        self._last_at: float | None = None  # the time of the last frame or tag journaled in the session

    def use(self, key: SessionKey) -> None:
        """Declare the session the next frames belong to; a change ends the current session."""
        if key != self._key:
            self.end()
            self._key = key

    def record(self, result: FrameResult, image: np.ndarray | None) -> int:
        self._ensure_session(result.timestamp)
        verdict, _, checks = verdict_parts(result.verdict)
        archived, not_archived = None, None
        if self.archive is not None and result.ok and verdict in FLAGGED:
            try:
                archived = self.archive.save(session_id=self.session_id, frame_index=result.index, verdict=verdict,
                                             source_name=result.source_name,
                                             detections=result.detections.to_records(), image_bgr=image,
                                             source_file=_existing(result.source_path),
                                             tags=tag_records(result.readings), checks=checks)
            except (ArchiveError, OSError) as exc:  # the verdict is still journaled, without its images
                not_archived = exc
        image_hash = ""
        if _existing(result.source_path):
            image_hash = file_hash(result.source_path)
        elif image is not None:
            image_hash = pixels_hash(image)
        row = self.journal.record(self.session_id, result, image_hash=image_hash,
                                  archive_original=archived.original if archived else "",
                                  archive_annotated=archived.annotated if archived else "",
                                  job=self._key.job, lot=self._key.lot)
        if not_archived is not None:
            raise ArchiveError(f"frame {result.source_name} was journaled but its images were NOT archived",
                               expected=f"a writable archive at {self.archive.root}",
                               found=getattr(not_archived, "found", "") or str(not_archived),
                               hint="free disk space or check the drive; the journal row has no image")
        return row

    def record_tag(self, verdict: Any) -> int:
        """Journal one tag's verdict (a moving line's `inference.tracking.TagVerdict`), its best crop archived
        first; returns the tag row's id. A crop that cannot be archived still leaves the row, then raises."""
        judged_at = time.time()
        session_id = self._ensure_session(judged_at)
        crop, annotated, not_archived = "", "", None
        if self.archive is not None:
            try:
                crop, annotated = archive_tag_crop(self.archive, session_id, verdict)
            except (ArchiveError, OSError) as exc:
                not_archived = exc
        row = self.journal.record_tag(tag_values(verdict, timestamp=judged_at, session_id=session_id,
                                                 archive_crop=crop, archive_annotated=annotated,
                                                 job=self._key.job, lot=self._key.lot))
        if not_archived is not None:
            raise ArchiveError(f"tag {verdict.track_id} was journaled but its crop was NOT archived",
                               expected=f"a writable archive at {self.archive.root}",
                               found=getattr(not_archived, "found", "") or str(not_archived),
                               hint="free disk space or check the drive; the tag's row has no image")
        return row

    def _ensure_session(self, at: float) -> int:
        """The session `at` (a frame's or tag's time) belongs to, started at `at` if it is the first."""
        if self._key is None:
            raise RuntimeError("Recorder.use(SessionKey) must be called before recording")
        if self.session_id is None:
            key = self._key
            self.session_id = self.journal.start_session(
                job=key.job, lot=key.lot, recipe_name=key.recipe_name, recipe_path=key.recipe_path,
                source=key.source, model_hash=self._model_hash(key.model_path), backend=key.backend,
                precision=key.precision, started_at=at)
        self._last_at = at if self._last_at is None else max(self._last_at, at)
        return self.session_id

    def note_event(self, kind: str, subject: str, detail: str, *, at: float | None = None) -> None:
        """Journal a station event under the session being recorded (none before the first frame); may raise
        JournalError like `record`."""
        self.journal.record_event(kind, subject, detail, session_id=self.session_id, at=at)

    def end(self) -> None:
        """The session ends at the last frame or tag journaled in it, not when the next one's first frame comes.
        Never raises: a journal that can no longer take the session's end (full disk, unplugged drive)
        leaves the session open, and the next start closes it as interrupted."""
        session_id, self.session_id = self.session_id, None
        ended_at, self._last_at = self._last_at, None
        if session_id is not None:
            try:
                self.journal.end_session(session_id, ended_at=ended_at)
            except JournalError as exc:
                logging.getLogger(__name__).warning("%s", exc)

    def _model_hash(self, model_path: str) -> str:
        if model_path not in self._model_hashes:
            self._model_hashes[model_path] = file_hash(model_path) if Path(model_path).is_file() else ""
        return self._model_hashes[model_path]


def _existing(path: str | None) -> str | None:
    return path if path and Path(path).is_file() else None
