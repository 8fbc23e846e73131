"""Step 2, Correct: the model in use pre-labels each kept frame; the engineer fixes the boxes.

Keys (as in labelImg): D / A next / previous frame, Enter marks the frame corrected and goes on,
1/2/3 class, Delete removes the selected box, Ctrl+Z undoes; drag to draw, move or resize.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QButtonGroup, QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton,
                               QRadioButton, QVBoxLayout, QWidget)

from app.adapt.box_editor import BoxEditor
from app.adapt.job import Job
from inference.adapt.errors import AdaptError


class CorrectPage(QWidget):
    def __init__(self, state, parent=None) -> None:
        super().__init__(parent)
        self.state = state
        self.frame_id: int | None = None
        self.job: Job | None = None
        self._pipeline = None
        self.list = QListWidget()
        self.list.setMaximumWidth(220)
        self.list.currentRowChanged.connect(self._on_row)
        self.editor = BoxEditor(state.class_names)
        self.editor.changed.connect(self._save_draft)
        self.editor.selection_changed.connect(self._on_selection)
        self.classes = QButtonGroup(self)
        class_row = QHBoxLayout()
        for i, name in enumerate(state.class_names):
            button = QRadioButton(f"{i + 1} {name}")
            self.classes.addButton(button, i)
            class_row.addWidget(button)
        self.classes.button(0).setChecked(True)
        self.classes.idClicked.connect(self._on_class)
        self.prelabel_all = QPushButton("Pre-label all with the model in use")
        self.prelabel_all.clicked.connect(self.start_prelabel)
        previous, following = QPushButton("◀ Previous (A)"), QPushButton("Next (D) ▶")
        previous.clicked.connect(lambda: self.step(-1))
        following.clicked.connect(lambda: self.step(1))
        self.mark = QPushButton("Boxes are right: mark corrected, next (Enter)")
        self.mark.clicked.connect(self.mark_corrected)
        delete = QPushButton("Delete box (Del)")
        delete.clicked.connect(self.editor.delete_selected)
        self.info = QLabel()
        self.info.setWordWrap(True)
        self.editor.accepted.connect(self.mark_corrected)
        self.editor.step.connect(self.step)

        side = QVBoxLayout()
        side.addWidget(QLabel("Kept frames (✓ corrected)"))
        side.addWidget(self.list, 1)
        side.addWidget(self.prelabel_all)
        controls = QHBoxLayout()
        controls.addLayout(class_row)
        controls.addStretch(1)
        for b in (delete, previous, following, self.mark):
            controls.addWidget(b)
        centre = QVBoxLayout()
        centre.addLayout(controls)
        centre.addWidget(self.editor, 1)
        centre.addWidget(self.info)
        layout = QHBoxLayout(self)
        layout.addLayout(side)
        layout.addLayout(centre, 1)
        state.frames_changed.connect(self.refresh)
        state.model_changed.connect(self._forget_pipeline)
        self.refresh()

    # -- frames -------------------------------------------------------------------------------------
    def refresh(self) -> None:
        frames = self.state.folder.frames()
        keep = self.frame_id
        self.list.blockSignals(True)
        self.list.clear()
        for f in frames:
            item = QListWidgetItem(frame_item_text(f))
            item.setData(Qt.ItemDataRole.UserRole, f.id)
            self.list.addItem(item)
        self.list.blockSignals(False)
        ids = [f.id for f in frames]
        if keep in ids:
            self.list.setCurrentRow(ids.index(keep))
        elif ids:
            self.list.setCurrentRow(0)
        else:
            self.frame_id = None
            self.editor.set_frame(None, [])
            self._describe()

    def _on_row(self, row: int) -> None:
        if row < 0:
            return
        self.open_frame(self.list.item(row).data(Qt.ItemDataRole.UserRole))

    def open_frame(self, frame_id: int) -> None:
        folder = self.state.folder
        self.frame_id = frame_id
        frame = folder.frame(frame_id)
        try:
            image = folder.image(frame_id)
        except AdaptError as exc:
            self.editor.set_frame(None, [])
            self.info.setText(str(exc))
            return
        if not frame.corrected and not frame.boxes:
            frame = self._prelabel_one(frame_id, image) or frame
        self.editor.set_frame(image, frame.boxes)
        self.editor.setFocus()
        self._rename_item(frame)
        self._describe()

    def _rename_item(self, frame) -> None:
        """The list says the boxes the frame has now: it said '0 boxes' beside a frame the model had just drawn 3 in."""
        for row in range(self.list.count()):
            item = self.list.item(row)
            if item.data(Qt.ItemDataRole.UserRole) == frame.id:
                item.setText(frame_item_text(frame))

    def _prelabel_one(self, frame_id: int, image):
        from inference.adapt.prelabel import draft_boxes

        try:
            if self._pipeline is None:
                from inference.pipeline import Pipeline

                self._pipeline = Pipeline.open(self.state.link.model_path, "onnxruntime-cpu")
            boxes = draft_boxes(self._pipeline, image, self.state.class_names)
        except Exception as exc:
            self.info.setText(f"The model could not pre-label this frame: {exc}")
            return None
        return self.state.folder.set_boxes(frame_id, boxes, corrected=False)

    def _forget_pipeline(self) -> None:
        if self._pipeline is not None:
            self._pipeline.close()
            self._pipeline = None

    def step(self, delta: int) -> None:
        row = self.list.currentRow() + delta
        if 0 <= row < self.list.count():
            self.list.setCurrentRow(row)

    def mark_corrected(self) -> None:
        if self.frame_id is None:
            return
        self.state.folder.set_boxes(self.frame_id, self.editor.boxes, corrected=True)
        row = self.list.currentRow()
        self.state.announce_frames()  # refresh keeps this frame selected
        if row + 1 < self.list.count():
            self.list.setCurrentRow(row + 1)

    def _save_draft(self) -> None:
        if self.frame_id is None:
            return
        was = self.state.folder.frame(self.frame_id).corrected
        self._rename_item(self.state.folder.set_boxes(self.frame_id, self.editor.boxes, corrected=was))
        self._describe()

    def _on_class(self, class_id: int) -> None:
        self.editor.set_draw_class(class_id)
        self.editor.setFocus()

    def _on_selection(self, index: int) -> None:
        button = self.classes.button(self.editor.draw_class)
        if button is not None:
            button.setChecked(True)
        self._describe()

    def _describe(self) -> None:
        if self.frame_id is None:
            self.info.setText("Keep frames in step 1; each is pre-labelled by the model in use when opened here.")
            return
        f = self.state.folder.frame(self.frame_id)
        counts = {n: sum(b.class_id == i for b in self.editor.boxes) for i, n in enumerate(self.state.class_names)}
        drafts = sum(b.source == "model" for b in self.editor.boxes)
        self.info.setText(f"Frame {f.id:06d} ({f.reason or 'kept'}) — " + ", ".join(f"{v} {k}" for k, v in counts.items())
                          + f"; {drafts} drawn by the model (dashed) — "
                          + ("corrected" if f.corrected else "not yet corrected: check every box, then Enter"))

    # -- pre-label all ----------------------------------------------------------------------------------
    def start_prelabel(self) -> None:
        if self.job is not None and self.job.running:
            return
        folder, model = self.state.folder, self.state.link.model_path

        def work(report, should_stop):
            from inference.adapt.prelabel import prelabel
            from inference.pipeline import Pipeline

            with Pipeline.open(model, "onnxruntime-cpu") as pipeline:
                return prelabel(folder, pipeline, should_stop=should_stop)

        self.job = Job(work)
        self.job.finished.connect(lambda n: (self.info.setText(f"Pre-labelled {n} frames."), self.state.announce_frames()))
        self.job.failed.connect(self.info.setText)
        self.prelabel_all.setEnabled(False)
        self.job.thread.finished.connect(lambda: self.prelabel_all.setEnabled(True))
        self.job.start()

    def close_resources(self) -> None:
        if self.job is not None:
            self.job.cancel()
            self.job.wait()
        self._forget_pipeline()


def frame_item_text(frame) -> str:
    return f"{'✓' if frame.corrected else '·'} {frame.id:06d}  {len(frame.boxes)} boxes"
