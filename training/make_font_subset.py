"""Cut the bundled CJK font out of Debian's fonts-noto-cjk (SIL OFL 1.1).

The full collection is ~100 MB; the station needs Simplified Chinese (all of GB2312),
Latin, digits and the full-width forms OCR produces. Run:

    apt-get download fonts-noto-cjk && dpkg -x fonts-noto-cjk_*.deb /tmp/noto
    python training/make_font_subset.py /tmp/noto/usr/share/fonts/opentype/noto/NotoSansCJK-{Regular,Bold}.ttc
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection

SC_INDEX = 2  # Noto Sans CJK SC inside the TTC


def gb2312_characters() -> str:
    chars = []
    for hi in range(0xA1, 0xF8):
        for lo in range(0xA1, 0xFF):
            try:
                chars.append(bytes([hi, lo]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return "".join(chars)


def wanted_text() -> str:
    ascii_ = "".join(chr(c) for c in range(0x20, 0x7F))
    fullwidth = "".join(chr(c) for c in range(0xFF01, 0xFF5F))
    extra = "¥￥°±×÷·—–‘’“”…‰※→←↑↓■□●○★☆✓✔✗✘①②③④⑤⑥⑦⑧⑨⑩、。〈〉《》「」『』【】〔〕"
    return ascii_ + fullwidth + extra + gb2312_characters()


def save_cut(font, out: Path) -> Path:
    """A fontTools font cut to the characters a tag prints (`wanted_text`), layout kept, hinting dropped, saved."""
    options = subset.Options()
    options.layout_features = ["*"]
    options.hinting = False
    sub = subset.Subsetter(options)
    sub.populate(text=wanted_text())
    sub.subset(font)
    font.save(str(out))
    return out


def cut(ttc_path: Path, out_path: Path) -> None:
    font = TTCollection(str(ttc_path)).fonts[SC_INDEX]
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.hinting = False
    options.desubroutinize = False
    sub = subset.Subsetter(options)
    sub.populate(text=wanted_text())
    sub.subset(font)
    font.save(str(out_path))
    print(f"{out_path}: {out_path.stat().st_size / 1e6:.2f} MB")


if __name__ == "__main__":
    out_dir = Path(__file__).resolve().parents[1] / "resources" / "fonts"
    for arg in sys.argv[1:]:
        weight = "Bold" if "Bold" in arg else "Regular"
        cut(Path(arg), out_dir / f"NotoSansSC-{weight}-GB2312.otf")
