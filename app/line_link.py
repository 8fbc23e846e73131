"""The window's link to a moving line: one verdict per physical tag instead of one per frame.

Line → "One verdict per tag (moving line)" wraps each engine the window loads in a PerTagInspector: the worker
then detects and tracks every frame it takes, the line's own thread reads each tag once at its best shot, and
each finished tag is journaled (one tag row, its crop archived) on the worker's thread before the window shows
it: the banner says the last finished tag with its id, the strip the last tags in their verdict colours (kept
across Stop and Start; emptied by a new job or Line → Clear the strip), and an NG tag (or NG and REVIEW, Line →
"Hold on screen until acknowledged") stays on screen until someone acknowledges it, with an optional alarm.
The Results dock then lists finished tags (verdict, fields read, the frame the verdict rests on)
instead of tracked frames; the frames stay in the journal. Settings live under line/ in the station's settings.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QObject, Signal, Slot
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QDialog, QMenu, QStackedWidget

from app.widgets.belt_speed import BeltSpeedDialog, belt_speed_text
from app.widgets.table_note import TableNote
from app.widgets.tag_results import ENGINEER_COLUMNS, TagResultsModel, tag_table
from app.widgets.tag_strip import ACKNOWLEDGE_KEY, HoldBar, TagStrip
from app.words import counted
from app.worker import WHEN_STOPPED
from inference.tracking import LineSettings, TrackerSettings
from inference.tracking.recent import HOLD_CHOICES, RecentTag, RecentTags, hold_choice
from inference.tracking.station import PerTagInspector

STRIP_SIZE = 12
TAGS_NOTE = "No tag finished yet: a tag's verdict is listed here once it leaves the view"
TRIGGERED_NOTE = "No item judged yet: each item's verdict is listed here as it is judged"
HOLD_NAMES = {"NG": "NG tags", "NG+REVIEW": "NG and REVIEW tags", "off": "Nothing (off)"}


def job_of(recipe) -> tuple[str, str] | None:
    """What names a job on the strip: its recipe's file and name (the same recipe loaded again is the same job)."""
    if recipe is None:
        return None
    return (str(getattr(recipe, "path", "") or ""), str(getattr(recipe, "name", "") or ""))


def stopped_text(verdicts: list) -> str:
    """The status bar after Stop on a moving line: what the stop judged, and that the belt is not watched now."""
    if not verdicts:
        judged = "no tag was in view"
    else:
        by_verdict = {}
        for verdict in verdicts:
            by_verdict[verdict.verdict.value] = by_verdict.get(verdict.verdict.value, 0) + 1
        judged = (f"{counted(len(verdicts), 'tag')} in view judged now ("
                  + ", ".join(f"{n} {v}" for v, n in by_verdict.items()) + ")")
    return f"Stopped: {judged}; tags passing while stopped get no verdict"


def paused_text(in_view: int) -> str:
    """The status bar after Stop on a recording: its tags in view wait, and why that loses none."""
    if not in_view:
        return "Stopped: no tag was in view"
    return (f"Stopped: {counted(in_view, 'tag')} in view {'is' if in_view == 1 else 'are'} judged as "
            f"{'it leaves' if in_view == 1 else 'they leave'} after Start (the recording goes on where it stopped)")


class _Finisher(QObject):
    """Lives on the worker's thread: a source that ended finishes the tags still in view there."""

    def __init__(self, link: LineLink) -> None:
        super().__init__()
        self.link = link

    @Slot()
    def finish(self) -> None:
        inspector = self.link.inspector
        if inspector is not None:
            inspector.finish()


def trigger_mode(spec: str) -> str:
    """"software" or "hardware" for a camera that sends a frame per trigger, "folder" for a watched folder (an image
    per item), else "" (frames flow and are tracked)."""
    from inference.cameras.specs import is_camera_spec, settings_of
    from inference.errors import HangtagError

    if spec.startswith("watch:"):  # each image the camera software writes is one item
        return "folder"
    if not is_camera_spec(spec):
        return ""
    try:
        mode = settings_of(spec).trigger.mode
    except HangtagError:  # a spec that does not open triggers nothing
        return ""
    return mode if mode in ("software", "hardware") else ""


