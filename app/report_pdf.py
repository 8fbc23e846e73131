"""The session report as PDF, drawn by Qt (QTextDocument → QPdfWriter): no browser, Chinese included.

The content is the HTML report's "qt" flavor (the subset QTextDocument lays out); charts are the
same SVG files, rasterized at print resolution with QtSvg and handed to the document as resources.
Pages are painted by `paint_pages`, which also draws into QImages so tests can look at every page.
Only QTextDocument, QPdfWriter, QSvgRenderer and QImage are used (no widgets), so `render_pdf` may
run in an export worker thread; call `register_report_font()` once from the GUI thread at start.

Command line (exports HTML, CSV, JSON and PDF together):
    python -m app.report_pdf (--session ID | --last) --out DIR [--journal PATH] [--images flagged|all|none]
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
from pathlib import Path

from PySide6.QtCore import QByteArray, QMarginsF, QRectF, QSizeF, Qt, QUrl
from PySide6.QtGui import (QAbstractTextDocumentLayout, QColor, QFont, QFontDatabase, QGuiApplication, QImage,
                           QPageLayout, QPageSize, QPainter, QPaintDevice, QPdfWriter, QTextBlock, QTextBlockFormat,
                           QTextCursor, QTextDocument, QTextFormat, QTextTable)
from PySide6.QtSvg import QSvgRenderer

from inference.errors import HangtagError
from inference.records.export import ExportResult, export_session
from inference.records.html_report import render_html
from inference.records.report import ReportData, local_time
from inference.records.staging import ExportError
from inference.resources import font_path

PDF_DPI = 300
MARGIN_MM = 14.0
FOOTER_PT = 16.0
_font_lock = threading.Lock()
_family: str | None = None


def register_report_font() -> str:
    """Load the bundled Noto Sans SC (both weights) once; returns its family name."""
    global _family
    with _font_lock:
        if _family is None:
            family = ""
            for weight in ("Regular", "Bold"):
                font_id = QFontDatabase.addApplicationFont(str(font_path(weight)))
                if font_id < 0:
                    raise ExportError("the bundled Chinese font could not be loaded", expected=str(font_path(weight)),
                                      found="QFontDatabase refused it", hint="reinstall the station; the PDF needs it")
                family = family or QFontDatabase.applicationFontFamilies(font_id)[0]
            _family = family
        return _family


def build_document(report: ReportData, folder: Path, device: QPaintDevice) -> QTextDocument:
    """Lay the report out for `device` (a QPdfWriter or a QImage page): fonts and images scale with its dpi."""
    family = register_report_font()
    doc = QTextDocument()
    doc.documentLayout().setPaintDevice(device)
    doc.setBaseUrl(QUrl.fromLocalFile(str(folder) + os.sep))
    font = QFont(family)
    font.setPointSizeF(9.0)
    # unshaped: the PDF's text layer kept no way back from shaped figures and the 'fi' ligature to their characters,
    # so a viewer's search for a style number found 'H' of H7471595 (Latin and CJK need no shaping to draw)
    font.setStyleStrategy(QFont.StyleStrategy.PreferNoShaping)
    doc.setDefaultFont(font)
    doc.setDefaultStyleSheet(f"body {{ font-family: '{family}'; }}")
    scale = max(1.0, device.logicalDpiX() / 96.0)
    for svg_file in sorted((folder / "charts").glob("*.svg")):
        doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(f"charts/{svg_file.name}"),
                        _rasterize_svg(svg_file, scale))
    doc.setHtml(render_html(report, flavor="qt"))
    return doc


def svg_in_family(svg: str, family: str) -> str:
    """The chart's text in the bundled font by its exact family name: QtSvg does not walk a CSS font list
    and fell back to a serif maths font (issue 16)."""
    from html import escape

    from inference.records.svg import FONT

    return svg.replace(f'font-family="{escape(FONT)}"', f'font-family="{escape(family)}"')


def _rasterize_svg(path: Path, scale: float) -> QImage:
    svg = svg_in_family(path.read_text(encoding="utf-8"), register_report_font())
    renderer = QSvgRenderer(QByteArray(svg.encode("utf-8")))
    size = renderer.defaultSize()
    image = QImage(int(size.width() * scale), int(size.height() * scale), QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    image.setDevicePixelRatio(scale)  # lay out at the SVG's own size, draw with the extra pixels
    return image


def kept_with_heading(layout: QAbstractTextDocumentLayout, heading: QTextBlock) -> float | None:
    """Where what a heading must share its page with ends: the next block's top, or where a table follows, the
    foot of the table's first row under the column names (a heading over the column names alone, or over a row
    cut in two at the page's foot, was seen in "Frames that could not be inspected"). None: nothing follows."""
    following = heading.next()
    if not following.isValid():
        return None
    table = QTextCursor(following).currentTable()
    if table is None or table.rows() < 2:
        return first_line_top(layout, following)
    return max(layout.blockBoundingRect(table.cellAt(1, column).lastCursorPosition().block()).bottom()
               for column in range(table.columns())) - 1


