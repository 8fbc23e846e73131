"""Which fonts the recognizer may be fine-tuned on, and the ones it must never see in training.

The station is judged on ten test sets (`training/tagsets`) printed in WenQuanYi Zen Hei / Micro Hei, AR PL
UKai / UMing and Liberation: a recognizer trained on those would be judged on its own training fonts. Training
uses Noto Sans / Serif CJK SC, AR PL SungtiL GB / KaitiM GB and Droid Sans Fallback (Debian packages
fonts-noto-cjk, fonts-arphic-gbsn00lp, fonts-arphic-gkai00mp, fonts-droid-fallback), cut to GB 2312 + ASCII so
they travel to the GPU machine small (`python -m training.ocr_finetune.fonts --out DIR`).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# any font file whose name holds one of these is a test-set font: evaluation only
TEST_FONT_MARKS = ("wqy", "ukai", "uming", "liberation")


@dataclass(frozen=True)
class FontSource:
    name: str  # the file name of its GB 2312 cut
    path: str  # where Debian installs it
    family: str = ""  # inside a collection: the face wanted


TRAINING_SOURCES = (
    FontSource("NotoSerifSC-Regular.otf", "/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc", "Noto Serif CJK SC"),
    FontSource("NotoSerifSC-Bold.otf", "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", "Noto Serif CJK SC"),
    FontSource("gbsn00lp.ttf", "/usr/share/fonts/truetype/arphic-gbsn00lp/gbsn00lp.ttf"),
    FontSource("gkai00mp.ttf", "/usr/share/fonts/truetype/arphic-gkai00mp/gkai00mp.ttf"),
    FontSource("DroidSansFallback.ttf", "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),
)
# the station's own bundled cut of Noto Sans SC: already GB 2312, in the repository
BUNDLED = (REPO / "resources/fonts/NotoSansSC-Regular-GB2312.otf", REPO / "resources/fonts/NotoSansSC-Bold-GB2312.otf")

# evaluation only: the faces the test sets print with (path, index inside a collection)
TEST_FONTS = (
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),
    ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", 0),
    ("/usr/share/fonts/truetype/arphic/ukai.ttc", 0),
    ("/usr/share/fonts/truetype/arphic/uming.ttc", 0),
)


class TestFontError(ValueError):
    pass


def is_test_font(path: str | Path) -> bool:
    return any(mark in Path(path).name.lower() for mark in TEST_FONT_MARKS)


def training_fonts(folder: Path | None) -> list[Path]:
    """The bundled Noto Sans SC and every cut in `folder` (made by `cut_all`); refuses a test-set font."""
    found = list(BUNDLED) + (sorted(p for p in folder.iterdir() if p.suffix.lower() in (".otf", ".ttf", ".ttc")) if folder else [])
    bad = [str(p) for p in found if is_test_font(p)]
    if bad:
        raise TestFontError(f"expected training fonts only, found test-set fonts {bad}: remove them from {folder}")
    missing = [str(p) for p in found if not p.exists()]
    if missing:
        raise FileNotFoundError(f"font files missing: {missing}; make the cuts with python -m training.ocr_finetune.fonts")
    return found


def cut(source: FontSource, out: Path) -> Path:
    from fontTools.ttLib import TTCollection, TTFont

    from training.make_font_subset import save_cut

    if source.family:
        fonts = TTCollection(source.path).fonts
        font = next(f for f in fonts if f["name"].getDebugName(1) == source.family)
    else:
        font = TTFont(source.path)
    return save_cut(font, out)


def cut_all(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    return [cut(s, folder / s.name) for s in TRAINING_SOURCES if not (folder / s.name).exists()] or sorted(folder.iterdir())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=REPO / ".cand/ocr/fonts")
    args = parser.parse_args()
    for path in cut_all(args.out):
        print(f"{path}: {path.stat().st_size / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
