"""The station's worker on a moving line: an Inspector's stand-in that gives one verdict per tag.

The worker calls `inspect(frame)` as it does for per-frame inspection. Here each frame is only detected and
tracked (its FrameResult carries the boxes and no per-frame verdict: the tags in it are not finished yet), and
each tag's one verdict goes to the `listeners` when the tag leaves: on the worker's thread, or, for a tag that left
waiting for its read, on the line's reading thread the moment that read lands (one listener call at a time, each
verdict once). Reading runs on the line's own reading thread, so the worker's frame rate is the detector's. On a
live source the worker first offers each frame to `follow`: while the line is paced (its reader busy, every tag in
view read) a frame is not detected, the belt's speed carries the tags, and the worker shows and journals nothing
for it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from inference.sources import FrameError
from inference.tracking.line import LineInspector, LineSettings
from inference.tracking.records import TagVerdict

TagListener = Callable[[TagVerdict], None]
# A frame's "verdict" on a moving line: its tags were followed, and each is judged once, when it leaves (the
# window's results and the journal's frame rows say so instead of "no recipe").
TRACKED = "tracked"


class PerTagInspector:
    def __init__(self, inspector: Any, settings: LineSettings = LineSettings(), first_tag_id: int = 1, *,
                 live_source: bool = True) -> None:
        self.inner = inspector
        self.settings = settings
        # The worker says what the next line's frames come from. A live camera: a tag in view past settings.timeout_s
        # is judged anyway (a stopped belt). A recording played frame by frame: never, as the station takes each frame
        # when it is ready, and a tag's wall time in view is then how slow this machine is, not how the belt moved
        # (a loaded machine judged both tags of a 4.8 s recording 'still in view when its time ran out'); a tag
        # still in view at its end is judged by finish().
        self.live_source = live_source
        self.listeners: list[TagListener] = []
        self.tags_given = 0
        self._line: LineInspector | None = None
        self._last_index: int | None = None
        self._lock = threading.Lock()  # finish() may come from another thread than inspect()
        self._delivering = threading.Lock()  # verdicts come from the worker's and the reading thread
        self._draining: LineInspector | None = None  # the line whose finish() is waiting for its reads
        self.frames_followed = 0
        self.lines_started = 0  # (this inspector, this) names the line whose tags the strip shows
        # A line ends at every Stop, source and recipe: the next goes on numbering, so "#1" is one tag of this
        # station run, not the first of each line (the Results dock listed two "#1" told apart only by time)
        self.next_tag_id = first_tag_id

    # -- what the worker and the window use of an Inspector -------------------------------------------
    @property
    def pipeline(self) -> Any:
        return self.inner.pipeline

    @property
    def reader(self) -> Any:
        return self.inner.reader

    @property
    def recipe(self) -> Any:
        return self.inner.recipe

    @recipe.setter
    def recipe(self, recipe: Any) -> None:
        """A new job: the tags of the old one are finished under the old recipe first."""
        self.finish()
        self.inner.recipe = recipe

    @property
    def learned_belt(self) -> tuple[float, float] | None:
        """The belt speed the line's tracker has learned so far (TagTracker.learned_belt); read from any thread."""
        tracker = getattr(self._line, "tracker", None)
        return tracker.learned_belt if tracker is not None else None

    @property
    def tags_in_view(self) -> int:
        """The tags the line follows and has not judged yet."""
        with self._lock:
            return len(self._line.tracks()) if self._line is not None else 0

    def __getattr__(self, name: str) -> Any:  # precision, reader_note, verdict_text, describe...
        return getattr(self.inner, name)

    def inspect(self, item: Any, should_stop: Callable[[], bool] | None = None) -> Any:
        if isinstance(item, FrameError):
            return self.inner.inspect(item)
        if getattr(item, "trigger_id", None) is not None:  # a triggered frame is one item: judged whole, not tracked
            return self.inner.inspect(item, should_stop)
        result = self.pipeline.process(item.image, source_name=item.name, source_path=item.path, index=item.index,
                                       decode_ms=item.decode_ms)
        verdicts: list[TagVerdict] = []
        with self._lock:
            if self._last_index is not None and item.index <= self._last_index:  # the source started again
                verdicts += self._finish_locked()
            self._last_index = item.index
            line = self._line_for()
            if line is not None:
                verdicts += line.step(item.index, item.image, result.detections)
                result = result.with_(verdict=TRACKED)
        self._deliver(verdicts)  # not under the lock: a listener may ask tags_in_view
        return result

    def follow(self, item: Any) -> bool:
        """A live frame offered before inspecting it: True when the line is paced and need not detect it (the belt
        carried its tags, and verdicts that became due went to the listeners); False: inspect it."""
        if isinstance(item, FrameError) or getattr(item, "trigger_id", None) is not None:
            return False
        with self._lock:
            line = self._line
            if line is None or self._last_index is None:
                return False
            if item.index <= self._last_index or line.detection_due(item.index):
                return False
            self._last_index = item.index
            verdicts = line.follow(item.index)
            self.frames_followed += 1
        self._deliver(verdicts)
        return True

    def finish(self, drain_s: float | None = None, cause: str | None = None) -> list[TagVerdict]:
        """The source ended or stopped: the tags in view leave now; their reads still running are awaited,
        `drain_s` at most (the line's settings by default), and a tag whose read outlasts it is judged on the
        reads it has, saying so; one never read names `cause` (LineInspector.finish)."""
        with self._lock:
            verdicts = self._finish_locked(drain_s, cause)
        self._deliver(verdicts)
        return verdicts

    def close(self, drain_s: float | None = None) -> None:
        self.finish(drain_s)
        self.inner.close()

    def hurry(self, seconds: float) -> None:
        """Thread-safe (the window closing, while the worker's thread may be in `finish` for a source that ended):
        the reads of the tags in view are waited for `seconds` more at most, then the tags are judged without."""
        for line in (self._line, self._draining):
            if line is not None:
                line.hurry(seconds)

    # -- inside -------------------------------------------------------------------------------------
    def _line_for(self) -> LineInspector | None:
        if self._line is None and self.inner.recipe is not None and self.inner.reader is not None:
            settings = self.settings if self.live_source else replace(self.settings, timeout_s=None)
            self._line = LineInspector(None, self.inner.reader, self.inner.recipe, settings, first_id=self.next_tag_id,
                                       on_verdict=lambda verdict: self._deliver([verdict]))
            self.lines_started += 1
        return self._line

    def _finish_locked(self, drain_s: float | None = None, cause: str | None = None) -> list[TagVerdict]:
        line, self._line, self._last_index = self._line, None, None
        if line is None:
            return []
        self._draining = line
        try:
            return line.finish(drain_s, cause)
        finally:
            self.next_tag_id = line.next_id
            self._draining = None
            line.close(timeout_s=30.0 if drain_s is None else 0.0)  # a read given up on is not waited for again

    def _deliver(self, verdicts: list[TagVerdict]) -> None:
        with self._delivering:
            for verdict in verdicts:
                self.tags_given += 1
                for listener in self.listeners:
                    listener(verdict)
