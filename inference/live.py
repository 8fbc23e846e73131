"""Live sources keep only the newest frame: a grabber thread overwrites one slot and counts drops."""

from __future__ import annotations

import threading

from inference.sources import Frame, FrameError, FrameSource, Waiting


class LatestFrameGrabber:
    """Reads a live source on its own thread; `take()` returns the newest frame not yet taken.

    A frame overwritten before anyone took it counts as dropped: the inspector is slower than
    the camera, and the line engineer should see by how much.
    """

    def __init__(self, source: FrameSource) -> None:
        self.source = source
        self.dropped = 0
        self.finished = False
        self.waiting_reason = ""  # why the source has nothing new, when it says ("camera lost: …")
        self._slot: Frame | FrameError | None = None
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._grab, name="frame-grabber", daemon=True)
        self._thread.start()

    def _grab(self) -> None:
        try:
            for item in self.source.frames():
                if isinstance(item, Waiting):  # nothing new (an industrial camera waiting for a trigger, or lost):
                    self.waiting_reason = item.reason  # the newest frame stays for the taker; the reason is shown
                    if self._stop.is_set():
                        break
                    continue
                self.waiting_reason = ""
                with self._cond:
                    if self._slot is not None and isinstance(self._slot, Frame):
                        self.dropped += 1
                    self._slot = item
                    self._cond.notify_all()
                if self._stop.is_set():
                    break
        finally:
            with self._cond:
                self.finished = True
                self._cond.notify_all()

    def take(self, timeout_s: float = 0.2) -> Frame | FrameError | None:
        """The newest frame, or None if none arrived within the timeout (or the source ended)."""
        with self._cond:
            if self._slot is None and not self.finished:
                self._cond.wait(timeout_s)
            item, self._slot = self._slot, None
            return item

    @property
    def exhausted(self) -> bool:
        with self._cond:
            return self.finished and self._slot is None

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=1.0)
        self.source.close()
