"""A tag leaving through the frame's edge keeps its one id through a missed detection (the detector misses a tag
the edge cuts more often than a whole one), and a tag that has really gone is still ended as soon as the detector
can no longer see it. Detections are fed directly: moving rectangles, as in tests/test_tracking.py."""

from __future__ import annotations

import numpy as np
import pytest

from inference.tracking import TagTracker, TrackerSettings
from tests.test_tracking import W, conveyor, detections_of


def ids_and_ends(frames, settings: TrackerSettings = TrackerSettings()):
    """Runs the tracker on (frame, boxes) pairs; the ids each tag got, and the frame each track ended at."""
    tracker = TagTracker((W, 360), settings)
    ids_of: dict[int, set[int]] = {}
    ended_at: dict[int, int] = {}
    for frame, visible in frames:
        update = tracker.update(frame, detections_of([b for b, _, _ in visible]).xyxy, np.full(len(visible), 0.9))
        for (_, _, tag), track_id in zip(visible, update.ids):
            ids_of.setdefault(tag, set()).add(track_id)
        ended_at.update({track_id: frame for track_id in update.ended})
    return ids_of, ended_at


@pytest.mark.parametrize("belt", [None, (20.0, 0.0)])
@pytest.mark.parametrize("missed", [33, 34, 35, 36])  # the tag touches the right edge, 83 % to 33 % still in view
def test_a_missed_detection_as_a_tag_leaves_does_not_split_it_into_two_ids(belt, missed):
    frames = [(f, [] if f == missed else v) for f, v in conveyor(1, speed=20)]
    ids_of, _ = ids_and_ends(frames, TrackerSettings(belt_px_per_frame=belt))
    assert len(ids_of[0]) == 1, f"one tag, ids {ids_of[0]}"


def test_a_tag_the_detector_cannot_see_any_more_ends_at_once_not_after_the_lost_frames():
    """The detector stops seeing a tag when under half of it is in view (as a real one does with a sliver): the
    first tag's track waits for its prediction to leave the view; later ones end at the first frame the detector
    misses them, since less of them is in view than it saw of the first one when it last saw it."""
    def half_or_more(visible):
        return [(b, k, t) for b, k, t in visible if min(b[2], W) - max(b[0], 0) >= 0.5 * (b[2] - b[0])]

    frames = [(f, half_or_more(v)) for f, v in conveyor(3, speed=20)]
    ids_of, ended_at = ids_and_ends(frames)
    assert all(len(ids) == 1 for ids in ids_of.values())
    last_seen = {}
    for frame, visible in frames:
        for _, _, tag in visible:
            last_seen[tag] = frame
    track = {tag: next(iter(ids)) for tag, ids in ids_of.items()}
    assert [ended_at[track[t]] - last_seen[t] for t in (1, 2)] == [1, 1]  # ended at the first frame it was missed
    assert ended_at[track[0]] - last_seen[0] <= 4  # the first: when its prediction left the view (60 px at 20/frame)
