"""The line on a slow detector with the belt's speed learned (not set): one id per tag from the first tag on.

Under load the detector saw each tag every 10 frames or so. A tag moving 30 px a frame then never overlapped its
last box, so the tracker never learned the belt and gave the first tag a new id at every look (five verdicts for
one tag), and a track seen once stood still where its tag came in and took the next tag to come in there (a
tag without a verdict of its own). Both are general facts about a belt, tested on boxes drawn as a conveyor moves
them: a tag coming in through an edge is carried away from it along its row, and a tag seen once moves with the
belt at the speed known now."""

from __future__ import annotations

import numpy as np
import pytest

from inference.tracking.tracker import TagTracker, TrackerSettings

W, H = 1280, 720
TAG_W = 323


def belt_boxes(frame: int, *, speed: float, spacing: float, rows: list[tuple[float, float]], axis: int = 0,
               start: int = 10) -> list[tuple[int, np.ndarray]]:
    """(tag, box) of every tag in view at `frame`: tag k comes in at `start + k * spacing` frames through the left
    edge (the top one when `axis` is 1), `rows` giving each tag's extent across the belt (cycled)."""
    out = []
    length = (W if axis == 0 else H)
    for k in range(40):
        lead = (frame - start - k * spacing) * speed  # how far its front has come in
        if lead <= 0 or lead - TAG_W >= length:
            continue
        near, far = max(0.0, lead - TAG_W), min(float(length), lead)
        a, b = rows[k % len(rows)]
        out.append((k, np.array([near, a, far, b] if axis == 0 else [a, near, b, far], float)))
    return out


def ids_per_tag(stride: int, *, axis: int = 0, speed: float = 30.5, spacing: float = 18.0) -> dict[int, set[int]]:
    tracker = TagTracker((W, H), TrackerSettings())  # the belt's speed learned, as by default
    rows = [(118, 645), (177, 689), (11, 538)] if axis == 0 else [(100, 600), (140, 650), (60, 560)]
    seen: dict[int, set[int]] = {}
    for frame in range(0, 600, stride):
        tags = belt_boxes(frame, speed=speed, spacing=spacing, rows=rows, axis=axis)
        boxes = np.array([b for _, b in tags]).reshape(-1, 4)
        update = tracker.update(frame, boxes, np.full(len(tags), 0.9))
        for (tag, _), track_id in zip(tags, update.ids):
            seen.setdefault(tag, set()).add(track_id)
    return seen


@pytest.mark.parametrize("stride", [1, 3, 6, 10, 14])
def test_each_tag_keeps_one_id_however_seldom_the_detector_looks(stride):
    seen = ids_per_tag(stride)
    assert len(seen) >= 15
    assert {tag: ids for tag, ids in seen.items() if len(ids) > 1} == {}  # no tag split into two verdicts
    owners: dict[int, set[int]] = {}
    for tag, ids in seen.items():
        for track_id in ids:
            owners.setdefault(track_id, set()).add(tag)
    assert {t: tags for t, tags in owners.items() if len(tags) > 1} == {}  # no track took two tags


def test_a_belt_running_down_the_frame_is_learned_the_same_way():
    seen = ids_per_tag(10, axis=1, speed=18.0, spacing=30.0)
    assert len(seen) >= 10 and {tag: ids for tag, ids in seen.items() if len(ids) > 1} == {}


def test_a_tag_seen_once_moves_with_the_belt_learned_after_it_was_seen():
    tracker = TagTracker((W, H), TrackerSettings())
    first = tracker.update(0, np.array([[0, 100, 40, 600], [500, 100, 823, 600]], float), np.array([0.9, 0.9]))
    for frame in (1, 2, 3):  # the tag coming in is missed; the other one shows the belt, 30 px a frame
        tracker.update(frame, np.array([[500 + 30 * frame, 100, 823 + 30 * frame, 600]], float), np.array([0.9]))
    assert tracker.learned_belt == pytest.approx((30.0, 0.0))
    # frame 11: the tag seen once has come 330 px on, and the next tag comes in where it was first seen
    later = tracker.update(11, np.array([[47, 100, 370, 600], [0, 100, 40, 600]], float), np.array([0.9, 0.9]))
    assert later.ids[0] == first.ids[0]  # followed at the belt's speed, not left standing at the edge
    assert later.ids[1] not in first.ids  # the next tag is a tag of its own