def line_banner_note(state) -> str:
    """The banner before a moving line's first tag: 'waiting for the first tag to leave the view' stood over a
    stopped station, as if tags were being tracked. A triggered camera's items are judged as they come, not when
    they leave: the banner said 'the first tag is judged when it leaves the view' over one."""
    from app.station_state import OPEN, RUNNING

    trigger = trigger_mode(state.source)
    if trigger == "software":
        if state.run == RUNNING:
            return "one verdict per trigger: waiting for a trigger (→, the trigger folder or the line)"
        return "one verdict per trigger: → fires the camera once; Start (Space) answers each trigger as it comes"
    if trigger == "folder":
        folder = state.source[len("watch:"):]
        if state.run == RUNNING:
            return f"one verdict per image: waiting for the next image in {folder}"
        return "one verdict per image: press Start (Space); each image written to the folder is judged as it comes"
    if trigger == "hardware":
        if state.run == RUNNING:
            return "one verdict per trigger: waiting for the camera's trigger input"
        return "one verdict per trigger: press Start (Space), then each trigger of the camera's input is judged"
    if state.run == RUNNING:
        return "one verdict per tag: waiting for the first tag to leave the view"
    start = "press Start (Space)" if state.source_status == OPEN else "open a source, then press Start (Space)"
    return f"one verdict per tag: {start}; the first tag is judged when it leaves the view"


