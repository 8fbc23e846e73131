"""The reading worker: OCR runs on its own thread, so detection never waits for it.

The queue holds at most one shot per tag (a newer best shot of the same tag replaces the waiting one) and at
most `capacity` tags; when it is full a waiting shot is dropped (a second try first, else a tag still in view, the
oldest first, else the tag that left last: that tag is read again from a later frame or as it leaves, or passes
unread and becomes a REVIEW).
A tag's first read goes before any second try of another tag (a tag nobody has read yet has no verdict at all;
one read unsure has at least a REVIEW); within each kind a tag that has left goes before a tag still in view (its
verdict is awaited now; the one in view may still leave later), and then tags are read in the order they were
queued: on a conveyor the first tag in is the first one out. At spacing 0.6 s on the loaded 2-core VM a tag whose
shot was dropped while in view was queued again as it left behind the first reads of the tags after it
(BENCHMARKS, issue 18, twenty-seventh session).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from inference.detections import Detections
from inference.reading.verdict import FrameVerdict, Verdict
from inference.tracking.reader_share import ReaderShare
from inference.tracking.records import Read, judge_read

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Shot:
    """One frame of one tag, chosen to be read: the whole frame and the tag's boxes in it."""

    track_id: int
    frame: int
    focus: float
    image: np.ndarray
    detections: Detections  # the tag's hangtag box first, then the symbol boxes on it
    attempt: int = 1  # 1: the tag's first read; 2+: a second try after unsure reads
    leaving: bool = False  # the tag has left the view: its verdict waits for this read
    # the other tags' boxes in the frame: its box is never grown into them (touching tags on a dense belt)
    neighbours: tuple[tuple[float, float, float, float], ...] = ()


def tag_crop(shot: Shot) -> np.ndarray:
    """The tag's box cut from the shot's frame (a copy: the frame may be a camera's lent buffer)."""
    h, w = shot.image.shape[:2]
    x1, y1, x2, y2 = shot.detections.xyxy[0]
    return shot.image[max(0, int(y1)):min(h, int(np.ceil(y2))), max(0, int(x1)):min(w, int(np.ceil(x2)))].copy()


def read_shot(reader: Any, recipe: Any, shot: Shot) -> Read:
    """Read and judge one shot; a reader that fails gives a REVIEW read saying so (the tag is not lost)."""
    crop = tag_crop(shot)
    box = tuple(float(v) for v in shot.detections.xyxy[0])
    try:
        readings = reader.read(shot.image, shot.detections, recipe=recipe, neighbours=shot.neighbours)
    except Exception as exc:  # any reader fault: this tag is doubt, the line goes on
        reason = f"reading failed: {type(exc).__name__}: {exc}"
        return Read(shot.frame, shot.focus, None, FrameVerdict(Verdict.REVIEW, (reason,)), crop, box)
    if not readings:
        return Read(shot.frame, shot.focus, None, FrameVerdict(Verdict.REVIEW, ("the reader returned nothing",)), crop, box)
    reading = readings[0]
    return Read(shot.frame, shot.focus, reading, judge_read(recipe, reading), crop, box)


