"""Persistent station settings (QSettings): last source, recipe, job and lot, the recipes operators may pick,
thresholds, engine, layout, theme, mode, PIN."""

from __future__ import annotations

import hashlib
import json
import os

from PySide6.QtCore import QSettings

from inference.postprocess import Thresholds
from inference.resources import user_data_dir


def open_settings() -> QSettings:
    """An INI file in the user's data folder (HANGTAG_DATA_DIR overrides), never inside the bundle."""
    path = os.environ.get("HANGTAG_SETTINGS") or str(user_data_dir() / "station.ini")
    return QSettings(path, QSettings.Format.IniFormat)


class StationSettings:
    def __init__(self, store: QSettings | None = None) -> None:
        self.store = store or open_settings()

    def _get(self, key: str, default: object) -> object:
        value = self.store.value(key, default)
        return default if value is None else value

    @property
    def last_source(self) -> str:
        return str(self._get("source/last", ""))

    @last_source.setter
    def last_source(self, spec: str) -> None:
        self.store.setValue("source/last", spec)

    @property
    def thresholds(self) -> Thresholds:
        try:
            data = json.loads(str(self._get("tuning/thresholds", "{}")))
            return Thresholds(confidence=float(data.get("confidence", 0.25)), iou=float(data.get("iou", 0.45)),
                              max_detections=int(data.get("max_detections", 100)),
                              class_confidence=data.get("class_confidence", {}),
                              disabled_classes=frozenset(data.get("disabled_classes", ())))
        except (ValueError, TypeError):
            return Thresholds()  # an unreadable stored value must not stop the station

    @thresholds.setter
    def thresholds(self, value: Thresholds) -> None:
        self.store.setValue("tuning/thresholds", json.dumps(value.to_dict()))

    # -- the job on the line: kept across restarts (issue 16: lost on restart, every frame "no recipe") --
    @property
    def recipe_path(self) -> str:
        return str(self._get("station/recipe", ""))

    @recipe_path.setter
    def recipe_path(self, path: str) -> None:
        self.store.setValue("station/recipe", path)

    @property
    def job_lot(self) -> tuple[str, str]:
        return str(self._get("station/job", "")), str(self._get("station/lot", ""))

    @job_lot.setter
    def job_lot(self, value: tuple[str, str]) -> None:
        self.store.setValue("station/job", value[0])
        self.store.setValue("station/lot", value[1])

    @property
    def approved_recipes(self) -> list[str]:
        """Recipe files an engineer approved; the operator picks only from these."""
        try:
            value = json.loads(str(self._get("station/approved_recipes", "[]")))
        except ValueError:
            return []
        return [str(v) for v in value] if isinstance(value, list) else []

    @approved_recipes.setter
    def approved_recipes(self, paths: list[str]) -> None:
        self.store.setValue("station/approved_recipes", json.dumps(list(dict.fromkeys(paths)), ensure_ascii=False))

    def get(self, key: str, default: str = "") -> str:
        return str(self._get(key, default))

    def set(self, key: str, value: object) -> None:
        self.store.setValue(key, value)

    # -- engineer PIN: stored salted-hashed, never in clear ------------------------------------------
    def has_pin(self) -> bool:
        return bool(self.get("mode/pin_hash"))

    def set_pin(self, pin: str) -> None:
        salt = os.urandom(8).hex()
        self.set("mode/pin_salt", salt)
        self.set("mode/pin_hash", hashlib.sha256((salt + pin).encode()).hexdigest())

    def check_pin(self, pin: str) -> bool:
        salt = self.get("mode/pin_salt")
        return self.has_pin() and hashlib.sha256((salt + pin).encode()).hexdigest() == self.get("mode/pin_hash")

    def sync(self) -> None:
        self.store.sync()
