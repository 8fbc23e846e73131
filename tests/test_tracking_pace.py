"""A paced live line: the detector runs seldom while the reader is busy, and the belt carries the tags between
detections (a tag wholly out of view by the belt's speed leaves without waiting for the next detection)."""

from __future__ import annotations

import numpy as np
import pytest

from inference.errors import ConfigError
from inference.reading.verdict import Verdict
from inference.tracking import DetectionPace, LineInspector, LineSettings, TagTracker, TrackerSettings
from tests.test_tracking import RECIPE, W, GatedReader, PlantedReader, conveyor, detections_of, frame_with

SPEED = 20  # px a frame, left to right (tests.test_tracking.conveyor)
# Shares of a core per read as the 2-core VM gave them (a read alone in its process, one OCR thread): at load
# 3-5 0.2-0.85; with nothing else running a read computes all its wall time.
QUIET, LOADED = 0.95, 0.45


@pytest.mark.parametrize(("shot_fps", "whole_looks", "shot_wanted", "seconds", "frames", "whole_frames", "due"), [
    (None, 2.0, True, 0.0, 1, 30.0, True),  # a tag waits for a read the free reader could start: every frame
    (None, 2.0, False, 0.0, 14, 30.0, False),  # only following: twice in the 30 frames a tag is whole
    (None, 2.0, False, 0.0, 15, 30.0, True),
    (None, 2.0, False, 0.0, 1, None, True),  # no belt speed given, or no tag seen whole yet: as when looking
    (10.0, 2.0, True, 0.09, 3, 30.0, False),  # never more often than shot_fps
    (10.0, 2.0, True, 0.1, 3, 30.0, True),
    (10.0, 2.0, False, 0.5, 14, 30.0, False),
    (10.0, None, False, 0.1, 1, 30.0, True),  # no following pace: as when looking
])
def test_a_frame_is_worth_detecting_often_only_while_the_free_reader_waits_for_a_tag(
        shot_fps, whole_looks, shot_wanted, seconds, frames, whole_frames, due):
    """The default pace (starved_below None), once a read has finished: whatever CPU the reader got."""
    pace = DetectionPace(shot_fps=shot_fps, whole_looks=whole_looks)
    assert pace.due(shot_wanted=shot_wanted, seconds_since=seconds, frames_since=frames,
                    whole_frames=whole_frames, reader_share=QUIET) is due


@pytest.mark.parametrize(("starved_below", "shot_wanted", "reader_share", "frames", "due"), [
    (0.75, False, LOADED, 1, False),  # reads wait for CPU: the detector follows, twice in the 30 frames a tag is whole
    (0.75, False, LOADED, 15, True),
    (0.75, False, QUIET, 1, True),  # the reader has its core: pacing gives it nothing, full rate
    (0.75, False, 0.75, 1, True),  # at the bar: not starved
    (0.75, False, 0.74, 1, False),
    (0.75, True, LOADED, 1, True),  # a tag waits for the free reader: its shot is wanted now, starved or not
    (0.75, False, None, 1, True),  # the run's first read not finished yet: full rate
    (None, False, None, 1, True),  # the same on the default pace (following then split the first tags)
    (None, False, QUIET, 1, False),  # the default pace after it: following whatever CPU the reader got
])
def test_the_detector_follows_only_while_the_reader_is_starved_of_cpu(starved_below, shot_wanted, reader_share,
                                                                      frames, due):
    pace = DetectionPace(whole_looks=2.0, starved_below=starved_below)
    assert pace.due(shot_wanted=shot_wanted, seconds_since=0.0, frames_since=frames, whole_frames=30.0,
                    reader_share=reader_share) is due


@pytest.mark.parametrize(("reads", "share"), [
    ([], None),
    ([(0.5, 0.5)], 1.0),  # a read that computed all its wall time
    ([(0.2, 0.8)], 0.25),  # three quarters of it waiting for a core
    ([(0.6, 0.6), (0.2, 1.0)], 0.5),  # pooled by time, not averaged per read
    ([(0.1, 1.0), (0.5, 0.5), (0.5, 0.5), (0.5, 0.5)], 1.0),  # the last three reads only: the machine went quiet
    ([(0.5, 0.5), (0.0, 0.0)], 1.0),  # a read with no measured wall time says nothing
])
def test_the_readers_share_of_a_core_is_its_cpu_time_over_wall_time_of_its_last_reads(reads, share):
    from inference.tracking.reader_share import ReaderShare

    measured = ReaderShare(reads=3)
    for cpu_s, wall_s in reads:
        measured.add(cpu_s, wall_s)
    assert measured.share == (None if share is None else pytest.approx(share))


