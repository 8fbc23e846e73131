"""Lent frames: a camera reads into memory the GPU pipeline uploads from in place, and a frame goes back only
when nothing refers to it. Ordinary numpy memory stands in for page-locked memory here (the lending does not
depend on what the memory is); tests/test_gpu_device.py runs it with page-locked memory on a GPU."""

from __future__ import annotations

import gc
import threading

import cv2
import numpy as np
import pytest

from inference.lending import FrameLender, detach, is_lent
from inference.sources import LENT_FRAMES, Frame, VideoSource, open_source
from tests.factories import scene_with_squares


def ordinary(shape):
    return np.zeros(shape, np.uint8)


def test_a_lent_frame_returns_when_its_last_view_is_gone():
    lender = FrameLender((6, 8, 3), 2, ordinary)
    frame = lender.lend()
    assert frame.shape == (6, 8, 3) and frame.flags.writeable and is_lent(frame)
    band = frame[2:4]  # a view keeps the frame out after the frame itself is dropped
    del frame
    assert lender.available == 1 and is_lent(band)
    del band
    assert lender.available == 2
    assert (lender.lent, lender.refused) == (1, 0)


def test_a_lender_with_every_frame_out_says_none_and_counts_it():
    lender = FrameLender((2, 2, 3), 2, ordinary)
    held = [lender.lend(), lender.lend()]
    assert held[0].ctypes.data != held[1].ctypes.data
    assert lender.lend() is None and lender.refused == 1
    held.pop()
    again = lender.lend()
    assert again is not None and lender.available == 0


def test_a_frame_dropped_on_another_thread_comes_back():
    lender = FrameLender((2, 2, 3), 1, ordinary)
    box = [lender.lend()]
    thread = threading.Thread(target=box.clear)
    thread.start()
    thread.join()
    assert lender.available == 1


def test_detach_copies_only_lent_frames():
    lender = FrameLender((3, 3, 3), 1, ordinary)
    frame = lender.lend()
    frame[...] = 5
    kept = detach(frame)
    assert not is_lent(kept) and kept.ctypes.data != frame.ctypes.data and (kept == 5).all()
    mine = np.ones((3, 3, 3), np.uint8)
    assert detach(mine) is mine and not is_lent(mine)


def test_frame_memory_of_the_wrong_shape_is_refused():
    with pytest.raises(ValueError, match=r"shape \(2, 2, 3\)"):
        FrameLender((4, 4, 3), 1, lambda shape: np.zeros((2, 2, 3), np.uint8))


def _video(path, count=12, hw=(48, 64)):
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (hw[1], hw[0]))
    for i in range(count):
        writer.write(scene_with_squares(*hw, [(4 + 3 * i, 10, 20)]))
    writer.release()
    return path


def _plain_frames(path):
    return [item.image.copy() for item in open_source(path).frames()]


def test_a_video_read_into_lent_frames_gives_the_same_pixels(tmp_path):
    video = _video(tmp_path / "line.avi")
    want = _plain_frames(video)
    source = open_source(video)
    source.lend_frames(ordinary)
    got = []
    for item in source.frames():
        got.append((is_lent(item.image), item.image.copy()))
    assert len(got) == len(want) == 12
    assert [lent for lent, _ in got] == [False] + [True] * 11  # the first frame tells the lender the shape
    assert all(np.array_equal(image, expected) for (_, image), expected in zip(got, want))
    assert source.frames_in_own_memory == 1 and source.lender.count == LENT_FRAMES


def test_frames_kept_by_the_consumer_are_never_overwritten(tmp_path):
    """Holding every frame empties the lender: the source then reads into its own memory, and each frame
    the consumer kept still shows what was read into it."""
    video = _video(tmp_path / "line.avi", count=LENT_FRAMES + 5)
    want = _plain_frames(video)
    source = open_source(video)
    source.lend_frames(ordinary)
    kept = [item.image for item in source.frames()]
    assert sum(map(is_lent, kept)) == LENT_FRAMES
    assert source.frames_in_own_memory == 5 and source.lender.refused == 5  # the last: end of video
    assert all(np.array_equal(image, expected) for image, expected in zip(kept, want))


def test_lending_can_be_switched_off_while_frames_are_out(tmp_path):
    source = open_source(_video(tmp_path / "line.avi", count=4))
    source.lend_frames(ordinary)
    frames = source.frames()
    first, second = next(frames), next(frames)
    assert is_lent(second.image)
    source.lend_frames(None)
    third = next(frames)
    assert not is_lent(third.image) and source.lender is None
    assert is_lent(second.image) and second.image.shape == first.image.shape  # still valid, still its own


class _RecordingSource(VideoSource):
    def __init__(self, path) -> None:
        super().__init__(str(path), live=False)
        self.memory_asked = []

    def lend_frames(self, memory) -> None:
        self.memory_asked.append(memory)
        super().lend_frames(memory)


def test_the_inspector_lends_its_pipelines_frame_memory_to_the_source(tmp_path):
    from inference.inspection import Inspector
    from inference.pipeline import Pipeline
    from tests.factories import blob_detector

    pipeline = Pipeline.open(blob_detector(tmp_path / "blob.onnx"), "onnxruntime-cpu")
    inspector = Inspector(pipeline)
    assert inspector.frame_memory is None  # host preprocessing: ordinary memory is as good
    video = _video(tmp_path / "line.avi", count=5)
    want = list(inspector.run(open_source(video)))
    pipeline.frame_memory = ordinary  # what the GPU pipeline offers (page-locked memory there)
    source = _RecordingSource(video)
    results = list(inspector.run(source))
    assert source.memory_asked == [ordinary] and source.frames_in_own_memory == 1  # the first: shape unknown
    assert [r.ok for r in results] == [True] * 5
    assert sum(len(r.detections) for r in want) > 0
    assert [r.detections.xyxy.tolist() for r in results] == [r.detections.xyxy.tolist() for r in want]
    inspector.close()
    gc.collect()


def test_image_sources_ignore_frame_memory(tmp_path):
    path = tmp_path / "tag.png"
    cv2.imwrite(str(path), scene_with_squares(40, 50, [(5, 5, 10)]))
    source = open_source(path)
    source.lend_frames(ordinary)
    (item,) = list(source.frames())
    assert isinstance(item, Frame) and not is_lent(item.image)
