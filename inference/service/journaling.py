"""`--journal`: every inspected request becomes a station frame in the journal, so reports and exports
work for the service as they do for the station. One session per service run."""

from __future__ import annotations

import hashlib
from pathlib import Path

from inference.pipeline import FrameResult
from inference.records.convert import HASH_NAME
from inference.records.journal import Journal


def body_hash(body: bytes) -> str:
    """The same `sha256:<hex>` the station stores for a file: what an auditor recomputes from the bytes sent."""
    return f"{HASH_NAME}:{hashlib.sha256(body).hexdigest()}"


class JournalSink:
    """Thread-safe (the Journal holds a lock): inference workers and the decode pool both record."""

    def __init__(self, path: Path | None, *, source: str, model_hash: str, backend: str, precision: str,
                 recipe_name: str = "", recipe_path: str = "") -> None:
        self.journal = Journal.open(path)
        self.session_id = self.journal.start_session(source=source, model_hash=model_hash, backend=backend,
                                                     precision=precision, recipe_name=recipe_name,
                                                     recipe_path=recipe_path)

    @property
    def path(self) -> Path:
        return self.journal.path

    def record(self, result: FrameResult, image_hash: str = "") -> int:
        return self.journal.record(self.session_id, result, image_hash=image_hash)

    def close(self) -> None:
        self.journal.end_session(self.session_id)
        self.journal.close()
