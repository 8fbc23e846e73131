"""What the reader's GPU sessions share, whichever runtime runs them (ONNX Runtime in gpu.py, PyTorch in
torch_graph.py): the input shapes run so far and the warm-up."""

from __future__ import annotations

import time
from collections.abc import Sequence

import numpy as np


class ShapeCountingSession:
    """What the reader's sessions share whatever runs them: the input shapes run so far, shapes run once at
    open (`warm_up`), and how many shapes a frame met first afterwards (each cost a first run)."""

    input_name: str

    def _start_counting(self) -> None:
        self.runs = 0
        self.seen: set[tuple[int, ...]] = set()  # input shapes run so far
        self.new_after_warmup = 0  # shapes a frame met first (each cost a first run)
        self.warm = False

    def _count(self, shape: tuple[int, ...]) -> None:
        if shape not in self.seen:
            self.seen.add(shape)
            self.new_after_warmup += self.warm

    def warm_up(self, shapes, fetch: Sequence[str]) -> float:
        """Run each input shape once (zeros); returns the seconds it took. Later first-time shapes are counted."""
        start = time.perf_counter()
        for shape in shapes:
            self.run({self.input_name: np.zeros(shape, np.float32)}, fetch)
        self.warm = True
        return time.perf_counter() - start

    def run(self, feeds: dict[str, np.ndarray], fetch: Sequence[str]) -> dict[str, np.ndarray]:
        raise NotImplementedError
