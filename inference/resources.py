"""Where bundled resources and per-user data live, from source and from a PyInstaller bundle."""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP_NAME = "HangtagStation"


def bundle_root() -> Path:
    """The folder holding `resources/`: the repo root from source, `sys._MEIPASS` when frozen."""
    frozen_root = getattr(sys, "_MEIPASS", None)
    if frozen_root:
        return Path(frozen_root)
    return Path(__file__).resolve().parent.parent


def resource_path(*parts: str) -> Path:
    return bundle_root().joinpath("resources", *parts)


def default_model_path() -> Path:
    return resource_path("models", "hangtag_det.onnx")


def samples_dir() -> Path:
    return resource_path("samples")


def font_path(weight: str = "Regular") -> Path:
    return resource_path("fonts", f"NotoSansSC-{weight}-GB2312.otf")


def user_data_dir() -> Path:
    """Settings, caches and journals: never inside the bundle, which may be read-only."""
    override = os.environ.get("HANGTAG_DATA_DIR")
    if override:
        path = Path(override)
    elif sys.platform == "win32":
        path = Path(os.environ.get("LOCALAPPDATA", Path.home() / "AppData" / "Local")) / APP_NAME
    elif sys.platform == "darwin":
        path = Path.home() / "Library" / "Application Support" / APP_NAME
    else:
        path = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / APP_NAME
    path.mkdir(parents=True, exist_ok=True)
    return path


def cache_dir() -> Path:
    path = user_data_dir() / "cache"
    path.mkdir(parents=True, exist_ok=True)
    return path