@pytest.mark.parametrize("value", [0.0, 1.5])
def test_a_starved_share_outside_one_core_says_what_to_give(value):
    with pytest.raises(ConfigError, match="share of one core") as info:
        DetectionPace(starved_below=value)
    assert "(0, 1]" in info.value.expected


@pytest.mark.parametrize("value", [0.0, -3.0])
def test_a_pace_of_zero_says_what_to_give(value):
    with pytest.raises(ConfigError, match="whole_looks must be above 0") as info:
        DetectionPace(whole_looks=value)
    assert "a number > 0" in info.value.expected


def _boxes(visible):
    return [box for box, _, _ in visible]


def test_the_detector_looks_often_only_while_the_free_reader_waits_for_a_tag():
    """Tags 120 px wide on a 640 px view at 20 px a frame are whole for 26 frames: following, the detector runs
    every 13th frame (2 looks), whatever CPU the reader gets (the default pace), once the run's first read has
    finished (until then every frame). Tag 0 read and settled, nothing waits for a read: following; tag 1 coming in
    with the reader free: every frame; the reader held busy with tag 1's read: following."""
    reader = GatedReader()
    settings = LineSettings(sharp_focus=1.0, pace=DetectionPace(whole_looks=2.0),
                            tracker=TrackerSettings(belt_px_per_frame=(SPEED, 0.0)))
    line = LineInspector(None, reader, RECIPE, settings)

    def step(frame, visible):
        line.step(frame, frame_with([(b, k) for b, k, _ in visible], frame), detections_of(_boxes(visible)))

    try:
        frames = list(conveyor(2, speed=SPEED, gap=500))
        whole = next(f for f, v in frames if v and v[0][0][0] > 2 and v[0][0][2] < W - 2)
        for frame, visible in frames[:whole]:
            step(frame, visible)
        assert line.detection_due(whole)  # tag 0 coming in, the reader free
        step(*frames[whole])
        assert reader.started.wait(30)  # its first whole shot is being read
        assert line.detection_due(whole + 1)  # the run's first read: nothing known about the reader's CPU yet
        reader.started.clear()
        reader.gate.set()
        assert line.worker.wait_for(1, 30)
        reader.gate.clear()
        step(*frames[whole + 13])
        assert [line.detection_due(whole + 13 + k) for k in (1, 13)] == [False, True]  # tag 0 settled OK
        coming = next(f for f, v in frames if len(v) == 2)
        step(*frames[coming])
        assert line.detection_due(coming + 1)  # tag 1 coming in
        whole_1 = next(f for f, v in frames for b, _, k in v if k == 1 and b[0] > 2 and b[2] < W - 2)
        for frame, visible in frames[coming + 1:whole_1 + 1]:
            step(frame, visible)
        assert reader.started.wait(30)  # tag 1's read held
        assert [line.detection_due(whole_1 + k) for k in (1, 12, 13)] == [False, False, True]
    finally:
        reader.gate.set()
        line.close()


