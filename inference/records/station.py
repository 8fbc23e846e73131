"""A windowless station's recording: the journal and archive the window uses, with what cannot be recorded said.

`hangtag-station --headless` and `hangtag-inspect line` record through this, as the window does through its
`Recorder`: one session per source, recipe, model, backend, precision, job and lot; every inspected frame
journaled (and committed) before its verdict goes anywhere else. A data folder that cannot take records is
said once at start, each kind of failure once when it happens, and the station goes on inspecting; every
frame that was not recorded is counted and its caller can mark it.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path
from typing import Any, TextIO

from inference.errors import HangtagError
from inference.records.archive import DEFAULT_CAP_BYTES, open_station_archive
from inference.records.journal import OfflineJournal, open_station_journal
from inference.records.recorder import Recorder, SessionKey

NOT_RECORDED = " [NOT recorded]"
NOT_ARCHIVED = " [NOT archived]"


def session_key(source: Any, inspector: Any, recipe_path: Path | str | None = None, *, job: str = "",
                lot: str = "") -> SessionKey:
    """The session an `inference.inspection.Inspector`'s frames from `source` (a spec or a FrameSource) belong to;
    `recipe_path`: the recipe's file, when the recipe does not say (a recipe loaded from a file carries it)."""
    recipe = getattr(inspector, "recipe", None)
    path = recipe_path or (getattr(recipe, "path", "") if recipe is not None else "")
    return SessionKey(source=source if isinstance(source, str) else source.description,
                      recipe_name=inspector.recipe_name or "", recipe_path=str(path or ""),
                      model_path=str(getattr(inspector.pipeline.engine, "model_path", "")),
                      backend=inspector.pipeline.backend, precision=getattr(inspector, "precision", "fp32"),
                      job=job, lot=lot)


class StationRecords:
    """Owns a Recorder for one run. `frame` and `tag` are called on the inspection thread; `note_event` may come from
    another thread (the journal has its own lock). Never raises for a record it could not make."""

    def __init__(self, recorder: Recorder, err: TextIO | None = None) -> None:
        self.recorder = recorder
        self.err = err if err is not None else sys.stderr
        self.not_recorded = 0  # frames and tags whose row is not in the journal
        self._told: set[str] = set()
        self._lock = threading.Lock()

    @classmethod
    def open(cls, journal_path: Path | str | None = None, err: TextIO | None = None) -> StationRecords:
        err = err if err is not None else sys.stderr
        journal = open_station_journal(journal_path)
        if isinstance(journal, OfflineJournal):
            print(f"warning: results will NOT be recorded: {journal.reason}\n  inspecting anyway; each frame's line "
                  "says [NOT recorded]", file=err, flush=True)
        return cls(Recorder(journal, open_station_archive(DEFAULT_CAP_BYTES)), err)

    @property
    def journal(self):
        return self.recorder.journal

    def use(self, key: SessionKey) -> None:
        self.recorder.use(key)

    def frame(self, result: Any, image: Any) -> str:
        """'' when the frame is journaled (and, if NG/REVIEW, archived); else the mark for its line."""
        return self._attempt(lambda: self.recorder.record(result, image))

    def tag(self, verdict: Any) -> str:
        """One item's verdict (`inference.tracking.TagVerdict`) as its tag row; '' or the mark, as `frame`."""
        return self._attempt(lambda: self.recorder.record_tag(verdict))

    def note_event(self, kind: str, subject: str, detail: str, *, at: float | None = None) -> None:
        """A station event under the session being recorded (as `Recorder.note_event`)."""
        self._attempt(lambda: self.recorder.note_event(kind, subject, detail, at=at), row=False)

    def close(self) -> None:
        """Ends the session (never raises) and closes the journal."""
        self.recorder.end()
        self.recorder.journal.close()

    def _attempt(self, record, *, row: bool = True) -> str:
        try:
            record()
        except HangtagError as exc:
            kind = type(exc).__name__
            with self._lock:
                first = kind not in self._told
                self._told.add(kind)
                if row and kind != "ArchiveError":  # an archive failure still journaled the row
                    self.not_recorded += 1
            if first:
                print(f"warning: {exc}", file=self.err, flush=True)
            return NOT_ARCHIVED if kind == "ArchiveError" else NOT_RECORDED
        return ""
