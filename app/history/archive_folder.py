"""Which folder of the image archive holds a session's pictures, found from the journal's own rows: the archive keeps
each session's pictures together (`<archive>/2026/12/04/s000012/`), and the rows name the files they archived, so
the History window needs no archive root of its own. No widgets here."""

from __future__ import annotations

from pathlib import Path

from inference.errors import HangtagError
from inference.records.journal import Journal
from inference.records.tag_rows import TagRecord
from inference.records.types import FLAGGED, FrameRecord, SessionInfo

SCAN_ROWS = 200  # rows read at most per look (twice): a session that archived nothing is not read to its end


class NoArchiveFolder(HangtagError):
    """The session has no archive folder to open: it archived nothing, or its folder is gone."""


def archive_paths(record: FrameRecord | TagRecord) -> tuple[str, ...]:
    """The archive files a journal row names (annotated copy first); () when it archived nothing."""
    if isinstance(record, TagRecord):
        paths = (record.archive_annotated, record.archive_crop)
    else:
        paths = (record.archive_annotated, record.archive_original)
    return tuple(p for p in paths if p)


def session_archive_folder(reader: Journal, session: SessionInfo, *, tags: bool) -> Path:
    """The folder of the session's first archived picture. Only NG and REVIEW rows are archived, so those are looked
    at first, then the first rows of any verdict; raises NoArchiveFolder with what was looked at."""
    page = reader.tag_page if tags else reader.frame_page
    unit = "tags" if tags else "frames"
    looked_at = 0
    for verdicts in (FLAGGED, ()):
        rows = page(session.id, verdicts=verdicts, limit=SCAN_ROWS)
        looked_at = len(rows)
        for record in rows:
            for path in archive_paths(record):
                folder = Path(path).parent
                if folder.is_dir():
                    return folder
                raise NoArchiveFolder(f"the archive folder of session {session.id} is gone",
                                      expected="the folder its pictures were archived in", found=f"no {folder}",
                                      hint="the archive was pruned to stay under its size cap, or moved; the journal "
                                           "still holds every row's verdict, reasons and fields")
    whole = looked_at < SCAN_ROWS
    raise NoArchiveFolder(f"session {session.id} archived no pictures",
                          expected=f"NG and REVIEW {unit} with their pictures in the image archive",
                          found=f"none of its {looked_at} {unit} has an archived picture" if whole else
                          f"none of its first {SCAN_ROWS} NG/REVIEW {unit} nor its first {SCAN_ROWS} {unit} has an "
                          "archived picture",
                          hint="archiving was off or failed while it ran (no archive folder, a full disk), or it had "
                               f"no NG or REVIEW {unit}: the journal still holds every row's verdict, reasons and "
                               "fields")
