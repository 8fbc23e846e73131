"""Inspection records: the SQLite journal, the NG/REVIEW image archive and session exports. Qt-free.

How the station uses them (in the inspection worker, so the verdict is journaled before it is shown):

    journal = Journal.open()                      # default: user_data_dir()/journal.sqlite3
    archive = Archive(user_data_dir() / "archive", cap_bytes=20 * 2**30)
    session = journal.start_session(job=..., lot=..., recipe_name=..., recipe_path=..., source=...,
                                    model_hash=..., backend=..., precision=...)
    for each FrameResult `result` (and its BGR `image`):
        archived = None
        if verdict is NG or REVIEW:
            archived = archive.save(session_id=session, frame_index=result.index, verdict="NG",
                                    source_name=result.source_name, detections=result.detections.to_records(),
                                    image_bgr=image, source_file=result.source_path)
        journal.record(session, result, image_hash=file_hash(path) or pixels_hash(image),
                       archive_original=archived.original if archived else "",
                       archive_annotated=archived.annotated if archived else "")
    journal.end_session(session)

    # in an export worker: its own read-only connection, so a long read never delays record()
    with Journal.open(journal.path, read_only=True) as reader:
        result = export_session(reader, session, out_dir)      # app.report_pdf.export_session_with_pdf for PDF
    journal.mark_exported(result.session_id, str(result.path))  # a read-only reader cannot mark it
    archive.prune(journal.unexported_archive_paths())    # .needs_confirmation → ask, then confirm=True
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
