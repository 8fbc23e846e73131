"""Tuning dock: thresholds re-filter the cached output at once; backend/precision/input size rebuild
the engine in the background. Unavailable backends are disabled, with the reason as tooltip."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QGroupBox, QHBoxLayout, QLabel,
                               QPushButton, QSlider, QSpinBox, QVBoxLayout, QWidget)

from inference.engines import BackendStatus
from inference.postprocess import Thresholds

PRECISIONS = ("fp32", "fp16", "int8")


class ThresholdSlider(QWidget):
    """A 0..1 slider and spin box kept in step."""

    changed = Signal(float)

    def __init__(self, value: float, parent=None) -> None:
        super().__init__(parent)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, 100)
        self.spin = QDoubleSpinBox()
        self.spin.setRange(0.0, 1.0)
        self.spin.setSingleStep(0.01)
        self.spin.setDecimals(2)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.slider, 1)
        layout.addWidget(self.spin)
        self.slider.valueChanged.connect(lambda v: self._set(v / 100.0, source="slider"))
        self.spin.valueChanged.connect(lambda v: self._set(v, source="spin"))
        self._value = -1.0
        self.set_value(value)

    def set_value(self, value: float) -> None:
        self._set(value, source="code")

    def value(self) -> float:
        return self._value

    def _set(self, value: float, source: str) -> None:
        value = round(min(1.0, max(0.0, float(value))), 2)
        if value == self._value:
            return
        self._value = value
        if source != "slider":
            self.slider.blockSignals(True)
            self.slider.setValue(int(round(value * 100)))
            self.slider.blockSignals(False)
        if source != "spin":
            self.spin.blockSignals(True)
            self.spin.setValue(value)
            self.spin.blockSignals(False)
        if source != "code":
            self.changed.emit(value)


class TuningPanel(QWidget):
    thresholds_changed = Signal(object)  # Thresholds
    engine_requested = Signal(str, str, int)  # backend, precision, input size (0 = model's own)

    def __init__(self, thresholds: Thresholds, parent=None) -> None:
        super().__init__(parent)
        self.confidence = ThresholdSlider(thresholds.confidence)
        self.iou = ThresholdSlider(thresholds.iou)
        self.max_det = QSpinBox()
        self.max_det.setRange(1, 1000)
        self.max_det.setValue(thresholds.max_detections)
        form = QFormLayout()
        form.addRow("Confidence", self.confidence)
        form.addRow("IoU (NMS)", self.iou)
        form.addRow("Max detections", self.max_det)
        self.class_box = QGroupBox("Classes")
        self.class_form = QFormLayout(self.class_box)
        self._class_rows: dict[str, tuple[QCheckBox, ThresholdSlider]] = {}
        self._overridden: set[str] = set()  # classes whose own confidence no longer follows the global one

        self.backend = QComboBox()
        self.precision = QComboBox()
        self.precision.addItems([p.upper() for p in PRECISIONS])
        self.input_size = QComboBox()
        self.input_size.addItem("model default", 0)
        for size in (320, 416, 480, 512, 640, 800, 960):
            self.input_size.addItem(f"{size} × {size}", size)
        self.apply_engine = QPushButton("Apply engine settings")
        self.apply_engine.setToolTip("Converts and builds in the background; the current engine keeps running")
        self.engine_note = QLabel("")
        self.engine_note.setWordWrap(True)
        engine_box = QGroupBox("Engine")
        engine_form = QFormLayout(engine_box)
        engine_form.addRow("Backend", self.backend)
        engine_form.addRow("Precision", self.precision)
        engine_form.addRow("Input size", self.input_size)
        engine_form.addRow(self.apply_engine)
        engine_form.addRow(self.engine_note)
        self.whatif = QLabel("")
        self.whatif.setWordWrap(True)

        layout = QVBoxLayout(self)
        thresholds_box = QGroupBox("Thresholds")
        thresholds_box.setLayout(form)
        layout.addWidget(thresholds_box)
        layout.addWidget(self.class_box)
        layout.addWidget(self.whatif)
        layout.addWidget(engine_box)
        layout.addStretch(1)

        self.confidence.changed.connect(self._follow_global)
        self.iou.changed.connect(self._emit)
        self.max_det.valueChanged.connect(self._emit)
        self.apply_engine.clicked.connect(self._request_engine)
        self._in_use: tuple = ()  # backend, precision, input size of the engine inspecting now
        for combo in (self.backend, self.precision, self.input_size):
            combo.currentIndexChanged.connect(self._note_pending)

    # -- classes & backends from the loaded model / this machine -----------------------------------
    def set_classes(self, names: tuple[str, ...], thresholds: Thresholds) -> None:
        while self.class_form.rowCount():
            self.class_form.removeRow(0)
        self._class_rows.clear()
        self._overridden = set(thresholds.class_confidence)
        for name in names:
            enabled = QCheckBox(name)
            enabled.setChecked(name not in thresholds.disabled_classes)
            conf = ThresholdSlider(thresholds.confidence_for(name))
            conf.setToolTip("confidence for this class only; follows the global value until moved")
            enabled.toggled.connect(self._emit)
            conf.changed.connect(lambda _v, n=name: self._override(n))
            self.class_form.addRow(enabled, conf)
            self._class_rows[name] = (enabled, conf)

    def set_backends(self, statuses: list[BackendStatus], current: str) -> None:
        self.backend.clear()
        model = self.backend.model()
        assert isinstance(model, QStandardItemModel)
        for i, status in enumerate(statuses):
            self.backend.addItem(status.label, status.name)
            item = model.item(i)
            item.setEnabled(status.available)
            item.setToolTip("available" if status.available else f"unavailable: {status.reason}")
            if not status.available:
                item.setText(f"{status.label} (unavailable)")
        index = self.backend.findData(current)
        self.backend.setCurrentIndex(max(0, index))
        self._mark_in_use()

    def set_precision(self, precision: str) -> None:
        self.precision.setCurrentIndex(max(0, PRECISIONS.index(precision) if precision in PRECISIONS else 0))
        self._mark_in_use()

    def _selection(self) -> tuple:
        return self.backend.currentData(), self.precision.currentIndex(), self.input_size.currentData()

    def _mark_in_use(self) -> None:
        self._in_use = self._selection()
        self.engine_note.setText("")

    def _note_pending(self, *_: object) -> None:
        """Thresholds act at once; an engine choice only once applied, and INT8 picked in the list looked in use."""
        pending = bool(self._in_use) and self._selection() != self._in_use
        self.engine_note.setText("Not applied yet: press Apply engine settings. The engine in use keeps inspecting "
                                 "until the new one is built." if pending else "")

    # -- values ----------------------------------------------------------------------------------
    def thresholds(self) -> Thresholds:
        per_class, disabled = {}, set()
        for name, (enabled, conf) in self._class_rows.items():
            if not enabled.isChecked():
                disabled.add(name)
            if name in self._overridden:
                per_class[name] = conf.value()
        return Thresholds(confidence=self.confidence.value(), iou=self.iou.value(),
                          max_detections=self.max_det.value(), class_confidence=per_class,
                          disabled_classes=frozenset(disabled))

    def _override(self, name: str) -> None:
        self._overridden.add(name)
        self._emit()

    def _follow_global(self, value: float) -> None:
        for name, (_enabled, conf) in self._class_rows.items():
            if name not in self._overridden:
                conf.set_value(value)
        self._emit()

    def _emit(self, *_: object) -> None:
        self.thresholds_changed.emit(self.thresholds())

    def _request_engine(self) -> None:
        self._mark_in_use()  # being built now: the progress and the header say the rest
        self.engine_requested.emit(self.backend.currentData() or "onnxruntime-cpu",
                                   PRECISIONS[self.precision.currentIndex()], int(self.input_size.currentData()))

    def set_locked(self, locked: bool) -> None:
        for widget in (self.confidence, self.iou, self.max_det, self.class_box, self.backend, self.precision,
                       self.input_size, self.apply_engine):
            widget.setEnabled(not locked)
