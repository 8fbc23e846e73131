"""A moving line's tag, looked at in History, shows what the recipe expected beside what was read: the tag row keeps the
checks of the read its verdict rests on (schema v7). The Expected column was empty for every field of every tag."""

from __future__ import annotations

from app.history.rows import frame_fields, frame_row, nothing_read, tag_row
from inference.reading.types import FieldReading, TagReading
from inference.reading.verdict import Check, FrameVerdict, Verdict
from inference.records.journal import Journal
from inference.records.recorder import Recorder
from inference.tracking.records import Read, TagTrack, verdict_of
from tests.test_records_tags import KEY, make_old_journal, make_verdict


def check(subject: str, expected: str, read: str, verdict: Verdict) -> Check:
    return Check(subject, 0, expected, read, 0.97, "ocr", verdict, "" if verdict is Verdict.OK else f"{read} ≠ {expected}")


def read_tag() -> TagTrack:
    """A tag read once: size read L where the recipe wants M, price as expected, and a composition no check asked for."""
    reading = TagReading(0, (400.0, 50.0, 700.0, 600.0), fields={
        "size": FieldReading("size", "L", 0.97, "ocr"), "price": FieldReading("price", "¥299.00", 0.99, "ocr"),
        "composition": FieldReading("composition", "棉 100%", 0.95, "ocr")})
    judged = FrameVerdict(Verdict.NG, ("size L ≠ M",), (check("size", "M", "L", Verdict.NG),
                                                        check("price", "¥299.00", "¥299.00", Verdict.OK)))
    read = Read(frame=12, focus=4000.0, reading=reading, verdict=judged, box=(400.0, 50.0, 700.0, 600.0))
    return TagTrack(7, 9, 8, 16, (1100.0, 50.0, 1280.0, 600.0), 12, 4000.0, True, (read,))


def test_a_tags_detail_shows_the_recipes_expected_value_beside_each_read(tmp_path):
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        recorder = Recorder(journal)
        recorder.use(KEY)
        recorder.record_tag(verdict_of(read_tag(), latency_s=0.2))
        (tag,) = journal.tag_page(recorder.session_id)
    fields = {f.label.split()[0]: (f.read, f.expected, f.verdict) for f in tag_row(tag).fields}
    assert fields == {"size": ("L", "M", "NG"), "price": ("¥299.00", "¥299.00", "OK"),
                      "composition": ("棉 100%", "", "")}  # read, asked for by no check: shown once, nothing expected


def test_tag_rows_of_an_older_journal_open_with_no_checks(tmp_path):
    path = tmp_path / "old.sqlite3"
    make_old_journal(path, 6, "INSERT INTO tags (session_id, tag_id, timestamp, verdict, fields) VALUES (1, 4, 1790000001, "
                              "'OK', '{\"tag_index\": 0, \"fields\": {\"size\": {\"value\": \"M\", \"confidence\": 0.9}}}')")
    with Journal.open(path) as journal:
        (tag,) = journal.tags(1)
    assert tag.checks == ()
    assert [(f.read, f.expected) for f in tag_row(tag).fields] == [("M", "")]


def test_the_number_a_barcode_check_read_is_one_row_not_two():
    """The recipe's barcode check and the tag's EAN-13 field read the same number: History listed it twice, the check
    without a confidence and the field without an expected value."""
    checks = ({"subject": "barcode", "tag_index": 0, "expected": "6959687940670", "read": "6959687940670",
               "confidence": None, "source": "barcode", "verdict": "OK"},)
    fields = {"tag_index": 0, "fields": {"ean13": {"value": "6959687940670", "confidence": 1.0},
                                         "size": {"value": "M", "confidence": 0.9}}}
    rows = [(f.label, f.read, f.expected, f.confidence) for f in frame_fields(checks, (fields,))]
    assert rows == [("barcode", "6959687940670", "6959687940670", 1.0), ("size 尺码", "M", "", 0.9)]
    printed_otherwise = {"tag_index": 0, "fields": {"ean13": {"value": "6959687940671", "confidence": 0.8}}}
    assert len(frame_fields(checks, (printed_otherwise,))) == 2  # digits printed unlike the bars: both are shown


def test_a_row_with_no_field_says_why_in_the_operators_words(tmp_path):
    from inference.pipeline import error_result
    from inference.postprocess import Thresholds
    from inference.tracking.records import UNREAD

    with Journal.open(tmp_path / "j.sqlite3") as journal:
        recorder = Recorder(journal)
        recorder.use(KEY)
        recorder.record(error_result(0, "000002.jpg", None, "000002.jpg could not be decoded", Thresholds()), None)
        recorder.record_tag(make_verdict(1, Verdict.REVIEW, reads=0, crop=False, reasons=(UNREAD,)))
        (frame,), (tag,) = journal.frame_page(recorder.session_id), journal.tag_page(recorder.session_id)
    assert nothing_read(tag_row(tag)) == "nothing read: the tag passed unread"
    assert nothing_read(frame_row(frame)) == "nothing read: the frame could not be inspected"


