"""Verdicts: OK only on confident matches; NG on confident mismatches; REVIEW on any doubt."""

from __future__ import annotations

import numpy as np
import pytest

from inference.detections import Detections
from inference.reading.recipe import parse_recipe
from inference.reading.types import BarcodeReading, FieldReading, OcrLine, TagReading
from inference.reading.verdict import Verdict, judge

CLASSES = ("hangtag", "barcode", "qr_code")

RECIPE = """\
[counts]
hangtag = 1
barcode = 1

[fields]
style_number = "AB2301-05"
price = "¥259.00"
size = { pattern = "^(L|XL)$" }
grade = { required = true }

[barcode]
expected = "6901234567892"
"""

GOOD_FIELDS = {"style_number": "AB2301-05", "price": "¥259.00", "size": "L", "grade": "合格品"}
EAN = BarcodeReading("EAN-13", "6901234567892", True, (10, 300, 200, 360))


def detections(hangtags: int = 1, barcodes: int = 1, names: tuple[str, ...] = CLASSES) -> Detections:
    boxes = [(0, 0, 300, 600)] * hangtags + [(10, 300, 200, 360)] * barcodes
    ids = [0] * hangtags + [1] * barcodes
    return Detections(np.array(boxes, np.float32).reshape(-1, 4), np.full(len(boxes), 0.9), np.array(ids), names)


def tag(values: dict[str, str] = GOOD_FIELDS, confidence: float = 0.97, barcodes=(EAN,), lines=(), index: int = 0, low: dict[str, float] | None = None) -> TagReading:
    low = low or {}
    fields = {name: FieldReading(name, value, low.get(name, confidence), "ocr", value) for name, value in values.items()}
    return TagReading(index, (0, 0, 300, 600), fields, tuple(barcodes), tuple(lines))


def without(name: str) -> dict[str, str]:
    return {k: v for k, v in GOOD_FIELDS.items() if k != name}


def with_(name: str, value: str) -> dict[str, str]:
    return {**GOOD_FIELDS, name: value}


@pytest.mark.parametrize(
    ("case", "reading", "dets", "verdict", "reasons"),
    [
        ("all good", tag(), detections(), Verdict.OK, []),
        ("O/0 read for 0/0", tag(with_("style_number", "AB23O1-O5")), detections(), Verdict.OK, []),
        ("price differs", tag(with_("price", "¥199.00")), detections(), Verdict.NG, ["price ¥199.00 ≠ expected ¥259.00"]),
        ("size off pattern", tag(with_("size", "M")), detections(), Verdict.NG, ["size M does not match /^(L|XL)$/ (set the tag aside; if the print is right, correct the recipe's pattern for size)"]),
        ("size not found", tag(without("size")), detections(), Verdict.REVIEW, ["size not found (尺码)"]),
        ("two tags", tag(), detections(hangtags=2), Verdict.NG, ["2 hangtags, expected 1"]),
        # a decoded symbol counts even where the detector drew no box round it
        ("no barcode box, but decoded", tag(), detections(barcodes=0), Verdict.OK, []),
        # nothing found is not proof of nothing printed: REVIEW (NG where the recipe says missing is NG)
        ("no barcode at all", tag(barcodes=()), detections(barcodes=0), Verdict.REVIEW, ["barcode unreadable"]),
        # unreadable is not wrong: REVIEW, NG only on positive evidence (or where the recipe says missing is NG)
        ("barcode unreadable", tag(barcodes=()), detections(), Verdict.REVIEW, ["barcode unreadable"]),
        (
            "wrong barcode",
            tag(barcodes=(BarcodeReading("EAN-13", "6901234567885", True, (0, 0, 1, 1)),)),
            detections(),
            Verdict.NG,
            ["barcode 6901234567885 ≠ expected 6901234567892"],
        ),
        (
            "low confidence match",
            tag(low={"price": 0.55}),
            detections(),
            Verdict.REVIEW,
            ["price uncertain: the expected ¥259.00, read only at 55% (needs 80%)"],
        ),
        (
            "low confidence mismatch",
            tag(with_("price", "¥299.00"), low={"price": 0.55}),
            detections(),
            Verdict.REVIEW,
            ["price uncertain: read as ¥299.00 at 55%, expected ¥259.00"],
        ),
        (
            "NG wins over REVIEW, both listed",
            tag(with_("price", "¥199.00"), low={"size": 0.3}),
            detections(),
            Verdict.NG,
            ["price ¥199.00 ≠ expected ¥259.00", "size uncertain: read as L at 30%, expected /^(L|XL)$/"],
        ),
    ],
)
def test_verdicts(case: str, reading: TagReading, dets: Detections, verdict: Verdict, reasons: list[str]) -> None:
    result = judge(parse_recipe(RECIPE), dets, [reading])
    assert result.verdict is verdict, case
    assert list(result.reasons) == reasons


