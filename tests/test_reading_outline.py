"""The tag's own outline: found from its paper's edges on generated photos, and what it keeps out of a read."""

from __future__ import annotations

import json
import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from inference.imageio import read_image
from inference.reading.outline import find_outline
from inference.reading.rectify import residual_skew
from inference.reading.text_lines import on_paper
from tests.tagset_photos import generated_photos

DESIGNS = ["curled_tag", "handwritten_price", "dense_tag", "dotted_leaders", "vertical_classic", "dark_bilingual"]


@pytest.fixture(scope="module")
def photos(tmp_path_factory) -> Path:
    return generated_photos(tmp_path_factory.mktemp("outline"), 24, 4242, DESIGNS)


def _top_edge_turn(quad: np.ndarray) -> float:
    """The counter-clockwise turn that levels the quad's first edge (top-left to top-right)."""
    return math.degrees(math.atan2(quad[1, 1] - quad[0, 1], quad[1, 0] - quad[0, 0]))


def _corner_error(found: np.ndarray, truth: np.ndarray) -> float:
    """The worst corner's distance, the corners paired as best they go round, over the quad's diagonal."""
    return min(float(np.linalg.norm(np.roll(found, k, axis=0) - truth, axis=1).max()) for k in range(4)) / math.dist(truth[0], truth[2])


def test_the_paper_outline_is_found_where_its_edges_show_and_fits_them(photos: Path) -> None:
    rows = [json.loads(line) for line in (photos / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    tried, found, errors = 0, 0, []
    for row in rows:
        if row["bucket"] != "nominal" or len(row["tags"]) != 1:
            continue
        tag = row["tags"][0]
        quad = np.array(tag["quad"], np.float64)
        # the symbol stage's turn is a degree or two off under perspective
        outline = find_outline(read_image(photos / row["image"]), tuple(tag["xyxy"]), _top_edge_turn(quad) + 2.0)
        tried += 1
        if outline is not None:
            found += 1
            # a curled card's edges bow: four straight sides fit them only so well
            bound = 0.05 if row["design"] == "curled_tag" else 0.02
            errors.append((row["image"], _corner_error(outline.corners, quad) / bound))
    assert tried >= 8
    assert found >= tried // 2, f"outline found on {found} of {tried} tags"
    worst = max(errors, key=lambda e: e[1])
    assert worst[1] < 1.0, f"an outline off its tag's paper by {worst[1]:.1f} times its bound ({worst[0]})"


def test_no_outline_where_a_side_shows_no_edge() -> None:
    """A white card on a white sheet shows its edges on two sides only: no outline, not a guess."""
    frame = np.full((480, 640, 3), 90, np.uint8)
    frame[:, 320:] = 245  # the sheet
    cv2.rectangle(frame, (220, 120), (420, 380), (245, 245, 245), -1)  # the card, its right half on the sheet
    assert find_outline(frame, (220, 120, 420, 380), 0.0) is None
    frame[:, 320:] = 60
    cv2.rectangle(frame, (220, 120), (420, 380), (245, 245, 245), -1)
    outline = find_outline(frame, (220, 120, 420, 380), 3.0)
    assert outline is not None and abs(outline.turn_deg) <= 0.5
    assert np.abs(outline.corners - np.array([[220, 120], [420, 120], [420, 380], [220, 380]])).max() <= 3


def test_a_rule_printed_on_the_paper_is_not_its_edge() -> None:
    """A two-column tag (the fourteenth set's split_columns) boxed round its right column: the divider ruled between
    the columns is an edge along the box's left side, but the paper runs on past it. No outline, so the reader may
    grow the box to the paper's real edge (9415 000019 read its right column only)."""
    frame = np.full((480, 640, 3), 70, np.uint8)
    cv2.rectangle(frame, (60, 120), (420, 380), (240, 240, 240), -1)  # the card
    cv2.line(frame, (230, 140), (230, 360), (60, 60, 60), 2)  # the divider between its columns
    assert find_outline(frame, (222, 120, 420, 380), 0.0) is None  # the box round the right column
    whole = find_outline(frame, (60, 120, 420, 380), 0.0)
    assert whole is not None  # round the whole card the divider is print inside it
    # within two pixels of the search's scale (240 px for the 446-px region: 1.9 frame pixels each)
    assert np.abs(whole.corners - np.array([[60, 120], [420, 120], [420, 380], [60, 380]])).max() <= 4.5


def test_lines_off_the_paper_are_not_the_tags() -> None:
    paper = np.array([[100, 50], [300, 60], [290, 400], [90, 390]], np.float64)
    on = (120, 100, 260, 120)  # a field line
    edge = (92, 380, 150, 392)  # the last line, just inside the paper's edge
    off = (310, 200, 420, 220)  # a sheet's line beside the tag
    assert on_paper([on, edge, off], paper) == [on, edge]


def test_levelling_counts_only_the_print_on_the_paper() -> None:
    """A small level tag among a sheet's many lines printed 6° aslant: its own lines say it is level."""
    crop = np.full((400, 600), 235, np.uint8)
    sheet = np.zeros_like(crop)
    for y in range(20, 400, 18):
        cv2.line(sheet, (330, y), (600, y + int(270 * math.tan(math.radians(6)))), 255, 5)
    crop[sheet > 0] = 40
    for y in range(120, 300, 30):
        cv2.rectangle(crop, (60, y), (250, y + 8), 30, -1)
    paper = np.array([[40, 100], [280, 100], [280, 320], [40, 320]], np.float64)
    aslant, _gain = residual_skew(crop)
    level, _gain = residual_skew(crop, paper=paper)
    assert abs(aslant) >= 3.0
    assert abs(level) <= 0.5


def test_a_tag_whose_box_stops_short_of_its_paper_is_cut_round_the_paper(photos: Path) -> None:
    """The detector's box 2.5 % short of a turned tag on every side: the crop the box gives can cut the paper's
    ends (towards 45° the box's bounds say little of the tag's size); the crop the reader reads holds all of it."""
    from inference.reading.levelling import holds, level_tag
    from inference.reading.rectify import make_upright
    from inference.reading.symbols import read_symbols

    rows = [json.loads(line) for line in (photos / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    checked = cut = 0
    for row in rows:
        if row["bucket"] != "nominal" or len(row["tags"]) != 1 or not 15 <= abs(row["condition"]["rotation_deg"]) <= 40:
            continue
        image = read_image(photos / row["image"])
        x1, y1, x2, y2 = row["tags"][0]["xyxy"]
        dx, dy = 0.025 * (x2 - x1), 0.025 * (y2 - y1)
        short = (x1 + dx, y1 + dy, x2 - dx, y2 - dy)
        symbols = read_symbols(image, short)
        level = level_tag(image, short, symbols)
        if level.outline is None:
            continue
        checked += 1
        cut += not holds(make_upright(image, short, symbols.turn), level.outline)
        assert holds(level.upright, level.outline), row["image"]
    assert checked >= 2 and cut >= 1, (checked, cut)