def first_line_top(layout: QAbstractTextDocumentLayout, block: QTextBlock) -> float:
    """Where a block's first line is drawn: a line Qt moved to the next page leaves its block's top (and its margin)
    on the page before, so "About this report" was kept with a paragraph whose line began the next page."""
    top = layout.blockBoundingRect(block).top()
    lines = block.layout()
    return top + lines.lineAt(0).y() if lines is not None and lines.lineCount() else top


def row_extent(layout: QAbstractTextDocumentLayout, table: QTextTable, row: int) -> tuple[float, float]:
    """Top and bottom of a table row's content, in document coordinates."""
    cells = [table.cellAt(row, column) for column in range(table.columns())]
    top = min(layout.blockBoundingRect(cell.firstCursorPosition().block()).top() for cell in cells)
    bottom = max(layout.blockBoundingRect(cell.lastCursorPosition().block()).bottom() for cell in cells)
    return top, bottom


def keep_together(doc: QTextDocument, passes: int = 300) -> int:
    """QTextDocument breaks pages line by line and knows neither keep-with-next nor a row kept whole: a heading
    could end a page with its chart or table on the next, and a flagged frame's row could start at a page's
    foot and end on the next (row 10's name on page 2, its thumbnail and checks on page 3). This moves the
    first such heading or row in the document to the next page, lays out again, and repeats: each move
    changes only what follows it. Returns how many were moved."""
    height = doc.pageSize().height()
    layout = doc.documentLayout()
    doc.pageCount()  # the whole document laid out: laid out in part, the page count stayed one short of the content
    moved = 0
    while moved < passes and _move_first_parted(doc, layout, height):
        moved += 1
    if moved:
        doc.markContentsDirty(0, doc.characterCount())
    return moved


