"""Is the reader starved of CPU? The share of a core its thread got over its last reads.

A read is computation on the reading thread (ONNX Runtime, OpenCV, Python); while it runs the thread either
computes or waits for a core (or for the GIL another thread holds). Its CPU time over its wall time is then the
share of a core the reader got: about 1 on an idle station, well below 1 where other work takes the CPU. Measured
on the 2-core VM, one read alone in its process at load 3-5: 0.2-0.85, the rest of the wall time spent on the run
queue (/proc/thread-self/schedstat), with one OCR thread and with ONNX Runtime's two.

With DetectionPace.starved_below set (off by default: at load 4-11 it did not help, sixth pass) the line paces
its detector only while this share is low: on an idle station pacing gives the reader nothing it lacked and only
ends tracks later (a followed track ends when the belt has carried it wholly out of view, a detected one earlier,
by the tracker's learned rule), while on a shared machine every detection takes CPU a read is waiting for
(BENCHMARKS, issue 18, fifth and sixth passes).
"""

from __future__ import annotations

from collections import deque


class ReaderShare:
    """CPU time over wall time, pooled over the last `reads` reads (a single read can be one unlucky second).
    Not thread-safe: the ReadWorker updates and reads it under its own lock."""

    def __init__(self, reads: int = 3) -> None:
        if reads < 1:
            raise ValueError(f"ReaderShare needs at least one read to pool, got reads={reads}")
        self._recent: deque[tuple[float, float]] = deque(maxlen=reads)

    def add(self, cpu_s: float, wall_s: float) -> None:
        """One finished read: its thread's CPU seconds (time.thread_time) and its wall seconds (perf_counter)."""
        if wall_s > 0:
            self._recent.append((max(0.0, cpu_s), wall_s))

    @property
    def share(self) -> float | None:
        """The share of one core the reader got over its recent reads; None before the first read."""
        if not self._recent:
            return None
        return min(1.0, sum(cpu for cpu, _ in self._recent) / sum(wall for _, wall in self._recent))
