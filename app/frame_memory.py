"""The live frames the window keeps so a Results row can show its frame again (files are re-read from disk instead).

Bounded by bytes, not by a count of frames: 200 frames were 530 MiB at 1280x720 and would be 3 GiB from a 5 MP
camera; on a moving line the window's RSS climbed 500 -> 1450 MiB while the headless line stayed near 360 MiB."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

FRAME_MEMORY_BYTES = 96 * 2**20  # ~36 frames at 1280x720, ~16 at 1920x1080: the last seconds of a line
FRAME_MEMORY_MAX = 200  # a cap for tiny frames, where bytes alone would keep thousands


class FrameMemory:
    """The newest frames by frame number, oldest dropped first once `budget_bytes` or `max_frames` is passed."""

    def __init__(self, budget_bytes: int = FRAME_MEMORY_BYTES, max_frames: int = FRAME_MEMORY_MAX) -> None:
        self.budget_bytes = budget_bytes
        self.max_frames = max_frames
        self._frames: OrderedDict[int, np.ndarray] = OrderedDict()
        self.nbytes = 0

    def keep(self, number: int, image: np.ndarray) -> None:
        """`image` must be the window's own (a camera's lent frame copied first); a frame over the whole budget is
        not kept."""
        old = self._frames.pop(number, None)
        if old is not None:
            self.nbytes -= old.nbytes
        if image.nbytes > self.budget_bytes:
            return
        self._frames[number] = image
        self.nbytes += image.nbytes
        while self.nbytes > self.budget_bytes or len(self._frames) > self.max_frames:
            _, dropped = self._frames.popitem(last=False)
            self.nbytes -= dropped.nbytes

    def get(self, number: int) -> np.ndarray | None:
        return self._frames.get(number)

    def values(self):
        return self._frames.values()

    def __len__(self) -> int:
        return len(self._frames)