def _move_first_parted(doc: QTextDocument, layout: QAbstractTextDocumentLayout, height: float) -> bool:
    block = doc.begin()
    while block.isValid():
        table = QTextCursor(block).currentTable()
        if table is not None:
            if _move_first_cut_row(doc, layout, table, height):
                return True
            after = doc.findBlock(table.lastPosition() + 1)
            block = after if after.isValid() and after.position() > block.position() else block.next()
            continue
        fmt = block.blockFormat()
        kept = kept_with_heading(layout, block) if fmt.headingLevel() else None
        if (kept is not None and fmt.pageBreakPolicy() == QTextFormat.PageBreakFlag.PageBreak_Auto
                and int(kept // height) > int(layout.blockBoundingRect(block).top() // height)):
            brk = QTextBlockFormat()
            brk.setPageBreakPolicy(QTextFormat.PageBreakFlag.PageBreak_AlwaysBefore)
            QTextCursor(block).mergeBlockFormat(brk)
            return True
        block = block.next()
    return False


def _move_first_cut_row(doc: QTextDocument, layout: QAbstractTextDocumentLayout, table: QTextTable,
                        height: float) -> bool:
    """Qt moves a row to the next page when none of its cells' first lines fits above the page's foot, so the
    row above is lengthened by an empty block at the end of its last cell, just enough for that and not so much
    that the block itself goes over (then it opened the next page with an empty row). Neither a page break
    before the row's cells (Qt honoured it again on the page it moved the row to, and left a page of column
    names only) nor a bottom margin on a cell's last block (Qt ignores it) would do. The first row under the
    column names moves with its heading (kept_with_heading). A row is left to break only where, moved, it still
    does not fit its new page: a cut row's height is no measure of that (the lines Qt pushed over carry the
    page's foot with them), and the rule that skipped rows over 80 % of a page split rows that would fit."""
    first = table.format().headerRowCount() + 1
    for row in range(first, table.rows()):
        top, bottom = row_extent(layout, table, row)
        if int(top // height) == int((bottom - 1) // height) or _spacer(table, row) or _spacer(table, row - 1):
            continue
        page = int(top // height)
        cursor = table.cellAt(row - 1, table.columns() - 1).lastCursorPosition()
        fmt = QTextBlockFormat()
        fmt.setLineHeight(0, QTextBlockFormat.LineHeightTypes.FixedHeight.value)
        fmt.setProperty(_ENDS_PAGE, True)
        cursor.insertBlock(fmt)
        spacer = cursor.block()
        low, high = 0.0, (page + 1) * height - row_extent(layout, table, row - 1)[0]  # its cell may be the shortest
        for _ in range(16):  # the margin between too little (the row stays cut) and too much (the block goes over)
            fmt.setTopMargin((low + high) / 2)
            QTextCursor(spacer).setBlockFormat(fmt)
            if int(row_extent(layout, table, row)[0] // height) == page:
                low = fmt.topMargin()
            elif int(layout.blockBoundingRect(spacer).top() // height) > page:
                high = fmt.topMargin()
            else:
                moved_top, moved_bottom = row_extent(layout, table, row)
                if int(moved_top // height) == int((moved_bottom - 1) // height):
                    return True
                break  # taller than a page: moved, it would only leave the page above with an empty foot
        fmt.setTopMargin(0)  # no margin between: the row is left to break
        QTextCursor(spacer).setBlockFormat(fmt)
        return True
    return False


def _spacer(table: QTextTable, row: int) -> QTextBlock | None:
    block = table.cellAt(row, table.columns() - 1).lastCursorPosition().block()
    return block if block.blockFormat().hasProperty(_ENDS_PAGE) else None


_ENDS_PAGE = int(QTextFormat.Property.UserProperty) + 1  # a row lengthened to its page's foot: not cut, ended


def paint_pages(doc: QTextDocument, device: QPaintDevice, page_px: QSizeF, footer: str,
                new_page=None, first_page: int = 0, last_page: int | None = None) -> int:
    """Paint pages [first_page, last_page] of `doc` onto `device`; returns the page count."""
    dpi = device.logicalDpiY()
    footer_px = FOOTER_PT * dpi / 72.0
    body = QSizeF(page_px.width(), page_px.height() - footer_px)
    doc.setPageSize(body)
    keep_together(doc)
    pages = doc.pageCount()
    last = pages - 1 if last_page is None else min(last_page, pages - 1)
    painter = QPainter(device)
    try:
        small = QFont(doc.defaultFont())
        small.setPointSizeF(7.5)
        for page in range(first_page, last + 1):
            if page > first_page and new_page is not None:
                new_page()
            painter.save()
            painter.translate(0, -page * body.height())
            doc.drawContents(painter, QRectF(0, page * body.height(), body.width(), body.height()))
            painter.restore()
            painter.setFont(small)
            painter.setPen(QColor("#616e7c"))
            painter.drawText(QRectF(0, body.height(), body.width(), footer_px),
                             int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom),
                             f"{footer} · page {page + 1} of {pages}")
    finally:
        painter.end()
    return pages


def render_pdf(report: ReportData, folder: Path, pdf_path: Path) -> int:
    """Write report.pdf (A4); `folder` holds charts/ and thumbs/. Returns the page count."""
    _ensure_gui_app()
    writer = QPdfWriter(str(pdf_path))
    writer.setResolution(PDF_DPI)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                     QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM), QPageLayout.Unit.Millimeter))
    writer.setTitle(f"Hangtag inspection report — session {report.session.id}")
    writer.setCreator("Hangtag Station")
    doc = build_document(report, folder, writer)
    paint_rect = writer.pageLayout().paintRectPixels(PDF_DPI)
    footer = f"Hangtag Station · session {report.session.id} · {report.session.station_id} · {local_time(report.generated_at)}"
    pages = paint_pages(doc, writer, QSizeF(paint_rect.width(), paint_rect.height()), footer, new_page=writer.newPage)
    del doc, writer  # the painter has ended the PDF; drop the device before anything else
    if not pdf_path.is_file() or pdf_path.stat().st_size == 0:
        raise ExportError("the PDF was not written", expected=str(pdf_path), found="an empty or missing file")
    return pages


def render_page_images(report: ReportData, folder: Path, dpi: int = 60) -> list[QImage]:
    """Every page as a QImage (A4 at `dpi`): what the PDF shows, for tests and previews."""
    _ensure_gui_app()
    margin = MARGIN_MM / 25.4 * dpi
    width, height = round(210 / 25.4 * dpi), round(297 / 25.4 * dpi)
    probe = QImage(width, height, QImage.Format.Format_RGB32)
    probe.setDotsPerMeterX(round(dpi / 0.0254))
    probe.setDotsPerMeterY(round(dpi / 0.0254))
    doc = build_document(report, folder, probe)
    page_px = QSizeF(width - 2 * margin, height - 2 * margin)
    images = []
    for page in range(10_000):
        image = QImage(probe.size(), QImage.Format.Format_RGB32)
        image.setDotsPerMeterX(probe.dotsPerMeterX())
        image.setDotsPerMeterY(probe.dotsPerMeterY())
        image.fill(QColor("white"))
        pages = paint_pages(doc, image, page_px, f"session {report.session.id}", first_page=page, last_page=page)
        images.append(image)
        if page + 1 >= pages:
            break
    return images


def export_session_with_pdf(journal, session_id: int, out_dir: Path | str, **options) -> ExportResult:
    """`export_session` plus report.pdf, all in one staged folder. Options as for `export_session`."""
    return export_session(journal, session_id, out_dir, pdf=render_pdf, **options)


def _ensure_gui_app() -> None:
    if QGuiApplication.instance() is None:
        raise ExportError("the PDF needs a running Qt application", expected="a QGuiApplication or QApplication",
                          found="none", hint="create one first, or use `python -m app.report_pdf`")


def main(argv: list[str] | None = None) -> int:
    from inference.records.journal import Journal

    parser = argparse.ArgumentParser(prog="python -m app.report_pdf", description="Export a session with its PDF report.")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--session", type=int, help="session id (see `hangtag-inspect report --list`)")
    which.add_argument("--last", action="store_true", help="the most recent session")
    parser.add_argument("--out", type=Path, required=True, help="folder to put the report folder in")
    parser.add_argument("--journal", type=Path, default=None, help="journal file (default: the station's)")
    parser.add_argument("--images", choices=("flagged", "all", "none"), default="flagged")
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841 — keeps the app alive
    try:
        with Journal.open(args.journal) as journal:
            session_id = journal.last_session_id() if args.last else args.session
            result = export_session_with_pdf(journal, session_id, args.out, images=args.images)
    except HangtagError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"report: {result.path}  ({result.frames} frames, {result.flagged} NG/REVIEW {result.unit}, "
          f"{result.seconds:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
