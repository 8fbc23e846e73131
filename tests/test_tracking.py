"""The line's one verdict per tag: tracker ids, best-shot reading, verdicts per track and per trigger.

Detections are fed directly (moving rectangles drawn on synthetic frames): no ONNX detector is needed. The
reader is a stand-in that reads what the test planted in the tag's pixels, so each expectation is exact.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from inference.detections import Detections
from inference.reading import parse_recipe
from inference.reading.types import FieldReading, OcrLine, TagReading
from inference.reading.verdict import FrameVerdict, Verdict
from inference.tracking import LineInspector, LineSettings, TagTracker, TriggeredInspector, best_evidence
from inference.tracking.records import UNREAD, Read

W, H = 640, 360
NAMES = ("hangtag", "barcode", "qr_code")
RECIPE = parse_recipe('[recipe]\nname = "line test"\n[fields]\nstyle_number = "AB1234"\nsize = "M"\n')
# what the stand-in reader sees in a tag's pixels: its mean grey level says which tag was printed
PRINTED = {"ok": ("AB1234", "M"), "ng": ("AB1234", "L")}
GREY = {"ok": 200, "ng": 90, "blank": 40}


class PlantedReader:
    """Reads the tag the test drew: grey 200 is a correct tag, 90 one with the wrong size, 40 unreadable.
    Records (frame stamp, box) of every read; the frame stamp is the image's top-left pixel."""

    def __init__(self, unreadable_first: int = 0) -> None:
        self.calls: list[tuple[int, tuple]] = []
        self.neighbours: list[tuple] = []  # the other tags' boxes the line gave with each read
        self.unreadable_first = unreadable_first

    def read(self, image, detections, should_stop=None, recipe=None, neighbours=()):
        if detections.count("hangtag") == 0:
            return ()  # an empty frame: nothing tag-like in it
        box = tuple(float(v) for v in detections.of_class("hangtag").xyxy[0])
        self.calls.append((int(image[0, 0, 0]), box))
        self.neighbours.append(tuple(neighbours))
        x1, y1, x2, y2 = (int(v) for v in box)
        grey = float(np.median(image[y1 + 2:y2 - 2, x1 + 2:x2 - 2]))
        kind = min(GREY, key=lambda k: abs(GREY[k] - grey))
        if kind == "blank" or len(self.calls) <= self.unreadable_first:
            return (TagReading(0, box),)
        style, size = PRINTED[kind]
        fields = {"style_number": FieldReading("style_number", style, 0.99, "ocr"),
                  "size": FieldReading("size", size, 0.99, "ocr")}
        lines = (OcrLine(f"货号：{style}", 0.99, box), OcrLine(f"尺码：{size}", 0.99, box))
        return (TagReading(0, box, fields=fields, ocr_lines=lines),)


def frame_with(tags: list[tuple[tuple[int, int, int, int], str]], stamp: int, blur: float = 0.0) -> np.ndarray:
    image = np.full((H, W, 3), 60, np.uint8)
    for (x1, y1, x2, y2), kind in tags:
        image[max(0, y1):y2, max(0, x1):x2] = GREY[kind]
        image[max(0, y1) + 10:y2 - 10:8, max(0, x1) + 10:x2 - 10] = GREY[kind] - 30  # ruled lines: something to focus on
    if blur > 0:
        image = cv2.GaussianBlur(image, (0, 0), blur)
    image[0, 0] = stamp
    return image


def detections_of(boxes: list[tuple[int, int, int, int]], conf: float = 0.9) -> Detections:
    xyxy = np.array([[max(0, x1), max(0, y1), min(W, x2), min(H, y2)] for x1, y1, x2, y2 in boxes], np.float32)
    return Detections(xyxy.reshape(-1, 4), np.full(len(boxes), conf, np.float32), np.zeros(len(boxes), np.int32), NAMES)


