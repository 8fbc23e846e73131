"""A tag the detector did not outline is still a tag on the line: every hangtag carries its symbol, so a barcode that
crosses the view on no tag's outline gets one REVIEW row when it leaves, and a symbol on a tag's outline (in it,
beside it, or under a tag box that shows up later) never gives a second row for that tag.

Frames are drawn (grey tags with ruled lines, a striped barcode printed on each) and the detector's boxes are fed
directly, as in tests/test_tracking.py. The tag riding the top edge is the one the shipped detector misses on the
conveyor recordings (issue 18): its top is cut in every frame, its barcode is whole."""

from __future__ import annotations

import numpy as np
import pytest

from inference.detections import Detections
from inference.reading.verdict import Verdict
from inference.tracking import LineInspector, LineSettings, TrackerSettings
from tests.test_tracking import NAMES, RECIPE, W, PlantedReader, conveyor, frame_with

EDGE_Y = -60  # the tag's top 60 px are above the frame in every frame: never whole in view


def barcode_on(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """Where the tag's barcode is printed: across its lower part."""
    x1, y1, x2, y2 = box
    return (x1 + 20, y2 - 50, x2 - 20, y2 - 15)


def draw(visible, stamp: int) -> np.ndarray:
    image = frame_with([(box, kind) for box, kind, _ in visible], stamp)
    for box, _, _ in visible:
        bx1, by1, bx2, by2 = barcode_on(box)
        for x in range(max(0, bx1), min(W, bx2), 6):  # bars
            image[max(0, by1):by2, x:x + 3] = 0
    return image


def detections(tag_boxes, symbol_boxes, symbol_label: str = "barcode") -> Detections:
    boxes = [*tag_boxes, *symbol_boxes]
    xyxy = np.array([[max(0, x1), max(0, y1), min(W, x2), y2] for x1, y1, x2, y2 in boxes], np.float32).reshape(-1, 4)
    classes = [0] * len(tag_boxes) + [NAMES.index(symbol_label)] * len(symbol_boxes)
    return Detections(xyxy, np.full(len(boxes), 0.9, np.float32), np.array(classes, np.int32), NAMES)


def in_view(box) -> bool:
    return box[0] >= 0 and box[2] <= W


def run(frames, outline, symbol_label: str = "barcode", settings: LineSettings = LineSettings()):
    """The line over drawn frames; `outline(tag, box, frame)` says whether the detector outlines that tag there. A
    symbol is boxed whenever it is whole in view."""
    with LineInspector(None, PlantedReader(), RECIPE, settings) as line:
        verdicts = []
        for frame, visible in frames:
            tags = [box for box, _, tag in visible if outline(tag, box, frame)]
            symbols = [barcode_on(box) for box, _, _ in visible if in_view(barcode_on(box))]
            verdicts += line.step(frame, draw(visible, frame % 250), detections(tags, symbols, symbol_label))
        return verdicts + line.finish()


def edge_riding_line(n_tags: int = 3, edge_tag: int = 1):
    ys = [100] * n_tags
    ys[edge_tag] = EDGE_Y
    return list(conveyor(n_tags, ys=ys))


@pytest.mark.parametrize("belt", [None, (20.0, 0.0)])
@pytest.mark.parametrize("label", ["barcode", "qr_code"])
def test_a_tag_the_detector_never_outlined_gets_one_review_row_from_its_symbol(belt, label):
    frames = edge_riding_line()
    verdicts = run(frames, lambda tag, box, frame: tag != 1, label,
                   LineSettings(tracker=TrackerSettings(belt_px_per_frame=belt)))
    assert len(verdicts) == 3, [(v.track_id, v.verdict, v.reasons) for v in verdicts]
    assert len({v.track_id for v in verdicts}) == 3  # one id each, from the line's one sequence
    by_start = sorted(verdicts, key=lambda v: v.first_frame)
    assert [v.verdict for v in by_start] == [Verdict.OK, Verdict.REVIEW, Verdict.OK]
    lone = by_start[1]
    spoken = "a barcode" if label == "barcode" else "a QR code"
    assert lone.reasons == (f"{spoken} crossed the view with no hangtag outlined around it: check this tag by hand",)
    assert lone.reads == 0 and lone.unread
    assert lone.crop is not None and lone.crop.size > 0  # the symbol's pixels, for the row's archived image
    # the row is about where the tag crossed: its symbol's box, in the frames it was seen
    first_seen = next(f for f, v in frames if any(t == 1 and in_view(barcode_on(b)) for b, _, t in v))
    assert lone.first_frame == first_seen


def test_the_symbols_of_outlined_tags_give_no_rows_of_their_own():
    verdicts = run(list(conveyor(3)), lambda tag, box, frame: True)
    assert sorted(v.verdict for v in verdicts) == [Verdict.OK] * 3 and len(verdicts) == 3


def test_a_symbol_beside_a_tag_box_cut_short_belongs_to_that_tag():
    """The detector's tag box stops at the barcode's top (its lower part not outlined): the barcode touches the
    box, it is that tag's, and the tag gets its one verdict only."""
    frames = list(conveyor(2))
    with LineInspector(None, PlantedReader(), RECIPE) as line:
        verdicts = []
        for frame, visible in frames:
            tags = [(b[0], b[1], b[2], barcode_on(b)[1]) for b, _, _ in visible]
            symbols = [barcode_on(b) for b, _, _ in visible if in_view(barcode_on(b))]
            verdicts += line.step(frame, draw(visible, frame % 250), detections(tags, symbols))
        verdicts += line.finish()
    assert len(verdicts) == 2, [(v.verdict, v.reasons) for v in verdicts]


def test_a_tag_box_that_shows_up_late_around_a_symbol_takes_it_over():
    """The edge-riding tag is outlined only in the last frames its barcode is seen: its row is the tag's own, one."""
    frames = edge_riding_line()
    last_symbol = max(f for f, v in frames for b, _, t in v if t == 1 and in_view(barcode_on(b)))
    verdicts = run(frames, lambda tag, box, frame: tag != 1 or frame >= last_symbol - 2)
    assert len(verdicts) == 3, [(v.first_frame, v.verdict, v.reasons) for v in verdicts]
    assert not any("crossed the view" in " ".join(v.reasons) for v in verdicts)


def test_a_symbol_boxed_in_fewer_looks_than_a_crossing_gives_is_not_a_tag():
    """A box seen once or twice may be print that looks like a barcode (a pattern on the garment): a tag the belt
    carried shows its symbol in many looks, and only that is counted."""
    frames = list(conveyor(1))
    shown = [f for f, v in frames if v and in_view(barcode_on(v[0][0]))][:2]
    with LineInspector(None, PlantedReader(), RECIPE) as line:
        verdicts = []
        for frame, visible in frames:
            symbols = [barcode_on(b) for b, _, _ in visible] if frame in shown else []
            verdicts += line.step(frame, draw(visible, frame % 250), detections([], symbols))
        verdicts += line.finish()
    assert verdicts == []


def test_a_lone_symbol_the_belt_carried_out_gets_its_row_on_a_followed_frame():
    """A paced live line detects seldom: the symbol's row comes at the frame the belt's known speed carries it wholly
    out of the view, as a tag's does, not at the next detection."""
    speed = 20
    frames = edge_riding_line(n_tags=1, edge_tag=0)
    symbol_frames = [f for f, v in frames if v and in_view(barcode_on(v[0][0]))]
    detected = set(symbol_frames[:4])
    settings = LineSettings(tracker=TrackerSettings(belt_px_per_frame=(float(speed), 0.0)))
    with LineInspector(None, PlantedReader(), RECIPE, settings) as line:
        given_at = {}
        for frame, visible in frames:
            if frame in detected:
                symbols = [barcode_on(b) for b, _, _ in visible]
                given = line.step(frame, draw(visible, frame % 250), detections([], symbols))
            else:
                given = line.follow(frame)
            given_at.update({v.track_id: frame for v in given})
        rest = line.finish()
    assert rest == [] and len(given_at) == 1
    last_box = barcode_on(next(v for f, v in frames if f == symbol_frames[3])[0][0])
    out_at = symbol_frames[3] + int(np.ceil((W - last_box[0]) / speed))  # its box wholly past the right edge
    assert next(iter(given_at.values())) == out_at


def test_a_paced_line_looks_again_at_once_at_a_symbol_on_no_tags_outline_until_it_is_known_a_tag():
    """With the belt's speed known and nothing waiting for the reader, the detector follows (2 looks in the frames a
    tag is whole). A symbol on no tag's outline is a tag only once seen over MIN_LOOKS looks, more than the pace
    gives it (the top-edge tag of the s1.25 recording had no row in one live run): so while one is in view with
    fewer looks, every frame is worth detecting, and the pace returns once it has them."""
    from inference.tracking import DetectionPace
    from inference.tracking.symbols import MIN_LOOKS
    from tests.test_tracking import GatedReader

    reader = GatedReader()
    reader.gate.set()  # reads land at once
    settings = LineSettings(sharp_focus=1.0, pace=DetectionPace(whole_looks=2.0),
                            tracker=TrackerSettings(belt_px_per_frame=(20.0, 0.0)))
    frames = edge_riding_line(n_tags=2, edge_tag=1)
    first_symbol = next(f for f, v in frames for box, _, tag in v if tag == 1 and in_view(barcode_on(box)))
    line = LineInspector(None, reader, RECIPE, settings)
    try:
        def step(frame, visible):
            tags = [box for box, _, tag in visible if tag != 1]
            symbols = [barcode_on(box) for box, _, _ in visible if in_view(barcode_on(box))]
            line.step(frame, draw(visible, frame), detections(tags, symbols))

        for frame, visible in frames[:first_symbol - 20]:  # tag 0 comes in, is read and settled
            step(frame, visible)
        assert line.worker.wait_for(1, 30)
        step(*frames[first_symbol - 19])
        assert not line.detection_due(first_symbol - 18)  # following: nothing wants a look
        step(*frames[first_symbol])
        looks = 1
        while looks < MIN_LOOKS:
            assert line.detection_due(first_symbol + looks)
            step(*frames[first_symbol + looks])
            looks += 1
        assert not line.detection_due(first_symbol + looks)  # known a tag: the pace returns
    finally:
        line.close()
