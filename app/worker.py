"""The inspection worker: owns the Inspector on its own QThread; the UI thread never waits on it.

Each frame is one event on the worker's loop, so queued calls (new thresholds, a new engine, stop)
are handled between frames. Every exception becomes an `errored` signal; the worker goes on with
the next frame or back to idle.
"""

from __future__ import annotations

import threading
import time
import traceback

import numpy as np
from PySide6.QtCore import QObject, QThread, QTimer, Signal, Slot

from app.words import frame_name, named
from inference.errors import HangtagError
from inference.inspection import FrameAborted, Inspector
from inference.live import LatestFrameGrabber
from inference.postprocess import Thresholds
from inference.sources import WAITING, Frame, FrameError, FrameSource, Waiting, open_source
from inference.tracking.station import PerTagInspector


TRIGGER_BUDGET_S = 3.0  # a Step's trigger → its frame, at most (exposure, transfer, a busy machine)
CLOSE_DRAIN_S = 5.0  # closing: the tags in view wait this long in all for their reads, then are judged without
STOPPED, CLOSED = "the line was stopped", "the station was closed"  # why a tag in view was judged unread
WHEN_STOPPED = "when the line was stopped"
NO_IMAGE = np.zeros((0, 0, 3), np.uint8)  # "this frame has no pixels" (a file that failed to decode)


def describe_error(exc: BaseException) -> str:
    if isinstance(exc, HangtagError):
        return str(exc)
    return f"{type(exc).__name__}: {exc}"


def as_item(frame: Frame) -> Frame:
    """A watched folder's image on a moving line is one item, judged whole as a trigger's frame is: tracked as a
    line's frame, its tag never left the view (the folder never ends), and three garments got no verdict and no
    journal row, even after Stop. Its id is the file's number (000123.jpg: 123), else its place in arrival order."""
    from dataclasses import replace

    from inference.cameras.folder_trigger import trigger_id_of

    number = trigger_id_of(frame.name)
    return replace(frame, trigger_id=number if number is not None else frame.index + 1)