def conveyor(n_tags: int, *, gap: int = 260, speed: int = 20, width: int = 120, kinds=None, ys=None):
    """Frames of tags moving left to right; yields (frame, [(box, kind, tag number)]) while any is in view."""
    kinds = kinds or ["ok"] * n_tags
    ys = ys or [100] * n_tags
    frame = 0
    while True:
        visible = []
        for k in range(n_tags):
            x1 = -width + frame * speed - k * gap
            if x1 < W and x1 + width > 0:
                visible.append(((x1, ys[k], x1 + width, ys[k] + 160), kinds[k], k))
        done = -width + frame * speed - (n_tags - 1) * gap >= W
        if done:
            return
        yield frame, visible
        frame += 1


def run_line(line: LineInspector, frames) -> list:
    verdicts = []
    for frame, visible in frames:
        image = frame_with([(box, kind) for box, kind, _ in visible], frame % 250)
        verdicts += line.step(frame, image, detections_of([box for box, _, _ in visible]))
    return verdicts + line.finish()


def test_track_ids_stay_the_same_while_tags_cross_the_view():
    tracker = TagTracker((W, H))
    ids_of: dict[int, set[int]] = {}
    ended: list[int] = []
    for frame, visible in conveyor(3, speed=25):
        if frame % 3 == 1:  # a busy detector skips frames: the prediction spans them
            continue
        update = tracker.update(frame, detections_of([b for b, _, _ in visible]).xyxy, np.full(len(visible), 0.9))
        for (_, _, tag), track_id in zip(visible, update.ids):
            ids_of.setdefault(tag, set()).add(track_id)
        ended += update.ended
    ended += tracker.end_all()
    assert [len(ids) for ids in ids_of.values()] == [1, 1, 1], ids_of
    assert len({next(iter(ids)) for ids in ids_of.values()}) == 3
    assert sorted(ended) == sorted(next(iter(ids)) for ids in ids_of.values())


def test_a_weak_box_continues_a_track_but_never_starts_one():
    tracker = TagTracker((W, H))
    first = tracker.update(0, np.array([[100, 100, 200, 260]]), np.array([0.9])).ids[0]
    assert tracker.update(1, np.array([[110, 100, 210, 260]]), np.array([0.2])).ids == (first,)
    assert tracker.update(2, np.array([[400, 100, 500, 260]]), np.array([0.2])).ids == (None,)


def test_every_tag_gets_exactly_one_verdict_threaded():
    reader = PlantedReader()
    kinds = ["ok", "ng", "ok", "blank"]
    with LineInspector(None, reader, RECIPE) as line:
        verdicts = run_line(line, conveyor(4, kinds=kinds))
    assert len(verdicts) == 4 and len({v.track_id for v in verdicts}) == 4
    by_start = sorted(verdicts, key=lambda v: v.first_frame)
    assert [v.verdict for v in by_start] == [Verdict.OK, Verdict.NG, Verdict.OK, Verdict.REVIEW]
    assert "size" in " ".join(by_start[1].reasons)
    assert [v.reads for v in by_start[:3]] == [1, 1, 1]  # settled by the first read: never read again
    assert by_start[3].reads == LineSettings().max_reads  # unresolved: read again while frames remained


def test_each_read_is_given_the_other_tags_in_its_frame_so_its_box_never_grows_into_them():
    """A dense belt: two tags in view at once. The line reads one tag of the frame; the other tags' boxes go with
    the read (a tag box grown into its touching neighbour verified the neighbour's values: false OKs at 0.3 s)."""
    reader = PlantedReader()
    with LineInspector(None, reader, RECIPE) as line:
        verdicts = run_line(line, conveyor(3, gap=160))
    assert len(verdicts) == 3
    boxes_by_stamp = {frame % 250: [tuple(b) for b in detections_of([v[0] for v in visible]).xyxy.tolist()]
                      for frame, visible in conveyor(3, gap=160)}
    assert any(reader.neighbours)  # some tag was read with another in view
    for (stamp, box), others in zip(reader.calls, reader.neighbours):
        assert sorted(others) == sorted(b for b in boxes_by_stamp[stamp] if b != box), (stamp, box)