def test_the_line_follows_only_once_a_read_waited_for_cpu():
    """The reading thread's own CPU clock decides. Tag 0's read is held 0.3 s, computing almost nothing (as a read
    on a loaded machine waits for a core): until it finishes nothing is known and the detector runs at full rate,
    though the reader is busy; once it finished, its share of a core is far below the bar, and the detector follows
    (every 13th frame), with tag 0 read and settled and while tag 1's read runs; a tag coming in while the reader is
    free is looked for on every frame."""
    import time

    reader = GatedReader()
    settings = LineSettings(sharp_focus=1.0, pace=DetectionPace(whole_looks=2.0, starved_below=0.75),
                            tracker=TrackerSettings(belt_px_per_frame=(SPEED, 0.0)))
    line = LineInspector(None, reader, RECIPE, settings)

    def step(frame, visible):
        line.step(frame, frame_with([(b, k) for b, k, _ in visible], frame), detections_of(_boxes(visible)))

    def whole(tag):
        return next(f for f, v in frames for b, _, k in v if k == tag and b[0] > 2 and b[2] < W - 2)

    try:
        frames = list(conveyor(2, speed=SPEED, gap=500))
        for frame, visible in frames[:whole(0) + 1]:
            step(frame, visible)
        assert reader.started.wait(30)  # tag 0's read running, nothing measured yet
        assert line.worker.reading and line.worker.cpu_share is None
        assert line.detection_due(whole(0) + 1)
        time.sleep(0.3)
        reader.started.clear()
        reader.gate.set()
        assert line.worker.wait_for(1, 30)
        reader.gate.clear()
        assert line.worker.cpu_share < 0.2  # its thread computed a few ms of the 0.3 s
        step(*frames[whole(0) + 1])
        assert [line.detection_due(whole(0) + 1 + k) for k in (1, 12, 13)] == [False, False, True]  # tag 0 settled OK
        coming = next(f for f, v in frames if len(v) == 2)
        for frame, visible in frames[whole(0) + 2:coming + 1]:
            step(frame, visible)
        assert line.detection_due(coming + 1)  # tag 1 coming in, the reader free
        for frame, visible in frames[coming + 1:whole(1) + 1]:
            step(frame, visible)
        assert reader.started.wait(30)  # tag 1's read running, the reader starved by its last read
        assert [line.detection_due(whole(1) + k) for k in (1, 12, 13)] == [False, False, True]
    finally:
        reader.gate.set()
        line.close()


def test_a_tag_the_belt_carried_out_of_view_gets_its_verdict_between_detections():
    """Detected every 8th frame; in between, the belt's speed says where the tag is. Its verdict comes at the
    first frame its predicted box is wholly out of view, not at the next detection, and only once."""
    reader = PlantedReader()
    settings = LineSettings(sharp_focus=1.0, tracker=TrackerSettings(belt_px_per_frame=(SPEED, 0.0)))
    line = LineInspector(None, reader, RECIPE, settings, threaded=False)
    given = []
    frames = list(conveyor(1, speed=SPEED))
    frames += [(frame, []) for frame in range(len(frames), len(frames) + 40)]  # the camera runs on, nothing in view
    for frame, visible in frames:
        if frame % 8 == 0:
            given += [(frame, v) for v in line.step(frame, frame_with([(b, k) for b, k, _ in visible], frame),
                                                      detections_of(_boxes(visible)))]
        else:
            given += [(frame, v) for v in line.follow(frame)]
    last_seen = max(f for f, v in frames if v and f % 8 == 0)
    box_then = next(b for f, v in frames if f == last_seen for b, _, _ in v)
    out_at = next(f for f in range(last_seen, last_seen + 100) if box_then[0] + SPEED * (f - last_seen) >= W)
    assert out_at % 8  # a frame the detector skipped
    assert [(frame, v.verdict, v.reads) for frame, v in given] == [(out_at, Verdict.OK, 1)]
    assert line.finish() == []


@pytest.mark.parametrize(("box", "frames_later", "ended"), [
    ((500, 100, 620, 260), 7, True),  # x1 500 + 7 * 20 = 640: wholly out
    ((500, 100, 620, 260), 6, False),  # 20 px still in view: a detection must say it left
    ((200, 100, 320, 260), 15, False),  # merely unseen in the middle of the view: not ended by the belt
])
def test_only_tracks_the_belt_carried_wholly_out_of_view_expire(box, frames_later, ended):
    tracker = TagTracker((W, 360), TrackerSettings(belt_px_per_frame=(SPEED, 0.0)))
    track_id = tracker.update(0, np.array([box], float), np.array([0.9])).ids[0]
    assert tracker.expire(frames_later) == ((track_id,) if ended else ())
    assert (track_id in tracker.live_ids) is not ended


