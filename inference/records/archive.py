"""NG and REVIEW frames kept as files: the original next to its annotated copy, one folder per day.

    <root>/2026/11/30/s000012/000123_NG_tag-0042.orig.jpg
    <root>/2026/11/30/s000012/000123_NG_tag-0042.annotated.jpg

The original is the source file's bytes when there is one (so its hash matches the journal), else a
lossless PNG of the frame. The archive has a size cap; pruning removes the oldest frames first and
never touches a frame that a not-yet-exported session still refers to unless the operator confirms.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from inference.errors import HangtagError
from inference.records.annotate import annotate_frame
from inference.records.staging import safe_name

DEFAULT_CAP_BYTES = 20 * 2**30
ORIGINAL_TAG, ANNOTATED_TAG = ".orig", ".annotated"


class ArchiveError(HangtagError):
    """An archive folder cannot be written (full disk, no permission)."""


@dataclass(frozen=True)
class ArchivedImages:
    original: str
    annotated: str


@dataclass(frozen=True)
class PruneResult:
    """`needs_confirmation`: still over the cap, and only images of unexported sessions are left to delete."""

    deleted_files: tuple[str, ...]
    freed_bytes: int
    used_bytes: int
    cap_bytes: int
    protected_bytes: int
    needs_confirmation: bool


@dataclass(frozen=True)
class _Unit:
    """The files of one archived frame: deleted together so no annotated copy outlives its original."""

    key: str
    mtime: float
    size: int
    paths: tuple[str, ...]


class Archive:
    def __init__(self, root: Path | str, cap_bytes: int = DEFAULT_CAP_BYTES) -> None:
        self.root = Path(os.path.abspath(root))
        self.cap_bytes = int(cap_bytes)
        self._lock = threading.Lock()
        self._used: int | None = None

    def save(self, *, session_id: int, frame_index: int, verdict: str, source_name: str,
             detections: Iterable[Mapping], image_bgr: np.ndarray | None = None, source_file: Path | str | None = None,
             annotated_bgr: np.ndarray | None = None, timestamp: float | None = None,
             tags: Iterable[Mapping] = (), checks: Iterable[Mapping] = ()) -> ArchivedImages:
        """Write the original (copied from `source_file`, else encoded from `image_bgr`) and its annotated copy
        (`tags` and `checks` as journaled: the tags' paper outlines drawn in their verdict's colour)."""
        if image_bgr is None and source_file is None:
            raise ArchiveError("nothing to archive", expected="image_bgr or source_file", found="neither")
        day = time.localtime(timestamp or time.time())
        folder = self.root / f"{day.tm_year:04d}" / f"{day.tm_mon:02d}" / f"{day.tm_mday:02d}" / f"s{session_id:06d}"
        stem = f"{frame_index:06d}_{safe_name(verdict or 'NONE', max_len=8)}_{safe_name(Path(source_name).stem, max_len=60)}"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if source_file is not None:
                suffix = safe_name(Path(source_file).suffix.lstrip("."), max_len=5).lower() or "img"
                original = folder / f"{stem}{ORIGINAL_TAG}.{suffix}"
                shutil.copyfile(source_file, original)
            else:
                original = folder / f"{stem}{ORIGINAL_TAG}.png"
                _write_image(original, image_bgr, [])
            if annotated_bgr is None:
                frame = image_bgr if image_bgr is not None else _read_image(original)
                annotated_bgr = annotate_frame(frame, detections, verdict, tags=tags, checks=checks)
            annotated = folder / f"{stem}{ANNOTATED_TAG}.jpg"
            _write_image(annotated, annotated_bgr, [cv2.IMWRITE_JPEG_QUALITY, 90])
        except OSError as exc:
            raise ArchiveError("cannot write to the image archive", expected=f"a writable folder {folder}",
                               found=str(exc), hint="free disk space or choose another archive folder") from exc
        with self._lock:
            if self._used is not None:
                self._used += original.stat().st_size + annotated.stat().st_size
        return ArchivedImages(str(original), str(annotated))

    # -- size cap ------------------------------------------------------------------------------
    def used_bytes(self) -> int:
        with self._lock:
            if self._used is None:
                self._used = sum(u.size for u in self._units())
            return self._used

    @property
    def over_cap(self) -> bool:
        return self.used_bytes() > self.cap_bytes

    def prune(self, protected: Collection[str], *, confirm: bool = False) -> PruneResult:
        """Delete oldest frames until under the cap. `protected`: paths from `Journal.unexported_archive_paths()`."""
        protected_set = {os.path.normpath(p) for p in protected}
        units = sorted(self._units(), key=lambda u: (u.mtime, u.key))
        used = sum(u.size for u in units)
        is_protected = lambda u: any(p in protected_set for p in u.paths)  # noqa: E731
        deleted: list[str] = []
        gone: set[str] = set()
        freed = 0
        for allow_protected in (False, True):
            if allow_protected and not confirm:
                break
            for unit in units:
                if used - freed <= self.cap_bytes:
                    break
                if is_protected(unit) != allow_protected or unit.key in gone:
                    continue
                gone.add(unit.key)
                for path in unit.paths:
                    try:
                        os.remove(path)
                    except FileNotFoundError:
                        pass
                    deleted.append(path)
                freed += unit.size
        self._remove_empty_folders()
        remaining = used - freed
        protected_bytes = sum(u.size for u in units if is_protected(u) and u.key not in gone)
        with self._lock:
            self._used = remaining
        return PruneResult(tuple(deleted), freed, remaining, self.cap_bytes, protected_bytes,
                           needs_confirmation=remaining > self.cap_bytes and not confirm)

    def _units(self) -> list[_Unit]:
        groups: dict[str, list[os.DirEntry]] = {}
        if not self.root.is_dir():
            return []
        for entry in _walk_files(self.root):
            name = entry.name
            for tag in (ORIGINAL_TAG, ANNOTATED_TAG):
                cut = name.find(tag + ".")
                if cut > 0:
                    name = name[:cut]
                    break
            groups.setdefault(os.path.join(os.path.dirname(entry.path), name), []).append(entry)
        units = []
        for key, entries in groups.items():
            stats = [e.stat() for e in entries]
            units.append(_Unit(key, min(s.st_mtime for s in stats), sum(s.st_size for s in stats),
                               tuple(sorted(os.path.normpath(e.path) for e in entries))))
        return units

    def _remove_empty_folders(self) -> None:
        for folder, _subdirs, _files in os.walk(self.root, topdown=False):
            if folder != str(self.root) and not os.listdir(folder):
                try:
                    os.rmdir(folder)
                except OSError:
                    pass


def _walk_files(root: Path) -> Iterable[os.DirEntry]:
    stack = [str(root)]
    while stack:
        with os.scandir(stack.pop()) as it:
            for entry in it:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(entry.path)
                elif entry.is_file(follow_symlinks=False):
                    yield entry


def open_station_archive(cap_bytes: int = DEFAULT_CAP_BYTES) -> Archive | None:
    """The archive in the station's data folder; None when that folder cannot even be created (the journal,
    in the same folder, is then offline and says why on every frame)."""
    from inference.resources import user_data_dir

    try:
        return Archive(user_data_dir() / "archive", cap_bytes=cap_bytes)
    except OSError:
        return None


def _write_image(path: Path, image: np.ndarray, params: list[int]) -> None:
    ok, data = cv2.imencode(path.suffix, image, params)
    if not ok:
        raise OSError(f"could not encode {path.name}")
    with open(path, "wb") as handle:
        handle.write(data.tobytes())


def _read_image(path: Path) -> np.ndarray:
    image = cv2.imdecode(np.fromfile(str(path), np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise OSError(f"could not decode {path}")
    return image
