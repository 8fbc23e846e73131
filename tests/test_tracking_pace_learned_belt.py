"""A live line whose belt speed nobody entered: once the tags' own moves agree on it (the tracker's BELT_AGREE), the
detector is paced by that learned speed as by a given one, so a busy reader gets the CPU every verdict waits for;
until then it looks on every frame, which is how the speed is learned."""

from __future__ import annotations

from inference.reading.verdict import Verdict
from inference.tracking import DetectionPace, LineInspector, LineSettings, TagTracker
from tests.test_tracking import RECIPE, W, GatedReader, PlantedReader, conveyor, detections_of, frame_with

SPEED = 20  # px a frame, left to right (tests.test_tracking.conveyor)


def _step(line, frame, visible):
    return line.step(frame, frame_with([(b, k) for b, k, _ in visible], frame),
                     detections_of([b for b, _, _ in visible]))


def _whole(frames, tag):
    return next(f for f, v in frames for b, _, k in v if k == tag and b[0] > 2 and b[2] < W - 2)


def test_the_tracker_tells_the_belts_speed_only_once_its_moves_agree():
    tracker = TagTracker((W, 360))
    seen = []
    for frame, visible in conveyor(1, speed=SPEED):
        boxes = detections_of([b for b, _, _ in visible])
        tracker.update(frame, boxes.xyxy, boxes.confidence)
        seen.append(tracker.belt)
    assert seen[0] is None  # one look: no move yet
    assert seen[-1] == (SPEED, 0.0)


def test_the_detector_follows_on_a_learned_belt_while_the_reader_is_busy():
    """No speed given. Tags 120 px wide on a 640 px view at 20 px a frame are whole for 26 frames: with tag 0 read
    and settled, or with tag 1's read held on the busy reader, the detector runs every 13th frame (2 looks), as it
    does with the speed given (test_tracking_pace). Before this, a learned belt never paced it: every frame."""
    reader = GatedReader()
    line = LineInspector(None, reader, RECIPE, LineSettings(sharp_focus=1.0, pace=DetectionPace(whole_looks=2.0)))
    try:
        frames = list(conveyor(2, speed=SPEED, gap=500))
        for frame, visible in frames[:_whole(frames, 0) + 1]:
            _step(line, frame, visible)
        assert line.tracker.belt_known  # learned from tag 0 coming in
        assert reader.started.wait(30)
        reader.started.clear()
        reader.gate.set()
        assert line.worker.wait_for(1, 30)
        reader.gate.clear()
        at = _whole(frames, 0) + 13
        _step(line, *frames[at])
        assert [line.detection_due(at + k) for k in (1, 12, 13)] == [False, False, True]  # tag 0 settled OK
        coming = next(f for f, v in frames if len(v) == 2)
        _step(line, *frames[coming])
        assert line.detection_due(coming + 1)  # tag 1 coming in, the reader free: every frame
        for frame, visible in frames[coming + 1:_whole(frames, 1) + 1]:
            _step(line, frame, visible)
        assert reader.started.wait(30)  # tag 1's read held
        at = _whole(frames, 1)
        assert [line.detection_due(at + k) for k in (1, 12, 13)] == [False, False, True]
    finally:
        reader.gate.set()
        line.close()


def test_before_the_belt_is_learned_the_detector_looks_on_every_frame():
    """Tag 0 seen in one look only: no move, no speed, so nothing to follow with; every frame is detected."""
    reader = GatedReader()
    line = LineInspector(None, reader, RECIPE, LineSettings(sharp_focus=1.0, pace=DetectionPace(whole_looks=2.0)))
    try:
        frames = list(conveyor(1, speed=SPEED))
        start = _whole(frames, 0)
        _step(line, *frames[start])
        assert line.tracker.belt is None
        assert all(line.detection_due(start + k) for k in (1, 5, 13))
    finally:
        reader.gate.set()
        line.close()


def test_a_tag_leaves_on_the_learned_belt_between_detections_with_one_verdict():
    """Detected on every frame until the belt is learned and the tag is whole, then every 8th; the tag's verdict
    comes at the first skipped frame where the learned speed has carried it wholly out of view, once."""
    line = LineInspector(None, PlantedReader(), RECIPE, LineSettings(sharp_focus=1.0), threaded=False)
    given = []
    frames = list(conveyor(1, speed=SPEED))
    frames += [(frame, []) for frame in range(len(frames), len(frames) + 40)]
    whole = _whole(frames, 0)
    detected = [f for f, _ in frames if f <= whole or f % 8 == 0]
    for frame, visible in frames:
        given += [(frame, v) for v in (_step(line, frame, visible) if frame in detected else line.follow(frame))]
    last_seen = max(f for f, v in frames if v and f in detected)
    box_then = next(b for f, v in frames if f == last_seen for b, _, _ in v)
    out_at = next(f for f in range(last_seen, last_seen + 100) if box_then[0] + SPEED * (f - last_seen) >= W)
    assert out_at % 8
    assert [(frame, v.verdict, v.reads) for frame, v in given] == [(out_at, Verdict.OK, 1)]
    assert line.finish() == []
