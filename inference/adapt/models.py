"""Which detector the station uses: the shipped one, or one an engineer adopted after comparing it.

    <data>/models/sha256-<12 hex>.onnx   every adopted model, by content (a path never changes meaning)
    <data>/models/adopted.json           the adoption history, newest last

Adopted files are kept by content hash, so the journal's model hash (recorded with every session the
frames belong to) always names a file that can be found again, and rolling back is a pop.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import onnx

from inference.adapt.errors import AdaptError
from inference.model_info import ModelSpec, read_model_spec
from inference.records.convert import file_hash
from inference.resources import default_model_path, user_data_dir


def spec_of(model_path: Path) -> ModelSpec:
    try:
        proto = onnx.load(str(model_path), load_external_data=False)
    except Exception as exc:
        raise AdaptError("the model file cannot be read", expected="an ONNX detector", found=f"{model_path}: {exc}",
                         hint="pick the hangtag_det.onnx of a candidate folder") from None
    return read_model_spec(Path(model_path), {p.key: p.value for p in proto.metadata_props})


@dataclass(frozen=True)
class ModelInUse:
    path: Path
    hash: str
    adopted_at: float  # 0 for the shipped model
    note: str

    @property
    def label(self) -> str:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(self.adopted_at)) if self.adopted_at else "shipped"
        return f"{self.path.name} ({self.hash[:19]}…, {when})"


class ModelStore:
    def __init__(self, root: Path | None = None, shipped: Path | None = None) -> None:
        self.root = Path(root) if root is not None else user_data_dir() / "models"
        self.shipped = Path(shipped) if shipped is not None else default_model_path()

    @property
    def history_path(self) -> Path:
        return self.root / "adopted.json"

    def history(self) -> list[ModelInUse]:
        """The shipped model first, then each adoption still in force, oldest first."""
        shipped = ModelInUse(self.shipped, file_hash(self.shipped) if self.shipped.is_file() else "", 0.0, "shipped")
        if not self.history_path.exists():
            return [shipped]
        try:
            rows = json.loads(self.history_path.read_text(encoding="utf-8"))
            adopted = [ModelInUse(self.root / r["file"], r["hash"], float(r["adopted_at"]), r.get("note", ""))
                       for r in rows]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise AdaptError("the adopted-models record cannot be read", expected="a JSON list",
                             found=f"{self.history_path}: {exc}",
                             hint="restore it, or delete it to go back to the shipped model") from None
        return [shipped, *adopted]

    def in_use(self) -> ModelInUse:
        return self.history()[-1]

    def path_in_use(self) -> Path:
        """What the station starts with: the last adopted model, or the shipped one when none is adopted,
        the record is unreadable or the adopted file is gone (said in the log, never a failed start)."""
        try:
            chosen = self.in_use().path
        except AdaptError as exc:
            logging.getLogger(__name__).warning("%s", exc)
            return self.shipped
        if not chosen.is_file():
            logging.getLogger(__name__).warning("adopted model %s is missing: using the shipped one", chosen)
            return self.shipped
        return chosen

    def previous(self) -> ModelInUse | None:
        history = self.history()
        return history[-2] if len(history) > 1 else None

    def adopt(self, model_path: Path, note: str = "") -> ModelInUse:
        spec_of(model_path)  # refuse what the station could not load
        digest = file_hash(model_path)
        if digest == self.in_use().hash:
            raise AdaptError("this model is already in use", expected="a different candidate", found=digest)
        self.root.mkdir(parents=True, exist_ok=True)
        target = self.root / f"{digest.replace(':', '-')[:19]}.onnx"
        if not target.exists():
            shutil.copyfile(model_path, target)
            card = Path(model_path).with_name("MODEL_CARD.md")
            if card.exists():
                shutil.copyfile(card, target.with_suffix(".md"))
        rows = self._rows()
        rows.append({"file": target.name, "hash": digest, "adopted_at": time.time(), "note": note,
                     "from": str(model_path)})
        self._write(rows)
        return self.in_use()

    def roll_back(self) -> ModelInUse:
        """Back to the model used before the last adoption; the rolled-back file stays on disk."""
        rows = self._rows()
        if not rows:
            raise AdaptError("nothing to roll back", expected="an adopted model", found="the shipped model is in use")
        rows.pop()
        self._write(rows)
        return self.in_use()

    def _rows(self) -> list[dict]:
        return json.loads(self.history_path.read_text(encoding="utf-8")) if self.history_path.exists() else []

    def _write(self, rows: list[dict]) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.root, prefix=".adopted.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(rows, out, indent=1)
        os.replace(tmp, self.history_path)
