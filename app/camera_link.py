"""The window's link to an industrial camera's settings: a Camera… button on the source bar's first row (which
only engineer mode shows), the dialog fed with what the camera reports back, and each job's camera settings
kept in the station settings and applied again when that job's recipe is loaded.

A job is its recipe here (the line selects a job by its recipe); without a recipe the settings are kept
under "no recipe"."""

from __future__ import annotations

import json

from PySide6.QtCore import QObject, QTimer, Slot
from PySide6.QtWidgets import QPushButton

from app.modes import ENGINEER
from app.station_state import StationState
from app.widgets.camera_settings import CameraSettingsDialog
from inference.cameras.settings import CameraSettings, Readback
from inference.cameras.specs import camera_key, is_camera_spec, settings_of, with_settings
from inference.errors import HangtagError

SAVED_KEY = "camera/per_job"  # JSON: {recipe path ("" without one): {"genicam:SERIAL": "setting=value&…"}}


class CameraSettingsLink(QObject):
    def __init__(self, window) -> None:
        super().__init__(window)  # a QObject of the GUI thread: the worker's signals arrive queued
        self.window = window
        self.spec = ""  # the camera spec last opened, and what its camera reported back
        self.readback: Readback | None = None
        self.dialog: CameraSettingsDialog | None = None
        self.dialog_spec = ""
        bar = window.source_bar
        self.button = QPushButton("Camera…")
        self.button.setToolTip("Exposure, gain, pixel format, ROI, frame rate and trigger of this camera")
        row = bar.open_row.layout()
        row.insertWidget(row.indexOf(bar.open_button), self.button)
        self.button.clicked.connect(self.open_dialog)
        bar.kind.currentIndexChanged.connect(self._show_button)
        bar.path.textChanged.connect(self._show_button)
        window.worker.camera_read_back.connect(self._on_read_back)
        window.worker.source_failed.connect(self._on_failed)
        window.state.connect(self._on_state)
        self._show_button()

    @Slot()
    def _show_button(self) -> None:
        self.button.setVisible(is_camera_spec(self.window.source_bar.spec()))

    # -- the dialog ------------------------------------------------------------------------------------------
    def open_dialog(self) -> CameraSettingsDialog | None:
        window = self.window
        spec = window.source_bar.spec()
        if not is_camera_spec(spec) or window.modes.mode != ENGINEER:
            return None
        try:
            settings = settings_of(spec)
        except HangtagError as exc:
            window.errors_panel.show_error("source", f"Camera settings not understood: {spec}", exc)
            return None
        if self.dialog is not None:
            self.dialog.close()
        readback = self.readback if camera_key(self.spec) == camera_key(spec) else None
        self.dialog = CameraSettingsDialog(camera_key(spec), settings, readback, window)
        self.dialog_spec = spec  # the camera (and producer) the dialog's settings are applied to
        self.dialog.apply_requested.connect(self._apply)
        self.dialog.show()
        return self.dialog

    @Slot(object)
    def _apply(self, settings: CameraSettings) -> None:
        spec = with_settings(self.dialog_spec, settings)
        self.save(self.window.recipe_path, spec)
        self._open(spec)

    def _open(self, spec: str) -> None:
        self.spec = spec
        self.window.source_bar.set_spec(spec)
        self.window.open_source(spec)

    @Slot(str, object)
    def _on_read_back(self, spec: str, readback: Readback) -> None:
        self.spec, self.readback = spec, readback
        if self.dialog is not None and camera_key(spec) == camera_key(self.dialog_spec):
            self.dialog_spec = spec
            self.dialog.show_settings(settings_of(spec))
            self.dialog.show_readback(readback)

    @Slot(str, str)
    def _on_failed(self, spec: str, message: str) -> None:
        if is_camera_spec(spec) and camera_key(spec) == camera_key(self.spec):
            self.readback = None
            if self.dialog is not None:
                self.dialog.show_readback(None)
                self.dialog.notes.setText(f"The camera did not open: {message.splitlines()[0]}")

    # -- per job ---------------------------------------------------------------------------------------------
    def _saved(self) -> dict[str, dict[str, str]]:
        try:
            saved = json.loads(self.window.settings.get(SAVED_KEY, "{}"))
        except ValueError:  # an unreadable stored value must not stop the station
            return {}
        return saved if isinstance(saved, dict) else {}

    def save(self, recipe_path, spec: str) -> None:
        saved = self._saved()
        saved.setdefault(str(recipe_path or ""), {})[camera_key(spec)] = spec.partition("?")[2]
        self.window.settings.set(SAVED_KEY, json.dumps(saved, ensure_ascii=False))

    def saved_spec(self, recipe_path, spec: str) -> str | None:
        """The spec with this job's saved settings for that camera; None when the job has none for it."""
        query = self._saved().get(str(recipe_path or ""), {}).get(camera_key(spec))
        if query is None:
            return None
        try:
            return with_settings(spec, CameraSettings.from_query(query))
        except HangtagError:  # saved by another version: the spec as it is
            return None

    def _on_state(self, state: StationState, changed: frozenset) -> None:
        """A job's recipe loaded, or a camera opened without settings: the job's saved camera settings apply
        (after this round of listeners: opening again updates the state they are being told about)."""
        spec = state.source
        if not (("recipe_path" in changed or "source" in changed) and is_camera_spec(spec)):
            return
        try:
            bare = settings_of(spec) == CameraSettings()
        except HangtagError:  # the worker says what is wrong with it
            return
        if "recipe_path" not in changed and not bare:
            return  # a camera opened with its own settings keeps them
        wanted = self.saved_spec(state.recipe_path, spec)
        if wanted is not None and wanted != spec:
            QTimer.singleShot(0, lambda: self._open(wanted) if self.window.state.state.source == spec else None)
