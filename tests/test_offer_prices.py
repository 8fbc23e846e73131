"""A member's or an event's price printed beside the retail one (training.tagsets promo_price, stripe_badge) is neither
the recipe's price nor evidence that the retail price differs; a bold ¥ read as a letter ('V549.00') is a price."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from inference.reading.offer_prices import in_tag_frame, offered
from inference.reading.types import OcrLine
from inference.reading.verdict import Verdict
from tests.price_checks import price_check


def _line(text: str, box=(0.0, 0.0, 100.0, 20.0), confidence: float = 0.98) -> OcrLine:
    return OcrLine(text, confidence, box)


@pytest.mark.parametrize(("text", "amount", "is_offer"), [
    ("吊牌价 ¥399.00 会员价 ¥319.00", "319", True),
    ("吊牌价 ¥399.00 会员价 ¥319.00", "399", False),
    ("活动价 ¥319.00  零售价 ¥399.00", "319", True),
    ("活动价 ¥319.00  零售价 ¥399.00", "399", False),
    ("VIP价：¥299.00", "299", True),
    ("零售价：¥399.00", "399", False),
    ("折后价 ¥299.00", "299", True),  # a discounted price, no price struck beside it (test_struck_prices: with one, charged)
    ("现价 ¥299.00", "299", False),
])
def test_an_amount_after_an_offers_label_on_its_line_is_offered(text, amount, is_offer):
    line = _line(text)
    assert offered(line, text.index(amount), (line,)) is is_offer


@pytest.mark.parametrize(("header", "header_box", "is_offer"), [
    ("会员价", (10.0, 0.0, 50.0, 18.0), True),  # over the amount
    ("折后价 8折", (2.0, 0.0, 40.0, 18.0), True),  # a panel's heading at its left, the amount set flush right
    ("吊牌价", (10.0, 0.0, 50.0, 18.0), False),
    ("会员价", (10.0, -80.0, 50.0, -62.0), False),  # far above: another part of the tag
    ("零售价 会员价", (0.0, 0.0, 100.0, 18.0), False),  # a table's heading row: the amount stands under 零售价
])
def test_a_bare_amount_takes_the_offers_label_on_the_line_just_above_it(header, header_box, is_offer):
    amount = _line("¥319.00", (5.0, 20.0, 48.0, 42.0))
    lines = (_line(header, header_box), amount)
    assert offered(amount, 1, lines) is is_offer


def test_a_recipe_naming_the_members_price_does_not_pass_on_it_and_the_retail_price_read_surely_fails_it():
    lines = (_line("品名：风衣"), _line("吊牌价 ¥399.00 会员价 ¥319.00", (0.0, 30.0, 200.0, 50.0)))
    check = price_check("¥319.00", lines)
    assert (check.verdict, check.read) == (Verdict.NG, "¥399.00")
    assert price_check("¥399.00", lines).verdict is Verdict.OK


def test_the_members_price_read_surely_is_no_evidence_against_a_retail_price_read_badly():
    lines = (_line("会员价 ¥319.00", (0.0, 30.0, 200.0, 50.0)), _line("吊牌价 ¥3", (0.0, 60.0, 200.0, 80.0), 0.4))
    assert price_check("¥399.00", lines).verdict is not Verdict.NG


@pytest.mark.parametrize(("text", "verdict"), [("V549.00", Verdict.OK), ("N549.00", Verdict.OK), ("N328.00", Verdict.NG)])
def test_a_bold_yen_read_as_a_letter_before_yuan_and_cents_is_a_price(text, verdict):
    assert price_check("¥549.00", (_line(text),)).verdict is verdict


@pytest.mark.parametrize(("text", "verdict"), [("零售价 88800", Verdict.REVIEW), ("零售价 98800", Verdict.REVIEW),
                                               ("零售价 89900", Verdict.NG),
                                               ("零售价 ¥88800", Verdict.NG)])
def test_a_yen_read_as_a_digit_with_the_point_lost_is_doubt_not_another_price(text, verdict):
    # twentysecond_b 000065 (thermal_label): '零售价 ¥ 88.00' in a printer's dots read '零售价 88800'
    assert price_check("¥88.00", (_line(text, confidence=0.95),)).verdict is verdict


def _turned(box, turn_deg: float):
    """The frame box (bounds) of a line whose box in the tag's own frame is `box`, on a tag the reader turns
    `turn_deg` counter-clockwise to stand upright (cv2's convention, about the frame's origin)."""
    inverse = cv2.invertAffineTransform(cv2.getRotationMatrix2D((0.0, 0.0), turn_deg, 1.0))
    x0, y0, x1, y1 = box
    corners = np.array([[x0, y0, 1], [x1, y0, 1], [x1, y1, 1], [x0, y1, 1]], np.float64) @ inverse.T
    return (*corners.min(axis=0), *corners.max(axis=0))


@pytest.mark.parametrize("turn", [40.0, -40.0, 24.0, 130.0])
def test_cells_under_a_heading_row_take_their_labels_in_the_tags_own_frame(turn):
    # twentysecond 000086 (promo_price, cells under one heading row, turned ~40°): in the frame each box is the bounds
    # of a turned line, and the heading row's box lies over both cells whichever way it is turned
    header = _line("折后价    吊牌价", _turned((0.0, 0.0, 200.0, 20.0), turn))
    offer = _line("¥149.00", _turned((5.0, 26.0, 85.0, 46.0), turn))
    retail = _line("¥199.00", _turned((115.0, 26.0, 195.0, 46.0), turn))
    lines = (header, offer, retail)
    assert offered(offer, 1, lines, turn_deg=turn) is True
    assert offered(retail, 1, lines, turn_deg=turn) is False


def test_lines_are_placed_in_the_tags_frame_as_they_were_printed():
    box = (10.0, 30.0, 130.0, 52.0)
    (placed,) = in_tag_frame([_line("¥199.00", _turned(box, 40.0))], 40.0)
    assert placed.box == pytest.approx(box, abs=1e-6)
    (level,) = in_tag_frame([_line("¥199.00", box)], 0.0)
    assert level.box == box


@pytest.mark.parametrize("turn", [33.0, -40.0])
def test_on_a_turned_tag_the_offer_under_its_heading_is_no_price_charged(turn):
    # twentysecond 000086 (promo_price, turned 33°): headings 折后价 | 吊牌价 boxed alone over cells ¥328.00 | ¥549.00;
    # in frame boxes the retail price was taken for the offer and the offer passed a recipe naming it
    lines = (_line("折后价", _turned((20.0, 0.0, 90.0, 25.0), turn)), _line("吊牌价", _turned((150.0, 1.0, 216.0, 26.0), turn)),
             _line("¥328.00", _turned((3.0, 26.0, 113.0, 57.0), turn)), _line("¥549.00", _turned((126.0, 28.0, 243.0, 60.0), turn)))
    assert price_check("¥549.00", lines, rotation=turn).verdict is Verdict.OK
    check = price_check("¥328.00", lines, rotation=turn)
    assert (check.verdict, check.read) == (Verdict.NG, "¥549.00")
