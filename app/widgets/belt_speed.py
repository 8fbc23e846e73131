"""Line → Belt speed: how far a tag moves between two camera frames, in pixels of the image (px/frame).

The tracker takes the speed per frame, so that is the unit the engineer enters and reads back; `line-bench`
takes it per second of a recording (`--belt-px-per-s`), which is this times the camera's frame rate. 0 means
"learn it from the tags", shown as a tick box rather than a bare 0 with a rule to remember.
"""

from __future__ import annotations

from PySide6.QtWidgets import (QCheckBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout, QLabel,
                               QPushButton, QVBoxLayout, QWidget)

UNIT = "px/frame"
LIMIT_PX_PER_FRAME = 2000.0  # wider than any 4K frame: a tag cannot cross more than the view between frames


def belt_speed_text(px_per_frame: float) -> str:
    """The belt's speed as the Line menu and the dialog say it: with its unit, or that it is learned."""
    if not px_per_frame:
        return "learned from the tags"
    direction = "left to right" if px_per_frame > 0 else "right to left"
    return f"{abs(px_per_frame):g} {UNIT}, {direction}"


class BeltSpeedDialog(QDialog):
    def __init__(self, px_per_frame: float, parent: QWidget | None = None, *, learned: float | None = None) -> None:
        """`learned`: the speed the running line has learned from its tags (px/frame along x), offered to keep."""
        super().__init__(parent)
        self.setWindowTitle("Belt speed")
        explain = QLabel("How far a tag moves between two camera frames, in pixels of the image:\n"
                         "+ left to right, − right to left (the tracker expects each tag there).")
        explain.setWordWrap(True)
        self.learn = QCheckBox("Learn it from the tags (needs the detector to see each tag 3+ times)")
        self.speed = QDoubleSpinBox()
        self.speed.setRange(-LIMIT_PX_PER_FRAME, LIMIT_PX_PER_FRAME)
        self.speed.setDecimals(2)
        self.speed.setSuffix(f" {UNIT}")
        self.speed.setValue(px_per_frame)
        form = QFormLayout()
        form.addRow("Belt speed:", self.speed)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.learn.setChecked(not px_per_frame)
        self._on_learn(self.learn.isChecked())
        self.learn.toggled.connect(self._on_learn)
        self.speed.valueChanged.connect(lambda _value: self._on_learn(self.learn.isChecked()))
        layout = QVBoxLayout(self)
        layout.addWidget(explain)
        layout.addWidget(self.learn)
        layout.addLayout(form)
        self.use_learned = None
        if learned:  # on a busy station a speed kept holds where one still being learned split tags into two ids
            self.use_learned = QPushButton(f"Keep the speed learned so far: {belt_speed_text(round(learned, 2))}")
            self.use_learned.clicked.connect(lambda: (self.learn.setChecked(False), self.speed.setValue(learned)))
            layout.addWidget(self.use_learned)
        layout.addWidget(self.buttons)

    def _on_learn(self, learn: bool) -> None:
        self.speed.setEnabled(not learn)
        # a given speed of 0 would silently mean "learn": OK waits for a speed or the tick
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(learn or self.speed.value() != 0)

    def px_per_frame(self) -> float:
        """The speed to keep: 0 when it is to be learned from the tags."""
        return 0.0 if self.learn.isChecked() else self.speed.value()
