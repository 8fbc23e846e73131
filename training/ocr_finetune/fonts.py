"""Which fonts the recognizer may be fine-tuned on, and the ones it must never see in training.

The station is judged on ten test sets (`training/tagsets`) printed in WenQuanYi Zen Hei / Micro Hei, AR PL
UKai / UMing and Liberation: a recognizer trained on those would be judged on its own training fonts. Training
uses, cut to GB 2312 + ASCII so they travel to the GPU machine small (`python -m training.ocr_finetune.fonts --out DIR`):

- v1, v2 (7 faces): Noto Sans SC Regular / Bold (bundled), Noto Serif CJK SC Regular / Bold, AR PL SungtiL GB,
  AR PL KaitiM GB, Droid Sans Fallback (Debian fonts-noto-cjk, fonts-arphic-gbsn00lp, fonts-arphic-gkai00mp,
  fonts-droid-fallback);
- v3 adds 10 faces, so most lines (10 of 17 faces, taken in turn at random) come from faces v2 never saw: Noto
  Sans CJK SC Light / Black, Noto Serif CJK SC ExtraLight / Black (fonts-noto-cjk, fonts-noto-cjk-extra), LXGW
  WenKai Light / Regular / Bold (fonts-lxgw-wenkai, a kai), Smiley Sans Oblique (fonts-smiley-sans, a condensed
  display sans), BabelStone Han (fonts-babelstone-han, a song), Hanazono Mincho A (fonts-hanazono, a mincho).
  The Medium weights were left out: they lie between faces already there, and the pack must travel in two
  calls beside the tree (training/gpu_ocr.sh).

A face is used only if it holds nearly all of GB 2312 level 1 (`MIN_LEVEL1`, checked when cut and again when
the training fonts are listed); the renderer asks each face only for characters its cmap holds (render.py), so
a glyph a face lacks is left out of the line's text, never drawn as tofu.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# any font file whose name holds one of these is a test-set font: evaluation only
TEST_FONT_MARKS = ("wqy", "ukai", "uming", "liberation")
# the share of GB 2312 level 1 (3 755 hanzi) a face must hold to be trained on
MIN_LEVEL1 = 0.98


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
    # v3: faces v2 never saw (weights, kai, a display sans, song and mincho designs)
    FontSource("NotoSansSC-Light.otf", "/usr/share/fonts/opentype/noto/NotoSansCJK-Light.ttc", "Noto Sans CJK SC Light"),
    FontSource("NotoSansSC-Black.otf", "/usr/share/fonts/opentype/noto/NotoSansCJK-Black.ttc", "Noto Sans CJK SC Black"),
    FontSource("NotoSerifSC-ExtraLight.otf", "/usr/share/fonts/opentype/noto/NotoSerifCJK-ExtraLight.ttc",
               "Noto Serif CJK SC ExtraLight"),
    FontSource("NotoSerifSC-Black.otf", "/usr/share/fonts/opentype/noto/NotoSerifCJK-Black.ttc", "Noto Serif CJK SC Black"),
    FontSource("LXGWWenKai-Light.ttf", "/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Light.ttf"),
    FontSource("LXGWWenKai-Regular.ttf", "/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Regular.ttf"),
    FontSource("LXGWWenKai-Bold.ttf", "/usr/share/fonts/truetype/lxgw-wenkai/LXGWWenKai-Bold.ttf"),
    FontSource("SmileySans-Oblique.ttf", "/usr/share/fonts/truetype/smiley-sans/SmileySans-Oblique.ttf"),
    FontSource("BabelStoneHan.ttf", "/usr/share/fonts/truetype/babelstone/BabelStoneHan.ttf"),
    FontSource("HanaMinA.ttf", "/usr/share/fonts/truetype/hanazono/HanaMinA.ttf"),
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


class CoverageError(ValueError):
    pass


def is_test_font(path: str | Path) -> bool:
    return any(mark in Path(path).name.lower() for mark in TEST_FONT_MARKS)


def level1() -> str:
    """GB 2312 level 1: rows 16-55 (0xB0A1-0xD7F9), the 3 755 common hanzi (the training text's own list)."""
    from training.ocr_finetune.text import HANZI

    return HANZI


def level1_share(font) -> float:
    """The share of GB 2312 level 1 a fontTools font's cmap holds."""
    cmap = font.getBestCmap() or {}
    wanted = level1()
    return sum(ord(ch) in cmap for ch in wanted) / len(wanted)


def check_coverage(path: Path) -> None:
    from fontTools.ttLib import TTFont

    share = level1_share(TTFont(str(path), lazy=True, fontNumber=0))
    if share < MIN_LEVEL1:
        raise CoverageError(f"expected a training font to hold at least {MIN_LEVEL1:.0%} of GB 2312 level 1, {path.name} "
                            f"holds {share:.1%}: most lines in it would lose characters; leave it out of {path.parent}")


def training_fonts(folder: Path | None) -> list[Path]:
    """The bundled Noto Sans SC and every cut in `folder` (made by `cut_all`); refuses a test-set font and a font
    that lacks much of GB 2312 level 1."""
    found = list(BUNDLED) + (sorted(p for p in folder.iterdir() if p.suffix.lower() in (".otf", ".ttf", ".ttc")) if folder else [])
    bad = [str(p) for p in found if is_test_font(p)]
    if bad:
        raise TestFontError(f"expected training fonts only, found test-set fonts {bad}: remove them from {folder}")
    missing = [str(p) for p in found if not p.exists()]
    if missing:
        raise FileNotFoundError(f"font files missing: {missing}; make the cuts with python -m training.ocr_finetune.fonts")
    for path in found:
        check_coverage(path)
    return found


def cut(source: FontSource, out: Path) -> Path:
    from fontTools.ttLib import TTCollection, TTFont

    from training.make_font_subset import save_cut

    if is_test_font(source.path):
        raise TestFontError(f"expected a training font, {source.path} is a test-set font")
    if source.family:
        fonts = TTCollection(source.path).fonts
        font = next(f for f in fonts if f["name"].getDebugName(1) == source.family)
    else:
        font = TTFont(source.path)
    share = level1_share(font)
    if share < MIN_LEVEL1:
        raise CoverageError(f"expected {source.path} to hold at least {MIN_LEVEL1:.0%} of GB 2312 level 1, found {share:.1%}")
    return save_cut(font, out)


def cut_all(folder: Path) -> list[Path]:
    """Every training source not yet cut into `folder`; a source Debian did not install is skipped with a word."""
    folder.mkdir(parents=True, exist_ok=True)
    for source in TRAINING_SOURCES:
        if (folder / source.name).exists():
            continue
        if not Path(source.path).exists():
            print(f"skipped {source.name}: {source.path} is not installed")
            continue
        cut(source, folder / source.name)
    return sorted(folder.iterdir())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=REPO / ".cand/ocr/fonts")
    args = parser.parse_args()
    for path in cut_all(args.out):
        print(f"{path}: {path.stat().st_size / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