def test_the_station_follows_live_frames_while_paced_and_detects_the_rest():
    """The window's worker offers each live frame to `follow` first. With the belt's speed given and the tag
    read, frames are followed (not detected) until the belt carries the tag out, and its one verdict goes to
    the listeners from a followed frame."""
    from inference.sources import Frame
    from inference.tracking.station import PerTagInspector
    from tests.test_line_view import PlantedInspector, PlantedPipeline

    frames = [(frame, visible) for frame, visible in conveyor(1, speed=SPEED) if visible]  # from its first sighting
    frames += [(frame, []) for frame in range(frames[-1][0] + 1, frames[-1][0] + 10)]
    boxes = {frame % 250: _boxes(visible) for frame, visible in frames}
    pipeline = PlantedPipeline(boxes)
    detected = []
    process = pipeline.process
    pipeline.process = lambda image, **kw: detected.append(kw["index"]) or process(image, **kw)
    settings = LineSettings(sharp_focus=1.0, pace=DetectionPace(whole_looks=0.01, starved_below=None),  # following:
                            # no detection, however much CPU the reader gets
                            tracker=TrackerSettings(belt_px_per_frame=(SPEED, 0.0)))
    station = PerTagInspector(PlantedInspector(pipeline, PlantedReader(), RECIPE), settings)
    given, followed_at = [], []
    station.listeners.append(given.append)
    try:
        for frame, visible in frames:
            item = Frame(frame, f"cam#{frame}", None, frame_with([(b, k) for b, k, _ in visible], frame % 250), 0.0)
            if station.follow(item):
                followed_at.append(frame)
                given_at = frame if given and given_at is None else given_at
            else:
                station.inspect(item)
                given_at = None
            # the read done before the next frame (the reader's own thread)
            assert station._line is None or station._line.worker.wait_for(1, 30)
        first = frames[0][0]
        first_whole = next(f for f, v in frames if v and v[0][0][0] > 2 and v[0][0][2] < W - 2)
        # coming in and its whole shot; the read that came back settles it without a detection
        assert detected == list(range(first, first_whole + 1))
        assert followed_at == list(range(first_whole + 1, frames[-1][0] + 1))
        out_at = next(f for f, v in frames if not v)  # the first frame with the tag wholly out of view
        assert [(v.verdict, v.reads) for v in given] == [(Verdict.OK, 1)] and given_at == out_at
        assert station.tags_given == 1 and station.frames_followed == len(followed_at)
        assert not station.follow(Frame(0, "cam#0", None, frame_with([], 0), 0.0))  # the source started again
    finally:
        station.close()


@pytest.mark.parametrize(("read_wait_s", "waited_s", "expected"), [
    (0.5, 0.6, [(2, Verdict.REVIEW, 0)]),  # waited past its allowance: judged now, never read
    (0.5, 0.4, []),  # still within it: its verdict waits for its read
    (None, 60.0, []),  # no allowance: every read is waited for
])
def test_a_tag_that_left_while_its_read_waited_is_judged_after_the_read_wait(read_wait_s, waited_s, expected):
    """Tag 1's read holds the reader; tag 2's first read waits behind it. Tag 2 leaves. Past `read_wait_s` it is
    judged on the reads it has (none: REVIEW, passed unread while the reader was busy) and its read is never run;
    tag 1's running read is still waited for."""
    from inference.tracking.records import UNREAD_BUSY

    now = [0.0]
    reader = GatedReader()
    line = LineInspector(None, reader, RECIPE, LineSettings(look_frames=1, sharp_focus=1.0, read_wait_s=read_wait_s),
                         clock=lambda: now[0])
    try:
        a, b = (200, 100, 320, 260), (420, 100, 540, 260)
        line.step(0, frame_with([(a, "ok")], 0), detections_of([a]))
        assert reader.started.wait(30)  # tag 1 being read
        line.step(1, frame_with([(a, "ok"), (b, "ok")], 1), detections_of([a, b]))  # tag 2's read waits
        assert line.step(40, frame_with([(a, "ok")], 40), detections_of([a])) == []  # tag 2 gone
        now[0] += waited_s
        verdicts = line.step(41, frame_with([(a, "ok")], 41), detections_of([a]))
        assert [(v.track_id, v.verdict, v.reads) for v in verdicts] == expected
        assert all(v.reasons == (UNREAD_BUSY,) for v in verdicts)
        assert line.reads_given_up == len(expected)
        reader.gate.set()
        rest = line.finish()
        assert sorted((v.track_id, v.verdict) for v in rest) == [(1, Verdict.OK)] + ([] if expected else [(2, Verdict.OK)])
        assert len(reader.calls) == (1 if expected else 2)
    finally:
        reader.gate.set()
        line.close()