def test_checks_show_read_versus_expected() -> None:
    result = judge(parse_recipe(RECIPE), detections(), [tag(with_("price", "¥199.00"))])
    price = next(c for c in result.checks if c.subject == "price")
    assert (price.expected, price.read, price.verdict) == ("¥259.00", "¥199.00", Verdict.NG)
    assert next(c for c in result.checks if c.subject == "size").verdict is Verdict.OK


def test_a_differing_read_on_a_tag_that_reads_poorly_is_held_for_review() -> None:
    """Set 7301 frame 000094: 7-px print, most fields garbled, the price 'RMB 2,999' read confidently as
    2,000. With fewer than half of the other fields verified the misread is as likely as a misprint: REVIEW,
    not NG. With the others verified the same read stays NG (the planted wrong price)."""
    garbled = {"style_number": "806400A", "price": "¥199.00", "size": "LL", "grade": "合格品"}
    result = judge(parse_recipe(RECIPE), detections(), [tag(garbled, low={"style_number": 0.4, "size": 0.3})])
    assert result.verdict is Verdict.REVIEW
    price = next(c for c in result.checks if c.subject == "price")
    assert price.verdict is Verdict.REVIEW
    assert "only 1 of the tag's 3 other fields could be read" in price.reason
    assert judge(parse_recipe(RECIPE), detections(), [tag(with_("price", "¥199.00"))]).verdict is Verdict.NG
    # another job's tag reads clearly wrong throughout: its fields were read, only not as expected, and it is NG
    other_job = {"style_number": "QX7700-12", "price": "¥199.00", "size": "M", "grade": "合格品"}
    assert judge(parse_recipe(RECIPE), detections(), [tag(other_job)]).verdict is Verdict.NG


def test_missing_field_can_be_ng_by_recipe() -> None:
    recipe = parse_recipe(RECIPE + '\n[verdict]\nmissing_field = "ng"\n')
    assert judge(recipe, detections(), [tag(without("grade"))]).verdict is Verdict.NG


def test_reasons_name_the_tag_when_there_are_several() -> None:
    recipe = parse_recipe(RECIPE.replace("hangtag = 1", "hangtag = { min = 1, max = 2 }"))
    result = judge(recipe, detections(hangtags=2), [tag(), tag(with_("price", "¥1.00"), index=1)])
    assert result.reasons == ("tag 2: price ¥1.00 ≠ expected ¥259.00",)


def test_counts_come_from_the_reader_when_the_model_has_no_such_class() -> None:
    result = judge(parse_recipe(RECIPE), Detections.empty(), [tag()])
    assert result.verdict is Verdict.OK


def test_detections_below_the_recipe_confidence_do_not_count() -> None:
    recipe = parse_recipe(RECIPE + "\n[confidence]\ndetection = 0.5\n")
    dets = detections(hangtags=2)
    dets = Detections(dets.xyxy, np.array([0.9, 0.2, 0.9]), dets.class_id, CLASSES)
    assert judge(recipe, dets, [tag()]).verdict is Verdict.OK


def test_bad_check_digit_is_ng() -> None:
    bad = BarcodeReading("EAN-13", "6901234567893", False, (0, 0, 1, 1))
    result = judge(parse_recipe("[barcode]\nrequired = true\n"), Detections.empty(), [tag(barcodes=(bad,))])
    assert result.verdict is Verdict.NG
    assert result.reasons == ("EAN-13 6901234567893 has a wrong check digit",)


def _lines(*texts: str) -> tuple[OcrLine, ...]:
    return tuple(OcrLine(t, 0.98, (0, 0, 1, 1)) for t in texts)