def test_a_frame_with_two_tags_judged_names_each_rows_tag():
    """Two tags judged on one frame: History listed 'brand 品牌' twice, with nothing saying which tag read which."""
    checks = tuple({"subject": subject, "tag_index": index, "expected": "ZEPHYRA", "read": read, "confidence": 0.9,
                    "source": "ocr", "verdict": "NG"} for subject, index, read in
                   (("count:hangtag", None, "2"), ("brand", 0, "素语"), ("brand", 1, "初棉")))
    labels = [f.label for f in frame_fields(checks, ())]
    assert labels == ["hangtag count", "tag 1: brand 品牌", "tag 2: brand 品牌"]
    one = tuple(c for c in checks if c["tag_index"] != 1)
    assert [f.label for f in frame_fields(one, ())] == ["hangtag count", "brand 品牌"]  # one tag: no prefix


def test_an_error_rows_unreadable_file_is_said_once_not_with_its_whole_error_again(qtbot, tmp_path):
    """History on a torn JPEG: the picture area repeated the reasons' expected / found / hint under 'image could not be
    read: /whole/path'. It now says which file in one line; the reasons above say the rest."""
    from app.history.detail import DetailPanel
    from inference.pipeline import error_result
    from inference.postprocess import Thresholds

    torn = tmp_path / "zz_torn.jpg"
    torn.write_bytes(b"\xff\xd8\xff torn")
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        recorder = Recorder(journal)
        recorder.use(KEY)
        message = "zz_torn.jpg could not be decoded\n  expected: a complete JPEG\n  hint:     re-export it"
        recorder.record(error_result(0, "zz_torn.jpg", str(torn), message, Thresholds()), None)
        (frame,) = journal.frame_page(recorder.session_id)
    panel = DetailPanel()
    qtbot.addWidget(panel)
    panel.show_row(frame_row(frame))
    said = panel.image.placeholder.text()
    assert "image could not be read: zz_torn.jpg" in said and "expected" not in said and str(tmp_path) not in said


def test_a_field_named_without_a_value_or_checked_by_a_pattern_is_expected_in_the_operators_words(tmp_path):
    """A GUI walk: History's Expected column showed 'present' for a field the recipe names without a value, and the raw
    '/GB 18401-2010 [AB]类/' for one checked by a pattern; an operator read both as the job's values. The report's
    tables (HTML, and the PDF drawn from it) showed the same text."""
    from inference.reading.recipe import parse_recipe
    from inference.reading.verdict import judge_tag
    from inference.records.html_report import render_html
    from inference.records.report import FlaggedFrame, summarize
    from tests.test_records_report import make_frame, make_session

    recipe = parse_recipe('[fields]\ngrade = { required = true }\nsafety_category = { pattern = "GB 18401-2010 [AB]类" }\n'
                          'price = "¥299.00"\n')
    box = (400.0, 50.0, 700.0, 600.0)
    reading = TagReading(0, box, fields={
        "grade": FieldReading("grade", "合格品", 0.97, "ocr"), "price": FieldReading("price", "¥299.00", 0.99, "ocr"),
        "safety_category": FieldReading("safety_category", "GB 18401-2010 C类", 0.96, "ocr")})
    read = Read(frame=12, focus=4000.0, reading=reading, verdict=judge_tag(recipe, reading), box=box)
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        recorder = Recorder(journal)
        recorder.use(KEY)
        recorder.record_tag(verdict_of(TagTrack(7, 9, 8, 16, box, 12, 4000.0, True, (read,)), latency_s=0.2))
        (tag,) = journal.tag_page(recorder.session_id)
    expected = {f.label: f.expected for f in tag_row(tag).fields}
    assert expected == {"grade 等级": "any value 任意值",
                        "safety category 安全技术类别": "pattern 格式: GB 18401-2010 [AB]类",
                        "price 价格": "¥299.00"}  # a value the recipe asks for is shown as written
    frame = make_frame(0, "NG", checks=tag.checks)
    report = summarize(make_session(), [frame], flagged=[FlaggedFrame(frame)])
    for flavor in ("browser", "qt"):
        html = render_html(report, flavor=flavor)
        assert "pattern 格式: GB 18401-2010 [AB]类" in html and "/GB 18401-2010 [AB]类/" not in html
    assert "any value 任意值" in render_html(report) and ">present<" not in render_html(report)