def test_a_tag_that_leaves_unread_is_a_review():
    reader = PlantedReader()
    line = LineInspector(None, reader, RECIPE, threaded=False)
    # its path runs along the top edge: never seen whole, so never read
    verdicts = run_line(line, conveyor(1, ys=[-20]))
    assert len(verdicts) == 1
    assert verdicts[0].verdict is Verdict.REVIEW and verdicts[0].reasons == (UNREAD,)
    assert verdicts[0].unread and reader.calls == []


def test_a_tag_whose_shot_the_busy_reader_dropped_says_so():
    from inference.tracking.records import UNREAD_BUSY

    class Stalled(PlantedReader):
        def read(self, *args, **kwargs):
            raise AssertionError("never reached: the queue holds nothing")

    line = LineInspector(None, Stalled(), RECIPE, LineSettings(queue=0), threaded=False)
    line.worker.submit = lambda shot: None  # a reader so far behind that every shot is dropped
    verdicts = run_line(line, conveyor(1))
    assert [(v.verdict, v.reasons) for v in verdicts] == [(Verdict.REVIEW, (UNREAD_BUSY,))]


def test_best_shot_is_the_sharpest_fully_inside_frame():
    reader = PlantedReader()
    line = LineInspector(None, reader, RECIPE, LineSettings(look_frames=4), threaded=False)
    inside = (12, 100, 132, 260)
    plan = [  # (frame, box, blur): the sharpest frame of all touches the edge and must not be read
        (0, (-8, 100, 112, 260), 0.0),
        (1, inside, 3.0),
        (2, inside, 0.6),
        (3, inside, 2.0),
        (4, inside, 1.5),
        (5, inside, 2.5),
    ]
    verdicts = []
    for frame, box, blur in plan:
        verdicts += line.step(frame, frame_with([(box, "ok")], frame, blur), detections_of([box]))
    assert [stamp for stamp, _ in reader.calls] == [2]
    (track,) = line.tracks()
    assert track.best_frame == 2 and track.fully_inside and track.settled
    verdicts += line.finish()
    assert [(v.verdict, v.best_frame, v.reads) for v in verdicts] == [(Verdict.OK, 2, 1)]
    assert verdicts[0].crop.shape == (160, 120, 3)  # the tag's box in the frame read: what the journal archives


def test_an_unresolved_read_is_read_again_until_settled_then_never():
    reader = PlantedReader(unreadable_first=1)
    line = LineInspector(None, reader, RECIPE, LineSettings(look_frames=2), threaded=False)
    verdicts = run_line(line, conveyor(1))
    assert len(reader.calls) == 2  # REVIEW, then OK: settled, and the many frames left are not read
    assert [(v.verdict, v.reads) for v in verdicts] == [(Verdict.OK, 2)]


def test_best_evidence_needs_an_ng_read_for_ng_and_an_ok_read_for_ok():
    review = Read(1, 90.0, None, FrameVerdict(Verdict.REVIEW, ("blurred",)))
    ok = Read(2, 50.0, None, FrameVerdict(Verdict.OK, ()))
    ng = Read(3, 40.0, None, FrameVerdict(Verdict.NG, ("size L ≠ expected M",)))
    assert best_evidence([review, ok]) is ok
    assert best_evidence([review, ok, ng]) is ng
    assert best_evidence([review]) is review
    assert best_evidence([]) is None


def test_the_line_needs_a_recipe():
    from inference.errors import HangtagError

    with pytest.raises(HangtagError, match="recipe"):
        LineInspector(None, PlantedReader(), None)