@pytest.mark.parametrize("moves, known", [
    ([30.4, 30.6, 30.5], 30.5),            # three moves agree: the belt's speed
    ([30.4, 3.0, 30.6], None),             # one wrong match among two: not yet
    ([30.4, 3.0, 30.6, 30.5], 30.5),       # the wrong one outvoted, never averaged in
])
def test_the_belt_is_known_once_several_moves_agree(moves, known):
    tracker = TagTracker((W, H), TrackerSettings())
    tracker._learn_belt([np.array([m, 0.0]) for m in moves])
    assert (tracker.learned_belt[0] if tracker.belt_known else None) == (pytest.approx(known) if known else None)


def test_the_rest_of_a_tag_leaving_after_its_track_ended_is_not_a_new_tag():
    tracker = TagTracker((W, H), TrackerSettings(belt_px_per_frame=(30.0, 0.0), lost_frames=3))
    first = tracker.update(0, np.array([[900, 100, 1223, 600]], float), np.array([0.9]))
    tracker.update(1, np.array([[930, 100, 1253, 600]], float), np.array([0.9]))
    ended = tracker.update(4, np.zeros((0, 4)), np.zeros(0))  # missed while leaving: its track ends
    assert ended.ended == first.ids
    rest = tracker.update(5, np.array([[1050, 100, 1280, 600]], float), np.array([0.9]))  # its rest, seen again
    assert rest.ids == (None,) and tracker.live_ids == ()
    coming_in = tracker.update(6, np.array([[0, 100, 40, 600]], float), np.array([0.9]))  # the other edge: a tag
    assert coming_in.ids[0] is not None


def test_a_paced_detector_missing_a_tag_in_one_look_keeps_its_id_on_a_known_belt():
    """Looks every 16 frames (more than lost_frames); the tag rides the frame's bottom edge, its box weak, and the
    look at frame 16 misses it. The belt says it is wholly in view along the belt there, so it is the same tag at
    frame 32: one id."""
    tracker = TagTracker((W, H), TrackerSettings(belt_px_per_frame=(20.0, 0.0)))
    first = tracker.update(0, np.array([[100, 400, 423, 720]], float), np.array([0.6]))
    assert tracker.update(16, np.zeros((0, 4)), np.zeros(0)).ended == ()
    again = tracker.update(32, np.array([[740, 400, 1063, 720]], float), np.array([0.6]))
    assert again.ids == first.ids and again.ended == ()


def test_a_tag_missed_in_two_looks_running_has_gone_though_the_belt_says_it_is_in_view():
    tracker = TagTracker((W, H), TrackerSettings(belt_px_per_frame=(20.0, 0.0)))
    first = tracker.update(0, np.array([[100, 400, 423, 720]], float), np.array([0.6]))
    assert tracker.update(16, np.zeros((0, 4)), np.zeros(0)).ended == ()
    assert tracker.update(20, np.zeros((0, 4)), np.zeros(0)).ended == first.ids  # predicted at 500..823


def test_a_track_missed_once_on_a_belt_of_no_known_speed_ends_after_lost_frames():
    """Without the belt's speed, where the tag is after a miss is a guess: the first look past lost_frames ends it."""
    tracker = TagTracker((W, H))
    first = tracker.update(0, np.array([[100, 400, 423, 720]], float), np.array([0.6]))
    assert tracker.update(16, np.zeros((0, 4)), np.zeros(0)).ended == first.ids
