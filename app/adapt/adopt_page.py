"""Step 5, Adopt / roll back: the compared candidate becomes the station's model; one click goes back.

A candidate that turns a judged frame from OK to NG (step 4) is adopted only after the engineer
ticks that they have looked at those frames: box metrics once chose a detector that did exactly that.

The journal records the model's hash with every session, and a new model is a new file (kept by
content hash), so every journaled frame says which model judged it.
"""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QListWidget, QPushButton, QVBoxLayout, QWidget

from app.theme import alarm_style
from app.words import counted
from inference.adapt.errors import AdaptError


class AdoptPage(QWidget):
    def __init__(self, state, parent=None) -> None:
        super().__init__(parent)
        self.state = state
        self.in_use = QLabel()
        self.in_use.setWordWrap(True)
        self.candidate = QLabel()
        self.candidate.setWordWrap(True)
        self.adopt_button = QPushButton("Adopt the candidate")
        self.back_button = QPushButton("Roll back to the previous model")
        self.warning = QLabel()
        self.warning.setWordWrap(True)
        self.warning.setStyleSheet(alarm_style(bold=False))
        self.confirm = QCheckBox("I have looked at those frames: adopt the candidate anyway")
        self.confirm.toggled.connect(self._on_confirm)
        self.adopt_button.clicked.connect(self.adopt)
        self.back_button.clicked.connect(self.roll_back)
        self.history = QListWidget()
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setMinimumHeight(3 * self.status.fontMetrics().lineSpacing())  # a wrapped message is never cut
        buttons = QHBoxLayout()
        buttons.addWidget(self.adopt_button)
        buttons.addWidget(self.back_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.in_use)
        layout.addWidget(self.candidate)
        layout.addWidget(self.warning)
        layout.addWidget(self.confirm)
        layout.addLayout(buttons)
        layout.addWidget(QLabel("Models this station has used (newest last):"))
        layout.addWidget(self.history, 1)
        layout.addWidget(self.status)
        state.comparison_changed.connect(self._forget_confirmation)  # a new comparison is looked at afresh
        for signal in (state.candidate_changed, state.comparison_changed, state.model_changed):
            signal.connect(self.render)
        self.render()

    def render(self) -> None:
        store = self.state.store
        try:
            history = store.history()
        except AdaptError as exc:
            self.status.setText(str(exc))
            return
        self.in_use.setText(f"In use: {history[-1].label}")
        c = self.state.candidate
        compared = c is not None and self.state.comparison is not None
        if c is None:
            self.candidate.setText("Candidate: none yet (step 3).")
        else:
            self.candidate.setText(f"Candidate: {c.model_path} ({c.model_hash[:19]}…)"
                                   + ("" if compared else " — compare it in step 4 before adopting it."))
        in_use = c is not None and c.model_hash == history[-1].hash
        if in_use:
            self.candidate.setText(f"Candidate: {c.model_path} — in use now.")
        flips = self.state.comparison.ok_to_ng if compared else []
        self.warning.setVisible(bool(flips) and not in_use)
        self.confirm.setVisible(bool(flips) and not in_use)
        if not flips:
            self.confirm.setChecked(False)
        self.warning.setText(f"The candidate turns {counted(len(flips), 'frame')} judged OK with the model in use into NG: "
                             + "; ".join(f"{name}: {ch.frame} ({ch.tag_box})" for name, ch in flips)
                             + ". A false NG stops good garments; see step 4." if flips else "")
        self.adopt_button.setEnabled(compared and not in_use and (not flips or self.confirm.isChecked()))
        previous = store.previous()
        self.back_button.setEnabled(previous is not None)
        self.back_button.setText("Roll back" if previous is None else f"Roll back to {previous.label}")
        self.history.clear()
        for m in history:
            self.history.addItem(m.label + (f" — {m.note}" if m.note and m.note != "shipped" else ""))

    def _on_confirm(self, checked: bool) -> None:
        if checked:
            self.status.setText("")
        self.render()

    def _forget_confirmation(self) -> None:
        self.confirm.setChecked(False)

    def adopt(self) -> None:
        c = self.state.candidate
        if c is None or self.state.comparison is None:
            self.status.setText("Compare the candidate first (step 4): no candidate is adopted blind.")
            return
        if self.state.comparison.ok_to_ng and not self.confirm.isChecked():
            self.status.setText("The candidate turns frames judged OK into NG: tick that you have looked at them first.")
            return
        try:
            model = self.state.store.adopt(c.model_path, note=f"Adapt: {c.train_frames} frames, {c.directory.name}")
        except AdaptError as exc:
            self.status.setText(str(exc))
            return
        self._switch(model, "Adopted")

    def roll_back(self) -> None:
        try:
            model = self.state.store.roll_back()
        except AdaptError as exc:
            self.status.setText(str(exc))
            return
        self._switch(model, "Rolled back to")

    def _switch(self, model, verb: str) -> None:
        self.state.link.use_model(model.path)
        self.state.model_switched()
        self.status.setText(f"{verb} {model.label}. The station loads it in the background and keeps inspecting "
                            "with the old one until it is ready.")
