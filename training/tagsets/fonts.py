"""Debian fonts that neither the detector nor the reader was trained with: CJK faces (never the bundled Noto
Sans SC) and, for Latin-only labels, Liberation (the training generator's Latin lines are DejaVu)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

from inference.errors import ConfigError

FONT_DIR = Path("/usr/share/fonts")
# file name -> Debian package; every one of them holds simplified Chinese, Latin and digits.
FONT_FILES = {
    "wqy-zenhei.ttc": "fonts-wqy-zenhei",
    "wqy-microhei.ttc": "fonts-wqy-microhei",
    "ukai.ttc": "fonts-arphic-ukai",
    "uming.ttc": "fonts-arphic-uming",
}


# Latin only (no CJK glyphs): for English labels and stickers, never for a value a design may print in Chinese.
LATIN_FILES = {
    "LiberationSans-Regular.ttf": "fonts-liberation2",
    "LiberationSans-Bold.ttf": "fonts-liberation2",
    "LiberationSerif-Regular.ttf": "fonts-liberation2",
    "LiberationMono-Bold.ttf": "fonts-liberation2",
}


class FontsMissingError(ConfigError):
    """No CJK font for the independent test set is installed."""


@lru_cache(maxsize=1)
def font_files(root: Path = FONT_DIR) -> tuple[Path, ...]:
    return _installed(root, "*.tt[cf]", FONT_FILES, "no CJK font for the independent hangtag test set")


@lru_cache(maxsize=1)
def latin_font_files(root: Path = FONT_DIR) -> tuple[Path, ...]:
    return _installed(root, "*.ttf", LATIN_FILES, "no Latin font for the independent hangtag test set's English labels")


def _installed(root: Path, pattern: str, files: dict[str, str], what: str) -> tuple[Path, ...]:
    """The font files of `files` (file name → Debian package) found under `root`, or why not."""
    found = sorted(p for p in root.rglob(pattern) if p.name in files) if root.is_dir() else []
    if not found:
        raise FontsMissingError(
            what,
            expected=f"one of {', '.join(files)} under {root}",
            found="none",
            hint=f"apt-get install {' '.join(sorted(set(files.values())))} (or run `make system-deps` as root)",
        )
    return tuple(found)


def font_names() -> tuple[str, ...]:
    return tuple(p.name.split(".")[0] for p in font_files())


def latin_font_names() -> tuple[str, ...]:
    return tuple(p.name.split(".")[0] for p in latin_font_files())


@lru_cache(maxsize=96)
def font(name: str, size_px: int) -> ImageFont.FreeTypeFont:
    path = next(p for p in font_files() + _latin_if_any() if p.name.split(".")[0] == name)
    return ImageFont.truetype(str(path), max(6, int(size_px)), index=0)


def _latin_if_any() -> tuple[Path, ...]:
    try:
        return latin_font_files()
    except FontsMissingError:
        return ()
