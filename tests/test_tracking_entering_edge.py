"""A tag coming in through the frame's edge, looked at by a paced detector: its side held at the edge is no speed.

Seen on the s0.6 recording played live (the tag before an edge-riding one, on the H100 and on a quiet 2-core CPU): a
tag came in at the left edge (x1 at 0, 0, then 16 px while x2 ran 30 px a frame), the track learned x1's speed as it
stood, and predicted a box stretched back over the entry 16 frames later. At the paced detector's next look that box
overlapped the next tag coming in there, which took the track's id, and the first tag got a new one: two verdicts
for one tag, none for the next. A side the edge cut moves as the side across from it does."""

from __future__ import annotations

import numpy as np

from inference.tracking import TagTracker, TrackerSettings

BELT = (914.3 / 30, 0.0)  # px per frame, rightwards


def look(tracker: TagTracker, frame: int, *boxes: tuple[list[float], float]) -> tuple:
    xyxy = np.array([b for b, _ in boxes], float).reshape(-1, 4)
    return tracker.update(frame, xyxy, np.array([c for _, c in boxes], float)).ids


def test_a_tag_come_in_through_the_edge_keeps_its_id_and_the_next_one_coming_in_gets_a_new_one():
    tracker = TagTracker((1280, 720), TrackerSettings(belt_px_per_frame=BELT))
    first = look(tracker, 52, ([0, 181, 214, 700], 0.66))[0]
    assert look(tracker, 53, ([0, 178, 243, 698], 0.46)) == (first,)
    assert look(tracker, 55, ([16, 179, 302, 693], 0.87)) == (first,)
    # 16 frames on: the tag 488 px further along the belt, the next tag coming in at the edge
    moved_on, coming_in = look(tracker, 71, ([506, 179, 788, 690], 0.85), ([1, 175, 241, 698], 0.64))
    assert moved_on == first
    assert coming_in is not None and coming_in != first


def test_a_side_the_edge_cut_moves_as_the_side_across_from_it():
    tracker = TagTracker((1280, 720), TrackerSettings(belt_px_per_frame=BELT))
    look(tracker, 10, ([0, 100, 200, 600], 0.9))
    look(tracker, 11, ([0, 100, 231, 600], 0.9))
    look(tracker, 12, ([20, 100, 262, 600], 0.9))
    (expected_at_28,) = tracker.outlines(28)  # 16 frames on, where the track expects its tag
    assert abs((expected_at_28[2] - expected_at_28[0]) - 242) < 16  # as wide as the tag: both sides at its speed
    assert expected_at_28[0] > 20 + 12 * BELT[0]  # not held back by x1's 0, 0, then 20 px
