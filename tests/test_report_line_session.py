"""A moving line's exported report, as its reader meets it: the Pareto counts tags by the check that failed (not by the
value read, which split one fault into a bar per wrong value), and "Files in this export" names only what is in the
folder (it listed images/ and thumbs/ for a line session that wrote neither)."""

from __future__ import annotations

import re

import pytest

from inference.reading.verdict import Check, Verdict
from inference.records import export_session
from inference.records.archive import Archive
from inference.records.journal import Journal
from inference.records.recorder import Recorder
from inference.records.report import tag_pareto
from inference.tracking.records import UNREAD
from tests.test_records_tags import KEY, make_verdict


def wrong_style(track_id: int, read: str):
    check = Check("style_number", 0, "MT78230C", read, 0.99, "ocr", Verdict.NG, f"style number {read} ≠ expected MT78230C")
    verdict = make_verdict(track_id, Verdict.NG, reasons=(check.reason,))
    return verdict.__class__(**{**verdict.__dict__, "checks": (check,)})


def test_tags_that_fail_one_check_with_different_values_are_one_bar(tmp_path):
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        recorder = Recorder(journal)
        recorder.use(KEY)
        for track_id, read in ((1, "MT78030C"), (2, "MT7823OC"), (3, "NT78230C")):
            recorder.record_tag(wrong_style(track_id, read))
        recorder.record_tag(make_verdict(4, Verdict.REVIEW, reads=0, crop=False, reasons=(UNREAD,)))
        bars = tag_pareto(journal.tags(recorder.session_id))
    assert [(b.label, b.count) for b in bars] == [("style number 货号 · NG", 3), ("passed unread (REVIEW)", 1)]


def listed_files(html: str) -> list[str]:
    about = html[html.index("Files in this export"):]
    return re.findall(r"<code>([^<]+)</code>", about[:about.index("</p>")])


@pytest.mark.parametrize("crops, thumbs_listed", [(False, False), (True, True)])
def test_the_files_listed_are_the_files_written(tmp_path, crops, thumbs_listed):
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        recorder = Recorder(journal, Archive(tmp_path / "archive"))
        recorder.use(KEY)
        recorder.record_tag(make_verdict(1, Verdict.NG, crop=crops, reasons=("size L ≠ expected M",)))
        recorder.record_tag(make_verdict(2, Verdict.REVIEW, reads=0, crop=False, reasons=(UNREAD,)))
        result = export_session(journal, recorder.session_id, tmp_path / "out")
    listed = listed_files((result.path / "report.html").read_text(encoding="utf-8"))
    assert "report.html" in listed and ("thumbs/" in listed) == thumbs_listed and "images/" not in listed
    assert [name for name in listed if not (result.path / name).exists()] == []


@pytest.mark.parametrize("errors, title", [
    (0, "NG/REVIEW frames by their first failed check (Pareto)"),
    (1, "NG/REVIEW frames and inspection errors by their first failed check (Pareto)"),
])
def test_the_pareto_title_names_every_kind_of_bar_it_draws(errors, title):
    """A torn JPEG is a bar ('inspection error') in a chart titled NG/REVIEW only, over 5 NG/REVIEW frames."""
    from inference.records.report import pareto
    from inference.records.svg import pareto_svg
    from tests.test_records_report import failed, make_frame

    frames = [make_frame(i, "NG", checks=[failed("price")]) for i in range(3)]
    frames += [make_frame(10 + i, "", error="could not be decoded") for i in range(errors)]
    assert f">{title}</text>" in pareto_svg(pareto(frames))


def test_the_pdfs_rows_of_a_frame_with_two_tags_name_each_checks_tag():
    """Sample 090000018 (two tags judged): the PDF's row read 'brand 品牌: expected ZEPHYRA, read 素语' and again for
    the other tag; only the HTML's own table said which tag."""
    import dataclasses

    from inference.records.html_report import _flagged_rows
    from inference.records.report import FlaggedFrame
    from tests.test_records_report import make_frame

    checks = [{"subject": "brand", "tag_index": index, "expected": "ZEPHYRA", "read": read, "verdict": "NG"}
              for index, read in ((0, "素语"), (1, "初棉"))]
    frame = dataclasses.replace(make_frame(0, "NG", checks=checks), tags=({"tag_index": 0}, {"tag_index": 1}))
    html = _flagged_rows((FlaggedFrame(frame),))
    assert "brand 品牌 (tag 1): expected ZEPHYRA" in html and "brand 品牌 (tag 2): expected ZEPHYRA" in html


@pytest.mark.parametrize("trigger_id, shown, not_shown", [(None, "<b>#2</b>", "trigger"), ("3", "<b>T3</b><br>trigger 3", "#2")])
def test_a_flagged_items_row_names_it_as_the_station_did(tmp_path, trigger_id, shown, not_shown):
    """A watched folder's third image, NG, was 'T3' on the banner and the strip and 'trigger 3' in History; the report
    headed its row '#2' (its frame's number)."""
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        recorder = Recorder(journal)
        recorder.use(KEY)
        recorder.record_tag(make_verdict(2, Verdict.NG, trigger_id=trigger_id, crop=False, reasons=("price ≠",)))
        result = export_session(journal, recorder.session_id, tmp_path / "out")
    html = (result.path / "report.html").read_text(encoding="utf-8")
    row = html[html.index("<b>", html.index("NG and REVIEW tags")):]
    row = row[:row.index("</tr>")]
    assert shown in row and not_shown not in row
