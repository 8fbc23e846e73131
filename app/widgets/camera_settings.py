"""Camera settings (engineer mode): exposure, gain, pixel format, ROI, frame rate and trigger of an industrial
camera, beside what the camera itself reports back. A setting whose node the camera lacks is shown disabled,
with the nodes looked for; a value the camera refused says why. Applying asks for the camera to be opened
again with the new settings (the station writes them with acquisition stopped)."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QGridLayout,
                               QHBoxLayout, QLabel, QLineEdit, QSpinBox, QVBoxLayout, QWidget)

from inference.cameras.pixels import PIXEL_FORMATS
from inference.cameras.settings import ACTIVATIONS, NODES, TRIGGER_MODES, CameraSettings, Readback, Trigger
from inference.errors import HangtagError

ROI_PARTS = ("offset_x", "offset_y", "width", "height")
# What the dialog calls each setting the camera is written; a note that was not applied names it so, not by its key.
SETTING_LABELS = {"exposure_us": "Exposure", "gain": "Gain", "pixel_format": "Pixel format", "frame_rate": "Frame rate",
                  "offset_x": "ROI x", "offset_y": "ROI y", "width": "ROI width", "height": "ROI height",
                  "trigger_mode": "Trigger", "trigger_source": "Trigger line", "trigger_activation": "Trigger edge"}
TRIGGER_WORDS = {"free": "free-run", "software": "software (Step, trigger folder, PLC)", "hardware": "hardware line"}


def _spin(low: float, high: float, decimals: int, suffix: str = "") -> QDoubleSpinBox:
    box = QDoubleSpinBox()
    box.setRange(low, high)
    box.setDecimals(decimals)
    box.setSuffix(suffix)
    box.setMinimumWidth(110)
    return box


class CameraSettingsDialog(QDialog):
    """Shows `settings` (what the job asks) against `readback` (what the camera holds; None: not open)."""

    apply_requested = Signal(object)  # CameraSettings

    def __init__(self, camera: str, settings: CameraSettings, readback: Readback | None, parent=None) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"Camera settings — {camera}")
        self.readback = readback
        grid = QGridLayout()
        for column, title in enumerate(("set (unticked: the camera's own)", "asked", "camera reports (node)")):
            grid.addWidget(QLabel(f"<b>{title}</b>"), 0, column)
        self.rows: dict[str, tuple[QCheckBox, QWidget, QLabel]] = {}
        self.exposure = _spin(1, 10_000_000, 1, " µs")
        self.gain = _spin(-1000, 100_000, 2)
        self.pixel_format = QComboBox()
        self.pixel_format.addItems(PIXEL_FORMATS)
        self.frame_rate = _spin(0.01, 100_000, 2, " fps")
        self.roi = [QSpinBox() for _ in ROI_PARTS]
        roi_box = QWidget()
        roi_row = QHBoxLayout(roi_box)
        roi_row.setContentsMargins(0, 0, 0, 0)
        for part, box in zip(("x", "y", "w", "h"), self.roi):
            box.setRange(0, 65_535)
            box.setPrefix(f"{part} ")
            roi_row.addWidget(box)
        for row, (name, title, editor) in enumerate((
                ("exposure_us", SETTING_LABELS["exposure_us"], self.exposure), ("gain", SETTING_LABELS["gain"], self.gain),
                ("pixel_format", SETTING_LABELS["pixel_format"], self.pixel_format),
                ("roi", "ROI (x, y, width, height)", roi_box),
                ("frame_rate", SETTING_LABELS["frame_rate"], self.frame_rate)), start=1):
            check = QCheckBox(title)
            check.setToolTip("unticked: the camera keeps its own value")
            shown = QLabel()
            grid.addWidget(check, row, 0)
            grid.addWidget(editor, row, 1)
            grid.addWidget(shown, row, 2)
            check.toggled.connect(editor.setEnabled)
            check.toggled.connect(lambda on, name=name: self._on_ticked(name, on))
            self.rows[name] = (check, editor, shown)

        self.trigger_mode = QComboBox()
        for mode in TRIGGER_MODES:
            self.trigger_mode.addItem(TRIGGER_WORDS[mode], mode)
        self.trigger_source = QLineEdit()
        self.trigger_source.setPlaceholderText("Line1")
        self.trigger_activation = QComboBox()
        self.trigger_activation.addItems(ACTIVATIONS)
        self.trigger_folder = QLineEdit()
        self.trigger_folder.setPlaceholderText("folder whose new files fire the camera (optional)")
        self.trigger_shown = QLabel()
        trigger_row = len(self.rows) + 1
        grid.addWidget(QLabel("Trigger"), trigger_row, 0)
        grid.addWidget(self.trigger_mode, trigger_row, 1)
        grid.addWidget(self.trigger_shown, trigger_row, 2)
        line_box = QWidget()
        line_row = QHBoxLayout(line_box)
        line_row.setContentsMargins(0, 0, 0, 0)
        line_row.addWidget(self.trigger_source)
        line_row.addWidget(self.trigger_activation)
        grid.addWidget(QLabel("Trigger line, edge"), trigger_row + 1, 0)
        grid.addWidget(line_box, trigger_row + 1, 1)
        grid.addWidget(QLabel("Trigger folder"), trigger_row + 2, 0)
        grid.addWidget(self.trigger_folder, trigger_row + 2, 1, 1, 2)
        self.trigger_mode.currentIndexChanged.connect(self._on_trigger_mode)

        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.notes.setStyleSheet("color: #b00020")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Apply | QDialogButtonBox.StandardButton.Close)
        self.apply_button = buttons.button(QDialogButtonBox.StandardButton.Apply)
        self.apply_button.setText("Apply and reopen the camera")
        self.apply_button.clicked.connect(self._apply)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(grid)
        layout.addWidget(self.notes)
        layout.addWidget(buttons)
        self.show_settings(settings)
        self.show_readback(readback)

    # -- model → view ----------------------------------------------------------------------------------
    def show_settings(self, settings: CameraSettings) -> None:
        asked = {"exposure_us": settings.exposure_us, "gain": settings.gain, "pixel_format": settings.pixel_format,
                 "roi": settings.roi, "frame_rate": settings.frame_rate}
        for name, value in asked.items():
            check, _, _ = self.rows[name]
            check.setChecked(value is not None)
            check.toggled.emit(value is not None)  # the editor follows even when the box did not change
            if value is not None:
                self._set_editor(name, value)
        self.trigger_mode.setCurrentIndex(TRIGGER_MODES.index(settings.trigger.mode))
        self.trigger_source.setText(settings.trigger.source)
        self.trigger_activation.setCurrentText(settings.trigger.activation)
        self.trigger_folder.setText(settings.trigger.folder)
        self._on_trigger_mode()

    def show_readback(self, readback: Readback | None) -> None:
        """What the camera holds; a setting it has no node for is disabled, never an error."""
        self.readback = readback
        for name, (check, editor, shown) in self.rows.items():
            parts = ROI_PARTS if name == "roi" else (name,)
            if readback is None:
                shown.setText("— (camera not open)")
                if not check.isChecked():
                    self._show_no_value(name)
                continue
            values = [readback[part] for part in parts]
            missing = [v for v in values if not v.available]
            if name == "roi":  # a camera without offsets still takes a size
                for box, value in zip(self.roi, values):
                    box.setEnabled(value.available)
                    box.setToolTip("" if value.available else f"the camera has no {value.name} node")
                missing = [v for v in missing if v.name in ("width", "height")]
            if missing:
                check.setChecked(False)
                for widget in (check, editor, shown):
                    widget.setEnabled(False)
                nodes = " / ".join(n for v in missing for n in NODES[v.name])
                if isinstance(editor, QDoubleSpinBox):  # no value rather than the box's minimum, which none set
                    editor.setSpecialValueText("—")
                    editor.setValue(editor.minimum())
                shown.setText("not on this camera")
                shown.setToolTip(f"the camera has no {nodes} node")
                check.setToolTip(f"the camera has no {nodes} node")
                continue
            for box in self._spins(name):  # the camera's value, whatever it is
                box.setSpecialValueText("")
            present = [v for v in values if v.available]
            shown.setText(", ".join(_text(v.value) for v in present) + "   (" + ", ".join(v.node for v in present)
                          + "".join(f"; no {NODES[v.name][0]} node" for v in values if not v.available) + ")")
            if not check.isChecked():  # the camera's own value is where an edit starts
                self._set_editor(name, tuple(v.value for v in values) if name == "roi" else values[0].value)
        if readback is None:
            self.trigger_shown.setText("— (camera not open)")
        else:
            mode = readback["trigger_mode"]
            self.trigger_mode.setEnabled(mode.available)
            self.trigger_shown.setText(
                "not on this camera (free-run only)" if not mode.available else
                f"TriggerMode {_text(mode.value)}, source {_text(readback['trigger_source'].value)}")
        self.notes.setText("\n".join(f"Not applied — {SETTING_LABELS.get(v.name, v.name)}: {v.note}"
                                     for v in readback.values if v.note) if readback else "")

    def _set_editor(self, name: str, value) -> None:
        try:
            if name == "pixel_format":
                if self.pixel_format.findText(str(value)) < 0:
                    self.pixel_format.addItem(str(value))  # the camera's own format, even one the station converts not
                self.pixel_format.setCurrentText(str(value))
            elif name == "roi":
                for box, part in zip(self.roi, value):
                    if part is not None:  # a camera without offsets: x and y stay 0
                        box.setValue(int(part))
            else:
                editor = self.rows[name][1]
                editor.setValue(float(value))
        except (TypeError, ValueError):  # the camera answered nothing readable for it: the editor keeps its value
            pass

    def _spins(self, name: str) -> list:
        editor = self.rows[name][1]
        return self.roi if name == "roi" else [editor] if isinstance(editor, (QDoubleSpinBox, QSpinBox)) else []

    def _show_no_value(self, name: str) -> None:
        """Unticked with the camera not open: no value, not the box's minimum ("Exposure 1.0 µs", "Frame rate
        0.01 fps" read as settings of the camera)."""
        for box in self._spins(name):
            box.setSpecialValueText("—")
            box.setValue(box.minimum())

    def _on_ticked(self, name: str, on: bool) -> None:
        if on:  # the engineer sets it: the box shows the number it holds
            for box in self._spins(name):
                if box.specialValueText() == "—" and self.readback is None:
                    box.setSpecialValueText("")
        elif self.readback is None:
            self._show_no_value(name)

    def _on_trigger_mode(self) -> None:
        mode = self.trigger_mode.currentData()
        for widget in (self.trigger_source, self.trigger_activation):
            widget.setEnabled(mode == "hardware")
        self.trigger_folder.setEnabled(mode == "software")

    # -- view → model ----------------------------------------------------------------------------------
    def settings(self) -> CameraSettings:
        """What the form asks; raises ConfigError (said in the dialog) for a combination the station refuses."""
        def asked(name: str) -> bool:
            check = self.rows[name][0]
            return check.isChecked() and check.isEnabled()

        mode = self.trigger_mode.currentData()
        trigger = Trigger(mode, self.trigger_source.text().strip() or "Line1", self.trigger_activation.currentText(),
                          self.trigger_folder.text().strip() if mode == "software" else "")
        return CameraSettings(
            exposure_us=self.exposure.value() if asked("exposure_us") else None,
            gain=self.gain.value() if asked("gain") else None,
            pixel_format=self.pixel_format.currentText() if asked("pixel_format") else None,
            roi=tuple(box.value() for box in self.roi) if asked("roi") else None,  # type: ignore[arg-type]
            frame_rate=self.frame_rate.value() if asked("frame_rate") else None,
            trigger=trigger)

    def _apply(self) -> None:
        try:
            settings = self.settings()
        except HangtagError as exc:
            self.notes.setText(str(exc))
            return
        self.apply_requested.emit(settings)


def _text(value) -> str:
    if value is None:
        return "?"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)
