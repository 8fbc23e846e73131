"""Fonts, palettes and colours. The bundled CJK font is registered so Chinese renders anywhere."""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QPainter, QPalette, QPen
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle

from inference.resources import font_path

CLASS_COLORS = {
    "hangtag": "#2e86de",
    "barcode": "#f39c12",
    "qr_code": "#8e44ad",
}
FALLBACK_COLORS = ["#16a085", "#c0392b", "#27ae60", "#d35400", "#2c3e50", "#7f8c8d"]
# A widget's own style sheet when it is not alarmed: "" left it with the palette it had (black on the dark theme)
PLAIN_TEXT = "color: palette(window-text);"
VERDICT_COLORS = {"OK": "#1e8e3e", "NG": "#d93025", "REVIEW": "#f29900", "ERROR": "#a50e0e",
                  "NO SOURCE": "#a50e0e", "no recipe": "#5f6368", "—": "#5f6368"}
# Search boxes' and fields' hint text, opaque: Qt's default (black at half alpha) vanished into the dark theme's base
# and was 4.0:1 on white; these are ≥ 6:1 on each theme's base and still dimmer than typed text (WCAG AA is 4.5:1)
PLACEHOLDER = {"dark": "#9aa0a6", "light": "#5f6368"}

# Verdicts as words in tables on the dark theme: VERDICT_COLORS are the banner's backgrounds, and as text on the dark
# base ERROR was 2.1:1, the grey of "no recipe" 2.7:1 and NG 3.5:1; these are >= 5:1 on its base and alternate rows
DARK_VERDICT_TEXT = {"OK": "#81c995", "NG": "#f28b82", "REVIEW": "#fdd663", "ERROR": "#ff8a80"}
# ... and on the light theme: REVIEW's amber as text on white was 2.3:1, OK's green 3.9:1 on alternate rows; these
# are >= 5:1 on white (#ffffff) and on alternate rows (#f7f7f7)
LIGHT_VERDICT_TEXT = {"OK": "#137333", "NG": "#c5221f", "REVIEW": "#9c5700", "ERROR": "#a50e0e"}


def verdict_text_color(verdict: str) -> QColor:
    """A verdict word's colour on the current theme's table base; any other word (no recipe, —) in its hint grey."""
    if QApplication.palette().color(QPalette.ColorRole.Base).lightness() < 128:
        return QColor(DARK_VERDICT_TEXT.get(verdict, PLACEHOLDER["dark"]))
    return QColor(LIGHT_VERDICT_TEXT.get(verdict, PLACEHOLDER["light"]))


def alarm_style(bold: bool = True) -> str:
    """A style sheet for alarm words ('Recipe: none — pick a recipe', a source not opened, a drift alarm) in the NG red
    for text on the theme in use: the banner's #d93025 as text was 2.9:1 on the dark window."""
    return f"color: {verdict_text_color('NG').name()};" + (" font-weight: bold;" if bold else "")


_family: str | None = None


def class_color(name: str, class_id: int = 0) -> QColor:
    return QColor(CLASS_COLORS.get(name, FALLBACK_COLORS[class_id % len(FALLBACK_COLORS)]))


def register_fonts() -> str:
    """Add the bundled Noto Sans SC and make it the application font; returns its family name."""
    global _family
    if _family:
        return _family
    families: list[str] = []
    for weight in ("Regular", "Bold"):
        path = font_path(weight)
        if path.is_file():
            font_id = QFontDatabase.addApplicationFont(str(path))
            if font_id >= 0:
                families += QFontDatabase.applicationFontFamilies(font_id)
    _family = families[0] if families else QApplication.font().family()
    font = QFont(_family)
    font.setPointSizeF(max(9.5, QApplication.font().pointSizeF()))
    QApplication.setFont(font)
    return _family


class StationStyle(QProxyStyle):
    """Fusion, with an outline round check boxes and radio buttons on a dark palette: Fusion edges them in its base
    colour darkened (#222326 on the #2b2d31 window, 1.1:1), so an unticked 'Loop' or 'Show raw OCR lines' showed no
    box at all."""

    def drawPrimitive(self, element, option, painter, widget=None) -> None:  # noqa: N802 - Qt's name
        super().drawPrimitive(element, option, painter, widget)
        if element not in _EDGED or option.palette.color(QPalette.ColorRole.Window).lightness() >= 128:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(QColor(PLACEHOLDER["dark"]), 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        rect = QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5)
        if element == QStyle.PrimitiveElement.PE_IndicatorRadioButton:
            painter.drawEllipse(rect)
        else:
            painter.drawRoundedRect(rect, 1.5, 1.5)
        painter.restore()


_EDGED = (QStyle.PrimitiveElement.PE_IndicatorCheckBox, QStyle.PrimitiveElement.PE_IndicatorRadioButton)
_style: StationStyle | None = None


def apply_theme(app: QApplication, dark: bool) -> None:
    global _style
    if _style is None or not shiboken6.isValid(_style):  # Qt deletes a style another setStyle replaced
        _style = StationStyle("Fusion")  # kept here: the application does not keep its Python wrapper alive
    app.setStyle(_style)
    palette = QPalette()
    if dark:
        base, text, window, button = QColor("#1e1f22"), QColor("#e8eaed"), QColor("#2b2d31"), QColor("#3a3c42")
        palette.setColor(QPalette.ColorRole.Window, window)
        palette.setColor(QPalette.ColorRole.WindowText, text)
        palette.setColor(QPalette.ColorRole.Base, base)
        palette.setColor(QPalette.ColorRole.AlternateBase, window)
        palette.setColor(QPalette.ColorRole.Text, text)
        palette.setColor(QPalette.ColorRole.Button, button)
        palette.setColor(QPalette.ColorRole.ButtonText, text)
        palette.setColor(QPalette.ColorRole.ToolTipBase, window)
        palette.setColor(QPalette.ColorRole.ToolTipText, text)
        palette.setColor(QPalette.ColorRole.Highlight, QColor("#2e86de"))
        palette.setColor(QPalette.ColorRole.HighlightedText, QColor("#ffffff"))
        palette.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, QColor("#7f8185"))
        palette.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor("#7f8185"))
        palette.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText, QColor("#7f8185"))
    else:
        palette = app.style().standardPalette()
    palette.setColor(QPalette.ColorRole.PlaceholderText, QColor(PLACEHOLDER["dark" if dark else "light"]))
    app.setPalette(palette)
    # Widgets with a style sheet of their own kept the palette they were polished with: after a theme change the
    # header's recipe stayed black on the dark theme and the error panel's text dark on the light one.
    # An alarm's words written on the other theme take this theme's NG text red.
    before, after = (LIGHT_VERDICT_TEXT["NG"], DARK_VERDICT_TEXT["NG"]) if dark else (DARK_VERDICT_TEXT["NG"],
                                                                                       LIGHT_VERDICT_TEXT["NG"])
    for widget in app.allWidgets():
        if widget.styleSheet():
            widget.setStyleSheet(widget.styleSheet().replace(before, after))