def test_triggered_mode_gives_one_verdict_per_trigger_id():
    recipe = parse_recipe('[recipe]\nname = "t"\n[counts]\nhangtag = 1\n[fields]\nstyle_number = "AB1234"\nsize = "M"\n')
    triggered = TriggeredInspector(None, PlantedReader(), recipe)
    box = (200, 100, 320, 260)
    asked = [("T-1", [(box, "ok")]), ("T-2", [(box, "ng")]), ("T-3", [])]
    verdicts = [triggered.inspect(trigger, frame_with(tags, 0), detections_of([b for b, _ in tags]))
                for trigger, tags in asked]
    assert [(v.trigger_id, v.verdict) for v in verdicts] == [("T-1", Verdict.OK), ("T-2", Verdict.NG),
                                                              ("T-3", Verdict.NG)]
    assert "hangtag" in " ".join(verdicts[2].reasons)  # the recipe counts one tag: none is a missing tag
    assert verdicts[0].crop.shape == (160, 120, 3)  # the item the journal archives: its tag,
    assert verdicts[2].crop.shape == frame_with([], 0).shape  # or, no tag seen, the whole frame


def test_a_slow_detector_reads_at_the_first_whole_sighting():
    """Detection sees every 5th frame: waiting `look_frames` (4) whole frames would lose a whole sighting."""
    from inference.tracking import TrackerSettings

    reader = PlantedReader()
    settings = LineSettings(look_frames=4, tracker=TrackerSettings(belt_px_per_frame=(20.0, 0.0)))
    line = LineInspector(None, reader, RECIPE, settings, threaded=False)
    frames = [(f, v) for f, v in conveyor(1, speed=20) if f % 5 == 0]
    first_whole = next(f for f, v in frames if v and v[0][0][0] > 2 and v[0][0][2] < W - 2)
    verdicts = run_line(line, iter(frames))
    assert [stamp for stamp, _ in reader.calls] == [first_whole]
    assert [(v.verdict, v.reads) for v in verdicts] == [(Verdict.OK, 1)]


def test_the_belts_speed_keeps_ids_when_the_detector_sees_each_tag_only_twice():
    """Tags 230 px apart move 60 px a frame; detection sees every 3rd frame (180 px jumps, wider than a tag):
    with the belt's speed known, each tag keeps one id and none takes the next one's."""
    from inference.tracking import TrackerSettings

    tracker = TagTracker((W, H), TrackerSettings(belt_px_per_frame=(60.0, 0.0)))
    ids_of: dict[int, set[int]] = {}
    for frame, visible in conveyor(4, gap=230, speed=60, width=100):
        if frame % 3:
            continue
        update = tracker.update(frame, detections_of([b for b, _, _ in visible]).xyxy, np.full(len(visible), 0.9))
        for (_, _, tag), track_id in zip(visible, update.ids):
            ids_of.setdefault(tag, set()).add(track_id)
    assert sorted(ids_of) == [0, 1, 2, 3]
    assert all(len(ids) == 1 for ids in ids_of.values()), ids_of
    assert len(set.union(*ids_of.values())) == 4


def test_a_tag_that_stays_in_view_gets_its_verdict_at_the_timeout_and_only_once():
    """A stopped belt: the tag never leaves. Its verdict comes when its time runs out, and the frames after
    that give no second one."""
    clock = iter(float(t) for t in range(1000))
    line = LineInspector(None, PlantedReader(), RECIPE, LineSettings(look_frames=2, timeout_s=5.0),
                         threaded=False, clock=lambda: next(clock))
    box = (200, 100, 320, 260)
    verdicts = []
    for frame in range(12):
        verdicts += line.step(frame, frame_with([(box, "ok")], frame), detections_of([box]))
    verdicts += line.finish()
    assert [(v.verdict, v.timed_out, v.reads) for v in verdicts] == [(Verdict.OK, True, 1)]
    assert "time ran out" in verdicts[0].reasons[-1]


def test_a_sharp_whole_tag_is_read_at_its_first_whole_sighting():
    """Sharp enough at once: waiting `look_frames` would only push the read (and the verdict) later."""
    reader = PlantedReader()
    line = LineInspector(None, reader, RECIPE, LineSettings(look_frames=5, sharp_focus=1.0), threaded=False)
    frames = list(conveyor(1, speed=20))
    first_whole = next(f for f, v in frames if v and v[0][0][0] > 2 and v[0][0][2] < W - 2)
    verdicts = run_line(line, iter(frames))
    assert [stamp for stamp, _ in reader.calls] == [first_whole]
    assert [(v.verdict, v.reads) for v in verdicts] == [(Verdict.OK, 1)]


