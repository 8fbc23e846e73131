"""A software-triggered camera as the line's inspection (inference.line.LineStation's `inspect`): the PLC's
trigger fires the camera with the handshake's trigger id, and only the frame carrying that id is inspected,
so a result is never one trigger late. Runs on the line's worker thread, which owns the camera's frames."""

from __future__ import annotations

import time
from typing import Any, Callable, Iterator

from inference.cameras.acquisition import CameraSource
from inference.errors import SourceError
from inference.line.handshake import StartInspection, Verdict
from inference.line.station import Outcome
from inference.sources import Frame, FrameError, Waiting


class TriggeredInspection:
    """`inspect(frame)` is the station's (an Inspector's `inspect`): its result's verdict goes to the PLC."""

    def __init__(self, camera: CameraSource, inspect: Callable[[Frame], Any], *, frame_budget_s: float = 2.0) -> None:
        self.camera = camera
        self.inspect = inspect
        self.frame_budget_s = frame_budget_s
        self.stale = 0  # frames that answered an earlier trigger, arriving late: skipped, never inspected
        self._frames: Iterator[Frame | FrameError | Waiting] | None = None

    def __call__(self, start: StartInspection) -> Outcome:
        return self._outcome(self.frame_for(start.trigger_id))

    def frame_for(self, trigger_id: int) -> Frame:
        """Fires the camera once and returns the frame that answers this trigger (older ones are skipped)."""
        if self._frames is None:
            self._frames = self.camera.frames()
        self.camera.trigger(trigger_id)  # CameraLost: the line answers this trigger with ERROR
        deadline = time.monotonic() + self.frame_budget_s
        for item in self._frames:
            if isinstance(item, Frame):
                if item.trigger_id == trigger_id:
                    return item
                self.stale += 1
            elif isinstance(item, FrameError):
                raise SourceError(f"no frame for trigger {trigger_id}", found=item.message)
            if time.monotonic() > deadline:
                break
        self.camera.cancel_trigger(trigger_id)
        raise SourceError(f"no frame for trigger {trigger_id}", found="none",
                          expected=f"a frame within {self.frame_budget_s} s",
                          hint="check the camera's trigger settings and exposure")

    def _outcome(self, frame: Frame) -> Outcome:
        result = self.inspect(frame)
        if not getattr(result, "ok", True):
            return Outcome(Verdict.ERROR, (("frame", frame.name), ("error", str(result.error).splitlines()[0])))
        verdict = getattr(result, "verdict", None)
        value = getattr(getattr(verdict, "verdict", verdict), "value", verdict)
        return Outcome(Verdict.parse(str(value)) if value is not None else Verdict.NONE, (("frame", frame.name),))

    def close(self) -> None:
        if self._frames is not None:
            self._frames.close()
            self._frames = None
