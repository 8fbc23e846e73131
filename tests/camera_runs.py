"""What the industrial-camera tests share: a camera run that ends after its first frames, and the next frames
of a camera within a budget (a camera never ends by itself, and a test must not wait forever)."""

from __future__ import annotations

import itertools
import time

import numpy as np

from inference.sources import Frame, FrameError, FrameSource, Waiting


def ordinary(shape) -> np.ndarray:
    """Lent frames from ordinary memory: they stand in for the GPU pipeline's page-locked frames."""
    return np.zeros(shape, np.uint8)


class FirstFrames(FrameSource):
    """The camera's first `count` frames (errors included), then the end: a run that finishes."""

    def __init__(self, camera, count: int) -> None:
        self.camera, self.count = camera, count
        self.description = camera.description
        self.live = True

    def lend_frames(self, memory) -> None:
        self.camera.lend_frames(memory)

    def frames(self):
        seen = 0
        for item in self.camera.frames():
            yield item
            if not isinstance(item, Waiting):
                seen += 1
                if seen >= self.count:
                    return

    def close(self) -> None:
        self.camera.close()


def next_frame(items, budget_s: float = 5.0) -> Frame | FrameError:
    """The next frame or error record of a camera's `frames()`, failing the test after `budget_s`."""
    start = time.monotonic()
    for item in items:
        if isinstance(item, (Frame, FrameError)):
            return item
        assert time.monotonic() - start < budget_s, "no frame within the budget"
    raise AssertionError("the camera's frames ended")


def first_items(camera, count: int, budget_s: float = 10.0) -> list[Frame | FrameError]:
    """A fresh run's first `count` frames or error records; fewer when the budget runs out."""
    items, start = [], time.monotonic()
    for item in camera.frames():
        if not isinstance(item, Waiting):
            items.append(item)
        if len(items) >= count or time.monotonic() - start > budget_s:
            return items
    return items


_serials = (f"GV{n:02d}" for n in itertools.count(31))


def fake_camera():
    """Aravis's fake GigE Vision camera on loopback, a new serial each time (a camera killed in one test is
    never taken for the next test's); `with fake_camera() as fake:` serves it."""
    from inference.cameras.fake import FakeGigECamera

    return FakeGigECamera(next(_serials))
