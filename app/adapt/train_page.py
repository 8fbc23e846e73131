"""Step 3, Fine-tune: from the model in use, on the corrected frames, part of them held out.

Runs on its own thread (PyTorch on all cores but one), so the station keeps inspecting; Cancel stops
it between steps and writes nothing.
"""

from __future__ import annotations

import importlib.util

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (QCheckBox, QDoubleSpinBox, QFormLayout, QHBoxLayout, QHeaderView, QLabel, QProgressBar,
                               QPushButton, QSpinBox, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from app.adapt.job import Job
from inference.adapt.errors import INSTALL_HINT
from inference.adapt.finetune import MIN_CORRECTED, FineTuneSettings


def trainer_installed() -> bool:
    return importlib.util.find_spec("torch") is not None


class TrainPage(QWidget):
    def __init__(self, state, parent=None) -> None:
        super().__init__(parent)
        self.state = state
        self.job: Job | None = None
        self.settings = FineTuneSettings()
        self.epochs = QSpinBox()
        self.epochs.setRange(1, 500)
        self.epochs.setValue(self.settings.epochs)
        self.held_out = QDoubleSpinBox()
        self.held_out.setRange(0.05, 0.5)
        self.held_out.setSingleStep(0.05)
        self.held_out.setSuffix(" of the corrected frames")  # a share: '0.20' alone said nothing of what
        self.held_out.setValue(self.settings.held_out_fraction)
        self.device = QLabel()
        self.backbone = QCheckBox("also train the backbone (off: only the neck and heads learn, which keeps more of "
                                  "what the model knows about other tags)")
        self.backbone.setChecked(not self.settings.freeze_backbone)
        self.start_button = QPushButton("Start fine-tuning")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.start_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)
        self.bar = QProgressBar()
        self.table = QTableWidget(0, 2 + len(state.class_names))
        self.table.setHorizontalHeaderLabels(["Epoch", "Loss", *[f"held-out AP50 {n}" for n in state.class_names]])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setMinimumHeight(3 * self.status.fontMetrics().lineSpacing())  # a wrapped message is never cut
        form = QFormLayout()
        form.addRow("Epochs", self.epochs)
        form.addRow("Held out (never trained on)", self.held_out)
        form.addRow("Backbone", self.backbone)
        form.addRow("Runs on", self.device)
        buttons = QHBoxLayout()
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.bar, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addLayout(buttons)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status)
        state.frames_changed.connect(self._describe)
        self._describe()

    def _describe(self) -> None:
        if self.job is not None and self.job.running:
            return
        if not trainer_installed():
            self.device.setText("—")
            self.start_button.setEnabled(False)
            self.status.setText(f"Fine-tuning needs PyTorch, which this station does not have: {INSTALL_HINT}.")
            return
        self.device.setText("the GPU where PyTorch sees one, else the CPU (all cores but one)")
        n = len(self.state.folder.corrected())
        self.start_button.setEnabled(n >= MIN_CORRECTED)
        self.status.setText(f"{n} corrected frames." + ("" if n >= MIN_CORRECTED else
                            f" Correct at least {MIN_CORRECTED} (30 or more is better) in step 2."))

    def start(self, settings: FineTuneSettings | None = None) -> None:
        if self.job is not None and self.job.running:
            return
        settings = settings or FineTuneSettings(epochs=self.epochs.value(), held_out_fraction=self.held_out.value(),
                                                freeze_backbone=not self.backbone.isChecked())
        self.epochs.setValue(settings.epochs)  # the form shows what runs
        self.held_out.setValue(settings.held_out_fraction)
        self.backbone.setChecked(not settings.freeze_backbone)
        folder, model = self.state.folder, self.state.link.model_path

        def work(report, should_stop):
            from inference.adapt.finetune import fine_tune

            return fine_tune(folder, model, settings, on_epoch=report, should_stop=should_stop)

        self.table.setRowCount(0)
        self.bar.setRange(0, settings.epochs)
        self.bar.setValue(0)
        self.job = Job(work)
        self.job.progress.connect(self._on_epoch)
        self.job.finished.connect(self._on_finished)
        self.job.failed.connect(self._on_failed)
        self.job.cancelled.connect(self._on_cancelled)
        self.start_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.status.setText(f"Fine-tuning {self.state.link.model_path.name} on the corrected frames…")
        self.job.start()

    def cancel(self) -> None:
        if self.job is not None:
            self.job.cancel()
            self.status.setText("Stopping after the current step…")

    def _from_current_job(self) -> bool:
        """Whether the signal being handled comes from the run the page now shows. A cancelled run's
        signals can still be queued when the next run starts; they must not add rows to its table.
        (Slots, not lambdas: a lambda has no receiver, so it would run on the job's own thread.)"""
        return self.job is not None and self.sender() is self.job

    @Slot(object)
    def _on_epoch(self, report) -> None:
        if not self._from_current_job():
            return
        row = self.table.rowCount()
        self.table.insertRow(row)
        cells = ["before" if report.epoch == 0 else str(report.epoch),
                 "—" if report.loss != report.loss else f"{report.loss:.3f}"]
        cells += ["—" if v != v else f"{v:.3f}" for v in report.held_out_ap50.values()]
        for c, text in enumerate(cells):
            self.table.setItem(row, c, QTableWidgetItem(text))
        self.bar.setValue(report.epoch)
        self.status.setText(f"Epoch {report.epoch} of {report.epochs}, {report.elapsed_s:.0f} s")

    @Slot(object)
    def _on_finished(self, candidate) -> None:
        if not self._from_current_job():
            return
        self.cancel_button.setEnabled(False)
        self.state.set_candidate(candidate)
        self.state.announce_frames()  # the split is now shown in step 1
        self.status.setText(f"Candidate written: {candidate.model_path} ({candidate.train_frames} frames trained, "
                            f"{candidate.held_out_frames} held out, {candidate.device}, {candidate.seconds:.0f} s). "
                            "Compare it with the model in use in step 4.")
        self._describe_after()

    @Slot(str)
    def _on_failed(self, message: str) -> None:
        if self._from_current_job():
            self._on_stopped(f"Fine-tuning failed:\n{message}")

    @Slot(str)
    def _on_cancelled(self, _message: str) -> None:
        if self._from_current_job():
            self._on_stopped("Fine-tuning cancelled: no candidate was written.")

    def _on_stopped(self, text: str) -> None:
        self.cancel_button.setEnabled(False)
        self._describe_after()
        self.status.setText(text)

    def _describe_after(self) -> None:
        self.start_button.setEnabled(len(self.state.folder.corrected()) >= MIN_CORRECTED)

    def close_resources(self) -> None:
        if self.job is not None:
            self.job.cancel()
            self.job.wait()
