"""The order of reads when the reader is behind: a tag that has left is read before the tags still in view, and a
shot dropped from a full queue does not make the tag's next read a 'second try'.

Measured on the live replay of a 0.6 s-spaced recording on the loaded 2-core VM (BENCHMARKS, issue 18,
twenty-seventh session): 9 of 28 tags had their in-view shot dropped; the shot queued as each left counted as a
second try, so it went behind every first read of the tags after it and was dropped first: 9 REVIEW tags passed
unread."""

from __future__ import annotations

from inference.reading.verdict import Verdict
from inference.tracking import LineInspector, LineSettings
from tests.test_tracking import RECIPE, GatedReader, _shot, detections_of, frame_with


def test_a_tag_that_left_is_read_before_the_tags_still_in_view_queued_before_it():
    from inference.tracking.worker import ReadWorker

    reader = GatedReader()
    worker = ReadWorker(reader, RECIPE, capacity=4)
    try:
        worker.submit(_shot(1, 1, 10))  # being read while the others queue
        assert reader.started.wait(30)
        worker.submit(_shot(2, 1, 150))  # tag 2, still in view
        worker.submit(_shot(3, 1, 290))  # tag 3, still in view
        worker.submit(_shot(4, 2, 430))  # a second try of tag 4
        worker.left(3)  # tag 3 left: its verdict waits for this read
        reader.gate.set()
        for track_id in (1, 2, 3, 4):
            assert worker.wait_for(track_id, 30)
        assert [stamp for stamp, _ in reader.calls] == [10, 290 % 250, 150, 430 % 250]
    finally:
        reader.gate.set()
        worker.close()


def test_a_full_queue_drops_a_tag_still_in_view_before_one_that_left():
    from dataclasses import replace

    from inference.tracking.worker import ReadWorker

    reader = GatedReader()
    worker = ReadWorker(reader, RECIPE, capacity=1)
    try:
        worker.submit(_shot(1, 1, 10))
        assert reader.started.wait(30)
        worker.submit(replace(_shot(2, 1, 150), leaving=True))  # tag 2 left unread, queued first
        worker.submit(_shot(3, 1, 290))  # tag 3 in view: it can be read later, tag 2 cannot
        assert worker.dropped == 1 and worker.busy_with(2) and not worker.busy_with(3)
    finally:
        reader.gate.set()
        worker.close()


def test_a_tag_whose_shot_was_dropped_in_view_is_read_first_as_it_leaves():
    """Tag 1 is being read; tag 2's shot waits, and tag 3's takes its place in the full queue. Tag 2 leaves unread:
    its shot as it leaves is its first read, before tag 3's, and its verdict rests on a read (not an unread
    REVIEW)."""
    reader = GatedReader()
    line = LineInspector(None, reader, RECIPE, LineSettings(look_frames=1, queue=1))
    a, b, c = (20, 100, 140, 260), (200, 100, 320, 260), (400, 100, 520, 260)
    try:
        line.step(0, frame_with([(a, "ok")], 0), detections_of([a]))
        assert reader.started.wait(30)  # tag 1's read holds the reader
        line.step(1, frame_with([(a, "ok"), (b, "ok")], 1), detections_of([a, b]))  # tag 2 queued
        line.step(2, frame_with([(a, "ok"), (b, "ok"), (c, "ok")], 2), detections_of([a, b, c]))  # 3 drops 2
        assert line.worker.dropped == 1 and not line.worker.busy_with(2)
        given = line.step(40, frame_with([(a, "ok"), (c, "ok")], 40), detections_of([a, c]))  # tag 2 is gone
        assert given == [] and line.worker.busy_with(2)  # waiting for its read, not judged unread
        reader.gate.set()
        given = line.finish()
        assert [(v.track_id, v.verdict, v.reads) for v in given if v.track_id == 2] == [(2, Verdict.OK, 1)]
        assert reader.calls[1] == (2, tuple(float(v) for v in b))  # tag 2's last shot (frame 2), read second
    finally:
        reader.gate.set()
        line.close()


def test_a_tag_whose_only_shot_was_dropped_is_read_from_it_as_it_leaves():
    """Tag 2 is seen whole once (frame 1); its shot waits, and tag 3's takes its place in the full queue. Tag 2 leaves
    with no whole frame since: it is read once from the shot the queue dropped, not passed unread."""
    reader = GatedReader()
    line = LineInspector(None, reader, RECIPE, LineSettings(look_frames=1, queue=1))
    a, b, c = (20, 100, 140, 260), (200, 100, 320, 260), (400, 100, 520, 260)
    try:
        line.step(0, frame_with([(a, "ok")], 0), detections_of([a]))
        assert reader.started.wait(30)  # tag 1's read holds the reader
        line.step(1, frame_with([(a, "ok"), (b, "ok")], 1), detections_of([a, b]))  # tag 2 queued
        line.step(2, frame_with([(a, "ok"), (c, "ok")], 2), detections_of([a, c]))  # 3 drops 2 (2 unseen here)
        assert line.worker.dropped == 1 and not line.worker.busy_with(2)
        assert line.step(40, frame_with([(a, "ok"), (c, "ok")], 40), detections_of([a, c])) == []  # 2 is gone
        reader.gate.set()
        given = line.finish()
        assert [(v.track_id, v.verdict, v.reads) for v in given if v.track_id == 2] == [(2, Verdict.OK, 1)]
        assert reader.calls[1] == (1, tuple(float(v) for v in b))  # from its one shot, frame 1
    finally:
        reader.gate.set()
        line.close()
