"""The Qt PDF report: real pages with ink on them, the bundled Chinese font embedded, and the CLI path."""

from __future__ import annotations

import re
import subprocess
import sys
from html import escape
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import QSizeF
from PySide6.QtGui import QImage

from app.report_pdf import export_session_with_pdf, render_page_images
from inference.records.journal import Journal
from inference.resources import font_path
from tests.test_records_export import EVIL, make_session

ROOT = Path(__file__).resolve().parents[1]


def ink_share(gray: np.ndarray) -> float:
    return float((gray < 200).mean())


def bundled_font_name() -> str:
    from fontTools.ttLib import TTFont

    return TTFont(str(font_path()))["name"].getDebugName(6)  # PostScript name, as PDFs name fonts


def pdf_page_count(data: bytes) -> int:
    counts = [int(n) for n in re.findall(rb"/Type\s*/Pages\b[^>]*?/Count\s+(\d+)", data)]
    counts += [int(n) for n in re.findall(rb"/Count\s+(\d+)[^>]*?/Type\s*/Pages\b", data)]
    return max(counts, default=0)


def screen_page() -> QImage:
    """A 96 dpi page: the paint device the tests lay the document out for."""
    page = QImage(800, 1130, QImage.Format.Format_RGB32)
    page.setDotsPerMeterX(round(96 / 0.0254))
    page.setDotsPerMeterY(round(96 / 0.0254))
    return page


def write_charts(report, folder: Path) -> None:
    """The report's charts as SVG files in `folder`/charts, where the document built from it looks for them."""
    from inference.records.html_report import charts

    (folder / "charts").mkdir()
    for name, svg in charts(report).items():
        (folder / "charts" / f"{name}.svg").write_text(svg, encoding="utf-8")


def test_pdf_has_non_blank_pages_with_the_chinese_font_embedded(qapp, tmp_path):
    journal_path, session = make_session(tmp_path, frames=40, tag_text=EVIL)
    with Journal.open(journal_path) as journal:
        result = export_session_with_pdf(journal, session, tmp_path / "out")
    pdf = result.path / "report.pdf"
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert bundled_font_name().encode() in data  # the bundled font is embedded: Chinese prints on any PC
    pages = pdf_page_count(data)
    assert pages >= 2

    pdfium = pytest.importorskip("pypdfium2", reason="pypdfium2 (dev dependency) rasterizes the PDF itself")
    document = pdfium.PdfDocument(str(pdf))
    assert len(document) == pages
    for index in range(pages):
        gray = np.asarray(document[index].render(scale=0.5, grayscale=True).to_pil())
        assert ink_share(gray) > 0.005, f"page {index + 1} of the PDF is blank"
    text = document[0].get_textpage().get_text_range()
    assert "Hangtag inspection report" in text and "针织衫" in text  # text, not boxes: the glyphs map back
    document.close()


def export_with_report(journal_path: Path, session: int, out: Path):
    """Export with the PDF and keep the ReportData the PDF was drawn from (flagged frames and thumbnails)."""
    from app.report_pdf import render_pdf
    from inference.records.export import export_session

    drawn = []

    def pdf(report, folder, path):
        drawn.append(report)
        return render_pdf(report, folder, path)

    with Journal.open(journal_path) as journal:
        result = export_session(journal, session, out, pdf=pdf)
    return result, drawn[0]


def test_every_laid_out_page_has_ink_and_tag_text_stays_text(qapp, tmp_path):
    journal_path, session = make_session(tmp_path, frames=30, tag_text=EVIL)
    result, report = export_with_report(journal_path, session, tmp_path / "out")
    assert report.flagged
    images = render_page_images(report, result.path, dpi=40)
    assert len(images) >= 1
    for image in images:
        ptr = image.constBits()
        rgb = np.frombuffer(ptr, np.uint8, image.sizeInBytes()).reshape(image.height(), image.bytesPerLine())
        assert ink_share(rgb[:, : image.width() * 4]) > 0.005


