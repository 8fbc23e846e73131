"""A line station's journal rows, written the same way by the window and by `hangtag-inspect line`.

- Each trigger answered by an inspected frame is one frame row (its name ends `#trigger-ID`, as a triggered
  camera's frames do: `inference.line.follow.trigger_of` reads it back) and one tag row (the item's verdict,
  `trigger_id` set), both under the job and lot the trigger was accepted in, committed before the line hears the
  verdict. A trigger whose frame could not be inspected is a REVIEW tag row saying why: the item passed.
- Each handshake event is an event row whose subject names the trigger and the frame that answered it.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any, Callable

from inference.line.handshake import StartInspection
from inference.line.station import LogEntry
from inference.records.recorder import SessionKey


def job_label(index: int, name: str) -> str:
    """How the header and the journal name a PLC's job: its index as the PLC selects it, then its recipe."""
    return f"{index} · {name}" if name else str(index)


def event_row(entry: LogEntry) -> tuple[str, str, str]:
    """A handshake event as the journal's (kind, subject, detail)."""
    subject = f"trigger {entry.about}" + (f" frame {entry.frame}" if entry.frame else "")
    detail = f"{entry.state}; code {entry.code}" + (f"; {entry.detail}" if entry.detail else "")
    return f"line {entry.event}", subject, detail


def triggered_frame(frame: Any, trigger_id: int) -> Any:
    """The frame as the answer to `trigger_id`: its name carries the id (a triggered camera's already does)."""
    if getattr(frame, "trigger_id", None) == trigger_id and str(frame.name).endswith(f"#trigger-{trigger_id}"):
        return frame
    return dataclasses.replace(frame, name=f"{frame.name}#trigger-{trigger_id}", trigger_id=trigger_id)


class TriggerJournal:
    """`answered` / `failed` run on the station's worker thread, inside the inspection, so a trigger's rows are
    committed before its result is queued for the line; `note` takes every handshake event (give it an Outbox's
    `put`'s thread: it writes). `records` is an `inference.records.station.StationRecords`; `session` makes the
    session key of a trigger (the job and lot are the trigger's own: `StartInspection.job_name`, `.lot`)."""

    def __init__(self, records: Any, session: Callable[[StartInspection], SessionKey]) -> None:
        self.records = records
        self.session = session

    def answered(self, start: StartInspection, result: Any, image: Any) -> str:
        """The trigger's frame row and its item's tag row; '' or the mark of what was not recorded."""
        from inference.tracking.triggered import verdict_of_frame

        self.records.use(self.session(start))
        mark = self.records.frame(result, image)
        return self.records.tag(verdict_of_frame(result, image, start.trigger_id)) or mark

    def failed(self, start: StartInspection, message: str) -> str:
        """No frame answered the trigger (the camera delivered none, the source broke): the item's REVIEW row."""
        from inference.detections import Detections
        from inference.reading.verdict import FrameVerdict, Verdict
        from inference.tracking.triggered import NOT_INSPECTED, trigger_verdict

        self.records.use(self.session(start))
        verdict = FrameVerdict(Verdict.REVIEW, (f"{NOT_INSPECTED}: {message}",))
        return self.records.tag(trigger_verdict(start.trigger_id, 0, None, Detections.empty(), (), verdict,
                                                latency_s=max(0.0, time.monotonic() - start.at)))

    @property
    def not_recorded(self) -> int:
        return self.records.not_recorded

    def close(self) -> None:
        """Ends the session and closes the journal: after the station and its event outbox are closed."""
        self.records.close()

    def note(self, entry: LogEntry) -> None:
        kind, subject, detail = event_row(entry)
        self.records.note_event(kind, subject, detail, at=entry.wall)
