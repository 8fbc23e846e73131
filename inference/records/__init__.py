"""Inspection records: the SQLite journal, the NG/REVIEW image archive and session exports. Qt-free.

The station's loop, per frame:  result → (archive.save if NG/REVIEW) → journal.record → show verdict.
"""

from __future__ import annotations

from inference.records.archive import Archive, ArchivedImages, ArchiveError, PruneResult
from inference.records.convert import bytes_hash, file_hash, pixels_hash
from inference.records.export import ExportResult, export_session
from inference.records.journal import Journal, JournalError, default_journal_path
from inference.records.staging import ExportCancelled, ExportError, safe_name
from inference.records.types import FrameRecord, SessionInfo

__all__ = [
    "Archive", "ArchivedImages", "ArchiveError", "PruneResult", "bytes_hash", "file_hash", "pixels_hash",
    "ExportResult", "export_session", "Journal", "JournalError", "default_journal_path", "ExportCancelled",
    "ExportError", "safe_name", "FrameRecord", "SessionInfo",
]
