"""Debian CJK fonts that neither the detector nor the reader was trained with (never the bundled Noto Sans SC)."""

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


class FontsMissingError(ConfigError):
    """No CJK font for the independent test set is installed."""


@lru_cache(maxsize=1)
def font_files(root: Path = FONT_DIR) -> tuple[Path, ...]:
    found = sorted(p for p in root.rglob("*.tt[cf]") if p.name in FONT_FILES) if root.is_dir() else []
    if not found:
        raise FontsMissingError(
            "no CJK font for the independent hangtag test set",
            expected=f"one of {', '.join(FONT_FILES)} under {root}",
            found="none",
            hint=f"apt-get install {' '.join(FONT_FILES.values())} (or run `make system-deps` as root)",
        )
    return tuple(found)


def font_names() -> tuple[str, ...]:
    return tuple(p.name.split(".")[0] for p in font_files())


@lru_cache(maxsize=96)
def font(name: str, size_px: int) -> ImageFont.FreeTypeFont:
    path = next(p for p in font_files() if p.name.split(".")[0] == name)
    return ImageFont.truetype(str(path), max(6, int(size_px)), index=0)
