"""When a file in a watched folder has arrived: the camera software may still be writing it.

A file is ready once its size and modification time have not changed for `settle_s`. A file that
still fails to decode gets one more try `retry_after_s` later (a writer that paused longer than the
settle time); a file that stays at zero bytes for `empty_after_s` is reported, as is every entry named
like an image that is not a file (a folder called x.jpg, a symlink loop). Names are remembered only
while they are in the folder, so a station watching for weeks holds no ever-growing list.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from inference.imageio import scan_images


@dataclass
class _Pending:
    key: tuple[int, int]  # (size, mtime_ns)
    since: float
    retry_at: float = 0.0
    retried: bool = False


class Arrivals:
    def __init__(self, folder: Path, *, settle_s: float = 0.5, retry_after_s: float = 1.0,
                 empty_after_s: float = 2.0) -> None:
        self.folder = folder
        self.settle_s = settle_s
        self.retry_after_s = retry_after_s
        self.empty_after_s = empty_after_s
        self.seen = {p.name for p in folder.iterdir()}  # what was there before watching began is not inspected
        self._pending: dict[str, _Pending] = {}

    def poll(self, now: float) -> tuple[list[Path], list[tuple[Path, str]]]:
        """(files ready to decode, [(entry, why it is reported instead)])."""
        images, skipped = scan_images(self.folder)
        present = {p.name for p in images} | {p.name for p in skipped}
        self.seen &= present
        for name in set(self._pending) - present:
            del self._pending[name]
        problems = [(path, reason) for path, reason in skipped.items() if path.name not in self.seen]
        self.seen.update(path.name for path, _ in problems)
        ready = []
        for path in images:
            if path.name in self.seen:
                continue
            try:
                info = path.stat()
            except OSError:  # gone between listing and looking: it was not for us
                continue
            key = (info.st_size, info.st_mtime_ns)
            pending = self._pending.get(path.name)
            if pending is None or pending.key != key:
                self._pending[path.name] = _Pending(key, now, retried=pending.retried if pending else False)
                continue
            if now < pending.retry_at:
                continue
            if key[0] == 0:
                if now - pending.since >= self.empty_after_s:
                    self.done(path)
                    problems.append((path, f"an empty file (0 bytes for {self.empty_after_s:g} s)"))
                continue
            if now - pending.since >= self.settle_s:
                ready.append(path)
        return ready, problems

    def retry_later(self, path: Path, now: float) -> bool:
        """After a failed decode: True when the file gets its one more try later, False when it has had it."""
        pending = self._pending.get(path.name)
        if pending is None or pending.retried:
            self.done(path)
            return False
        pending.retried, pending.retry_at = True, now + self.retry_after_s
        return True

    def done(self, path: Path) -> None:
        self.seen.add(path.name)
        self._pending.pop(path.name, None)