@pytest.mark.parametrize(
    ("lines", "verdict", "reasons"),
    [
        (_lines("货号：AB2301-05", "6 901234 567892"), Verdict.OK, []),
        (_lines("货号：AB2301-05", "6 901234 567885"), Verdict.NG, ["barcode 6901234567892 ≠ printed EAN 6901234567885"]),
        (_lines("货号：AB2301-05"), Verdict.REVIEW, ["EAN printed under the barcode not read"]),
    ],
)
def test_barcode_must_equal_the_printed_ean(lines, verdict: Verdict, reasons: list[str]) -> None:
    recipe = parse_recipe("[barcode]\nmatch_printed = true\n")
    result = judge(recipe, Detections.empty(), [tag(lines=lines)])
    assert (result.verdict, list(result.reasons)) == (verdict, reasons)


@pytest.mark.parametrize(
    ("printed", "coded", "verdict"),
    [
        ("货号：AB23O1-05", "AB2301-05", Verdict.OK),
        ("货号：AB2301-05", "AB2301-06", Verdict.NG),
        ("颜色：藏青", "AB2301-05", Verdict.REVIEW),
    ],
)
def test_code128_is_cross_checked_against_the_printed_style_number(printed: str, coded: str, verdict: Verdict) -> None:
    recipe = parse_recipe("[barcode]\nmatch_style_number = true\n")
    codes = (EAN, BarcodeReading("Code128", coded, None, (0, 0, 1, 1)))
    result = judge(recipe, Detections.empty(), [tag(barcodes=codes, lines=_lines(printed))])
    assert result.verdict is verdict


def test_no_hangtag_read_is_never_ok() -> None:
    result = judge(parse_recipe(RECIPE), detections(hangtags=0, barcodes=0), [])
    assert result.verdict is Verdict.NG
    assert "no hangtag, expected 1" in result.reasons


def test_a_colour_line_read_with_its_label_glued_on_is_not_a_second_colour():
    """'颜色紫色' fits the colour grammar (…色) as a whole; taken for a colour of its own (read at 65 %) beside the
    紫色 read surely after its label, it left a misprinted 紫色 in doubt on a folded tag of the eighth set."""
    from inference.reading.evidence import _colour_lines

    box = (0.0, 0.0, 100.0, 20.0)
    assert _colour_lines([OcrLine("颜色紫色", 0.65, box), OcrLine("色号：浅灰", 0.9, box)]) == []
    assert [c.value for c in _colour_lines([OcrLine("紫色", 0.9, box), OcrLine("藏青", 0.9, box)])] == ["紫色", "藏青"]


@pytest.mark.parametrize("expected, verdict", [("M", Verdict.REVIEW), ("S", Verdict.OK)])
def test_a_letter_size_found_by_chance_elsewhere_does_not_outweigh_its_own_label(expected, verdict):
    """'MADE IN CHINA' garbled to '哇蘑轻m CH4' holds an 'm'; the size's label says S surely. A recipe of M was
    judged OK on that chance letter (a wrong-recipe escape on set 5150); it is a doubt at least."""
    recipe = parse_recipe(f'[fields]\nsize = "{expected}"\n')
    box = (0.0, 0.0, 100.0, 20.0)
    lines = (OcrLine("哇蘑轻m CH4", 0.95, box), OcrLine("规格：S", 0.99, box))
    fields = {"size": FieldReading("size", "S", 0.99, "ocr", "规格：S")}
    result = judge(recipe, detections(1, 0), [TagReading(0, (0, 0, 300, 600), fields, (), lines)])
    assert result.verdict is verdict, result.reasons


def test_a_size_taken_for_the_colour_under_its_label_is_no_colour():
    """色号 alone on its line, 175/88A under it (the colour's own value printed elsewhere): the size read as the
    colour is a misplaced read, not a misprinted colour (a good frame of the seventh set judged NG)."""
    recipe = parse_recipe('[fields]\ncolor = "酒红"\n')
    box = (0.0, 0.0, 100.0, 20.0)
    lines = (OcrLine("色号", 0.99, box), OcrLine("175/88A", 0.95, box))
    fields = {"color": FieldReading("color", "175/88A", 0.95, "ocr", "175/88A")}
    result = judge(recipe, detections(1, 0), [TagReading(0, (0, 0, 300, 600), fields, (), lines)])
    assert result.verdict is Verdict.REVIEW and result.reasons == ("color uncertain: read as 175/88A at 95%, expected 酒红",)


