"""Typefaces for the wide training domain, and the one-off step that makes them.

Training print uses faces that the independent test set (training/tagsets/: WenQuanYi, AR PL UKai and
UMing) never uses, so a score on that set measures fonts the detector has not seen: Noto Serif CJK SC,
AR PL SungtiL GB, AR PL KaitiM GB, Droid Sans Fallback and DejaVu (Latin lines), beside the bundled
Noto Sans SC. All are free fonts from Debian, cut to GB 2312 + ASCII + full-width forms so the
training machine gets them with the working tree (a few MB):

    python -m training.synth.fonts        # apt-get download + dpkg -x + subset into .cache/synth-fonts/

Where none is there the generator prints with the bundled Noto Sans SC alone (and says so once).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

from inference.resources import font_path

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / ".cache" / "synth-fonts"
# (output name, Debian package, file inside it, face index in a collection)
SOURCES = (
    ("NotoSerifSC-Regular.otf", "fonts-noto-cjk", "NotoSerifCJK-Regular.ttc", "SC"),
    ("NotoSerifSC-Bold.otf", "fonts-noto-cjk", "NotoSerifCJK-Bold.ttc", "SC"),
    ("SungtiL-GB.ttf", "fonts-arphic-gbsn00lp", "gbsn00lp.ttf", None),
    ("KaitiM-GB.ttf", "fonts-arphic-gkai00mp", "gkai00mp.ttf", None),
    ("DroidSansFallback.ttf", "fonts-droid-fallback", "DroidSansFallbackFull.ttf", None),
)
LATIN = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSansCondensed-Bold.ttf", "DejaVuSansMono.ttf")
NEVER = ("wqy", "ukai", "uming")  # the independent test set's faces


def font_dir() -> Path:
    return Path(os.environ.get("HTS_SYNTH_FONTS", CACHE))


@lru_cache(maxsize=1)
def cjk_faces() -> tuple[str, ...]:
    """Paths of CJK faces for print, the bundled Noto Sans SC first."""
    found = [str(font_path("Regular")), str(font_path("Bold"))]
    folder = font_dir()
    if folder.is_dir():
        found += sorted(str(p) for p in folder.iterdir() if p.suffix in (".otf", ".ttf")
                        and not p.name.startswith("DejaVu") and not any(n in p.name.lower() for n in NEVER))
    if len(found) == 2:
        print(f"training.synth: no extra CJK faces in {folder} (python -m training.synth.fonts makes them); "
              "printing with Noto Sans SC only", file=sys.stderr)
    return tuple(found)


@lru_cache(maxsize=1)
def latin_faces() -> tuple[str, ...]:
    found = []
    for root in (font_dir(), Path("/usr/share/fonts/truetype/dejavu")):
        if root.is_dir():
            found += [str(root / n) for n in LATIN if (root / n).is_file()]
    return tuple(dict.fromkeys(found)) or cjk_faces()[:2]


@lru_cache(maxsize=512)
def face(path: str, size_px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, max(6, int(size_px)))


def _subset(source: Path, out: Path, collection_face: str | None) -> None:
    from fontTools.ttLib import TTCollection, TTFont

    from training.make_font_subset import save_cut

    if collection_face:
        fonts = TTCollection(str(source)).fonts
        font = next(f for f in fonts if collection_face in str(f["name"].getDebugName(1)))
    else:
        font = TTFont(str(source))
    save_cut(font, out)
    print(f"{out}: {out.stat().st_size / 1e6:.2f} MB")


def main() -> int:
    out = font_dir()
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        packages = sorted({s[1] for s in SOURCES})
        subprocess.run(["apt-get", "download", *packages], cwd=tmp, check=True)
        for deb in Path(tmp).glob("*.deb"):
            subprocess.run(["dpkg", "-x", str(deb), str(Path(tmp) / "x")], check=True)
        files = {p.name: p for p in (Path(tmp) / "x").rglob("*") if p.is_file()}
        for name, _package, source, collection_face in SOURCES:
            _subset(files[source], out / name, collection_face)
    for name in LATIN:
        src = Path("/usr/share/fonts/truetype/dejavu") / name
        if src.is_file():
            (out / name).write_bytes(src.read_bytes())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
