"""Garbage-collector pauses in a service process: what they cost, and the cheap way to make them small.

A collection holds the GIL for all of its time, so in the GPU owner it stops the event loop that forms batches and
both inference threads at once. The owner's heap after warm-up (ONNX Runtime, numpy, the app, the engines' Python
objects) is large and lives for the whole run; without `gc.freeze()` every full collection walks all of it again.
Freezing after warm-up moves those objects out of the collector's sight, so a full collection walks only what
was made since. HANGTAG_SERVE_GC=default keeps CPython's own behaviour (for A/B runs; BENCHMARKS.md, issue 20).
"""

from __future__ import annotations

import gc
import os
import time
from collections import deque
from typing import Any

GC_MODES = ("freeze", "default")
LONG_PAUSE_MS = 2.0  # pauses at least this long are kept with their time, for a timeline against request waits


def gc_mode() -> str:
    mode = os.environ.get("HANGTAG_SERVE_GC", "freeze").strip().lower() or "freeze"
    return mode if mode in GC_MODES else "freeze"


def settle_heap(mode: str) -> int:
    """After warm-up: collect once and, in `freeze` mode, freeze what survives. The number of objects frozen."""
    if mode != "freeze":
        return 0
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


class GcPauses:
    """Every collection's duration by generation, through `gc.callbacks`; the long ones with their wall time."""

    def __init__(self, keep: int = 4096) -> None:
        self.count = [0, 0, 0]
        self.total_ns = [0, 0, 0]
        self.max_ns = [0, 0, 0]
        self.long: deque[tuple[float, int, float, int]] = deque(maxlen=keep)  # (ts, generation, ms, collected)
        self._started = 0
        self._installed = False

    def install(self) -> GcPauses:
        if not self._installed:
            gc.callbacks.append(self._on_gc)
            self._installed = True
        return self

    def remove(self) -> None:
        if self._installed:
            gc.callbacks.remove(self._on_gc)
            self._installed = False

    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter_ns()
            return
        generation = int(info.get("generation", 2))
        spent = time.perf_counter_ns() - self._started
        self.count[generation] += 1
        self.total_ns[generation] += spent
        self.max_ns[generation] = max(self.max_ns[generation], spent)
        if spent >= LONG_PAUSE_MS * 1e6:
            self.long.append((round(time.time(), 4), generation, round(spent / 1e6, 3), int(info.get("collected", 0))))

    def take_long(self) -> list[tuple[float, int, float, int]]:
        out = list(self.long)
        self.long.clear()
        return out

    def summary(self) -> dict[str, Any]:
        return {"collections": list(self.count), "total_ms": [round(t / 1e6, 1) for t in self.total_ns],
                "max_ms": [round(t / 1e6, 3) for t in self.max_ns], "tracked": len(gc.get_objects()),
                "frozen": gc.get_freeze_count(), "threshold": list(gc.get_threshold())}


async def report_pauses(pauses: GcPauses, log: Any, *, loop_lag_ms: float = 0.0, every_s: float = 1.0) -> None:
    """Until cancelled: each long collection as a `gc_pause` line; with `loop_lag_ms` > 0 also every time the event
    loop woke that much later than asked (`loop_lag`), whatever held it, so stalls can be told from collections."""
    import asyncio

    loop = asyncio.get_running_loop()
    next_report = loop.time() + every_s
    tick = 0.001 if loop_lag_ms > 0 else every_s
    while True:
        asked = time.perf_counter_ns()
        await asyncio.sleep(tick)
        late_ms = (time.perf_counter_ns() - asked) / 1e6 - tick * 1e3
        if loop_lag_ms > 0 and late_ms >= loop_lag_ms:
            log.write("loop_lag", late_ms=round(late_ms, 3))
        if loop.time() >= next_report:
            next_report = loop.time() + every_s
            for ts, generation, ms, collected in pauses.take_long():
                log.write("gc_pause", at=ts, generation=generation, ms=ms, collected=collected)
