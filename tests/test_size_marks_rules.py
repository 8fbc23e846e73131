"""A table's rules round a size run's cells are the table's, not marks: a rule printed a little slanted in the upright
crop (a tag turned a degree or two, a table set askew) spans more rows across a cell than it is thick, and breaks
into pieces where it steps a row; neither makes it a line under the cell's size."""

from __future__ import annotations

import cv2
import numpy as np

from inference.reading.size_marks import _band, _clear_both_sides, _parts, _unruled

FONT = cv2.FONT_HERSHEY_SIMPLEX


def _cell_over_a_slanted_rule(drop: int):
    """A cell printing XXL, 16 px glyphs, between a level rule over it and a rule under it 3 px thick that drops
    `drop` px across the image (the grid runs on past the cell both ways). Returns the grey image and the cell's box
    as the text detector gives it."""
    image = np.full((60, 120), 255, np.uint8)
    cv2.line(image, (0, 8), (119, 8), 0, 2)
    cv2.putText(image, "XXL", (36, 36), FONT, 0.6, 0, 2, cv2.LINE_AA)
    cv2.line(image, (0, 44), (119, 44 + drop), 0, 3)
    return cv2.GaussianBlur(image, (3, 3), 0.6), (30.0, 16.0, 78.0, 40.0)


def test_a_rule_slanting_under_a_cell_is_taken_out_as_a_rule():
    # twentyfourth 000044 (a conversion table turned ~2°: the XXL and 3XL cells' bottom rule stepped 3 rows across
    # them and stood out as a line under each, ahead of the marked row); p20 000076 (a 3XL outstood a punched 2XL)
    for drop in (0, 3, 5):
        gray, box = _cell_over_a_slanted_rule(drop)
        band = _unruled(_band(gray, box, False))
        parts = _parts(band)
        below = band.core[1] + 2
        assert not parts.mark_mask.any(), f"a rule dropping {drop} px was taken for a mark"
        assert not band.ink[below:].any(), f"a rule dropping {drop} px stayed in the row"


def test_a_line_under_a_size_alone_is_still_a_mark():
    image = np.full((60, 120), 255, np.uint8)
    cv2.putText(image, "XXL", (36, 36), FONT, 0.6, 0, 2, cv2.LINE_AA)
    cv2.line(image, (34, 42), (78, 43), 0, 2)
    band = _unruled(_band(cv2.GaussianBlur(image, (3, 3), 0.6), (22.0, 16.0, 92.0, 40.0), False))
    assert _parts(band).mark_mask.any()


def test_the_tops_of_bold_glyphs_run_together_are_no_rule():
    # p20 000004: a bold 号型 in a ruled row, '165/92B', its glyphs' tops run together into one level stroke; their
    # strokes go on down from it, where a rule has paper right under it
    # (the tops and the feet, each run together, were one level stroke: ink from the one to the other in a column is
    # as tall as the glyphs, where a rule is as thin as it is printed)
    ink = np.zeros((26, 60), bool)
    ink[6:9, 2:58] = True  # the tops, run together
    ink[15:18, 2:58] = True  # the feet, run together
    for x in range(4, 58, 8):
        ink[9:15, x : x + 3] = True  # each glyph's strokes between them
    slab = np.zeros_like(ink)
    slab[6:9, 2:58] = slab[15:18, 2:58] = True
    assert not _clear_both_sides(ink, slab, 5)
    rule = np.zeros_like(ink)
    rule[21:23, :] = True
    assert _clear_both_sides(ink | rule, rule, 5)
    slanted = np.zeros_like(ink)
    for x in range(60):
        slanted[20 + x // 20 : 22 + x // 20, x] = True  # steps a row every 20 columns
    assert _clear_both_sides(ink | slanted, slanted, 5)
