"""Render resources/icons/hangtag_station.svg to the PNG (window icon, Linux) and ICO (Windows exe).

Run after editing the SVG; the rendered files are committed so a build needs neither QtSvg nor Pillow.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "resources" / "icons"
SIZES = (256, 128, 64, 48, 32, 16)


def render(svg: Path, size: int):
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    QSvgRenderer(str(svg)).render(painter)
    painter.end()
    return image


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841 — QImage needs it
    svg = ICONS / "hangtag_station.svg"
    png = ICONS / "hangtag_station.png"
    render(svg, 256).save(str(png))
    try:
        from PIL import Image
    except ImportError:
        print("Pillow not installed: hangtag_station.ico not rewritten", file=sys.stderr)
    else:
        Image.open(png).save(ICONS / "hangtag_station.ico", sizes=[(s, s) for s in SIZES])
    print(f"wrote {png.name} and hangtag_station.ico from {svg.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
