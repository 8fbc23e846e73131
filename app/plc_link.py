"""The window's link to the line's PLC: a LineStation whose triggers are answered by the next frame the window
inspects, the transports enabled in the settings or on the command line, the I/O dock, and every handshake
event in the journal with the trigger and frame it belongs to. (app/line_link.py is the moving line's
one-verdict-per-tag mode, a different thing.)

Nothing here exists unless a transport is enabled: a station that is not on a line shows no I/O dock.
Settings (station.ini, [line]): modbus=HOST:PORT, opcua=URL, opcua_user=NAME (password from
HANGTAG_OPCUA_PASSWORD), opcua_anonymous=true, mqtt=URL, recipe_dir=FOLDER, ack_timeout_s, queue_depth,
inspect_budget_s (how long a trigger waits for the next inspected frame before it is answered ERROR).
"""

from __future__ import annotations

import argparse
import threading
from pathlib import Path

from PySide6.QtCore import QObject, Qt, Signal, Slot
from PySide6.QtWidgets import QDockWidget

from app.widgets.io_dock import IoDock
from inference.cameras.specs import software_triggered
from inference.errors import HangtagError
from inference.line.breaker import Outbox
from inference.lending import detach
from inference.line.follow import NextResult, trigger_of
from inference.line.handshake import Config
from inference.line.jobs import RecipeFolder
from inference.line.journal import event_row, job_label
from inference.line.station import JobNotFound, LineError, LineStation, LogEntry
from inference.line.transports import LineOptions, open_transports
from inference.tracking.records import TagVerdict
from inference.tracking.triggered import verdict_of_frame


def add_line_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("line (PLC)", "answer a PLC's triggers; each overrides the [line] setting")
    group.add_argument("--modbus", metavar="HOST:PORT", help="serve the Modbus map here (e.g. 0.0.0.0:5020)")
    group.add_argument("--opcua", metavar="URL", help="serve OPC UA here (e.g. opc.tcp://0.0.0.0:4840/hangtag/)")
    group.add_argument("--opcua-user", metavar="NAME", help="OPC UA username; password from HANGTAG_OPCUA_PASSWORD")
    group.add_argument("--opcua-anonymous", action="store_true", default=None, help="allow anonymous OPC UA clients")
    group.add_argument("--mqtt", metavar="URL", help="publish results to this broker (mqtt://HOST:PORT/TOPIC/BASE)")
    group.add_argument("--recipe-dir", metavar="DIR", help="NN_name.toml recipes the PLC selects by job index NN")


def line_options(settings, args: argparse.Namespace | None = None) -> LineOptions:
    """The [line] settings, with what the command line gives taking precedence."""
    store = settings.store

    def text(key: str) -> str:
        value = store.value(f"line/{key}", "")
        return "" if value is None else str(value)

    def number(key: str, kind, default):
        try:
            return kind(text(key) or default)
        except ValueError:
            return default  # an unreadable stored value must not stop the station

    stored = LineOptions(modbus=text("modbus"), opcua=text("opcua"), opcua_user=text("opcua_user"),
                         opcua_anonymous=text("opcua_anonymous").lower() == "true", mqtt=text("mqtt"),
                         recipe_dir=text("recipe_dir"), ack_timeout_s=number("ack_timeout_s", float, 2.0),
                         queue_depth=number("queue_depth", int, 4),
                         inspect_budget_s=number("inspect_budget_s", float, 10.0))
    return stored.merged(vars(args)) if args is not None else stored


def headless_line_argv(args: argparse.Namespace, source: str) -> list[str]:
    """`hangtag-inspect line` arguments for a headless station on a line (settings and command line merged;
    the recipe, like the window's, from --recipe or the last one used), or [] when no transport is enabled.
    Without any recipe the station waits in Preoperational for the PLC to select a job."""
    from app.settings import StationSettings

    try:
        settings: StationSettings | None = StationSettings()
    except OSError:  # an unusable data folder: the command line alone; the station says so at start
        settings = None
    options = line_options(settings, args) if settings is not None else LineOptions().merged(vars(args))
    if not options.enabled:
        return []
    argv = ["line", "--source", source, "--model", str(args.model), "--ack-timeout", str(options.ack_timeout_s),
            "--queue-depth", str(options.queue_depth), "--inspect-budget", str(options.inspect_budget_s)]
    for flag, value in (("--modbus", options.modbus), ("--opcua", options.opcua), ("--opcua-user", options.opcua_user),
                        ("--mqtt", options.mqtt), ("--recipe-dir", options.recipe_dir),
                        ("--backend", args.backend), ("--recipe", args.recipe or (settings.recipe_path if settings is not None else ""))):
        if value:
            argv += [flag, str(value)]
    if options.opcua_anonymous:
        argv.append("--opcua-anonymous")
    if args.no_read:
        argv.append("--no-read")
    return argv


