"""Job index → recipe, and a trigger → Outcome inspection over a frame source: what a headless line station runs.

A recipe folder's job index is the number its file name starts with (`01_polo.toml` is job 1,
`12-shirt.toml` job 12), so adding a recipe never renumbers the others. Files without a leading
number are not selectable from the line.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any, Callable

from inference.line.handshake import StartInspection, Verdict
from inference.line.station import JobNotFound, LineError, Outcome

_INDEX = re.compile(r"^(\d+)[_\-. ]")


def job_table(folder: Path) -> dict[int, Path]:
    if not folder.is_dir():
        raise LineError("recipe folder not found", expected="a folder of NN_name.toml recipes", found=str(folder),
                        hint="the job index is the number a file name starts with: 01_polo.toml is job 1")
    table: dict[int, Path] = {}
    for path in sorted(folder.glob("*.toml")):
        match = _INDEX.match(path.name)
        if not match:
            continue
        index = int(match.group(1))
        if index in table:
            raise LineError(f"two recipes claim job {index}", expected="one recipe file per job number",
                            found=f"{table[index].name} and {path.name}", hint="rename one of them")
        table[index] = path
    return table


class RecipeFolder:
    """Loads a job's recipe on demand (on the station's worker thread, between inspections)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.table = job_table(folder)

    def path(self, index: int) -> Path:
        self.table = job_table(self.folder)  # re-read: recipes may be added while the line runs
        if index not in self.table:
            known = ", ".join(str(i) for i in sorted(self.table)) or "none"
            raise JobNotFound(f"no recipe for job {index} in {self.folder}", expected=f"one of: {known}",
                              found=str(index), hint="name the file NN_name.toml with NN the job index")
        return self.table[index]

    def load(self, index: int) -> Any:
        from inference.reading import load_recipe

        return load_recipe(self.path(index))


def job_loader(folder: RecipeFolder | None, inspector: Any | None) -> Callable[[int], str]:
    """The station's `load_job` for a headless station: loads job n's recipe into `inspector` on the station's
    worker thread, the thread that runs every inspection, so the station is Ready with the new job only when
    the next inspection already judges with it (triggers meanwhile are refused: code TRIGGER_WHILE_LOADING)."""

    def load_job(index: int) -> str:
        if folder is None:
            raise JobNotFound(f"job {index}: this station was started without --recipe-dir",
                              expected="--recipe-dir with NN_name.toml recipes", found="none",
                              hint="name the recipes NN_name.toml, NN being the job index")
        recipe = folder.load(index)
        if inspector is not None:
            inspector.recipe = recipe
        return getattr(recipe, "name", "") or folder.table[index].stem

    return load_job


def verdict_of(result: Any) -> Verdict:
    if not getattr(result, "ok", True):
        return Verdict.ERROR
    value = getattr(result, "verdict", None)
    if value is None:
        return Verdict.REVIEW  # no recipe judged it: a person has to look
    value = getattr(value, "verdict", value)
    return Verdict.parse(str(getattr(value, "value", value)))


class FrameInspection:
    """Answers a trigger by inspecting the next frame of a source (a folder, video or camera); a folder or
    video starts over at its end, so a commissioning run can trigger forever. The frame's name carries the
    trigger's id (`name#trigger-ID`). With `journal` (an `inference.line.journal.TriggerJournal`) each trigger's
    rows are committed before its result is handed to the line."""

    def __init__(self, inspector: Any, source_spec: str, journal: Any = None) -> None:
        self.inspector = inspector
        self.source_spec = source_spec
        self.journal = journal
        self._frames = None
        self._source = None
        self._grabber = None
        self._triggered = None  # a software-triggered camera: each PLC trigger fires it (inference.cameras.line)
        self._lock = threading.Lock()

    def __call__(self, start: StartInspection) -> Outcome:
        from inference.line.journal import triggered_frame
        from inference.sources import Frame

        try:
            with self._lock:
                item = self._next(start.trigger_id)
            if not isinstance(item, Frame):
                raise LineError(f"frame for trigger {start.trigger_id} could not be read", found=item.message)
            item = triggered_frame(item, start.trigger_id)
            result = self.inspector.inspect(item)
        except Exception as exc:  # the line hears ERROR; the journal keeps the item as REVIEW, with the reason
            if self.journal is not None:
                self.journal.failed(start, str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
            raise
        if self.journal is not None:
            self.journal.answered(start, result, item.image)
        reasons = "; ".join(getattr(result.verdict, "reasons", ()) or ())
        fields = (("frame", item.name), ("tags", str(len(result.detections))),
                  ("inspect_ms", f"{result.timings.total_ms:.1f}"))
        if reasons:
            fields += (("reasons", reasons[:200]),)
        return Outcome(verdict_of(result), fields)

    def _next(self, trigger_id: int):
        from inference.live import LatestFrameGrabber
        from inference.sources import Waiting, open_source

        if self._source is None:
            self._source = open_source(self.source_spec)
            if getattr(self._source, "software_triggered", False):  # the PLC's trigger fires the camera
                from inference.cameras.line import TriggeredInspection

                self._triggered = TriggeredInspection(self._source, self.inspector.inspect)
            elif self._source.live:  # a camera: the newest frame, not the oldest one buffered
                self._grabber = LatestFrameGrabber(self._source)
        if self._triggered is not None:
            return self._triggered.frame_for(trigger_id)  # the frame carrying this trigger's id, never an older one
        if self._grabber is not None:
            item = self._grabber.take(timeout_s=2.0)
            if item is None:
                raise LineError("the camera delivered no frame in 2 s", found=self._grabber.waiting_reason or
                                "nothing", expected="a live camera", hint="check the camera and its trigger mode")
            return item
        for _attempt in range(2):
            if self._source is None:
                self._source = open_source(self.source_spec)
            if self._frames is None:
                self._frames = iter(self._source.frames())
            for item in self._frames:
                if not isinstance(item, Waiting):
                    return item
            self.close()  # at the end: start over
        raise LineError("the source has no frames", expected="an image, a folder of images, a video or a camera",
                        found=self.source_spec)

    def close(self) -> None:
        if self._triggered is not None:
            self._triggered.close()
            self._triggered = None
        if self._grabber is not None:
            self._grabber.close()  # closes its source too
            self._grabber = None
        elif self._source is not None:
            self._source.close()
        self._source = None
        self._frames = None
