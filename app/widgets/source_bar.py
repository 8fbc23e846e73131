"""Source bar: what to inspect (folder, image, video, camera) and start / stop / step / loop / fps cap.

Two rows, so it fits a 1280-px screen: what to open on the first, how to run it and the recipe on the
second. Start is enabled from the station's state (an open source and a loaded engine), never from a
flag of its own."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFileDialog, QHBoxLayout, QLineEdit,
                               QPushButton, QSizePolicy, QVBoxLayout, QWidget)

from app.station_state import OPEN, RUNNING, StationState
from inference.sources import split_camera, spec_kind

KINDS = ("Image folder", "Watch folder", "Single image", "Video file", "Camera", "GenICam camera")
KIND_NAMES = {"replay": "Camera", "video": "Video file", "image": "Single image", "folder": "Image folder"}
CAMERA_KINDS = frozenset({"Camera", "GenICam camera"})
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+:")  # gige:…, not a Windows drive (C:)
PLACEHOLDERS = {"Image folder": "folder of tag images", "Watch folder": "folder the camera software writes images to",
                "Single image": "image file", "Video file": "video file",
                "Camera": "camera index (0, 1…) or stream URL (rtsp://…)", "GenICam camera": "camera serial number"}


class SourceBar(QWidget):
    open_requested = Signal(str)  # a source spec as inference.sources.open_source understands it
    start_requested = Signal()
    stop_requested = Signal()
    step_requested = Signal()
    loop_changed = Signal(bool)
    fps_cap_changed = Signal(float)
    reading_changed = Signal(bool)
    recipe_requested = Signal(str)
    recipe_pick_requested = Signal()  # the Recipe… button: the window decides what the mode may pick

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.kind = QComboBox()
        self.kind.addItems(KINDS)
        self.path = QLineEdit()
        self.path.setPlaceholderText("folder, file, camera index (0) or stream URL")
        self.browse = QPushButton("Browse…")
        self.resolution = QComboBox()
        self.resolution.addItems(["camera default", "640×480", "1280×720", "1920×1080"])
        self.open_button = QPushButton("Open")
        self.start_button = QPushButton("▶ Start")
        self.start_button.setToolTip("Start / stop (Space)")
        self.step_button = QPushButton("Step →")
        self.step_button.setToolTip("Next image (→)")
        self.loop = QCheckBox("Loop")
        self.fps_cap = QDoubleSpinBox()
        self.fps_cap.setRange(0, 240)
        self.fps_cap.setSpecialValueText("no fps cap")
        self.fps_cap.setSuffix(" fps")
        self.reading = QCheckBox("Read tags")
        self.reading.setChecked(True)
        self.recipe_button = QPushButton("Recipe…")
        self.path.setMinimumWidth(160)
        self.path.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.open_row = QWidget()  # what to open: hidden in operator mode, where the engineer set it up
        first, second = QHBoxLayout(self.open_row), QHBoxLayout()
        first.setContentsMargins(0, 0, 0, 0)
        for w in (self.kind, self.path, self.browse, self.resolution, self.open_button):
            first.addWidget(w, 1 if w is self.path else 0)
        for w in (self.start_button, self.step_button, self.loop, self.fps_cap, self.reading, self.recipe_button):
            second.addWidget(w)
        second.addStretch(1)  # the recipe's name is in the station header
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.setSpacing(2)
        layout.addWidget(self.open_row)
        layout.addLayout(second)
        self.kind.currentIndexChanged.connect(self._on_kind)
        self.kind.activated.connect(self._on_kind_picked)
        self.browse.clicked.connect(self._browse)
        self.open_button.clicked.connect(self._open)
        self.path.returnPressed.connect(self._open_typed)
        self.start_button.clicked.connect(self._toggle)
        self.step_button.clicked.connect(self.step_requested)
        self.loop.toggled.connect(self.loop_changed)
        self.fps_cap.valueChanged.connect(self.fps_cap_changed)
        self.reading.toggled.connect(self.reading_changed)
        self.recipe_button.clicked.connect(self.recipe_pick_requested)
        self.running = False
        self._on_kind(0)

    def _on_kind(self, index: int) -> None:
        self.path.setPlaceholderText(PLACEHOLDERS[KINDS[index]])
        camera = KINDS[index] == "Camera"
        self.resolution.setVisible(camera)
        self.browse.setVisible(not camera and KINDS[index] != "GenICam camera")

    def _on_kind_picked(self, index: int) -> None:
        """The operator picked a kind: a path left from a file kind under Camera (or a camera's index under a file
        kind) is cleared. Open then opened the folder again and the bar flipped back to Image folder."""
        kind, text = KINDS[index], self.path.text().strip()
        if text and (kind in CAMERA_KINDS) != (kind_of(text)[0] in CAMERA_KINDS):
            self.path.clear()

    def spec(self) -> str:
        text = self.path.text().strip()
        kind = KINDS[self.kind.currentIndex()]
        if kind == "Watch folder":
            return f"watch:{text}"
        if kind == "GenICam camera":  # SERIAL[?settings]: inference.cameras
            return f"genicam:{text}"
        if kind == "Camera" and self.resolution.currentIndex() > 0:
            return f"{text}@{self.resolution.currentText().replace('×', 'x')}"
        return text

    def set_spec(self, spec: str) -> None:
        """Show a spec (from the command line or the last session) with the kind it names, so the bar reads
        "Camera" for `0@1280x720` or `camera:line.avi`, not whatever kind was picked last."""
        kind, text, resolution = kind_of(spec)
        if kind:  # a spec of no kind the bar offers keeps the kind picked: it was never an image folder
            self.kind.setCurrentIndex(KINDS.index(kind))
        index = self.resolution.findText(resolution.replace("x", "×")) if resolution else 0
        if index < 0:  # a size the list does not offer stays in the text
            text, index = spec, 0
        self.resolution.setCurrentIndex(index)
        self.path.setText(text)

    def _browse(self) -> None:
        kind = KINDS[self.kind.currentIndex()]
        if kind in ("Image folder", "Watch folder"):
            chosen = QFileDialog.getExistingDirectory(self, "Folder of tag images", self.path.text())
        elif kind == "Video file":
            chosen, _ = QFileDialog.getOpenFileName(self, "Video", self.path.text(), "Video (*.mp4 *.avi *.mov *.mkv)")
        else:
            chosen, _ = QFileDialog.getOpenFileName(self, "Image", self.path.text(),
                                                    "Images (*.jpg *.jpeg *.png *.bmp *.tif *.tiff *.webp)")
        if chosen:
            self.path.setText(chosen)
            self._open()

    def set_compact(self, compact: bool) -> None:
        self.open_row.setVisible(not compact)

    def render(self, state: StationState, changed: frozenset = frozenset()) -> None:
        """StationModel listener: the bar shows the state's source; Start needs an open source and an engine;
        the Recipe button asks for a recipe while none is loaded."""
        if "source" in changed and state.source and (state.source != self.spec()
                                                     or kind_of(state.source)[0] != self.kind.currentText()):
            # opened from the command line, the settings or the window itself; a file typed under "Image folder"
            # reads "Single image" once opened
            self.set_spec(state.source)
        self.set_running(state.run == RUNNING)
        self.start_button.setEnabled(state.run == RUNNING or state.can_start)
        self.step_button.setEnabled(state.run != RUNNING and state.can_start)
        if state.source_status != OPEN:
            self.start_button.setToolTip("Open a source first: a folder, a file or a camera")
        elif not state.engine:
            self.start_button.setToolTip("Waiting for the engine to load")
        else:
            self.start_button.setToolTip("Start / stop (Space)")
        self.recipe_button.setText("Recipe…" if state.recipe else "⚠ Pick a recipe…")

    def _open(self) -> None:
        if self.path.text().strip():
            self.open_requested.emit(self.spec())

    def _open_typed(self) -> None:
        """Enter in the path: the source opens and the field lets go of the keys, so the Space that follows starts
        the line; it typed spaces after the path instead."""
        self._open()
        self.path.clearFocus()

    def _toggle(self) -> None:
        (self.stop_requested if self.running else self.start_requested).emit()

    def set_running(self, running: bool) -> None:
        self.running = running
        self.start_button.setText("■ Stop" if running else "▶ Start")
        self.step_button.setEnabled(not running)


def kind_of(spec: str) -> tuple[str, str, str]:
    """(kind, the text for the path field, the camera resolution or "") of a source spec; the kind is "" for a spec
    that names none of the bar's kinds. spec_kind calls anything it does not know a folder (open_source then refuses
    it), and the bar said "Image folder" over a refused report.pdf or gige:22918301."""
    kind = spec_kind(spec)
    if kind == "folder" and not Path(spec).is_dir() and (Path(spec).suffix or _SCHEME.match(spec)):
        return "", spec, ""
    if kind == "watch":
        return "Watch folder", spec[len("watch:"):], ""
    if spec.startswith("genicam:"):
        return "GenICam camera", spec[len("genicam:"):], ""
    if kind == "camera":
        return ("Camera", *split_camera(spec))
    return KIND_NAMES[kind], spec, ""
