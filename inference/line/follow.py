"""A trigger answered by an inspection that runs anyway: the window inspects its source continuously, and a
PLC's trigger is answered with the first frame result that arrives after it.

`NextResult` is the LineStation's inspection function on the station's worker thread; whoever runs the
inspection (the window's worker, through the GUI thread) hands it every result with `offer`. A trigger that
sees no result within `wait_s` (the source stopped, no engine yet) is answered ERROR with the reason, so
the PLC is never left waiting.
"""

from __future__ import annotations

import re
import threading
import time
from typing import Any, Callable

from inference.line.handshake import StartInspection
from inference.line.jobs import verdict_of
from inference.line.station import LineError, Outcome

TRIGGERED_KEPT = 16  # results of triggered frames kept for the trigger that asked for them
_TRIGGERED = re.compile(r"#trigger-(\d+)$")


class NextResult:
    """`clock` must be the LineStation's (time.monotonic by default): a result counts for a trigger when it
    was offered after the trigger was accepted, not after the station's worker got round to asking."""

    def __init__(self, wait_s: float = 5.0, clock: Callable[[], float] = time.monotonic, *,
                 fire: Callable[[int], bool] | None = None,
                 answered: Callable[[int, Any, Any], None] | None = None) -> None:
        """`fire(trigger_id)`: fires a software-triggered camera with the trigger's id and says whether it did;
        the trigger is then answered by the frame carrying that id (`…#trigger-ID`), never by another.
        `answered(trigger_id, result, image)`: told of each trigger's result and the image offered with it (on
        the station's worker thread, before the line hears the verdict), e.g. to journal the trigger's item."""
        self.wait_s = wait_s
        self._clock = clock
        self.fire = fire
        self.answered = answered
        self._cond = threading.Condition()
        self._offered_at = float("-inf")
        self._latest: tuple[Any, Any] = (None, None)  # (result, image)
        self._by_trigger: dict[int, tuple[Any, Any]] = {}  # the last few triggered frames' (result, image), by id
        self._closed = False

    def offer(self, result: Any, image: Any = None) -> None:
        """Any thread; never blocks on the line. `image`: the frame's pixels, kept only for `answered` (the
        caller's own: a lent camera buffer must be detached first)."""
        with self._cond:
            self._offered_at = self._clock()
            self._latest = (result, image)
            trigger_id = trigger_of(result)
            if trigger_id is not None:
                self._by_trigger[trigger_id] = (result, image)
                while len(self._by_trigger) > TRIGGERED_KEPT:
                    del self._by_trigger[next(iter(self._by_trigger))]
            self._cond.notify_all()

    def close(self) -> None:
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def __call__(self, start: StartInspection) -> Outcome:
        fired = self.fire is not None and self.fire(start.trigger_id)
        with self._cond:
            if fired:
                fresh = lambda: start.trigger_id in self._by_trigger or self._closed  # noqa: E731
            else:
                fresh = lambda: self._offered_at > start.at or self._closed  # noqa: E731
            if not self._cond.wait_for(fresh, self.wait_s) or self._closed:
                raise LineError(f"no frame inspected for trigger {start.trigger_id}",
                                expected=f"an inspected frame within {self.wait_s:g} s of the trigger",
                                found="the station closed" if self._closed else "none",
                                hint="start the source (Start) and check the camera; the PLC got verdict ERROR")
            result, image = self._by_trigger.pop(start.trigger_id) if fired else self._latest
        if self.answered is not None:
            self.answered(start.trigger_id, result, image)
        return outcome_of(result)


def trigger_of(result: Any) -> int | None:
    """The trigger id a triggered camera's frame carries in its name (`aravis-GV01#trigger-17`), or None."""
    match = _TRIGGERED.search(getattr(result, "source_name", "") or "")
    return int(match.group(1)) if match else None


def outcome_of(result: Any) -> Outcome:
    """A frame result as the line sees it: the verdict and the frame it rests on."""
    fields = [("frame", _frame_name(result)), ("tags", str(len(getattr(result, "detections", ()) or ())))]
    reasons = "; ".join(getattr(getattr(result, "verdict", None), "reasons", ()) or ())
    if reasons:
        fields.append(("reasons", reasons[:200]))
    error = getattr(result, "error", None)
    if error:
        fields.append(("error", error.splitlines()[0][:200]))
    return Outcome(verdict_of(result), tuple(fields))


def _frame_name(result: Any) -> str:
    name = getattr(result, "source_name", "") or ""
    index = getattr(result, "index", None)
    return f"{index}:{name}" if index is not None and name else (name or str(index))
