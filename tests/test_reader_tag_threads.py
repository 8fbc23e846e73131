"""Tags of one frame read side by side (TagReader.tag_threads, for the GPU reader: issue 19) read exactly as
they do one after another, come back in frame order, and Stop is still asked before each tag."""

from __future__ import annotations

import numpy as np
import pytest

from inference.detections import Detections

pytest.importorskip("training.synth", reason="the generator lives in a source checkout, not in a bundle")

from tests.test_reading import CLASSES, card, reader  # noqa: E402


def three_tag_frame():
    cards = [card(seed, turns, tag_px=420) for seed, turns in ((9_500_003, 0), (9_500_011, 1), (9_500_017, 0))]
    height = max(image.shape[0] for image, _, _ in cards) + 40
    width = sum(image.shape[1] for image, _, _ in cards) + 40 * (len(cards) + 1)
    frame = np.full((height, width, 3), 200, np.uint8)
    boxes, classes, x = [], [], 40
    for image, detections, _ in cards:
        h, w = image.shape[:2]
        frame[20:20 + h, x:x + w] = image
        boxes.append(detections.xyxy + [x, 20, x, 20])
        classes.append(detections.class_id)
        x += w + 40
    xyxy = np.concatenate(boxes)
    return frame, Detections(xyxy, np.ones(len(xyxy)), np.concatenate(classes), CLASSES)


def summary(readings):
    return [(r.tag_index, r.xyxy, {k: (f.value if f else None) for k, f in r.fields.items()},
             [(b.format, b.text) for b in r.barcodes], [line.text for line in r.ocr_lines], r.rejected) for r in readings]


def test_tags_read_side_by_side_read_as_they_do_one_after_another():
    frame, detections = three_tag_frame()
    tag_reader = reader()
    one_by_one = tag_reader.read(frame, detections)
    assert sum(r.is_tag for r in one_by_one) == 3
    tag_reader.tag_threads = 3
    try:
        side_by_side = tag_reader.read(frame, detections)
        asked = []
        stopped = tag_reader.read(frame, detections, should_stop=lambda: len(asked) > 1 or asked.append(1) is not None)
    finally:
        tag_reader.tag_threads = 1
    assert summary(side_by_side) == summary(one_by_one)
    assert [r.tag_index for r in stopped] == [0, 1]  # asked before each tag: the third was never started
    assert summary(stopped) == summary(one_by_one)[:2]
