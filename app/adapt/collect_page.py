"""Step 1, Collect: keep frames from the live view, the results table or a folder; the station
suggests the frames its model was unsure of."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractItemView, QFileDialog, QHBoxLayout, QHeaderView, QLabel, QListWidget,
                               QListWidgetItem, QPushButton, QSizePolicy, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from app.widgets.table_note import TableNote
from inference.adapt.errors import AdaptError
from app.adapt.station_link import frame_file
from inference.adapt.suggest import unsure_reason


ASK_SUGGESTIONS = "Suggest unsure frames lists here the inspected frames the model was unsure of"
NOTHING_KEPT = "No frames kept yet: keep the frame on screen, selected result rows, or a folder's images"


class CollectPage(QWidget):
    def __init__(self, state, parent=None) -> None:
        super().__init__(parent)
        self.state = state
        self.folder_label = QLabel()
        self.folder_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # a data folder on a long share path asked for its whole width and pushed the window past the screen: it is
        # cut at the right instead (the counts come first; the whole path stays selectable and in the tooltip)
        self.folder_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        change = QPushButton("Data folder…")
        change.clicked.connect(self._choose_folder)
        self.keep_screen = QPushButton("Keep frame on screen")
        self.keep_rows = QPushButton("Keep selected result rows")
        self.keep_dir = QPushButton("Add images from a folder…")
        self.find_unsure = QPushButton("Suggest unsure frames")
        self.keep_screen.clicked.connect(self.keep_frame_on_screen)
        self.keep_rows.clicked.connect(self.keep_selected_rows)
        self.keep_dir.clicked.connect(self._choose_images)
        self.find_unsure.clicked.connect(self.suggest)
        self.suggestions = QListWidget()
        self.suggestions.setMaximumHeight(150)
        self.keep_suggested = QPushButton("Keep ticked suggestions")
        self.keep_suggested.clicked.connect(self.keep_ticked)
        self.remove_button = QPushButton("Remove selected kept frames")
        self.remove_button.clicked.connect(self.remove_selected)
        self.table = QTableWidget(0, 6)
        self.table.setHorizontalHeaderLabels(["Frame", "From", "Why kept", "Boxes", "Corrected", "Split"])
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        for column in (1, 2):  # where from and why share the width: "Why kept" showed "unsure: …" and no more
            self.table.horizontalHeader().setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        # the two empty boxes said nothing until something was suggested or kept
        self.suggestions_note = TableNote(self.suggestions)
        self.suggestions_note.say(ASK_SUGGESTIONS)
        self.kept_note = TableNote(self.table)
        self.kept_note.say(NOTHING_KEPT)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setMinimumHeight(3 * self.status.fontMetrics().lineSpacing())  # a wrapped message is never cut

        top = QHBoxLayout()
        top.addWidget(self.folder_label, 1)
        top.addWidget(change)
        buttons = QHBoxLayout()
        for b in (self.keep_screen, self.keep_rows, self.keep_dir, self.find_unsure):
            buttons.addWidget(b)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(buttons)
        layout.addWidget(QLabel("Suggested (the model was unsure: a score near the threshold, or a REVIEW verdict):"))
        layout.addWidget(self.suggestions)
        row = QHBoxLayout()
        row.addWidget(self.keep_suggested)
        row.addStretch(1)
        row.addWidget(self.remove_button)
        layout.addLayout(row)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status)
        state.frames_changed.connect(self._on_frames_changed)
        self._on_frames_changed()

    # -- actions ------------------------------------------------------------------------------------
    def keep_frame_on_screen(self) -> None:
        shown = self.state.link.frame_on_screen()
        if shown is None:
            self._say("No frame on screen: start or step the source first.")
            return
        image, result = shown
        self._keep(image, result, "live view", unsure_reason(result) or "engineer")

    def keep_selected_rows(self) -> None:
        rows = self.state.link.selected_rows()
        if not rows:
            self._say("Select rows in the Results table first (click, Shift/Ctrl-click).")
            return
        kept = 0
        for row in rows:
            image, result = self.state.link.frame_at(row)
            if image is not None or (result.ok and frame_file(result)):
                kept += self._keep(image, result, "results table", unsure_reason(result) or "engineer", announce=False)
        self.state.announce_frames()
        self._say(f"Kept {kept} of {len(rows)} selected frames.")

    def keep_images_from(self, folder: Path) -> None:
        try:
            kept = self.state.folder.keep_folder(folder)
        except AdaptError as exc:
            self._say(str(exc))
            return
        self.state.announce_frames()
        self._say(f"Kept {len(kept)} images from {folder}.")

    def suggest(self) -> None:
        """Unsure frames among the results the station still holds; the engineer ticks which to keep."""
        self.suggestions.clear()
        link = self.state.link
        kept = self._kept_files()
        already = 0
        for row in link.rows():
            reason = unsure_reason(link.result_at(row))
            if reason:
                result = link.result_at(row)
                if frame_file(result) in kept:  # kept twice, one copy could train and the other judge the model
                    already += 1
                    continue
                item = QListWidgetItem(f"{result.source_name} — {reason}")
                item.setData(Qt.ItemDataRole.UserRole, (row, reason))
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Checked)
                self.suggestions.addItem(item)
        total = len(link.rows())
        if not total:
            self.suggestions_note.say("No results yet: inspect some frames first")
        elif already:
            self.suggestions_note.say("No unsure frame in the Results table that is not kept already")
        else:
            self.suggestions_note.say("None of the frames in the Results table was unsure")
        self._say(f"{self.suggestions.count() + already} of the {total} frames in the Results table were unsure"
                  + (f"; {already} of them are kept already." if already else ".")
                  if total else "No results yet: inspect some frames first.")

    def keep_ticked(self) -> None:
        kept = 0
        for i in reversed(range(self.suggestions.count())):
            item = self.suggestions.item(i)
            if item.checkState() != Qt.CheckState.Checked:
                continue
            row, reason = item.data(Qt.ItemDataRole.UserRole)
            image, result = self.state.link.frame_at(row)
            kept += self._keep(image, result, "suggested", reason, announce=False)
            self.suggestions.takeItem(i)
        self.state.announce_frames()
        if not self.suggestions.count():  # it said "None of the frames … was unsure" over the frames just kept
            self.suggestions_note.say("Every suggestion is kept: suggest again after inspecting more frames")
        self._say(f"Kept {kept} suggested frames.")

    def remove_selected(self) -> None:
        ids = [self.table.item(i.row(), 0).data(Qt.ItemDataRole.UserRole) for i in self.table.selectionModel().selectedRows()]
        for fid in ids:
            self.state.folder.remove(fid)
        self.state.announce_frames()

    def _kept_files(self) -> set[str]:
        """The image files the folder holds copies of (a kept file's origin ends with its path)."""
        return {f.origin.split(": ", 1)[-1] for f in self.state.folder.frames()}

    def _keep(self, image, result, origin: str, reason: str, announce: bool = True) -> int:
        folder = self.state.folder
        try:
            path = frame_file(result)
            if path and path in self._kept_files():
                if announce:
                    self._say(f"{Path(path).name} is kept already.")
                return 0
            if path:
                folder.keep_file(path, origin=f"{origin}: {path}", reason=reason)
            elif image is not None:
                folder.keep_image(image, origin=f"{origin}: {getattr(result, 'source_name', 'frame')}", reason=reason)
            else:
                return 0
        except AdaptError as exc:
            self._say(str(exc))
            return 0
        if announce:
            self.state.announce_frames()
            self._say(f"Kept {getattr(result, 'source_name', 'the frame')} ({reason}).")
        return 1

    def _choose_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Adapt data folder", str(self.state.folder.root))
        if path:
            try:
                self.state.open_folder(Path(path))
            except AdaptError as exc:
                self._say(str(exc))

    def _choose_images(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Folder of images to keep")
        if path:
            self.keep_images_from(Path(path))

    def _say(self, text: str) -> None:
        self.status.setText(text)

    # -- view ---------------------------------------------------------------------------------------
    def showEvent(self, event) -> None:  # noqa: N802 - boxes drawn or pre-labelled in step 2 are counted again
        super().showEvent(event)
        self._on_frames_changed()

    def _on_frames_changed(self) -> None:
        folder = self.state.folder
        frames = folder.frames()
        corrected = sum(f.corrected for f in frames)
        self.folder_label.setText(f"{len(frames)} kept, {corrected} corrected — data folder: {folder.root}")
        self.folder_label.setToolTip(str(folder.root))
        self.table.setRowCount(len(frames))
        for r, f in enumerate(frames):
            cells = (Path(f.file_name).name, f.origin, f.reason, str(len(f.boxes)), "yes" if f.corrected else "no",
                     {"held_out": "held out"}.get(f.split, f.split or "—"))
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c in (1, 2):
                    item.setToolTip(text)
                if c == 0:
                    item.setData(Qt.ItemDataRole.UserRole, f.id)
                self.table.setItem(r, c, item)

