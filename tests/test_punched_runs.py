"""A punched size run in a ruled table (p20 000069): the hole punched through the marked size's ring shows another
outline than the empty rings (wider than the ring, its lit edge lighter than the ring), and the table's walls stop at
the size row's own rules, short of the margins round the row's text box. The hole is still the run's marked option,
and the walls are still walls, not entries read as '1' between the sizes."""

from __future__ import annotations

import cv2
import numpy as np

from inference.reading.option_marks import option_fills
from inference.reading.size_marks import _band, _unruled, _vertical_rules

FONT = cv2.FONT_HERSHEY_SIMPLEX
SIZES = ("S", "M", "L", "XL", "XXL")


def _options_row(marked: int, hole_radius: int, hole_lift: int = 0):
    """Five sizes with a ring of radius 12 over each; the `marked` one's ring punched out by a dark hole of
    `hole_radius` (its ring gone with it), its middle raised `hole_lift` px. Returns the grey image, the entries' columns and print rows."""
    image = np.full((120, 460), 255, np.uint8)
    spans, rows = [], []
    for k, size in enumerate(SIZES):
        (w, cap), _ = cv2.getTextSize(size, FONT, 0.6, 2)
        x = 30 + 85 * k
        cv2.putText(image, size, (x, 90), FONT, 0.6, 0, 2, cv2.LINE_AA)
        centre = (x + w // 2, 90 - cap - 22)
        if k == marked:  # the punch took the ring with it
            cv2.circle(image, (centre[0], centre[1] - hole_lift), hole_radius, 110, -1, cv2.LINE_AA)
        else:
            cv2.circle(image, centre, 12, 0, 2, cv2.LINE_AA)
        spans.append((x, x + w))
        rows.append((90 - cap, 90))
    return cv2.GaussianBlur(image, (3, 3), 0.6), spans, rows, float(cap)


def test_a_hole_punched_wider_or_narrower_than_its_ring_is_the_marked_option():
    for radius in (8, 17):  # 17 or 35 px high against the rings' 27: a 25 % likeness left it out as no option at all
        gray, spans, rows, cap = _options_row(2, radius)
        fills = option_fills(gray, spans, rows, [cap] * len(spans), 255.0, 0.0)
        assert np.isfinite(fills).all(), f"hole of radius {radius}: {fills}"
        assert int(np.argmax(fills)) == 2 and fills[2] > 0.5 > max(np.delete(fills, 2))


def test_a_filled_blot_off_the_options_row_is_not_an_option():
    gray, spans, rows, cap = _options_row(2, 8, hole_lift=9)  # a blot whose middle sits 9 px over the rings' middles
    fills = option_fills(gray, spans, rows, [cap] * len(spans), 255.0, 0.0)
    assert not np.isfinite(fills[2]) or fills[2] < 0.5


def _ruled_row(walls_to_band: bool):
    """A table's size row: level rules at y 24 and 51, walls between the cells from the one rule to the other (or on
    past both to the image's edges), and the row's text box as a text detector gives it (y 28-48: its margins reach
    past the rules)."""
    image = np.full((80, 320), 255, np.uint8)
    cv2.line(image, (0, 24), (319, 24), 0, 1)
    cv2.line(image, (0, 51), (319, 51), 0, 1)
    for x in (100, 200):
        cv2.line(image, (x, 0 if walls_to_band else 24), (x, 79 if walls_to_band else 51), 0, 2)
    for x, size in ((40, "M"), (135, "L"), (235, "XL")):
        cv2.putText(image, size, (x, 45), FONT, 0.6, 0, 2, cv2.LINE_AA)
    return cv2.GaussianBlur(image, (3, 3), 0.6), (20.0, 28.0, 300.0, 48.0)


def test_walls_that_stop_at_the_rows_rules_are_walls():
    for to_band in (False, True):
        gray, box = _ruled_row(to_band)
        band = _unruled(_band(gray, box, False))
        assert [round((a + b) / 2) for a, b in band.walls] == [100 - 20, 200 - 20], f"walls to the band's edge: {to_band}"


def test_a_tall_glyph_is_no_wall():
    image = np.full((80, 320), 255, np.uint8)
    for x, size in ((40, "1"), (135, "l"), (235, "I")):
        cv2.putText(image, size, (x, 45), FONT, 0.6, 0, 2, cv2.LINE_AA)
    band = _band(cv2.GaussianBlur(image, (3, 3), 0.6), (20.0, 28.0, 300.0, 48.0), False)
    assert not _vertical_rules(band).any()
