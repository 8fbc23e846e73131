"""A watched folder as the line's trigger: each file that arrives fires the camera's software trigger once.

Line software that cannot reach the station any other way (a sensor's PC, a PLC with an FTP client) drops a
file per garment; the file's name is the trigger id when it is a number (`000123.trg` is trigger 123), else
the station numbers the trigger. The file is consumed (deleted) once the trigger is sent, so the folder
does not grow and the writer sees it was taken. Files there before the station started are stale triggers:
left alone, never fired.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Callable

from inference.errors import HangtagError, SourceError


def trigger_id_of(name: str) -> int | None:
    stem = name.split(".", 1)[0]
    return int(stem) if stem.isdigit() else None


class FolderTrigger:
    """Polls `folder` on its own thread; `fire(trigger_id)` sends one trigger (and may raise: the camera is
    away), `refused(trigger_id, file, why)` records a trigger that could not be sent."""

    def __init__(self, folder: str | Path, fire: Callable[[int | None], int],
                 refused: Callable[[int | None, str, str], None], *, poll_s: float = 0.02) -> None:
        self.folder = Path(folder)
        if not self.folder.is_dir():
            raise SourceError(f"cannot watch the trigger folder {self.folder}", expected="an existing folder",
                              found="no such folder", hint="create the folder the line writes its trigger files into")
        self.fire, self.refused, self.poll_s = fire, refused, poll_s
        self.fired = 0
        self._seen = set(self._names())  # stale: there before the station looked
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name=f"trigger folder {self.folder}", daemon=True)
        self._thread.start()

    def _names(self) -> list[str]:
        try:
            entries = list(os.scandir(self.folder))
        except OSError:  # the folder went away (an unmounted share): nothing to fire until it is back
            return []
        files = [e for e in entries if not e.name.startswith(".") and e.is_file(follow_symlinks=False)]
        return [e.name for e in sorted(files, key=_arrival)]

    def _watch(self) -> None:
        while not self._stop.wait(self.poll_s):
            names = self._names()
            self._seen &= set(names)
            for name in names:
                if name in self._seen or self._stop.is_set():
                    continue
                self._seen.add(name)
                trigger_id = trigger_id_of(name)
                try:
                    self.fire(trigger_id)
                    self.fired += 1
                except HangtagError as exc:  # the camera is away or not triggerable: the trigger is recorded as lost
                    self.refused(trigger_id, name, exc.message)
                try:
                    (self.folder / name).unlink()
                except OSError:  # read-only share: remembered in _seen instead, while it is there
                    pass

    def close(self) -> None:
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)


def _arrival(entry: os.DirEntry) -> tuple[int, str]:
    try:
        return entry.stat(follow_symlinks=False).st_mtime_ns, entry.name
    except OSError:
        return 0, entry.name
