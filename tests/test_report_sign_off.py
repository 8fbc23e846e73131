"""The report ends with what the shift signs: the PDF's last page held only the export's file list. Now the file
list is a paragraph, and the last section is the sign-off: the session's result in a line, which NG/REVIEW tags were
acknowledged at the station and which never were, and blank cells for who checked it, when, and the bin's count."""

from __future__ import annotations

import numpy as np
import pytest

from inference.reading.verdict import Verdict
from inference.records.archive import Archive
from inference.records.journal import Journal
from inference.records.recorder import Recorder
from inference.tracking.records import UNREAD
from tests.test_records_tags import KEY, make_verdict

pytest.importorskip("PySide6")


def line_session(tmp_path, acknowledged: tuple[int, ...]) -> tuple:
    """A line session of 6 tags (#2 and #5 NG, #4 passed unread), with the acknowledgements the station journals."""
    journal = Journal.open(tmp_path / "j.sqlite3")
    recorder = Recorder(journal, Archive(tmp_path / "archive"))
    recorder.use(KEY)
    for i in range(1, 7):
        if i in (2, 5):
            recorder.record_tag(make_verdict(i, Verdict.NG, reasons=("尺码 L ≠ 应为 M",)))
        elif i == 4:
            recorder.record_tag(make_verdict(i, Verdict.REVIEW, reads=0, crop=False, reasons=(UNREAD,)))
        else:
            recorder.record_tag(make_verdict(i, Verdict.OK))
    for i in acknowledged:
        journal.record_event("acknowledged", f"tag #{i}", "NG: 尺码 L ≠ 应为 M; acknowledged in operator mode",
                             session_id=recorder.session_id, at=1_790_000_100.0 + i)
    return journal, recorder.session_id


def test_the_sign_off_names_the_tags_never_acknowledged(tmp_path):
    from inference.records import export_session

    journal, session = line_session(tmp_path, acknowledged=(2,))
    with journal:
        result = export_session(journal, session, tmp_path / "out")
    html = (result.path / "report.html").read_text(encoding="utf-8")
    sign_off = html[html.index("<h2>Sign-off · session"):]
    assert html.index("<h2>About this report</h2>") < html.index("<h2>Sign-off")  # the sign-off is last
    assert "6 tags: 3 OK, 2 NG, 1 REVIEW (1 passed unread); yield 50.00%." in sign_off
    assert "Acknowledged at the station (1): #2 NG at " in sign_off
    assert "<b>Never acknowledged (2)</b>: #4 REVIEW, #5 NG." in sign_off
    for cell in ("checked by", "date and time", "rejects counted in the bin", "signature"):
        assert f"<th width=\"30%\">{cell}</th>" in sign_off


def test_the_pdfs_last_page_is_the_sign_off_not_a_file_list(qapp, tmp_path):
    pdfium = pytest.importorskip("pypdfium2", reason="pypdfium2 (dev dependency) reads the PDF's text")
    from app.report_pdf import export_session_with_pdf

    journal, session = line_session(tmp_path, acknowledged=(2, 5))
    with journal:
        result = export_session_with_pdf(journal, session, tmp_path / "out")
    document = pdfium.PdfDocument(str(result.path / "report.pdf"))
    last = document[len(document) - 1].get_textpage().get_text_range()
    pages = len(document)
    document.close()
    assert "Sign-off" in last and "rejects counted in the bin" in last and "signature" in last
    assert "Never acknowledged (1)" in last and "#4 REVIEW" in last
    text_after = last[last.index("Sign-off"):]
    assert "Files in this export" not in text_after  # the file list comes before, never after
    assert pages >= 1


def test_a_frame_session_signs_its_frames(tmp_path):
    from inference.records.html_report import render_html
    from inference.records.report import summarize
    from tests.test_records_report import make_frame, make_session

    html = render_html(summarize(make_session(), [make_frame(i, v) for i, v in enumerate(["OK", "NG", "OK"])]),
                       flavor="qt")
    sign_off = html[html.index("Sign-off"):]
    assert "3 frames: 2 OK, 1 NG, 0 REVIEW; yield 66.67%." in sign_off and "Never acknowledged" not in sign_off


@pytest.mark.parametrize("subject, kind, kept", [
    ("tag #7", "acknowledged", {"#7": 5.0}),
    ("tag T41", "acknowledged", {"T41": 5.0}),
    ("tag #7", "triton_all_down", {}),       # another event about the tag
    ("server a", "acknowledged", {}),        # not a tag
])
def test_acknowledgements_are_read_from_the_journals_events(subject, kind, kept):
    from inference.records.export import acknowledged_tags
    from inference.records.types import EventRecord

    assert acknowledged_tags([EventRecord(1, 1, 5.0, kind, subject, "")]) == kept
