"""The acquisition loop every industrial camera shares: frames into lent memory, triggers, lost and
incomplete frames counted, and a camera that goes away re-found without ever blocking the station.

A backend (harvesters, Aravis) fills in `_open_impl` / `_start_impl` / `_close_impl` / `_fetch_impl` /
`nodes`; the public methods own the state. `_fetch_impl` lends the producer's buffer for the length of a
`with` block: the frame is converted into a lent frame inside it, and the buffer goes back to the producer
at the block's end, before the frame travels on.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Iterator

import numpy as np

from inference.cameras.pixels import frame_shape, to_bgr
from inference.cameras.settings import CameraSettings, NodeMap, Readback, apply_settings
from inference.errors import HangtagError, SourceError
from inference.lending import FrameLender, FrameMemory
from inference.sources import LENT_FRAMES, Frame, FrameError, FrameOrError, FrameSource, Waiting


class CameraLost(SourceError):
    """The camera stopped answering (unplugged, rebooted, link down); the source is re-finding it."""


class TriggerBusy(SourceError):
    """A software trigger not sent: the previous one has not brought its frame yet."""


@dataclass(frozen=True)
class RawFrame:
    """The producer's buffer, lent for one `with` block: a flat uint8 view, never kept past it."""

    data: np.ndarray
    pixel_format: str
    width: int
    height: int
    frame_id: int | None = None  # the camera's block/frame counter: gaps are frames lost on the way


@dataclass
class AcquisitionCounts:
    delivered: int = 0  # frames handed to the station
    lost: int = 0  # frame ids the camera sent that never arrived complete (gaps)
    incomplete: int = 0  # buffers the producer flagged incomplete and the source dropped
    host_copies: int = 0  # copies of pixels on the host: one per frame, producer buffer → frame
    in_lent_frames: int = 0  # frames converted straight into lent (page-locked) memory
    in_own_memory: int = 0  # frames that found every lent frame out and went to ordinary memory
    camera_lost: int = 0  # times the camera went away
    reconnects: int = 0  # times it was found again, settings re-applied
    convert_ms: float = 0.0  # time spent converting buffers into frames (the host copy), all frames together