def test_hangtag_inspect_report_pdf_runs_the_qt_exporter(tmp_path):
    journal_path, _ = make_session(tmp_path, frames=12)
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "inference.cli", "report", "--last", "--pdf", "--journal",
                           str(journal_path), "--out", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    (folder,) = out.iterdir()
    assert (folder / "report.pdf").stat().st_size > 10_000 and (folder / "report.html").is_file()


def test_the_pdf_is_a_summary_page_then_one_row_per_ng_then_appendices(qapp, tmp_path):
    """Issue 16: 29 pages for 24 frames, headings parted from their content at page breaks."""
    from app.report_pdf import build_document, paint_pages

    journal_path, session = make_session(tmp_path, frames=60, flagged_rate=0.4)
    result, report = export_with_report(journal_path, session, tmp_path / "out")
    flagged = len(report.flagged)
    assert flagged >= 15
    pages = pdf_page_count((result.path / "report.pdf").read_bytes())
    assert pages <= 3 + flagged // 8 + 1  # summary, ~8+ NG rows a page, two pages of appendices
    page = screen_page()
    doc = build_document(report, result.path, page)
    paint_pages(doc, page, QSizeF(700, 1000), "test", first_page=0, last_page=0)
    height = doc.pageSize().height()
    layout = doc.documentLayout()
    block, headings = doc.begin(), []
    while block.isValid():
        if block.blockFormat().headingLevel() in (1, 2) or block.charFormat().fontPointSize() >= 13:
            top = layout.blockBoundingRect(block).top()
            headings.append((block.text(), top))
        block = block.next()
    texts = [t for t, _ in headings]
    assert any("NG and REVIEW frames" in t for t in texts) and any("Appendix A" in t for t in texts)
    for text, top in headings:  # no heading in the last 8 % of a page: it would stand apart from its content
        assert (top % height) < 0.92 * height, f"heading {text!r} at the foot of a page"
    first_pages = {t: int(top // height) for t, top in headings}
    frames_heading = next(t for t in texts if "NG and REVIEW frames" in t)
    assert first_pages[frames_heading] == 1  # the summary is page 1 on its own


def test_a_heading_keeps_the_whole_first_row_of_its_table_on_its_page(qapp, tmp_path):
    """The heading "Frames that could not be inspected" and the table's column names ended a page, the rows
    began the next (or the first row was cut in two there). Page heights are swept so that some layout puts the
    heading near a page's foot."""
    from app.report_pdf import build_document, paint_pages
    from inference.records.report import summarize
    from tests.test_records_report import ERROR_TEXT, make_frame, make_session

    frames = [make_frame(i, "OK") for i in range(20)] + [make_frame(20 + i, "", error=ERROR_TEXT) for i in range(5)]
    report = summarize(make_session(), frames)
    write_charts(report, tmp_path)
    page = screen_page()
    parted = []
    for page_height in range(780, 940, 4):
        doc = build_document(report, tmp_path, page)
        paint_pages(doc, page, QSizeF(700, page_height), "test", first_page=0, last_page=0)
        height, layout = doc.pageSize().height(), doc.documentLayout()
        heading = doc.find("Frames that could not be inspected").block()
        first_row = doc.find("bad.jpg could not be decoded", heading.position()).block()
        row = layout.blockBoundingRect(first_row)
        pages = [int(y // height) for y in (layout.blockBoundingRect(heading).top(), row.top(), row.bottom() - 1)]
        if len(set(pages)) > 1:
            parted.append((page_height, pages))
    assert not parted, f"heading and first row on different pages (page height, pages): {parted}"


GUI_WALK_REASONS = [("tag not readable (REVIEW)", 9), ("product name 品名 · NG", 7), ("style number 货号 · NG", 6),
                    ("tag not readable (NG)", 4), ("barcode · NG", 3), ("hangtag count · NG", 1), ("color 颜色 · NG", 1)]


def test_the_reasons_charts_labels_are_drawn_whole_inside_the_chart(qapp, tmp_path):
    """The GUI walk's PDF (s5150): the first label was cut at the chart's left edge, 'ot readable (REVIEW)'."""
    from app.report_pdf import _rasterize_svg
    from inference.records.report import ParetoBar
    from inference.records.svg import pareto_svg

    total, running, bars = sum(n for _, n in GUI_WALK_REASONS), 0, []
    for label, n in GUI_WALK_REASONS:
        running += n
        bars.append(ParetoBar(label, n, n / total, running / total))
    svg = pareto_svg(bars, width=760)
    assert all(f">{escape(label)}</text>" in svg for label, _ in GUI_WALK_REASONS)  # room enough: none shortened
    (tmp_path / "pareto.svg").write_text(svg, encoding="utf-8")
    image = _rasterize_svg(tmp_path / "pareto.svg", 1.0).convertToFormat(QImage.Format.Format_Grayscale8)
    gray = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())[:, :image.width()]
    labels = gray[340 - 110:, :]  # under the plot: the slanted labels
    assert ink_share(labels) > 0.01
    assert (labels[:, :3] < 200).sum() == 0, "a label runs off the chart's left edge"


def test_a_flagged_frames_row_is_never_cut_in_two_by_a_page_break(qapp, tmp_path):
    """The GUI walk's PDF: row 10's name ended page 2, its thumbnail and checks began page 3. Page heights are
    swept so that rows meet the page's foot at many depths."""
    from PySide6.QtGui import QTextCursor

    from app.report_pdf import build_document, paint_pages

    journal_path, session = make_session(tmp_path, frames=60, flagged_rate=0.4)
    result, report = export_with_report(journal_path, session, tmp_path / "out")
    page = screen_page()
    cut, breaks = [], 0
    for page_height in range(880, 1080, 25):
        doc = build_document(report, result.path, page)
        pages = paint_pages(doc, page, QSizeF(700, page_height), "test", first_page=0, last_page=0)
        height, layout = doc.pageSize().height(), doc.documentLayout()
        table = QTextCursor(doc.find("failed checks: expected / read")).currentTable()
        assert table is not None and table.rows() == len(report.flagged) + 1
        previous = 0.0
        for row in range(1, table.rows()):
            # the row's content: the thumbnail, the frame's name and time, the verdict, the checks
            rects = [layout.blockBoundingRect(table.cellAt(row, column).firstCursorPosition().block())
                     for column in range(table.columns())]
            top, bottom = min(r.top() for r in rects), max(r.bottom() for r in rects)
            if int(top // height) != int((bottom - 1) // height):
                cut.append((page_height, row))
            breaks += row > 1 and int(top // height) > int(previous // height)
            previous = top
        assert pages == doc.pageCount() and doc.find("About this report").block().isValid()
        assert int(layout.blockBoundingRect(doc.find("About this report").block()).top() // height) < pages
    assert not cut, f"rows cut by a page break (page height, row): {cut}"
    assert breaks >= 8  # the table did run over pages


def test_a_row_taller_than_most_of_a_page_is_kept_whole_where_it_fits_one(qapp, tmp_path):
    """Rows over 80 % of a page were left to break: a frame whose failed checks wrap over many lines (a long
    composition read) began at one page's foot and ended on the next, though it fits a page. Page heights are
    swept so that the row is 80–90 % of one; a row taller than a page still breaks, with nothing lost."""
    from PySide6.QtGui import QTextCursor

    from app.report_pdf import _ENDS_PAGE, build_document, paint_pages
    from inference.records.report import FlaggedFrame, summarize
    from tests.test_records_report import make_frame, make_session

    composition = "纯棉 cotton " * 12
    check = {"subject": "composition", "verdict": "NG", "reason": "composition differs", "expected": composition,
             "read": composition}
    frames = [make_frame(i, "OK") for i in range(10)] + [
        make_frame(10 + i, "NG", checks=[check] * (4 if i == 5 else 1)) for i in range(12)]
    report = summarize(make_session(), frames,
                       flagged=[FlaggedFrame(f, note="not archived") for f in frames if f.verdict == "NG"])
    write_charts(report, tmp_path)
    page = screen_page()

    def tall_row(page_height: int) -> tuple[float, float, float, int]:
        doc = build_document(report, tmp_path, page)
        pages = paint_pages(doc, page, QSizeF(700, page_height), "test", first_page=0, last_page=0)
        layout = doc.documentLayout()
        table = QTextCursor(doc.find("failed checks: expected / read")).currentTable()
        tops, bottoms = [], []
        for column in range(table.columns()):
            cell = table.cellAt(6, column)
            last = cell.lastCursorPosition().block()
            last = last.previous() if last.blockFormat().hasProperty(_ENDS_PAGE) else last  # its own content
            tops.append(layout.blockBoundingRect(cell.firstCursorPosition().block()).top())
            bottoms.append(layout.blockBoundingRect(last).bottom())
        assert doc.find("About this report").block().isValid() and pages == doc.pageCount()
        return min(tops), max(bottoms), doc.pageSize().height(), pages

    top, bottom, _, _ = tall_row(3000)
    natural = bottom - top
    cut = []
    for body in range(int(natural / 0.9) + 1, int(natural / 0.8), 8):
        top, bottom, height, _ = tall_row(body + 21)  # the page less its footer is the body
        assert 0.8 <= natural / height <= 0.9
        if int(top // height) != int((bottom - 1) // height):
            cut.append(body)
    assert not cut, f"a row of {natural:.0f} px cut on pages of (px): {cut}"
    top, bottom, height, pages = tall_row(int(natural * 0.7))  # taller than a page: it breaks, and the rest follows
    assert int(top // height) != int((bottom - 1) // height) and pages > 6


def test_a_heading_is_never_drawn_at_a_pages_foot_with_its_text_on_the_next(qapp, tmp_path):
    """s5150, session 3: "About this report" ended page 3, its text began page 4. Qt had moved the paragraph's
    first line to page 4 but left the paragraph's top (its margin) on page 3, and the heading was kept with that.
    Page heights are swept so that headings meet the page's foot at many depths."""
    from PySide6.QtGui import QTextCursor

    from app.report_pdf import build_document, paint_pages

    journal_path, session = make_session(tmp_path, frames=30, flagged_rate=0.3)
    result, report = export_with_report(journal_path, session, tmp_path / "out")
    page = screen_page()

    def drawn_at(layout, block) -> float:  # where the block's first line is painted
        return layout.blockBoundingRect(block).top() + block.layout().lineAt(0).y()

    alone, checked = [], 0
    for page_height in range(600, 1100, 9):
        doc = build_document(report, result.path, page)
        paint_pages(doc, page, QSizeF(700, page_height), "test", first_page=0, last_page=0)
        height, layout = doc.pageSize().height(), doc.documentLayout()
        block = doc.begin()
        while block.isValid():
            following = block.next()
            if (block.blockFormat().headingLevel() and following.isValid() and following.text()
                    and QTextCursor(following).currentTable() is None):
                checked += 1
                if int(drawn_at(layout, block) // height) != int(drawn_at(layout, following) // height):
                    alone.append((page_height, block.text()))
            block = following
    assert checked > 100
    assert not alone, f"a heading at a page's foot, its text on the next page (page height, heading): {alone}"


def test_a_line_sessions_pdf_lists_its_ng_and_review_tags(qapp, tmp_path):
    """A moving line's session (frames only tracked): page 1 counted 2 REVIEW tags, page 2 said "NG and REVIEW
    frames (0) · None: every judged tag passed", and the reasons chart counted 'frames'."""
    from inference.reading.verdict import Verdict
    from inference.records.archive import Archive
    from inference.records.html_report import render_html
    from inference.records.recorder import Recorder
    from inference.records.synthetic import synthetic_result
    from inference.tracking.records import UNREAD
    from tests.test_records_tags import KEY, make_verdict

    with Journal.open(tmp_path / "j.sqlite3") as journal:
        recorder = Recorder(journal, Archive(tmp_path / "archive"))
        recorder.use(KEY)
        rng = np.random.default_rng(0)
        for index in range(5):
            frame = synthetic_result(index, rng, flagged=False, judged=False, image_hw=(72, 128),
                                     source_name=f"replay#{index}", source_path=None, timestamp=1_790_000_000.0 + index)
            recorder.record(frame, np.zeros((72, 128, 3), np.uint8))
        recorder.record_tag(make_verdict(1, Verdict.OK))
        recorder.record_tag(make_verdict(2, Verdict.NG, reasons=("size L ≠ expected M", "price ¥99 ≠ expected ¥89")))
        recorder.record_tag(make_verdict(3, Verdict.REVIEW, reads=0, crop=False, reasons=(UNREAD,)))
        session = recorder.session_id
    result, report = export_with_report(tmp_path / "j.sqlite3", session, tmp_path / "out")
    qt = render_html(report, flavor="qt")
    browser = (result.path / "report.html").read_text(encoding="utf-8")
    for html in (qt, browser):
        assert "NG and REVIEW tags (2)</h2>" in html and "NG and REVIEW frames" not in html
        assert "<b>#2</b>" in html and "size L ≠ expected M<br>price ¥99 ≠ expected ¥89" in html
        assert "<b>#3</b>" in html and "passed unread" in html and "<b>#1</b>" not in html  # the OK tag is not listed
        assert html.count('<img src="thumbs/t') == 1 and "no crop archived" in html  # tag 2's crop; 3 had none
    assert len(list((result.path / "thumbs").glob("t*_tag2.jpg"))) == 1
    assert (result.flagged, result.unit) == (2, "tags")  # the station's "Report written … (0 NG/REVIEW frames)"
    pareto = (result.path / "charts" / "pareto.svg").read_text(encoding="utf-8")
    assert "NG/REVIEW tags by their first failed check" in pareto and ">frames<" not in pareto
    pdfium = pytest.importorskip("pypdfium2", reason="pypdfium2 (dev dependency) reads the PDF's text")
    document = pdfium.PdfDocument(str(result.path / "report.pdf"))
    text = "".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    document.close()
    assert "NG and REVIEW tags (" in text and "size L ≠ expected M" in text


def test_an_empty_ng_list_takes_no_page_of_its_own(qapp, tmp_path):
    """A line session whose tags all passed: page 2 held only "NG and REVIEW frames (0)" and a line of text."""
    from inference.records.html_report import render_html
    from inference.records.report import summarize
    from tests.test_records_report import make_frame, make_session

    html = render_html(summarize(make_session(), [make_frame(i, "OK") for i in range(3)]), flavor="qt")
    assert '<h2>NG and REVIEW frames (0)</h2>' in html


def test_the_pdfs_numbers_and_ligatures_are_text_a_reader_can_search_and_copy(qapp, tmp_path):
    """s5150's PDF drew every number but its text layer lost them: a viewer's search for the style number H7471595
    found 'H', 'session 3' read 'session', a time read '- - : : UTC', and 'Recipe file' read 'Recipe le' (the
    shaped 'fi' and figures had no way back to their characters)."""
    pdfium = pytest.importorskip("pypdfium2", reason="pypdfium2 (dev dependency) reads the PDF's text")
    journal_path, session = make_session(tmp_path, frames=12, flagged_rate=0.5)
    result, report = export_with_report(journal_path, session, tmp_path / "out")
    document = pdfium.PdfDocument(str(result.path / "report.pdf"))
    text = "".join(document[i].get_textpage().get_text_range() for i in range(len(document)))
    document.close()
    assert f"report — session {session}" in text and "Recipe file" in text
    assert local_time_of(report.generated_at) in text
    assert all(record.record.source_name in text for record in report.flagged)


def local_time_of(timestamp: float) -> str:
    from inference.records.report import local_time

    return local_time(timestamp)