@pytest.mark.parametrize(("read", "verdict"), [("面 5%氨纶 15%", Verdict.REVIEW), ("棉95%", Verdict.REVIEW),
                                               ("酒红", Verdict.NG)])
def test_a_fibre_contents_tail_taken_for_the_colour_is_no_colour(read, verdict):
    """A thumb over the colour's value (焦糖色) left the next row's tail ('面 5%氨纶 15%') beside 色号：: no colour
    carries a fibre's share, so it is another field's text read in the colour's place (REVIEW), while another colour
    word read surely is still a misprint (NG)."""
    recipe = parse_recipe('[fields]\ncolor = "焦糖色"\n')
    box = (0.0, 0.0, 100.0, 20.0)
    lines = (OcrLine("色号：", 0.99, box), OcrLine(read, 0.97, box))
    fields = {"color": FieldReading("color", read, 0.97, "ocr", f"色号： / {read}")}
    result = judge(recipe, detections(1, 0), [TagReading(0, (0, 0, 300, 600), fields, (), lines)])
    assert result.verdict is verdict, result.reasons


@pytest.mark.parametrize("text_px, verdict", [(9.0, Verdict.REVIEW), (30.0, Verdict.NG)])
def test_a_product_name_read_otherwise_in_small_print_is_a_doubt(text_px, verdict):
    """No grammar and no vocabulary tell 工共障 from a misprint of 工装裤 in 9-px print; at 30 px it is evidence."""
    recipe = parse_recipe('[fields]\nproduct_name = "工装裤"\n')
    box = (0.0, 0.0, 100.0, 20.0)
    fields = {"product_name": FieldReading("product_name", "工共障", 0.97, "ocr", "品名：工共障")}
    reading = TagReading(0, (0, 0, 300, 600), fields, (), (OcrLine("品名：工共障", 0.97, box),), text_px=text_px)
    result = judge(recipe, detections(1, 0), [reading])
    assert result.verdict is verdict, result.reasons
    if verdict is Verdict.REVIEW:
        assert any("free text in print too small" in reason for reason in result.reasons)


def test_a_separator_read_as_another_does_not_make_a_lookalike_digit_evidence_in_small_print():
    """'D9606-05' read 'D9606.85' in 19-px print: the dash became a dot and a 0 an 8 (a good tag NG on the seventh
    set). The separator is a slip; one look-alike digit left in small print is doubt."""
    recipe = parse_recipe('[fields]\nstyle_number = "D9606-05"\n')
    box = (0.0, 0.0, 100.0, 20.0)
    fields = {"style_number": FieldReading("style_number", "D9606.85", 0.97, "ocr", "货号 D9606.85")}
    reading = TagReading(0, (0, 0, 300, 600), fields, (), (OcrLine("货号 D9606.85", 0.97, box),), text_px=18.9)
    result = judge(recipe, detections(1, 0), [reading])
    assert result.verdict is Verdict.REVIEW and any("one character apart" in r for r in result.reasons), result.reasons


@pytest.mark.parametrize("read, text_px, verdict", [
    ("NT2818A", 17.1, Verdict.REVIEW),  # M lost a stroke in thermal dots (a good tag of the fresh 6001 set NG)
    ("NT2818A", 30.0, Verdict.NG),  # large enough to tell
    ("KT2818A", 17.1, Verdict.NG),  # K is no stroke away from M
])
def test_letters_one_stroke_apart_in_small_print_are_doubt(read, text_px, verdict):
    recipe = parse_recipe('[fields]\nstyle_number = "MT2818A"\n')
    box = (0.0, 0.0, 100.0, 20.0)
    fields = {"style_number": FieldReading("style_number", read, 0.97, "ocr", f"款号：{read}")}
    reading = TagReading(0, (0, 0, 300, 600), fields, (), (OcrLine(f"款号：{read}", 0.97, box),), text_px=text_px)
    result = judge(recipe, detections(1, 0), [reading])
    assert result.verdict is verdict, result.reasons