class _RecipeFence(QObject):
    """Lives on the inspection worker's thread. Its slot runs after every call queued there before it (the
    window's new recipe among them), so every frame that worker finishes after it is judged with that recipe."""

    def __init__(self) -> None:
        super().__init__()
        self._lock = threading.Lock()
        self._passed: dict[int, threading.Event] = {}

    def arm(self, token: int) -> threading.Event:
        with self._lock:
            self._passed = {token: threading.Event()}  # one job select at a time: an older one is over
            return self._passed[token]

    @Slot(int)
    def pass_(self, token: int) -> None:
        with self._lock:
            passed = self._passed.get(token)
        if passed is not None:
            passed.set()


class PlcLink(QObject):
    recipe_selected = Signal(str, int, str, object)  # the PLC's job: recipe file, fence token, job, recipe (GUI thread)
    _job_recipe = Signal(str, str, object)  # job, lot and recipe, at once to the inspection worker
    camera_trigger = Signal(int)  # a PLC trigger for a software-triggered camera, fired on the worker's thread
    job_changed = Signal(str, str, bool)  # the PLC's job, its lot and whether it set one (to the GUI thread)
    _fence = Signal(int)

    @classmethod
    def open(cls, window, args: argparse.Namespace | None = None) -> PlcLink | None:
        """The link when a transport is enabled in the settings or on the command line (`args`), else None."""
        options = line_options(window.settings, args)
        return cls(window, options) if options.enabled else None

    def __init__(self, window, options: LineOptions) -> None:
        super().__init__(window)
        self.window = window
        self.options = options
        self.folder = self._folder(options.recipe_dir)
        # a trigger waits this long for the window's next inspected frame, then it is answered ERROR
        self.next_result = NextResult(options.inspect_budget_s, fire=self._fire_camera, answered=self._answered)
        self.camera_trigger.connect(window.worker.trigger_camera)  # queued: the worker owns the camera
        self.station = LineStation(self.next_result, load_job=self._load_job,
                                   config=Config(queue_depth=options.queue_depth, ack_timeout_s=options.ack_timeout_s),
                                   inspect_budget_s=options.inspect_budget_s + 1.0)
        # every frame the worker finishes, handed over on the worker's thread (never waits on the GUI)
        window.worker.frame_done.connect(self._offer, Qt.ConnectionType.DirectConnection)
        self.recipe_selected.connect(self._apply_recipe)
        self.fence = _RecipeFence()
        self.fence.moveToThread(window.worker_thread)
        self._fence.connect(self.fence.pass_)  # queued behind the new recipe on the worker's thread
        self._job_recipe.connect(window.worker.set_job_recipe)  # queued: between two of the worker's frames
        self._fence_token = 0
        self._refused = ""  # why the window did not take the selected recipe
        self.job_changed.connect(self._show_job)
        self._shown_job: tuple[str, str] | None = None
        self.journal = Outbox("line-journal", self._journal)
        self.station.on_event(self.journal.put)
        self.station.on_event(self._follow_job)
        self.station.start(job=self._current_job())
        self.transports = open_transports(self.station, options, on_error=self._transport_failed)
        self.dock = QDockWidget("I/O", window)
        self.dock.setObjectName("dock_io")
        self.dock.setWidget(IoDock(self.station))
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        window.tabifyDockWidget(window.docks["text"], self.dock)
        window.docks["io"] = self.dock

    def close(self) -> None:
        for transport in reversed(self.transports):
            transport.close()
        self.next_result.close()
        self._refused = "the window is closing"
        self.fence.pass_(self._fence_token)  # a job select waiting on the worker gives up now, not in its budget
        self.station.close()
        self.journal.close()

    # -- the worker's thread ---------------------------------------------------------------------------
    def _offer(self, image, result) -> None:
        self.next_result.offer(result, detach(image))  # kept until a trigger takes it: not a lent camera buffer

    # -- the station's threads -------------------------------------------------------------------------
    def _fire_camera(self, trigger_id: int) -> bool:
        """A software-triggered camera is fired with the PLC's trigger id, and that frame answers it."""
        if not software_triggered(self.window.state.state.source):
            return False
        self.camera_trigger.emit(trigger_id)
        return True

    def _answered(self, trigger_id: int, result, image) -> None:
        """A trigger answered by a frame the window inspected anyway (a free-running source) is its item's one
        tag row, as a tracked tag is; a triggered camera's frame carries its id and the worker journals it."""
        if trigger_of(result) is None:
            self.journal.put(verdict_of_frame(result, image, trigger_id))

    def _load_job(self, index: int) -> str:
        """Returns (and the station says Ready with the new job) only once the inspection worker judges with the
        new recipe, so the first trigger after a completed job select is never answered under the old one;
        triggers meanwhile are refused with code TRIGGER_WHILE_LOADING."""
        if self.folder is None:
            raise JobNotFound(f"job {index}: no recipe folder is set", expected="[line] recipe_dir or --recipe-dir",
                              found="none", hint="name the recipes NN_name.toml, NN being the job index")
        from inference.reading import load_recipe

        path = self.folder.path(index)
        recipe = load_recipe(path)  # a recipe that does not load is refused here, with its reason, before the window
        self._fence_token += 1
        passed = self.fence.arm(self._fence_token)
        self._refused = ""
        name = str(getattr(recipe, "name", "") or path.stem)
        self.recipe_selected.emit(str(path), self._fence_token, job_label(index, name), recipe)
        # the worker takes the recipe between two frames: at most one inspection's wait
        if not passed.wait(self.options.inspect_budget_s + 5.0) or self._refused:
            raise LineError(f"job {index}: the window did not take recipe {path.name}",
                            expected="the recipe in use before the next trigger",
                            found=self._refused or f"no answer from the inspection worker in "
                                                   f"{self.options.inspect_budget_s + 5.0:g} s",
                            hint="see the window's errors; the previous recipe may still be in use: select the job again")
        return name

    def _follow_job(self, entry: LogEntry) -> None:
        """Under the station's lock: only compares and emits (queued to the GUI thread), never waits."""
        sig = self.station.signals()
        if entry.event not in ("JobLoaded", "SetLot") or not sig.job_index:
            return
        shown = (job_label(sig.job_index, sig.job_name), sig.lot)
        if shown != self._shown_job:
            self._shown_job = shown
            self.job_changed.emit(shown[0], sig.lot, bool(sig.lot))

    def _journal(self, entry: LogEntry | TagVerdict) -> None:
        recorder = getattr(self.window.records, "recorder", None)
        if recorder is None:
            return
        if isinstance(entry, TagVerdict):
            try:
                recorder.record_tag(entry)
            except Exception as exc:  # the operator must know this trigger's verdict is not in the journal
                self.window.worker.errored.emit(f"JOURNAL: trigger {entry.trigger_id} ({entry.verdict.value}) "
                                                f"was NOT recorded: {exc}")
            return
        kind, subject, detail = event_row(entry)  # as `hangtag-inspect line` journals them
        recorder.note_event(kind, subject, detail, at=entry.wall)

    # -- the GUI thread --------------------------------------------------------------------------------
    def _show_job(self, job: str, lot: str, plc_lot: bool) -> None:
        """The PLC's job (and its lot once it has sent one; until then the operator's) become the window's: the
        header shows them and the frames and tags journaled from now on carry them."""
        self.window.set_job(job, lot if plc_lot else self.window.job_lot[1])

    def _apply_recipe(self, path: str, token: int, job: str, recipe: object) -> None:
        before = self.window.recipe
        previous_job, lot = self.window.job_lot
        # the job's name and recipe reach the worker in one call: two calls could have a frame between them,
        # journaled under one job and judged by the other's recipe; the window's own calls then repeat them
        self._job_recipe.emit(job, lot, recipe)
        self.window.set_job(job, lot)
        self.window.load_recipe(Path(path))
        if self.window.recipe is before:  # it failed to load here: the window says why, the old one stays
            self._job_recipe.emit(previous_job, lot, before)
            self.window.set_job(previous_job, lot)
            self._refused = f"the window refused {path} (see its errors panel)"
            self.fence.pass_(token)  # wakes the waiting job select, which reports the refusal
            return
        self._fence.emit(token)  # behind the worker's set_recipe, queued a moment ago from this thread

    def _folder(self, recipe_dir: str) -> RecipeFolder | None:
        if not recipe_dir:
            return None
        try:
            return RecipeFolder(Path(recipe_dir))
        except HangtagError as exc:
            self.window._on_error(f"Line: the PLC cannot select jobs: {exc}")
            return None

    def _current_job(self) -> tuple[int, str]:
        """The job the window already has, as the PLC sees it: its index in the recipe folder, else 1."""
        path = self.window.recipe_path
        name = str(getattr(self.window.recipe, "name", "") or (path.stem if path else "no recipe"))
        if self.folder is not None and path is not None:
            for index, candidate in self.folder.table.items():
                if candidate.resolve() == Path(path).resolve():
                    return index, name
        return 1, name

    def _transport_failed(self, name: str, exc: HangtagError) -> None:
        self.station.set_link(name, f"not started: {str(exc).splitlines()[0]}")
        self.window._on_error(f"Line: {name} not started: {exc}")
