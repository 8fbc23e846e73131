"""Content-addressed cache for converted models: a change to any input makes a new entry.

The key hashes the model bytes, the precision and flavour, every calibration file's bytes, the
settings and the converter versions. An entry is a folder `<key>/` holding `model.onnx` and
`entry.json`; it is written to a temporary folder and renamed into place, so a cancelled or
crashed conversion never leaves a half entry that a later run would trust.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any, Iterable

from inference.precision.errors import CacheError

ENTRY_FILE = "entry.json"
MODEL_FILE = "model.onnx"
KEY_CHARS = 24
_CHUNK = 1 << 20


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        while block := handle.read(_CHUNK):
            digest.update(block)
    return digest.hexdigest()


def cache_key(model_sha256: str, precision: str, flavour: str, calibration_sha256: Iterable[str],
              settings: dict[str, Any]) -> str:
    """Stable for equal inputs; calibration files count by content, in the order given (sorted by caller)."""
    payload = {
        "model": model_sha256,
        "precision": precision,
        "flavour": flavour,
        "calibration": list(calibration_sha256),
        "settings": settings,
    }
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:KEY_CHARS]


def writable_root(root: Path) -> Path:
    """Create `root` and prove it can be written, or raise CacheError saying why."""
    try:
        root.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=root, prefix=".probe-", delete=True):
            pass
    except OSError as exc:
        raise CacheError("the model cache folder cannot be written", expected=f"a writable folder at {root}",
                         found=f"{type(exc).__name__}: {exc.strerror or exc}",
                         hint="fix its permissions, free disk space, or point HANGTAG_DATA_DIR at a writable "
                              "folder; the station keeps running on its current model") from exc
    return root


def default_root(kind: str = "precision") -> Path:
    from inference.resources import cache_dir

    try:
        base = cache_dir()
    except OSError as exc:
        raise CacheError("the station's data folder cannot be created", expected="a writable user data folder",
                         found=f"{type(exc).__name__}: {exc}",
                         hint="set HANGTAG_DATA_DIR to a writable folder") from exc
    return writable_root(base / kind)


def lookup(root: Path, key: str) -> Path | None:
    """The cached model for `key`, or None when absent or not matching its own record."""
    entry = root / key
    model, record = entry / MODEL_FILE, entry / ENTRY_FILE
    if not (model.is_file() and record.is_file()):
        return None
    try:
        info = json.loads(record.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    if not isinstance(info, dict) or not isinstance(info.get("output_sha256"), str) or info.get("key") != key \
            or info["output_sha256"] != file_sha256(model):
        return None  # damaged or edited by hand (a JSON list, a number for a hash): rebuild rather than trust it
    return model


def read_entry(model_path: Path) -> dict[str, Any] | None:
    record = Path(model_path).parent / ENTRY_FILE
    try:
        info = json.loads(record.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    return info if isinstance(info, dict) else None


class PendingEntry:
    """A temporary folder that becomes `<root>/<key>` on commit and disappears otherwise."""

    def __init__(self, root: Path, key: str) -> None:
        self.root, self.key = root, key
        try:
            self.folder = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=root))
        except OSError as exc:
            raise CacheError("cannot create a cache entry", expected=f"a writable folder at {root}",
                             found=str(exc), hint="check permissions and free disk space") from exc
        self.model_path = self.folder / MODEL_FILE

    def __enter__(self) -> PendingEntry:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.folder.exists():
            shutil.rmtree(self.folder, ignore_errors=True)

    def commit(self, record: dict[str, Any]) -> Path:
        record = {**record, "key": self.key, "output_sha256": file_sha256(self.model_path),
                  "created": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
        (self.folder / ENTRY_FILE).write_text(json.dumps(record, indent=2, default=str) + "\n", encoding="utf-8")
        final = self.root / self.key
        if final.exists():  # a stale or damaged entry under the same key
            shutil.rmtree(final, ignore_errors=True)
        try:
            os.replace(self.folder, final)
        except OSError as exc:
            raise CacheError("cannot move the finished entry into the cache", expected=f"{final} writable",
                             found=str(exc), hint="check permissions of the cache folder") from exc
        return final / MODEL_FILE