class ReadWorker:
    """Owns a thread that reads shots with one TagReader (not thread-safe: used by this thread only). `on_read`
    is called on that thread after each read lands (the line gives a tag that left its verdict then); a fault in it
    is logged and counted (`on_read_faults`), and the thread goes on reading."""

    def __init__(self, reader: Any, recipe: Any, capacity: int = 4,
                 on_read: Callable[[], None] | None = None) -> None:
        self.reader = reader
        self.on_read = on_read
        self.on_read_faults = 0
        self.recipe = recipe
        self.capacity = capacity
        self.dropped = 0
        self.busy_s = 0.0
        self.cpu_s = 0.0  # the reading thread's own CPU time (with one OCR thread, all of reading's)
        self._share = ReaderShare()
        self._waiting: OrderedDict[int, Shot] = OrderedDict()
        self._reading: int | None = None
        self._done: list[tuple[int, Read]] = []
        self._cond = threading.Condition()
        self._stop = False
        self._hurry_at = float("inf")  # waits for reads end by then, whatever they were given (hurry)
        self._thread = threading.Thread(target=self._run, name="tag-reader", daemon=True)
        self._thread.start()

    def submit(self, shot: Shot) -> None:
        with self._cond:
            self._waiting.pop(shot.track_id, None)
            self._waiting[shot.track_id] = shot
            while len(self._waiting) > self.capacity:
                self._waiting.pop(self._next_waiting(drop=True))
                self.dropped += 1
            self._cond.notify_all()

    def _next_waiting(self, drop: bool = False) -> int:
        """The tag to read next (first reads first, tags that left first, then the oldest) or, to make room, the
        one to drop (a second try first, else a tag still in view, the oldest: a conveyor's oldest tag is the one
        about to leave anyway, and is queued again as it leaves; else the tag that left last)."""
        order = list(self._waiting.items())  # oldest first; min() keeps the first of equals
        if drop:  # of tags that left, the newest: the older ones were queued first and have waited longest
            ranked = [((shot.attempt == 1, shot.leaving, -k if shot.leaving else k), t)
                      for k, (t, shot) in enumerate(order)]
            return min(ranked)[1]
        return min(order, key=lambda item: (item[1].attempt > 1, not item[1].leaving))[0]

    def left(self, track_id: int) -> None:
        """This tag has left the view: its waiting shot, if any, goes before the shots of tags still in view."""
        with self._cond:
            shot = self._waiting.get(track_id)
            if shot is not None:
                self._waiting[track_id] = replace(shot, leaving=True)  # keeps its place in the queue's order

    @property
    def reading(self) -> bool:
        """A read is running or waiting (the detection loop may pace itself to leave the reader the CPU)."""
        with self._cond:
            return self._reading is not None or bool(self._waiting)

    @property
    def cpu_share(self) -> float | None:
        """The share of a core the reading thread got over its last reads (None: none finished yet)."""
        with self._cond:
            return self._share.share

    def busy_with(self, track_id: int) -> bool:
        """A shot of this tag is waiting, being read, or read and not collected yet (its result may settle it)."""
        with self._cond:
            return (track_id == self._reading or track_id in self._waiting
                    or any(done == track_id for done, _ in self._done))

    def cancel(self, track_id: int) -> bool:
        """Take this tag's waiting shot off the queue (not a read already running); True if one was waiting."""
        with self._cond:
            return self._waiting.pop(track_id, None) is not None

    def collect(self) -> list[tuple[int, Read]]:
        with self._cond:
            done, self._done = self._done, []
        return done

    def wait_for(self, track_id: int, timeout_s: float) -> bool:
        """Block until nothing of this tag is waiting or being read; False on timeout (or when hurried)."""
        deadline = time.monotonic() + timeout_s
        with self._cond:
            while track_id == self._reading or track_id in self._waiting:
                left = min(deadline, self._hurry_at) - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
        return True

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._waiting and not self._stop:
                    self._cond.wait()
                if self._stop:
                    return
                track_id = self._next_waiting()
                shot = self._waiting.pop(track_id)
                self._reading = track_id
            start, cpu_start = time.perf_counter(), time.thread_time()
            read = read_shot(self.reader, self.recipe, shot)
            wall_s, cpu_s = time.perf_counter() - start, time.thread_time() - cpu_start
            with self._cond:
                self.busy_s += wall_s
                self.cpu_s += cpu_s
                self._share.add(cpu_s, wall_s)
                self._done.append((track_id, read))
                self._reading = None
                self._cond.notify_all()
            if self.on_read is not None:
                try:
                    self.on_read()
                except Exception:  # a listener's fault must not stop the reading of every tag after it
                    self.on_read_faults += 1
                    log.exception("after a read of tag %s, its verdict could not be given", track_id)

    def hurry(self, seconds: float) -> None:
        """Thread-safe: every wait for a read (`wait_for`, one running now included) ends within `seconds` from
        now, whatever it was given: the station is closing and its tags must be judged before it goes."""
        with self._cond:
            self._hurry_at = min(self._hurry_at, time.monotonic() + seconds)
            self._cond.notify_all()

    def close(self, timeout_s: float = 30.0) -> None:
        with self._cond:
            self._stop = True
            self._waiting.clear()
            self._cond.notify_all()
        self._thread.join(timeout_s)
