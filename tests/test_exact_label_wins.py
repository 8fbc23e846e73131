"""A label matched only with one character forgiven is as often another label misread as the field's own: where
another line of the tag carries one of the field's labels exactly, that line is the field's, however surely the
forgiven one was read. twentyfifth_b 000014 (a shoe's tag): the lining's `里料` read `塑料` (one character off 面料)
at 75 % beside the upper's `帮面：头品牛龙羊` at 64 %; the lining's 羊皮革 stood for the recipe's composition."""

from __future__ import annotations

from inference.reading.evidence import forgiven_labels_yield
from inference.reading.fields import extract_fields
from inference.reading.types import OcrLine

# the first read of twentyfifth_b 000014, with the recognizer's confidences
_SHOE_READ = [("品名：男士文称", 0.77), ("数号：4972324", 0.81), ("帮面：头品牛龙羊", 0.64), ("塑料：羊皮举", 0.75),
              ("大底材料：TK", 0.85), ("等级：合格品", 0.61)]


def _lines(texts: list[tuple[str, float]]) -> list[OcrLine]:
    return [OcrLine(t, c, (0.0, 20.0 * k, 300.0, 20.0 * k + 18)) for k, (t, c) in enumerate(texts)]


def test_a_label_read_exactly_wins_the_field_over_a_surer_line_whose_label_was_forgiven():
    fields = extract_fields(_lines(_SHOE_READ))
    assert fields["composition"].value == "头品牛龙羊"  # the upper's line, however misread: never the lining's


def test_the_rule_is_no_shoes_a_garments_colour_too():
    fields = extract_fields(_lines([("颜邑：藏青", 0.97), ("颜色：黑色", 0.70)]))
    assert fields["color"].value == "黑色"


def test_a_forgiven_label_alone_still_gives_its_field():
    fields = extract_fields(_lines(_SHOE_READ))
    assert fields["style_number"].value == "4972324"  # 数号 for 款号: no other line carries the style number's label


def test_a_forgiven_label_in_one_read_yields_to_the_label_read_exactly_in_another():
    first = extract_fields(_lines([("帮面：头品牛龙羊", 0.64), ("大底材料：TK", 0.85)]))
    reread = extract_fields(_lines([("帮囿：头品牛皮羊", 0.5), ("塑料：羊皮举", 0.85), ("数号：4972324", 0.8)]))
    assert reread["composition"].value == "羊皮举"  # alone in its read, the forgiven label gives the field
    kept = forgiven_labels_yield([first, reread])
    assert kept[0]["composition"].value == "头品牛龙羊"
    assert "composition" not in kept[1]
    assert kept[1]["style_number"].value == "4972324"  # no read has 款号 exactly: the forgiven one stands


def test_one_line_whose_label_one_read_misread_stays_a_read_of_that_line():
    """fifteenth_b 000070: `资号：N6373338` in both line reads (款号 misread), the reader's own report `款号：N6373338`
    exactly: the line reads still each show the code (a wrong recipe's N637330B is NG only where each read shows
    the difference)."""
    first = extract_fields(_lines([("资号：N6373338", 0.87)]))
    reported = extract_fields(_lines([("款号：N6373338", 0.99)]))
    kept = forgiven_labels_yield([first, reported])
    assert kept[0]["style_number"].value == "N6373338"