class InspectionWorker(QObject):
    """Lives in a QThread. Signals carry immutable results; images handed over are owned by the receiver."""

    frame_done = Signal(object, object)  # (image BGR ndarray, empty when none; FrameResult)
    errored = Signal(str)
    state_changed = Signal(str)  # "idle" | "running"
    source_opened = Signal(str, int)  # description, frame count (0 = unknown/live)
    source_failed = Signal(str, str)  # the spec that did not open, the full message
    source_finished = Signal(str)
    engine_swapped = Signal(object)  # the new Inspector's pipeline (for the status bar)
    drops_changed = Signal(int)
    camera_read_back = Signal(str, object)  # an industrial camera's spec and its settings as the camera holds them
    trigger_judged = Signal(object)  # a triggered frame's item as a TagVerdict, journaled as its tag row first
    line_finished = Signal(object, str)  # the TagVerdicts of the tags in view judged at once, and when ("… stopped")
    line_paused = Signal(int)  # a recording stopped: its tags in view (how many) are judged as they leave after Start

    def __init__(self) -> None:
        super().__init__()
        self._inspector: Inspector | None = None
        self._source: FrameSource | None = None
        self._iterator = None
        self._grabber: LatestFrameGrabber | None = None
        self._running = False
        self._stop = threading.Event()
        self._loop = False
        self._source_spec: str | None = None
        self._fps_cap = 0.0
        self._last_tick = 0.0
        self._timer: QTimer | None = None
        self._recorder = None  # inference.records.Recorder: journals each frame before it is shown
        self._carry = None  # a frame abandoned by Stop mid-inspection: first in line at the next Start
        self._job = ("", "")
        self._awaited: tuple[int, float] | None = None  # (trigger id, deadline) a Step fired while stopped
        self._inspected_trigger: int | None = None
        self._abandoned: str | None = None  # the frame Stop cut short, until it is inspected again

    # -- engine ---------------------------------------------------------------------------------------
    @Slot(object)
    def swap_inspector(self, inspector: Inspector) -> None:
        """Take a ready Inspector; the old one is closed here, on the thread that ran it."""
        old, self._inspector = self._inspector, inspector
        self._lend_frames()
        if old is not None and old is not inspector:
            old.close()
        self.engine_swapped.emit(inspector.pipeline)

    @Slot(object)
    def set_thresholds(self, thresholds: Thresholds) -> None:
        if self._inspector is not None:
            self._inspector.pipeline.set_thresholds(thresholds)

    @Slot(object)
    def set_recipe(self, recipe: object) -> None:
        if self._inspector is not None:
            self._inspector.recipe = recipe

    @Slot(str, str, object)
    def set_job_recipe(self, job: str, lot: str, recipe: object) -> None:
        """A job change from the line's PLC: its name and its recipe take effect together, between two frames,
        so no frame is journaled under the one and judged by the other."""
        self._job = (job, lot)
        self.set_recipe(recipe)

    @Slot(object)
    def set_recorder(self, recorder: object) -> None:
        self._recorder = recorder

    @Slot(str, str)
    def set_job(self, job: str, lot: str) -> None:
        self._job = (job, lot)

    @Slot(float)
    def set_fps_cap(self, fps: float) -> None:
        self._fps_cap = max(0.0, float(fps))

    @Slot(bool)
    def set_loop(self, loop: bool) -> None:
        self._loop = bool(loop)

    # -- source ---------------------------------------------------------------------------------------
    @Slot(str)
    def open_source(self, spec: str) -> None:
        # another source: the tags of this one's line are judged first, under its session; they waited for the next
        # source's frames, and were journaled under that source once they "left" its view
        self._finish_line("when the source was changed")
        self._close_source()
        # Forget the previous spec first: a Start after a failed open must not re-inspect the previous
        # source, nor journal its frames under the spec that failed.
        self._source_spec = None
        self.drops_changed.emit(0)
        try:
            source = open_source(spec)
        except Exception as exc:  # the window shows it; the station stays idle
            self.source_failed.emit(spec, describe_error(exc))
            return
        self._source, self._source_spec = source, spec
        self._lend_frames()
        if source.live and not getattr(source, "triggered", False):  # a triggered camera's frames are each inspected
            self._grabber = LatestFrameGrabber(source)
        else:
            self._iterator = source.frames()
        self.source_opened.emit(source.description, len(source))
        if getattr(source, "readback", None) is not None:
            self.camera_read_back.emit(spec, source.readback)

    def _lend_frames(self) -> None:
        """A camera reads into the engine's page-locked frames when the engine is the GPU pipeline, so frames
        reach the GPU with no host copy; frames already out stay valid whatever engine comes next."""
        if self._source is not None:
            self._source.lend_frames(self._inspector.frame_memory if self._inspector is not None else None)

    def _close_source(self) -> None:
        if self._abandoned is not None:  # its frame will not come again from this source
            self._note_not_inspected(self._abandoned)
        self._carry, self._abandoned = None, None
        if self._grabber is not None:
            self._grabber.close()
        elif self._source is not None:
            self._source.close()
        self._grabber, self._source, self._iterator = None, None, None

    @Slot()
    def start(self) -> None:
        if self._source is None:
            if self._source_spec:
                self.open_source(self._source_spec)
            if self._source is None:
                self.errored.emit("No source is open: pick a folder, image, video or camera first.")
                return
        self._stop.clear()
        self._running = True
        self.state_changed.emit("running")
        self._schedule(0)

    def request_stop(self) -> None:
        """Thread-safe: called directly from the UI thread; the loop sees it before the next frame."""
        self._stop.set()

    @Slot()
    def stop(self) -> None:
        self._stop.set()
        if self._running:
            self._halt()

    def _halt(self) -> None:
        """Stop on a live moving line: the tags in view are judged now, as if they had left, under this session;
        the belt carries them off while stopped, and they stayed open until the next Start. A recording (a video,
        a folder) goes on at the frame it stopped at, so its tags in view stay open: judged now, each would be seen
        again after Start and judged twice."""
        self._running = False
        self.state_changed.emit("idle")
        if self._source is not None and not self._source.live and isinstance(self._inspector, PerTagInspector):
            self.line_paused.emit(self._inspector.tags_in_view)
        else:
            self._finish_line(WHEN_STOPPED, cause=STOPPED)

    @Slot()
    def step(self) -> None:
        if self._source is None and self._source_spec:
            self.open_source(self._source_spec)
        if getattr(self._source, "software_triggered", False):
            self._fire_trigger()
        elif not self._running:
            self._process_next()

    @Slot(int)
    def trigger_camera(self, trigger_id: int) -> None:
        """The line's trigger (a PLC handshake in the window) fires a software-triggered camera with the line's
        own id; the result's frame then carries it (`…#trigger-ID`, `trigger_id`)."""
        if getattr(self._source, "software_triggered", False):
            self._fire_trigger(trigger_id)
        else:
            self.errored.emit(f"Trigger {trigger_id} not sent: the source is not a software-triggered camera")

    def _fire_trigger(self, trigger_id: int | None = None) -> None:
        """Step on a software-triggered camera fires it once; stopped, the step then inspects what that trigger
        brings (and any earlier trigger's frame still waiting), running, the loop does."""
        try:
            trigger_id = self._source.trigger(trigger_id, wait_s=0.0)  # one still in flight: said, never waited on
        except Exception as exc:  # the camera is lost: said, and the station stays as it was
            self.errored.emit(f"Trigger not sent: {describe_error(exc)}")
            return
        if not self._running:
            self._awaited = (trigger_id, time.monotonic() + TRIGGER_BUDGET_S)
            QTimer.singleShot(0, self._await_trigger)

    @Slot()
    def _await_trigger(self) -> None:
        if self._awaited is None or self._running:
            self._awaited = None
            return
        trigger_id, deadline = self._awaited
        self._process_next()
        if self._inspected_trigger == trigger_id:
            self._awaited = None
        elif time.monotonic() > deadline:
            self._awaited = None
            self.errored.emit(f"No frame for trigger {trigger_id} within {TRIGGER_BUDGET_S:g} s: check the camera's "
                              "exposure and trigger settings")
        else:
            QTimer.singleShot(0, self._await_trigger)

    def _record(self, result, image) -> None:
        if self._recorder is None:
            return
        from inference.records.recorder import SessionKey

        inspector = self._inspector
        recipe = inspector.recipe
        key = SessionKey(source=self._source_spec or "", recipe_name=getattr(recipe, "name", "") if recipe else "",
                         recipe_path=str(getattr(recipe, "path", "") or "") if recipe else "",
                         model_path=str(getattr(inspector.pipeline.engine, "model_path", "")), backend=inspector.pipeline.backend,
                         precision=getattr(inspector, "precision", "fp32"), job=self._job[0], lot=self._job[1])
        try:
            self._recorder.use(key)
            self._recorder.record(result, image)
        except Exception as exc:  # the operator must know the journal stopped taking frames
            self.errored.emit(f"JOURNAL: frame {result.source_name} was NOT recorded: {describe_error(exc)}")

    def _record_trigger(self, result, image, trigger_id: int) -> None:
        """A triggered frame is one item: its verdict is also a tag row (with the trigger's id), as a tracked tag's
        is, so the journal counts items the same way in both modes."""
        from inference.tracking.triggered import verdict_of_frame

        verdict = verdict_of_frame(result, image, trigger_id)
        if self._recorder is not None:
            try:
                self._recorder.record_tag(verdict)
            except Exception as exc:  # the operator must know this item's verdict is not in the journal
                self.errored.emit(f"JOURNAL: trigger {trigger_id} ({verdict.verdict.value}) was NOT recorded: "
                                  f"{describe_error(exc)}")
        self.trigger_judged.emit(verdict)

    def _note_not_inspected(self, name: str) -> None:
        """A frame taken from the source whose inspection Stop (or closing) cut short, and that will not be
        inspected again: the journal and the log say so, since it has no row."""
        detail = ("its inspection was cut short by Stop or by closing the station, and its source closed before it "
                  "was inspected again: it has no verdict (inspect it again)")
        message = f"JOURNAL: frame {name} was NOT recorded: {detail}"
        if self._recorder is not None:
            try:
                self._recorder.note_event("not_inspected", name, detail)
            except Exception as exc:
                message += f" (nor could the journal note it: {describe_error(exc)})"
        self.errored.emit(message)

    def _end_session(self) -> None:
        """The source ran to its end: the tags still in view on a moving line are judged and journaled under it,
        then its session ends, so History gives it an end and a second pass starts a session of its own (the
        folder inspected again went into the same one)."""
        self._finish_line("at the source's end")
        if self._recorder is not None:
            self._recorder.end()

    def _finish_line(self, when: str, drain_s: float | None = None, cause: str | None = None) -> None:
        """The tags in view on a moving line are judged now and journaled by its listeners, under the session of
        the source they were seen in."""
        if not isinstance(self._inspector, PerTagInspector):
            return
        try:
            verdicts = self._inspector.finish(drain_s, cause)
        except Exception as exc:  # said; what follows goes on all the same
            self.errored.emit(f"The tags in view {when}: {describe_error(exc)}")
            return
        self.line_finished.emit(verdicts, when)

    @Slot()
    def shutdown(self) -> None:
        """The window is closing. In this order: the run stops; the tags in view on a moving line leave and are
        journaled (their reads still running waited for CLOSE_DRAIN_S at most, then judged without); a frame cut
        short is noted; the session ends. The thread then ends, whatever failed on the way."""
        try:
            self._stop.set()
            if self._running:  # not _halt: closing waits CLOSE_DRAIN_S for reads, not the line's own allowance
                self._running = False
                self.state_changed.emit("idle")
            self._finish_line("when the station was closed", CLOSE_DRAIN_S, cause=CLOSED)
            self._close_source()
            if self._recorder is not None:
                self._recorder.end()
            if self._inspector is not None:
                self._inspector.close()  # a moving line's tags are finished above: nothing is waited for again
                self._inspector = None
        except Exception as exc:  # said in the log; the thread must end all the same
            self.errored.emit(f"Closing: {describe_error(exc)}")
        finally:
            QThread.currentThread().quit()

    # -- the loop -------------------------------------------------------------------------------------
    def _schedule(self, delay_ms: int) -> None:
        QTimer.singleShot(max(0, delay_ms), self._tick)

    @Slot()
    def _tick(self) -> None:
        if not self._running:
            return
        if self._stop.is_set():
            self._halt()
            return
        started = time.perf_counter()
        more = self._process_next()
        if not more:
            self._running = False
            self.state_changed.emit("idle")
            return
        delay = 0
        if self._fps_cap > 0:
            delay = int(max(0.0, 1.0 / self._fps_cap - (time.perf_counter() - started)) * 1000)
        self._schedule(delay)

    def _next_item(self) -> Frame | FrameError | Waiting | None:
        if self._carry is not None:
            item, self._carry = self._carry, None
            return item
        if self._grabber is not None:
            item = self._grabber.take(0.2)
            self.drops_changed.emit(self._grabber.dropped)
            if item is None and self._grabber.exhausted:
                return None
            return item if item is not None else WAITING
        if self._iterator is None:
            return None
        item = next(self._iterator, None)
        if item is None and self._loop and self._source_spec:
            self.open_source(self._source_spec)
            item = next(self._iterator, None) if self._iterator is not None else None
        return item

    def _process_next(self) -> bool:
        """One frame. Returns False when the source is exhausted or nothing can run."""
        if self._inspector is None:
            self.errored.emit("The engine is not ready yet; wait for it to load, then start again.")
            return False
        try:
            item = self._next_item()
        except Exception as exc:
            self.errored.emit(f"The source failed: {describe_error(exc)}")
            return False
        if isinstance(item, Waiting):  # a live or watched source has nothing new yet (maybe with a reason)
            return True
        if item is None:
            # "is not None": a live source's length is 0, so "if self._source" said "Finished source" at a replay's end
            desc = self._source.description if self._source is not None else "source"
            self._close_source()
            self._end_session()
            self.source_finished.emit(desc)
            return False
        if isinstance(self._inspector, PerTagInspector):  # a recording's tags are never timed out by the wall clock
            self._inspector.live_source = bool(self._source is not None and self._source.live)
        if isinstance(item, Frame) and item.trigger_id is None and isinstance(self._inspector, PerTagInspector) \
                and getattr(self._source, "one_item_per_frame", False):
            item = as_item(item)
        if self._grabber is not None and isinstance(self._inspector, PerTagInspector):
            try:
                if self._inspector.follow(item):  # a paced moving line: the belt carries this frame's tags
                    return True
            except Exception as exc:  # said, and the frame is inspected as usual
                self.errored.emit(f"{getattr(item, 'name', 'frame')}: {describe_error(exc)}")
        try:
            result = self._inspector.inspect(item, should_stop=self._stop.is_set if self._running else None)
        except FrameAborted:
            self._carry = None if self._grabber is not None else item  # live frames are stale by the next Start
            self._abandoned = None if self._carry is None else getattr(item, "name", "frame")
            return True
        except Exception as exc:
            self.errored.emit(f"{getattr(item, 'name', 'frame')}: {describe_error(exc)}\n"
                              + "".join(traceback.format_exception_only(type(exc), exc)).strip())
            return True
        self._abandoned = None
        self._inspected_trigger = getattr(item, "trigger_id", None)
        image = item.image if isinstance(item, Frame) else NO_IMAGE
        self._record(result, item.image if isinstance(item, Frame) else None)
        if self._inspected_trigger is not None:
            self._record_trigger(result, image, self._inspected_trigger)
        self.frame_done.emit(image, result)
        if isinstance(item, FrameError):
            self.errored.emit(named(frame_name(item.name, item.index), item.message.splitlines()[0]))
        return True
