"""Verification's second read leaves out the lines a matched field stands on: they cannot settle a field
in doubt, and what the tag is judged on must not move when they are left out (issue 14, speed)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from inference.detections import Detections
from inference.reading import verify as verify_stage
from inference.reading.evidence import FieldEvidence
from inference.reading.matching import Found
from inference.reading.recipe import parse_recipe
from inference.reading.types import OcrLine
from inference.reading.verdict import Verdict, judge

synth = pytest.importorskip("training.synth", reason="the generator lives in a source checkout, not in a bundle")

CLASSES = ("hangtag", "barcode", "qr_code")


@functools.lru_cache(maxsize=None)
def reader():
    from inference.reading.reader import TagReader

    return TagReader.open(precision="fp32")


def test_a_row_is_settled_only_by_a_matched_field_and_never_where_a_field_in_doubt_was_found() -> None:
    texts = ("品名：休闲短裤", "尺码：均码 颜色：黄", "货号：24782032", "执行标准：FZ/T 73010-2016", "零售价", "颜色：", "RMB 1,599.00")
    first = {k: OcrLine(text, 0.97, (0, 2 * k, 1, 2 * k + 1)) for k, text in enumerate(texts)}
    evidence = {
        "product_name": FieldEvidence("product_name", Found.MATCH, "休闲短裤", 0.99, raw="品名：休闲短裤"),  # the line it was found on
        "size": FieldEvidence("size", Found.MATCH, "均码", 0.9, raw="尺码：均码 颜色：黄"),
        "color": FieldEvidence("color", Found.NEAR, "黄", 0.9, raw="黄"),  # in doubt, on the size's line
        "style_number": FieldEvidence("style_number", Found.MATCH, "24782032", 0.98, raw="24782032"),  # its value, in a line
        "standard": FieldEvidence("standard", Found.ABSENT),  # in doubt, nowhere: every line but the matched ones is read again
        "price": FieldEvidence("price", Found.MATCH, "¥1599.00", 0.95, raw="1,599.00"),  # its label alone, above the value
    }
    # the colour's own label (a field in doubt) is read again, and so is the line it may be on
    assert verify_stage._settled(first, evidence, {"color", "standard"}) == {0, 2, 4, 6}
    assert verify_stage._settled(first, {**evidence, "brand": FieldEvidence("brand", Found.MATCH, "FZ/", 0.99, raw="FZ/")},
                                 {"color", "standard"}) == {0, 2, 4, 6}  # a value shorter than 4 places nothing
    # a row the detector glued together holds the matched size and, misread, the grade and safety class in doubt
    glued = {0: OcrLine("委验金：一—：品141-20类 规格 155/84A", 0.8, (0, 0, 1, 1)), 1: OcrLine("号型 155/84A", 0.99, (0, 2, 1, 3))}
    size = FieldEvidence("size", Found.MATCH, "155/84A", 0.99, raw="委验金：一—：品141-20类 规格 155/84A")
    assert verify_stage._settled(glued, {"size": size, "grade": FieldEvidence("grade", Found.ABSENT)}, {"grade"}) == set()
    size = FieldEvidence("size", Found.MATCH, "155/84A", 0.99, raw="号型 155/84A")
    assert verify_stage._settled(glued, {"size": size, "grade": FieldEvidence("grade", Found.ABSENT)}, {"grade"}) == {1}


def test_a_row_joined_alone_reads_as_among_all_rows() -> None:
    """The second read joins each row as join_rows does over every box: a large size beside its small
    label is one line whichever rows are read again (regrouping one row's boxes alone split them)."""
    from inference.reading.lines import group_rows
    from inference.reading.ocr.recognizer import Recognized
    from inference.reading.text_lines import join_row, join_rows

    boxes = [(10.0, 10.0, 60.0, 30.0), (70.0, 4.0, 200.0, 36.0), (10.0, 50.0, 120.0, 68.0), (10.0, 80.0, 30.0, 96.0)]
    recognized = [Recognized("号型", 0.99, (0.99, 0.99)), Recognized("155/84Y", 0.98, (0.98,) * 7),
                  Recognized("品名：棉服", 0.97, (0.97,) * 5), Recognized("o", 0.2, (0.2,))]
    assert [join_row(boxes, recognized, row) for row in group_rows(boxes)] == [*join_rows(boxes, recognized), None]


def test_lines_a_matched_field_stands_on_are_not_read_again_and_the_judgement_does_not_move(monkeypatch) -> None:
    tag = synth.render_tag(7, px_per_mm=10.0, back_side=False)
    fields = tag.fields
    recipe = parse_recipe(
        "[counts]\nhangtag = 1\n[fields]\n"
        + "".join(f'{name} = "{fields[name]}"\n' for name in ("brand", "product_name", "style_number", "color", "standard", "grade"))
        + 'size = "XXL"\n'  # printed 均码: a field in doubt, so the tag is read a second time
    )
    tag_box = tuple(float(v) for v in tag.xyxy[0])
    symbols = [tuple(float(v) for v in box) for box, c in zip(tag.xyxy, tag.class_id) if CLASSES[int(c)] == "barcode"]
    detections = Detections(tag.xyxy.astype(np.float64), np.ones(len(tag.xyxy)), tag.class_id, CLASSES)
    again: list[int] = []
    real = reader().recognizer.recognize_only

    def counting(crops, only, squeeze=None, vocabulary=""):
        found = real(crops, only, squeeze, vocabulary)
        if squeeze == verify_stage.REREAD_SQUEEZE:
            again.append(len(found))
        return found

    monkeypatch.setattr(reader().recognizer, "recognize_only", counting)
    lean = reader().read_tag(tag.image, tag_box, symbols, recipe=recipe)
    lean_reads = sum(again)
    again.clear()
    monkeypatch.setattr(verify_stage, "_settled", lambda *args: set())  # as before: every line read again
    full = reader().read_tag(tag.image, tag_box, symbols, recipe=recipe)
    assert 0 < lean_reads < sum(again)
    assert len(lean.reread_lines) == len(full.reread_lines)
    first_texts = {line.text for line in full.ocr_lines}
    for mine, every in zip(lean.reread_lines, full.reread_lines):  # row by row: read again exactly, or kept as first read
        assert mine.text == every.text or mine.text in first_texts
    assert {k: f.value for k, f in lean.fields.items()} == {k: f.value for k, f in full.fields.items()}
    lean_verdict, full_verdict = judge(recipe, detections, [lean]), judge(recipe, detections, [full])
    assert lean_verdict.verdict is full_verdict.verdict is Verdict.NG  # the size printed differs: found either way
    assert lean_verdict.reasons == full_verdict.reasons