def test_a_blurred_tag_waits_for_its_sharpest_of_look_frames():
    reader = PlantedReader()
    line = LineInspector(None, reader, RECIPE, LineSettings(look_frames=3, sharp_focus=1e9), threaded=False)
    inside = (200, 100, 320, 260)
    for frame, blur in enumerate((2.5, 0.8, 2.0, 3.0)):
        line.step(frame, frame_with([(inside, "ok")], frame, blur), detections_of([inside]))
    assert [stamp for stamp, _ in reader.calls] == [1]


class GatedReader(PlantedReader):
    """Blocks in read() until the test opens the gate; records the order of the tags it read."""

    def __init__(self) -> None:
        super().__init__()
        import threading

        self.gate = threading.Event()
        self.started = threading.Event()

    def read(self, image, detections, should_stop=None, recipe=None, neighbours=()):
        self.started.set()
        assert self.gate.wait(30)
        return super().read(image, detections, recipe=recipe)


def _shot(track_id: int, attempt: int, x: int):
    from inference.tracking.worker import Shot

    box = (x, 100, x + 120, 260)
    return Shot(track_id, x, 100.0, frame_with([(box, "ok")], x % 250), detections_of([box]), attempt)


def test_first_reads_go_before_second_tries_and_a_full_queue_drops_a_second_try_first():
    from inference.tracking.worker import ReadWorker

    reader = GatedReader()
    worker = ReadWorker(reader, RECIPE, capacity=2)
    try:
        worker.submit(_shot(1, 1, 10))  # being read while the others queue
        assert reader.started.wait(30)
        worker.submit(_shot(2, 2, 150))  # a second try of tag 2, queued first
        worker.submit(_shot(3, 1, 290))
        worker.submit(_shot(4, 1, 430))  # the queue holds 2: tag 2's second try makes room
        assert worker.dropped == 1 and worker.reading
        reader.gate.set()
        for track_id in (1, 3, 4):
            assert worker.wait_for(track_id, 30)
        assert [stamp for stamp, _ in reader.calls] == [10, 290 % 250, 430 % 250]
        assert not worker.busy_with(2)
    finally:
        worker.close()


def test_a_second_try_still_waiting_when_the_tag_leaves_does_not_hold_its_verdict():
    """Tag 1 read unsure; its second try waits behind tag 2's first read. Tag 1 leaves: its verdict comes at
    once with the read it has (REVIEW), and the second try is never run."""
    reader = GatedReader()
    reader.gate.set()
    line = LineInspector(None, reader, RECIPE, LineSettings(look_frames=1, sharp_focus=1.0))
    try:
        a, b = (200, 100, 320, 260), (420, 100, 540, 260)
        line.step(0, frame_with([(a, "blank")], 0), detections_of([a]))
        assert line.worker.wait_for(1, 30)
        reader.gate.clear()
        reader.started.clear()
        line.step(1, frame_with([(a, "blank"), (b, "ok")], 1), detections_of([a, b]))  # tag 2's read starts
        assert reader.started.wait(30)
        line.step(2, frame_with([(a, "blank"), (b, "ok")], 2), detections_of([a, b]))  # tag 1's second try queues
        assert line.worker.busy_with(1)
        verdicts = line.step(40, frame_with([(b, "ok")], 40), detections_of([b]))  # tag 1 is gone
        assert [(v.track_id, v.verdict, v.reads) for v in verdicts] == [(1, Verdict.REVIEW, 1)]
        reader.gate.set()
        verdicts = line.finish()
        assert [(v.track_id, v.verdict) for v in verdicts] == [(2, Verdict.OK)]
        assert [stamp for stamp, _ in reader.calls] == [0, 1]
    finally:
        reader.gate.set()
        line.close()