class LineLink(QObject):
    tag_finished = Signal(object)  # RecentTag, emitted on the worker's thread, shown on the window's
    _finish = Signal()

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        settings = window.settings
        self.per_tag = settings.get("line/per_tag", "0") == "1"
        self.hold_setting = hold_choice(settings.get("line/hold"), settings.get("line/hold_ng"))
        self.model = RecentTags(STRIP_SIZE, hold=HOLD_CHOICES[self.hold_setting])
        self.strip = TagStrip(self.model)
        self.hold = HoldBar(self.model, alarm=settings.get("line/alarm", "0") == "1")
        layout = window.centralWidget().layout()
        below_banner = layout.indexOf(window.banner) + 1
        layout.insertWidget(below_banner, self.hold)
        layout.insertWidget(below_banner + 1, self.strip)
        self.strip.setVisible(self.per_tag)
        # the Results dock: one row per frame, or per finished tag in this mode (the frames stay in the journal)
        self.tag_rows = TagResultsModel(self)
        self.tag_table = tag_table(self.tag_rows)
        self.tag_table.clicked.connect(lambda index: self.show_tag_at(index.row()))
        self.tag_note = TableNote(self.tag_table)  # the empty tag list said nothing
        self.tag_note.say(TAGS_NOTE)
        self.results_stack = QStackedWidget()
        self.results_stack.addWidget(window.table)
        self.results_stack.addWidget(self.tag_table)
        window.docks["results"].setWidget(self.results_stack)
        self._show_rows()
        window.state.connect(self._render_mode)  # renders at once
        self.inspector: PerTagInspector | None = None
        self.tag_finished.connect(self._on_tag)
        self._finisher = _Finisher(self)
        self._finisher.moveToThread(window.worker_thread)
        self._finish.connect(self._finisher.finish)
        window.worker.source_finished.connect(self._finish)
        window.worker.trigger_judged.connect(self._on_trigger)  # a triggered item: journaled by the worker
        window.worker.line_finished.connect(self._on_line_finished)
        window.worker.line_paused.connect(self._on_line_paused)  # a method: a lambda would run on the worker's thread
        self._build_menu()

    def _build_menu(self) -> None:
        w = self.window
        menu = QMenu("&Line", w)
        w.menuBar().insertMenu(w.mode_menu.menuAction(), menu)
        self.per_tag_action = QAction("One verdict per tag (moving line)", w, checkable=True, checked=self.per_tag,
                                      triggered=self.set_per_tag)
        self.hold_menu = QMenu("Hold on screen until acknowledged", w)
        self.hold_group = QActionGroup(w)  # exclusive: one choice at a time
        self.hold_actions = {}
        for value, name in HOLD_NAMES.items():
            action = QAction(name, w, checkable=True, checked=value == self.hold_setting,
                             triggered=lambda _=False, value=value: self.set_hold(value))
            self.hold_group.addAction(action)
            self.hold_menu.addAction(action)
            self.hold_actions[value] = action
        self.hold_action = self.hold_menu.menuAction()
        self.alarm_action = QAction("Alarm when a tag is held (flash and beep)", w, checkable=True,
                                    checked=self.hold.alarm, triggered=self.set_alarm)
        # a key, so a gloved operator need not reach for the mouse; a window action, so it works with the menu shut
        self.ack_action = QAction("Acknowledge held tags", w, shortcut=QKeySequence(ACKNOWLEDGE_KEY),
                                  triggered=lambda: self.model.acknowledge())
        self.clear_action = QAction("Clear the strip of last tags", w, triggered=self.clear_strip)
        w.addAction(self.ack_action)
        self.model.on_change(self._enable_ack)
        self.model.on_acknowledged(self._journal_acknowledged)
        self._enable_ack()
        self.belt_action = QAction(w, triggered=self.ask_belt_speed)
        self._name_belt_action()
        for action in (self.per_tag_action, self.hold_action, self.alarm_action, self.ack_action, self.clear_action,
                       self.belt_action):
            menu.addAction(action)
        self.menu = menu
        menu.aboutToShow.connect(self._menu_for_mode)

    def _menu_for_mode(self) -> None:
        """An operator acknowledges held tags and clears the strip; switching the mode, what is held, the alarm and
        the belt are an engineer's."""
        engineer = getattr(getattr(self.window, "modes", None), "mode", "engineer") == "engineer"
        for action in (self.per_tag_action, self.hold_action, self.alarm_action, self.belt_action):
            action.setVisible(engineer)

    def _journal_acknowledged(self, released: tuple[RecentTag, ...]) -> None:
        """Each held tag the operator released, into the journal under its tag's session (events.json of its
        report): a held tag's acknowledgement left no trace, so nobody could say when a reject was seen."""
        journal = self.window.records.journal
        mode = getattr(getattr(self.window, "modes", None), "mode", "")
        for tag in released:
            try:
                journal.record_event("acknowledged", f"tag {tag.label}", f"{tag.verdict}: {tag.reason or 'rejected'}; "
                                     f"acknowledged in {mode or 'the station'} mode", session_id=tag.session_id)
            except Exception as exc:  # said: the acknowledgement itself stands
                self.window._on_error(f"JOURNAL: the acknowledgement of {tag.verdict} tag {tag.label} was NOT "
                                      f"recorded: {exc}")

    def _enable_ack(self) -> None:
        """Greyed while no tag waits (not a silent no-op); kept in step with the model, not only when the menu
        opens: a disabled action's key does nothing, and the key was dead after the menu had been opened once."""
        self.ack_action.setEnabled(bool(self.model.held))

    # -- settings -------------------------------------------------------------------------------------
    def set_per_tag(self, on: bool) -> None:
        """Takes effect with the next engine: the window loads one now (the running one goes on until then)."""
        self.per_tag = bool(on)
        self.window.settings.set("line/per_tag", "1" if on else "0")
        self.strip.setVisible(self.per_tag)
        self.model.clear()
        self._show_rows()
        self.window.request_engine(self.window.backend_name, self.window.precision)

    def set_hold(self, value: str) -> None:
        """`value` one of HOLD_CHOICES' keys: which verdicts stay on screen until acknowledged, kept in the settings."""
        if value not in HOLD_CHOICES:
            raise ValueError(f"hold: expected one of {', '.join(HOLD_CHOICES)}, found {value!r}")
        self.hold_setting = value
        self.window.settings.set("line/hold", value)
        self.hold_actions[value].setChecked(True)
        self.model.set_hold(HOLD_CHOICES[value])

    def clear_strip(self) -> None:
        """Line → Clear the strip: the operator starts the strip afresh (held tags stay, the journal keeps all)."""
        self.model.clear()

    @property
    def belt_px_per_frame(self) -> float:
        try:
            return float(self.window.settings.get("line/belt_px_per_frame", "0") or 0)
        except ValueError:
            return 0.0

    def _name_belt_action(self) -> None:
        """The menu says the speed in use, with its unit, so nobody opens the dialog to learn it."""
        self.belt_action.setText(f"Belt speed ({belt_speed_text(self.belt_px_per_frame)})…")

    def learned_belt_px_per_frame(self) -> float | None:
        """The x speed the running line learned, when the belt runs along x (the setting's axis) and moves at all."""
        learned = self.inspector.learned_belt if self.inspector is not None else None
        if learned is None or abs(learned[0]) < max(1.0, abs(learned[1])):
            return None
        return learned[0]

    def ask_belt_speed(self) -> None:
        dialog = BeltSpeedDialog(self.belt_px_per_frame, self.window, learned=self.learned_belt_px_per_frame())
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.set_belt_speed(dialog.px_per_frame())

    def set_belt_speed(self, px_per_frame: float) -> None:
        """Takes effect with the next engine, which the window loads now (as switching the mode does)."""
        self.window.settings.set("line/belt_px_per_frame", f"{px_per_frame:g}")
        self._name_belt_action()
        if self.per_tag:
            self.window.request_engine(self.window.backend_name, self.window.precision)

    def set_alarm(self, on: bool) -> None:
        self.window.settings.set("line/alarm", "1" if on else "0")
        self.hold.alarm = bool(on)

    # -- engines and tags -----------------------------------------------------------------------------
    def wrap(self, inspector):
        """The engine the worker gets: per tag when the line mode is on, else the inspector as it is."""
        if not self.per_tag:
            was_per_tag, self.inspector = self.inspector is not None, None
            if was_per_tag:  # the banner kept "waiting for the first tag" (or the last tag) under per-frame verdicts
                self._banner_per_frame()
            return inspector
        if inspector.reader is None:  # said, not silently nothing: without reading no tag gets a verdict
            self.window._on_error("One verdict per tag needs reading: tick 'Read tags' on the source bar to judge each tag")
        belt = self.belt_px_per_frame
        tracker = TrackerSettings(belt_px_per_frame=(belt, 0.0) if belt else None)
        # another engine goes on numbering the tags where the last one stopped: one "#N" per tag in Results
        first = self.inspector.next_tag_id if self.inspector is not None else 1
        self.inspector = PerTagInspector(inspector, LineSettings(tracker=tracker), first_tag_id=first)
        self.inspector.listeners.append(lambda verdict, line=self.inspector: self._journal_and_show(verdict, line))
        if self.model.last is None:  # else the banner would go on showing the last per-frame verdict
            self.window.banner.show_verdict("—", [line_banner_note(self.window.state.state)])
        return self.inspector

    def _banner_per_frame(self) -> None:
        window = self.window
        if window.current is not None and window.current.ok:
            window._rejudge_on_screen()  # the frame on screen's own verdict
        else:
            window.banner.show_verdict("—", ["one verdict per frame: waiting for the next frame"])

    def _journal_and_show(self, verdict, inspector: PerTagInspector | None = None) -> None:
        """On the worker's thread, or on the reading thread where a leaving tag's verdict waited for its read (the
        station calls its listeners one at a time, apart from its detection step): journal the tag row (before it is
        shown), then hand it to the window through a queued signal."""
        tag = RecentTag.of(verdict)
        if inspector is not None and tag.trigger_id is None:  # read here, on the thread that starts lines
            # a new recipe finishes the old job's tags before it takes over: inspector.recipe is still theirs
            tag = replace(tag, line=(id(inspector), inspector.lines_started), job=job_of(inspector.recipe))
        recorder = self.window.records.recorder
        try:  # the worker recorded this run's frames first, so the session is declared
            recorder.record_tag(verdict)
        except Exception as exc:  # the operator must know this tag's verdict is not in the journal
            self.window.worker.errored.emit(f"JOURNAL: tag {tag.label} ({tag.verdict}) was NOT recorded: {exc}")
        self.tag_finished.emit(replace(tag, session_id=recorder.session_id))

    def _on_line_finished(self, verdicts: list, when: str) -> None:
        if when == WHEN_STOPPED:  # a source's end or change says so itself, right after
            self.window.statusBar().showMessage(stopped_text(verdicts), 30000)

    def _on_line_paused(self, in_view: int) -> None:
        self.window.statusBar().showMessage(paused_text(in_view), 30000)

    def _on_trigger(self, verdict) -> None:
        if self.shows_tags:  # per frame, the banner already shows the triggered frame's verdict
            self._on_tag(replace(RecentTag.of(verdict), session_id=self.window.records.recorder.session_id,
                                 job=job_of(self.window.recipe)))

    def _on_tag(self, tag: RecentTag) -> None:
        last = self.model.last
        if None not in (tag.job, getattr(last, "job", None)) and tag.job != last.job:  # a new job starts an empty
            # strip. Not each new line: every Stop ends one, and the strip emptied at each Stop/Start lost the tags an
            # operator had just seen (ids go on from line to line, so tags of two lines never share a "#N")
            self.model.clear()
        self.model.add(tag)
        follow = self.tag_table.currentIndex().row() in (-1, len(self.tag_rows.tags) - 1)
        self.tag_rows.append(tag)
        if follow:
            self.tag_table.scrollToBottom()
        if self.per_tag:  # the tags in view when the mode was left finish after it: the banner is the frame's again
            self.window.banner.show_tag(tag.label, tag.verdict, [tag.reason] if tag.reason else [])
            if self.window.follow_live:  # not over a row the engineer clicked
                self.window.text_panel.show_tag(tag)

    # -- the Results dock -----------------------------------------------------------------------------
    def _show_rows(self) -> None:
        self.results_stack.setCurrentWidget(self.tag_table if self.per_tag else self.window.table)

    def _render_mode(self, state, changed: frozenset = frozenset({"mode"})) -> None:
        if "source" in changed:
            self.tag_note.say(TRIGGERED_NOTE if trigger_mode(state.source) else TAGS_NOTE)
        if "mode" not in changed:
            return
        for column in ENGINEER_COLUMNS:
            self.tag_table.setColumnHidden(column, state.mode != "engineer")

    def show_tag_at(self, row: int) -> None:
        """A tag row clicked: the tag as it was read (its crop) in the view and its verdict on the banner; the
        newest row goes back to following the line."""
        if not 0 <= row < len(self.tag_rows.tags):
            return
        tag = self.tag_rows.tags[row]
        w = self.window
        w.follow_live = row == len(self.tag_rows.tags) - 1
        if tag.crop is not None:
            w.view.show_frame(tag.crop, None)
        else:
            w.view.show_message(f"Tag {tag.label}: " + ("no image: it passed unread" if tag.reads == 0 else
                                                        "its image is in the journal's archive (older tags)"))
        # the strip spoke of the live frame left behind ("no hangtag found on this frame") under the tag shown
        w.crops.show_crops(None, None, note=f"Tag {tag.label} as it was read, above" if tag.crop is not None else
                           f"Tag {tag.label}: no crop")
        w.banner.show_tag(tag.label, tag.verdict, list(tag.reasons))
        w.text_panel.show_tag(tag)  # its fields as read, beside the crop (the Tag text spoke of the live frame)

    @property
    def shows_tags(self) -> bool:
        """The banner shows the last finished tag, not each frame (the window asks before painting a frame's)."""
        return self.inspector is not None
