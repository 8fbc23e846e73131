"""Writing a report folder so that it is either complete under its final name or not there at all.

Everything is written into a hidden `.hangtag-export-<pid>-<token>.partial` folder beside the
target and renamed into place at the end; any failure or interruption removes the partial folder,
and a partial left by a killed process is removed by the next export into the same folder. Every
path is checked to stay inside the staging folder, and names that came from sources are sanitized.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import shutil
import unicodedata
from pathlib import Path, PurePosixPath

from inference.errors import HangtagError

PARTIAL_PREFIX = ".hangtag-export-"
PARTIAL_SUFFIX = ".partial"
_WINDOWS_RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)), *(f"LPT{i}" for i in range(1, 10))}
_UNSAFE = re.compile(r"[^\w.\-]+", re.UNICODE)
_FULL = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}
_DENIED = {errno.EROFS, errno.EACCES, errno.EPERM}


class ExportError(HangtagError):
    """A report could not be written; nothing was left under the report's name."""


class ExportCancelled(ExportError):
    """The operator stopped the export; nothing was left under the report's name."""


def safe_name(text: str, *, max_len: int = 80, fallback: str = "unnamed") -> str:
    """A file-name component from untrusted text: no separators, no `..`, no control or reserved names.

    Letters of any script stay (a Chinese style name stays readable); everything else becomes `_`.
    """
    text = unicodedata.normalize("NFKC", str(text))
    text = _UNSAFE.sub("_", text.replace("/", "_").replace("\\", "_"))
    text = re.sub(r"_+", "_", text).strip("._- ")
    text = re.sub(r"\.{2,}", ".", text)
    text = text[:max_len].rstrip(". ")
    if text.split(".")[0].upper() in _WINDOWS_RESERVED:
        text = f"_{text}"
    return text or fallback


def explain_os_error(exc: OSError, folder: Path) -> ExportError:
    code = exc.errno
    if code in _FULL:
        return ExportError("the disk is full: the report was not written", expected=f"free space in {folder}",
                           found=str(exc), hint="free some space or export to another drive; nothing partial was left")
    if code in _DENIED:
        return ExportError("the export folder is read-only or not writable", expected=f"a writable folder: {folder}",
                           found=str(exc), hint="choose another folder; nothing partial was left")
    if code in (errno.ENOTDIR, errno.ENOENT):
        return ExportError("the export folder is not a folder", expected=f"a folder: {folder}", found=str(exc),
                           hint="choose an existing folder, or a new name inside one")
    return ExportError("the report could not be written", expected=f"a writable folder: {folder}", found=str(exc),
                       hint="nothing partial was left")


class StagedFolder:
    """Use as a context manager; call `commit()` last. Leaving the block without it removes everything."""

    def __init__(self, parent: Path | str, name: str, *, durable: bool = True) -> None:
        self.parent = Path(os.path.abspath(parent))
        self.name = safe_name(name)
        self.durable = durable
        self.root: Path | None = None
        self.final: Path | None = None

    def __enter__(self) -> StagedFolder:
        try:
            self.parent.mkdir(parents=True, exist_ok=True)
            remove_stale_partials(self.parent)
            token = f"{PARTIAL_PREFIX}{os.getpid()}-{secrets.token_hex(4)}{PARTIAL_SUFFIX}"
            self.root = self.parent / token
            self.root.mkdir()
        except OSError as exc:
            raise explain_os_error(exc, self.parent) from exc
        return self

    def __exit__(self, exc_type: object, exc: BaseException | None, tb: object) -> None:
        if self.root is not None and self.root.exists():
            shutil.rmtree(self.root, ignore_errors=True)
        if isinstance(exc, OSError):
            raise explain_os_error(exc, self.parent) from exc

    def path(self, relative: str) -> Path:
        """An absolute path inside the staging folder for `relative` (POSIX separators, no `..`)."""
        if self.root is None:
            raise RuntimeError("StagedFolder used outside its `with` block")
        rel = PurePosixPath(relative)
        if rel.is_absolute() or ".." in rel.parts or "\\" in relative or not rel.parts:
            raise ExportError("refused to write outside the export folder", expected="a relative path inside it",
                              found=relative)
        target = (self.root / Path(*rel.parts)).resolve()
        if not target.is_relative_to(self.root.resolve()):
            raise ExportError("refused to write outside the export folder", expected=str(self.root), found=str(target))
        target.parent.mkdir(parents=True, exist_ok=True)
        return target

    def write_bytes(self, relative: str, data: bytes) -> Path:
        target = self.path(relative)
        with open(target, "xb") as handle:
            handle.write(data)
            if self.durable:
                handle.flush()
                os.fsync(handle.fileno())
        return target

    def write_text(self, relative: str, text: str) -> Path:
        return self.write_bytes(relative, text.encode("utf-8"))

    def copy_file(self, relative: str, source: Path | str) -> Path:
        target = self.path(relative)
        with open(source, "rb") as src, open(target, "xb") as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
            if self.durable:
                dst.flush()
                os.fsync(dst.fileno())
        return target

    def commit(self) -> Path:
        """Rename into place under a free name (`name`, `name-2`, …); returns the final folder."""
        assert self.root is not None
        for n in range(1, 1000):
            candidate = self.parent / (self.name if n == 1 else f"{self.name}-{n}")
            if candidate.exists():
                continue
            try:
                os.rename(self.root, candidate)
            except OSError as exc:
                if exc.errno in (errno.EEXIST, errno.ENOTEMPTY):
                    continue
                raise
            self.root, self.final = None, candidate
            if self.durable:
                _fsync_folder(self.parent)
            return candidate
        raise ExportError("no free name for the report", expected=f"{self.name} or {self.name}-N", found="999 taken")


def remove_stale_partials(parent: Path) -> list[Path]:
    """Partial folders whose writing process is gone: left by a kill or a power cut."""
    import psutil

    removed = []
    for entry in parent.iterdir():
        if not (entry.name.startswith(PARTIAL_PREFIX) and entry.name.endswith(PARTIAL_SUFFIX)):
            continue
        pid_text = entry.name[len(PARTIAL_PREFIX):].split("-", 1)[0]
        if pid_text.isdigit() and not psutil.pid_exists(int(pid_text)):
            shutil.rmtree(entry, ignore_errors=True)
            removed.append(entry)
    return removed


def _fsync_folder(folder: Path) -> None:
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
