"""A tag whose barcode runs up its side: the code turns the crop a quarter away from the text, and the
reader turns it back because the printed lines stand on end (issue 14, a design nobody had tuned for)."""

from __future__ import annotations

import numpy as np
import pytest

from inference.reading.lines import SymbolZone
from inference.reading.rectify import make_upright
from inference.reading.text_lines import _quarter_zone, standing
from inference.reading.verdict import Verdict, judge
from tests.factories import skip_without_tag_scenes, tagset_card


@pytest.mark.parametrize(
    "sizes, stands",
    [
        ([(200, 40), (150, 36), (180, 38), (60, 58)], False),  # lines lying level, one squarish glyph
        ([(40, 200), (36, 150), (38, 180), (60, 58)], True),  # the same lines on end
        ([(52, 130), (64, 143), (41, 94), (84, 389), (200, 39)], True),  # short lines on end, one big size lying
        ([(40, 200), (36, 150), (38, 180), (300, 40), (200, 36)], False),  # as many lying: not on end
        ([(40, 200), (36, 150), (180, 40)], False),  # two on end beside one lying: too few to say
        ([(40, 200), (56, 124)], True),  # a tag's back, a brand and a slogan, both on end and nothing lying
        ([(40, 200)], False),  # one line alone says nothing
        ([(200, 40), (150, 36), (180, 38), (10, 16)], False),  # a stray narrow glyph ('1') among level lines
        ([(40, 60), (50, 55), (45, 70), (52, 52)], False),  # big glyphs only: no line says anything
    ],
)
def test_the_lines_of_a_crop_stand_on_end_only_when_several_stand_and_far_outrun_those_lying(sizes, stands) -> None:
    found = [((10.0, 10.0 + 60 * k, 10.0 + w, 10.0 + 60 * k + h), 0.9) for k, (w, h) in enumerate(sizes)]
    assert standing(found) is stands


def test_a_quarter_turn_maps_frame_points_and_symbol_zones_exactly() -> None:
    frame = (np.random.default_rng(0).random((400, 600, 3)) * 255).astype(np.uint8)
    upright = make_upright(frame, (100.0, 80.0, 400.0, 300.0), 20.0)
    turned = upright.quarter_turned()
    assert turned.angle_deg == pytest.approx(-70.0)
    np.testing.assert_allclose(turned.matrix, make_upright(frame, (100.0, 80.0, 400.0, 300.0), -70.0).matrix, atol=1e-6)
    point = np.array([250.5, 190.5, 1.0])
    (x, y), (u, v) = turned.matrix @ point, upright.matrix @ point
    assert (turned.image[int(y), int(x)] == upright.image[int(v), int(u)]).all()
    h = upright.image.shape[0]
    zone = _quarter_zone(SymbolZone((10.0, 20.0, 50.0, 30.0), (8.0, 20.0, 52.0, 36.0), "ean"), h)
    assert zone.bars == (h - 30.0, 10.0, h - 20.0, 50.0) and zone.text == (h - 36.0, 8.0, h - 20.0, 52.0)


@pytest.mark.parametrize("seed", [3, 8])
def test_a_tag_with_its_barcode_up_the_side_reads_its_unlabelled_values(seed: int) -> None:
    skip_without_tag_scenes()
    from inference.reading.reader import TagReader

    frame, detections, recipe = tagset_card("hairline_rows", seed, 9.0, ("style_number", "color", "size", "standard", "safety_category"))
    tags = TagReader.open(precision="fp32").read(frame, detections, recipe=recipe)
    verdict = judge(recipe, detections, tags)
    assert verdict.verdict is Verdict.OK, verdict.reasons
    assert abs(tags[0].rotation) < 5  # the code turned it a quarter; its standing lines turned it back level
    assert any("stood on end" in note for note in tags[0].notes)  # and the engineer is told why