class CameraSource(FrameSource):
    live = True
    fetch_timeout_s = 0.1  # the longest one step of frames() waits for a frame: the station never blocks
    retry_every_s = 0.2  # how often a lost camera is looked for again
    stall_s = 1.0  # free-run: no frame for this long means the camera is gone, even if the producer is silent
    heartbeat_s = 0.5  # triggered: a node read this often while idle notices a camera gone between triggers
    answer_s = 1.5  # a heartbeat read not answered in this long: the camera is gone
    trigger_budget_s = 2.0  # a software trigger's frame comes within this, or the trigger is recorded unanswered

    def __init__(self, camera_id: str, settings: CameraSettings | None = None) -> None:
        self.camera_id = camera_id
        self.settings = settings or CameraSettings()
        self.counts = AcquisitionCounts()
        self.readback: Readback | None = None
        self.lost_reason = ""
        self.lender: FrameLender | None = None
        self._memory: FrameMemory | None = None
        self._node_lock = threading.Lock()  # trigger() comes from other threads (Step key, PLC)
        self._triggers_changed = threading.Condition(self._node_lock)
        self._pending_triggers: deque[tuple[int, float]] = deque()  # (trigger id, sent at): frames not yet here
        self._next_trigger_id = 1
        self._connected = False
        self._closed = False
        self._finder: threading.Thread | None = None
        self._last_frame_id: int | None = None
        self._refused: deque[tuple[str, str]] = deque()  # triggers that could not be sent, to be recorded
        self._folder_trigger = None
        try:
            self._connect()  # a camera missing at open is the operator's error, said now
            if self.settings.trigger.folder:
                from inference.cameras.folder_trigger import FolderTrigger

                self._folder_trigger = FolderTrigger(  # each file waits its turn: one trigger in flight at a time
                    self.settings.trigger.folder, lambda i: self.trigger(i, wait_s=self.trigger_budget_s + 0.5),
                    self._refuse)
        except BaseException:
            self.close()  # the producer is released for the next try
            raise

    # -- backend ------------------------------------------------------------------------------------
    def _open_impl(self) -> None:
        raise NotImplementedError

    def _start_impl(self) -> None:
        raise NotImplementedError

    def _close_impl(self, *, gone: bool = False) -> None:
        """Stops and releases the camera; never raises. `gone`: the camera was lost, so nothing is sent to it
        (a camera back at the same address must not get the old connection's stop)."""
        raise NotImplementedError

    def _fetch_impl(self, timeout_s: float) -> AbstractContextManager[RawFrame | None]:
        """The next complete buffer, or None after `timeout_s`; raises CameraLost when the device is gone."""
        raise NotImplementedError

    @property
    def nodes(self) -> NodeMap:
        raise NotImplementedError

    # -- lifecycle ----------------------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        return self._connected

    def _connect(self) -> None:
        self._open_impl()
        try:
            with self._node_lock:
                self.readback = apply_settings(self.nodes, self.settings)
                self._check_trigger_nodes()
            self._start_impl()
        except BaseException:
            self._close_impl()
            raise
        self._last_frame_id = None
        self._heartbeat: threading.Thread | None = None
        self._heartbeat_at = 0.0
        self._heartbeat_failed: list[str] = []
        self._last_seen = time.monotonic()
        self.lost_reason = ""
        self._connected = True  # last: the station's thread reads the rest once it sees this

    def _check_trigger_nodes(self) -> None:
        mode = self.settings.trigger.mode
        needed = {"free": (), "software": ("TriggerMode", "TriggerSoftware"), "hardware": ("TriggerMode",)}[mode]
        missing = [node for node in needed if not self.nodes.has(node)]
        if missing:
            raise SourceError(f"{self.description} cannot be triggered by {mode}", expected=", ".join(needed),
                              found=f"no {', '.join(missing)} node", hint="use free-run for this camera")
        refused = [note for note in (self.readback.notes if self.readback else ()) if note.startswith("trigger")]
        if mode != "free" and refused:  # armed on another line, the station would wait for triggers that never come
            raise SourceError(f"{self.description} did not take the {mode} trigger settings",
                              expected=f"{self.settings.trigger}", found="; ".join(refused),
                              hint="pick a trigger line and edge the camera offers")

    def _lose(self, reason: str) -> None:
        """The camera is gone: from here on the station's thread only reads state, while one background thread
        releases the old connection and looks for the camera again (both may block on a dead device)."""
        self._connected = False
        self.counts.camera_lost += 1
        self.lost_reason = reason
        with self._triggers_changed:
            self._pending_triggers.clear()  # a trigger the camera never saw gives no frame: not one late either
            self._triggers_changed.notify_all()
        self._finder = threading.Thread(target=self._find_again, name=f"find {self.description}", daemon=True)
        self._finder.start()

    def _find_again(self) -> None:
        self._close_impl(gone=True)
        while not self._closed:
            started = time.monotonic()
            if self._reachable():
                try:
                    self._connect()
                except Exception as exc:  # not back yet, or the producer's own error while it is half back
                    self.lost_reason = getattr(exc, "message", "") or str(exc).splitlines()[0] or type(exc).__name__
                else:
                    if self._closed:  # closed while connecting: release what was just opened
                        self._connected = False
                        self._close_impl()
                    else:
                        self.counts.reconnects += 1
                    return
            time.sleep(max(0.0, self.retry_every_s - (time.monotonic() - started)))

    def _reachable(self) -> bool:
        """A cheap probe before a full (possibly slow) connect; backends that have none say yes."""
        return True

    def close(self) -> None:
        self._closed = True
        if getattr(self, "_folder_trigger", None) is not None:
            self._folder_trigger.close()
        finder = getattr(self, "_finder", None)
        if finder is not None and finder is not threading.current_thread():
            finder.join(timeout=5.0)  # it stops at its next attempt
        if self._connected:
            self._connected = False
            self._close_impl()

    # -- lending ------------------------------------------------------------------------------------
    def lend_frames(self, memory: FrameMemory | None) -> None:
        self._memory = memory

    def _target(self, shape: tuple[int, ...]) -> np.ndarray | None:
        memory = self._memory
        if memory is None:
            self.lender = None
            return None
        if self.lender is None or self.lender.make != memory or self.lender.shape != shape:
            self.lender = FrameLender(shape, LENT_FRAMES, memory)
        return self.lender.lend()

    # -- triggers -----------------------------------------------------------------------------------
    @property
    def triggered(self) -> bool:
        """Every frame answers a trigger: each is to be inspected, none skipped for a newer one."""
        return self.settings.trigger.mode != "free"

    @property
    def software_triggered(self) -> bool:
        """Frames come only when the station fires `trigger()`: the Step key, the trigger folder, the PLC."""
        return self.settings.trigger.mode == "software"

    def trigger(self, trigger_id: int | None = None, *, wait_s: float = 1.0) -> int:
        """One software trigger: exactly one frame follows, carrying `trigger_id` (or the next number).

        One trigger at a time: a camera still exposing or reading out ignores a trigger, and two triggers
        sharing one frame would leave every later frame carrying the trigger before its own. So the next one
        goes only once the previous trigger's frame has arrived, waiting up to `wait_s` for that (the frames
        must be read on another thread meanwhile). Raises TriggerBusy when it is still in flight, CameraLost
        when the camera is away (the caller answers the PLC's request with an error)."""
        if self.settings.trigger.mode != "software":
            raise SourceError("software trigger on a camera not in software-trigger mode", expected="trigger=software",
                              found=f"trigger={self.settings.trigger.mode}", hint="set the trigger mode in the job")
        if not self._connected:
            raise CameraLost(f"{self.description} is lost; trigger not sent", found=self.lost_reason)
        with self._triggers_changed:
            if not self._triggers_changed.wait_for(lambda: not self._pending_triggers, timeout=wait_s):
                raise TriggerBusy(f"trigger not sent: trigger {self._pending_triggers[0][0]} has not brought its "
                                  "frame yet", expected="one trigger at a time", found="a trigger in flight",
                                  hint="triggers come faster than the camera delivers; space them by at least "
                                       "the exposure and transfer time")
            if not self._connected:
                raise CameraLost(f"{self.description} is lost; trigger not sent", found=self.lost_reason)
            trigger_id = self._next_trigger_id if trigger_id is None else int(trigger_id)
            self._next_trigger_id = trigger_id + 1
            self._pending_triggers.append((trigger_id, time.monotonic()))
            try:
                self.nodes.execute("TriggerSoftware")
            except Exception as exc:
                self._pending_triggers.pop()
                raise CameraLost(f"{self.description} did not take the trigger", found=str(exc).splitlines()[0],
                                 hint="the station is re-finding the camera") from None
        return trigger_id

    def cancel_trigger(self, trigger_id: int) -> None:
        """The caller gave up on this trigger's frame (it answered the line already): a frame still coming is
        then not taken for a later trigger's."""
        with self._triggers_changed:
            for pending in [p for p in self._pending_triggers if p[0] == trigger_id]:
                self._pending_triggers.remove(pending)
            self._triggers_changed.notify_all()

    def _refuse(self, trigger_id: int | None, file: str, why: str) -> None:
        """A trigger from the line that the camera did not get: recorded in the run, so no item goes unjudged."""
        label = f"trigger-{trigger_id}" if trigger_id is not None else file
        self._refused.append((label, f"{file}: {why}"))

    # -- frames -------------------------------------------------------------------------------------
    kind = "camera"

    @property
    def _name(self) -> str:
        return f"{self.kind}-{self.camera_id}"

    def frames(self) -> Iterator[FrameOrError | Waiting]:
        index = 0
        while not self._closed:
            while self._refused:
                label, why = self._refused.popleft()
                yield FrameError(index, f"{self._name}#{label}", None, why)
                index += 1
            if not self._connected:
                yield Waiting(f"camera lost: {self.lost_reason}; looking for it again")
                time.sleep(0.02)
                continue
            try:
                item = self._grab(index)
            except CameraLost as exc:
                self._lose(exc.message)
                yield FrameError(index, f"{self._name}#{index}", None,
                                 f"camera lost: {exc.message}; the station is looking for it again")
                index += 1
                continue
            if isinstance(item, Waiting):
                yield item
                continue
            yield item
            index += 1

    def _grab(self, index: int) -> FrameOrError | Waiting:
        with self._fetch_impl(self.fetch_timeout_s) as raw:
            if raw is None:
                return self._idle()
            self._count_gap(raw.frame_id)
            target = self._target(frame_shape(raw.width, raw.height))
            converting = time.perf_counter_ns()
            try:
                image = to_bgr(raw.data, raw.pixel_format, raw.width, raw.height, target)
            except HangtagError as exc:
                return FrameError(index, f"{self._name}#{index}", None, str(exc))
            convert_ms = (time.perf_counter_ns() - converting) / 1e6
            self.counts.convert_ms += convert_ms
            frame_id = raw.frame_id
        self._last_seen = time.monotonic()
        self.counts.host_copies += 1
        self.counts.delivered += 1
        if target is not None and image is target:
            self.counts.in_lent_frames += 1
        else:
            self.counts.in_own_memory += 1 if self._memory is not None else 0
        trigger_id = self._trigger_id(frame_id)
        name = f"{self._name}#{index}" if trigger_id is None else f"{self._name}#trigger-{trigger_id}"
        # the frame's decode time is the conversion alone: waiting for the camera is not the station's time
        return Frame(index, name, None, image, convert_ms, trigger_id=trigger_id)

    def _trigger_id(self, frame_id: int | None) -> int | None:
        mode = self.settings.trigger.mode
        if mode == "software":
            with self._triggers_changed:
                if not self._pending_triggers:
                    return None
                self._triggers_changed.notify_all()
                return self._pending_triggers.popleft()[0]
        return frame_id if mode == "hardware" else None

    def _count_gap(self, frame_id: int | None) -> None:
        if frame_id is None:
            return
        last, self._last_frame_id = self._last_frame_id, frame_id
        if last is None:
            return
        if frame_id > last + 1:
            self.counts.lost += frame_id - last - 1
        elif frame_id < 0x100 < 0xFF00 < last:  # GigE Vision's 16-bit block id wrapped (0 is never used)
            self.counts.lost += (0xFFFF - last) + (frame_id - 1)

    def _idle(self) -> Waiting:
        """No frame this step: normal while waiting for a trigger; in free-run, too long means the camera is gone."""
        quiet = time.monotonic() - self._last_seen
        if self.settings.trigger.mode == "free":
            rate = self.readback["frame_rate"].value if self.readback else None
            stall_s = max(self.stall_s, 3.0 / rate) if isinstance(rate, (int, float)) and rate > 0 else self.stall_s
            if quiet > stall_s:  # three frame periods, at least stall_s: a slow camera is not a lost one
                raise CameraLost(f"no frame from {self.description} for {quiet:.1f} s")
            return Waiting("no frame yet")
        self._expire_triggers()
        beat, failed = self._heartbeat, self._heartbeat_failed
        if beat is not None and not beat.is_alive() and failed:
            raise CameraLost(f"{self.description} stopped answering", found=failed[0])
        if beat is not None and beat.is_alive() and time.monotonic() - self._heartbeat_at > self.answer_s:
            raise CameraLost(f"{self.description} stopped answering", found=f"no answer in {self.answer_s} s")
        if quiet > self.heartbeat_s and (beat is None or not beat.is_alive()):
            self._last_seen = self._heartbeat_at = time.monotonic()
            self._heartbeat_failed = []  # each beat its own list: a lost connection's late answer stays in its own
            self._heartbeat = threading.Thread(target=_beat, args=(self.nodes, self._heartbeat_failed),
                                               name="camera heartbeat", daemon=True)
            self._heartbeat.start()
        return Waiting("waiting for a trigger")


    def _expire_triggers(self) -> None:
        """A trigger whose frame has not come within trigger_budget_s (the camera ignored it, or its frame was
        lost on the wire) is recorded as unanswered, so the next frame is not taken for it."""
        with self._triggers_changed:
            if not self._pending_triggers or time.monotonic() - self._pending_triggers[0][1] <= self.trigger_budget_s:
                return
            trigger_id, _ = self._pending_triggers.popleft()
            self._triggers_changed.notify_all()
        self._refused.append((f"trigger-{trigger_id}", f"trigger {trigger_id} brought no frame within "
                              f"{self.trigger_budget_s:g} s: the camera ignored it or its frame was lost"))


def _beat(nodes: NodeMap, failed: list[str]) -> None:
    """Reads one node: off the station's thread, since a dead GigE camera takes seconds to time out. No lock:
    a finder's new connection must not wait for this one."""
    try:
        nodes.read("TriggerMode")
    except Exception as exc:
        failed.append(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
