"""A tag box round a third of its tag grows three times, to the whole tag; beside another tag's box, twice.

p20's punched_size cards: the detector boxed the right third of a wide card (its price panel and code), the reader
grew the box twice and still left the label rows at the far side out: six fields "not found" on a card printed in
30 px lines. Two boxes of one tag, each grown over the whole of it, would each read its rows (two tags, NG), so a
box beside another tag's box grows at most twice."""

from __future__ import annotations

import functools

import pytest

from inference.reading.reader import MAX_GROWTHS, MAX_GROWTHS_BESIDE_ANOTHER

synth = pytest.importorskip("training.synth", reason="the generator lives in a source checkout, not in a bundle")
pytest.importorskip("cv2")


@functools.lru_cache(maxsize=None)
def reader():
    from inference.reading.reader import TagReader

    return TagReader.open(precision="fp32")


def _growths(reading) -> int:
    return sum("tag box grown" in note for note in reading.notes)


def test_a_box_round_a_third_of_the_tag_grows_to_read_all_of_it_and_beside_another_box_stops_at_two() -> None:
    assert (MAX_GROWTHS, MAX_GROWTHS_BESIDE_ANOTHER) == (3, 2)
    tag = synth.render_tag(9_500_012, px_per_mm=6.0, back_side=False)
    boxes = tag.xyxy.astype(float)
    x1, y1, x2, y2 = boxes[tag.class_id == 0][0]
    symbols = [tuple(b) for b in boxes[tag.class_id == 1]]
    whole = reader().read_tag(tag.image, (x1, y1, x2, y2), symbols)
    cut = (x1, y2 - 0.35 * (y2 - y1), x2, y2)  # the box round the bottom third: price and code
    alone = reader().read_tag(tag.image, cut, symbols)
    assert _growths(alone) == 3 and set(alone.fields) == set(whole.fields)
    beside = reader().read_tag(tag.image, cut, symbols, neighbours=((0.0, 0.0, 5.0, 5.0),))
    assert _growths(beside) == 2 and "product_name" not in beside.fields  # the top row stays out: REVIEW, not two tags


def test_a_third_growth_runs_one_way_only() -> None:
    """s6001 000004: a tag boxed right on a sheet of receipts grew twice, found print running out on its left and its
    right, and a third growth both ways took in the receipts' rows: colour and grade lost. A wide card boxed at one
    end runs on one way; print running out on two sides after two growths is what lies round the tag. Here three
    cards side by side, the box a strip down the middle one: print runs out on both sides at every growth."""
    import numpy as np

    tag = synth.render_tag(9_500_011, px_per_mm=6.0, back_side=False)
    w = tag.image.shape[1]
    image = np.concatenate([tag.image] * 3, axis=1)
    boxes = tag.xyxy.astype(float)
    x1, y1, x2, y2 = boxes[tag.class_id == 0][0]
    symbols = [(b[0] + w, b[1], b[2] + w, b[3]) for b in boxes[tag.class_id == 1]]
    strip = (w + x1 + 0.35 * (x2 - x1), y1, w + x1 + 0.65 * (x2 - x1), y2)
    assert _growths(reader().read_tag(image, strip, symbols)) == 2
