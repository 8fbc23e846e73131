"""The station window: source bar, live view with verdict banner and tag crops, text panel, results,
tuning and plots docks, status bar. Views wrap the worker's results; nothing here runs the engine."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
from PySide6.QtCore import QByteArray, Qt, QThread, QTimer, Signal
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (QApplication, QDockWidget, QHeaderView, QMainWindow, QScrollArea, QTableView,
                               QVBoxLayout, QWidget)

from app import recipe_picker
from app.camera_link import CameraSettingsLink
from app.modes import ENGINEER, ModeController
from app.frame_memory import FrameMemory
from app.line_link import LineLink, line_banner_note
from app.plc_link import PlcLink
from app.records_link import RecordsLink, message_room
from app.pressure_link import PressureLink
from app.remote_link import RemoteLink
from app.report_open import ReportOpener
from app.widgets.status_room import StatusRoom
from app.settings import StationSettings
from app.space_key import SpaceStops
from app.station_state import ERROR, FAILED, NONE, OPEN, RUNNING, STOPPED, StationModel, StationState
from app.theme import apply_theme
from app.thread_exit import close_inspection
from app.thread_priority import start_below_gui
from app.widgets.crops_strip import CropsStrip
from app.widgets.error_panel import ErrorPanel
from app.widgets.station_header import StationHeader, short_source
from app.widgets.table_note import TableNote
from app.widgets.image_view import ImageView, tag_papers
from app.widgets.plots_panel import DEFAULT_TAKT_MS, PlotsPanel, rate_text
from app.widgets.results_table import ResultsModel, readable_name
from app.widgets.source_bar import SourceBar
from app.widgets.text_panel import TextPanel
from app.widgets.tuning_panel import TuningPanel
from app.widgets.verdict_banner import VerdictBanner
from app.whatif import whatif_text
from app.engine_link import EngineLink
from app.worker import InspectionWorker
from inference.engines import list_backends
from inference.imageio import IMAGE_SUFFIXES, read_image
from inference.inspection import Inspector, rejudge
from inference.lending import detach
from inference.pipeline import FrameResult
from inference.postprocess import Thresholds
from inference.resources import default_model_path, user_data_dir
from inference.tracking.station import TRACKED

PAINT_INTERVAL_MS = 16  # repaint the live view at most ~60 times a second
YIELDING_LABELS = ("model", "backend", "precision", "device")  # the status bar's engine details
STAYING_LABELS = ("frames", "fps")  # the counts an operator watches
ENGINE_NAMES = {"onnxruntime-cpu": "CPU", "onnxruntime-cuda": "CUDA", "tensorrt": "TensorRT",
                "triton": "Triton"}  # header words (RemoteLink adds the server that answers)


def _not_tags(result) -> list[tuple[float, float, float, float]]:
    """Tag boxes the reader dropped as not tag-like: the view greys them, as the Tag text says."""
    return [tuple(tag.xyxy) for tag in (getattr(result, "readings", None) or ()) if tag.rejected]


def first_size(available) -> tuple[int, int]:
    """The window's size at its first start: the screen's free area, at least 1280×720 (the smallest station
    monitor). Laid out at 1280×720 and then maximized on a 1920×1080 screen, the Tag text kept 440 px of 1920."""
    if available is None:
        return 1280, 720
    return max(1280, available.width()), max(720, available.height())


def source_words(spec: str) -> str:
    """A source as the operator knows it: a camera by "camera 0" (the bare "0 could not be opened" said nothing), a
    file or folder by its whole path."""
    from inference.cameras.specs import is_camera_spec
    from inference.sources import spec_kind

    if spec.startswith("watch:"):  # "watch:/tmp/line is open" showed the station's own prefix
        return f"the watched folder {spec[len('watch:'):]}"
    return short_source(spec) if is_camera_spec(spec) or spec_kind(spec) in ("camera", "replay") else spec


def first_frame_note(state: StationState) -> str:
    """Running, nothing shown yet: a watched folder waits for the camera software's first image (it said
    'Inspecting the first frame…' over an empty folder)."""
    if state.source.startswith("watch:"):
        return f"Waiting for the first image in {state.source[len('watch:'):]}…"
    return "Inspecting the first frame…"


def banner_note(state: StationState) -> str:
    if state.run == RUNNING:
        return first_frame_note(state)
    if state.source_status == OPEN:
        return "No verdict yet: press Start (Space)"
    return "No verdict yet: open a source, then press Start (Space)"


def view_note(state: StationState) -> str:
    """What the image view says before the first frame."""
    if state.run == RUNNING:  # the first frame takes seconds on a CPU
        return first_frame_note(state)
    if state.source_status == OPEN:
        words = source_words(state.source)
        return f"{words[:1].upper()}{words[1:]} is open — press Start (Space)."
    return "No frame yet — open a source and press Start (Space)."


def results_note(state: StationState) -> str:
    """What the empty Results dock says: what the station is doing, or what it waits for."""
    if state.run == RUNNING:
        return first_frame_note(state)
    if state.source_status == OPEN:
        return "No frames inspected yet: press Start (Space)"
    return "No frames inspected yet: open a source, then press Start (Space)"


class MainWindow(QMainWindow):
    # Requests to the worker thread (queued connections).
    _open_source = Signal(str)
    _start = Signal()
    _stop = Signal()
    _step = Signal()
    _swap = Signal(object)
    _thresholds = Signal(object)
    _recipe = Signal(object)
    _shutdown = Signal()
    _set_recorder = Signal(object)
    _set_job = Signal(str, str)

    def __init__(self, *, model: Path | None = None, source: str | None = None, backend: str | None = None,
                 recipe: Path | None = None, settings: StationSettings | None = None, read: bool = True,
                 journal_path: Path | None = None, testing: bool = False, autostart: bool = False, plc=None) -> None:
        super().__init__()
        self.setWindowTitle("Hangtag Station")
        self.settings = settings or StationSettings()
        self.model_path = Path(model or default_model_path())
        self.backend_name = backend or self.settings.get("engine/backend", "") or None
        self.precision = self.settings.get("engine/precision", "fp32")
        self.thresholds = self.settings.thresholds
        self.recipe = None
        self.recipe_path: Path | None = None
        self.reading_on = read
        self.pipeline = None
        job, lot = self.settings.job_lot
        self.state = StationModel(StationState(job=job, lot=lot))  # the one truth every view renders
        self.job_lot = (job, lot)
        self.results = ResultsModel(self)
        self.images = FrameMemory()  # live frames kept for re-display, by frame number
        self.current: FrameResult | None = None
        self.current_image: np.ndarray | None = None
        self.follow_live = True
        self.errors: list[str] = []
        self.drops = 0
        self._build_ui()
        self.source_bar.reading.blockSignals(True)
        self.source_bar.reading.setChecked(read)
        self.source_bar.reading.blockSignals(False)
        self.testing = testing  # no modal message boxes under tests
        self.autostart = autostart  # start inspecting as soon as the first engine is ready
        self._start_threads()
        self.records = RecordsLink(self, journal_path)
        self.remote = RemoteLink(self)  # the Servers dock, and server events in the journal and banner
        self.pressure = PressureLink(self)  # GPU memory pressure: the detector's variant in the journal and banner
        self.report_opener = ReportOpener(self)
        # the engine's details make room for a message the bar would clip (the header names the engine too)
        self.status_room = StatusRoom(self.statusBar(), [self.status_labels[k] for k in YIELDING_LABELS],
                                      [self.report_opener.button] + [self.status_labels[k] for k in STAYING_LABELS])
        self._add_history_action()
        self._set_recorder.emit(self.records.recorder)
        self._set_job.emit(job, lot)
        self.modes = ModeController(self)
        self.line = LineLink(self)  # Line menu: one verdict per tag on a moving line, the tag strip, NG held
        self.camera_link = CameraSettingsLink(self)  # Camera… on the source bar: an industrial camera's settings
        recipe = recipe or self.settings.recipe_path  # the job's recipe survives a restart
        if recipe:
            self.load_recipe(Path(recipe))
        self.plc = PlcLink.open(self, plc)  # the PLC's handshake and the I/O dock, when a transport is enabled
        self.request_engine(self.backend_name, self.precision)
        spec = source or self.settings.last_source
        if spec:
            self.source_bar.set_spec(spec)
            self.open_source(spec)

    # -- construction --------------------------------------------------------------------------------
    def _build_ui(self) -> None:
        self.header = StationHeader(self.state)
        self.source_bar = SourceBar()
        self.banner = VerdictBanner()
        self.errors_panel = ErrorPanel()
        self.view = ImageView()
        self.crops = CropsStrip()
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(2)
        layout.addWidget(self.header)
        layout.addWidget(self.source_bar)
        layout.addWidget(self.errors_panel)
        layout.addWidget(self.banner)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.crops)
        self.setCentralWidget(central)
        self.state.connect(self.source_bar.render)

        self.text_panel = TextPanel()
        self.tuning = TuningPanel(self.thresholds)
        self.plots = PlotsPanel(takt_ms=self._saved_takt())  # the line's takt survives a restart: violations
        # were counted against the 250 ms default again after each one
        self.plots.takt.valueChanged.connect(lambda ms: self.settings.set("plots/takt_ms", f"{ms:g}"))
        self.table = QTableView()
        self.table.setModel(self.results)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        metrics = self.table.fontMetrics()
        for column, widest in enumerate(("00:00:00", "", "REVIEW", "Tags", "Barcodes", "QR", "99999")):
            if widest:  # fixed widths: sizing to contents would measure a thousand rows twice a second
                header.resizeSection(column, metrics.horizontalAdvance(widest) + 18)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)  # the source name takes what is left
        self.results_note = TableNote(self.table)  # an empty Results dock said nothing at start
        self.docks = {}
        tuning_scroll = QScrollArea()  # the tuning form is taller than a 720-px screen leaves it
        tuning_scroll.setWidget(self.tuning)
        tuning_scroll.setWidgetResizable(True)
        tuning_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        for key, title, widget, area in (
                ("text", "Tag text", self.text_panel, Qt.DockWidgetArea.RightDockWidgetArea),
                ("tuning", "Tuning", tuning_scroll, Qt.DockWidgetArea.RightDockWidgetArea),
                ("results", "Results", self.table, Qt.DockWidgetArea.RightDockWidgetArea),
                ("plots", "Latency && memory", self.plots, Qt.DockWidgetArea.RightDockWidgetArea)):
            dock = QDockWidget(title, self)  # "&&": a lone & marks a mnemonic in the View menu's entry
            dock.setObjectName(f"dock_{key}")
            dock.setWidget(widget)
            self.addDockWidget(area, dock)
            self.docks[key] = dock
        # One right-hand column: tag text, tuning and plots as tabs, the results below them.
        self.tabifyDockWidget(self.docks["text"], self.docks["tuning"])
        self.tabifyDockWidget(self.docks["text"], self.docks["plots"])
        self.docks["text"].raise_()
        self.tuning.set_backends(list_backends(), self.backend_name or "")
        self.tuning.set_precision(self.precision)

        self.status_labels = {}
        for key in YIELDING_LABELS + STAYING_LABELS:
            from PySide6.QtWidgets import QLabel

            label = QLabel("")
            self.statusBar().addPermanentWidget(label)
            self.status_labels[key] = label
        self._build_menus()

        self.source_bar.open_requested.connect(self.open_source)
        self.source_bar.start_requested.connect(self.start)
        self.source_bar.stop_requested.connect(self.stop)
        self.source_bar.step_requested.connect(self.step)
        self.source_bar.reading_changed.connect(self._on_reading_changed)
        self.source_bar.recipe_requested.connect(lambda p: self.load_recipe(Path(p)))
        self.source_bar.recipe_pick_requested.connect(self.pick_recipe)
        self.tuning.thresholds_changed.connect(self.set_thresholds)
        self.tuning.engine_requested.connect(self._on_engine_requested)
        self.table.clicked.connect(lambda index: self.show_result_at(index.row()))
        self._pending = None
        self.state.connect(self._render_state)  # after the views it renders into
        self.frames_painted = 0
        self._last_paint = 0.0
        self._paint_timer = QTimer(self)
        self._paint_timer.setSingleShot(True)
        self._paint_timer.setInterval(PAINT_INTERVAL_MS)
        self._paint_timer.timeout.connect(self._paint_pending)
        self._whatif_timer = QTimer(self)
        self._whatif_timer.setSingleShot(True)
        self._whatif_timer.setInterval(250)
        self._whatif_timer.timeout.connect(self._update_whatif)
        self._status_timer = QTimer(self)
        self._status_timer.setInterval(500)
        self._status_timer.timeout.connect(self._update_status)
        self._status_timer.timeout.connect(self._flush_rows)
        self._status_timer.start()

        geometry = self.settings.store.value("window/geometry")
        state = self.settings.store.value("window/state")
        self.geometry_restored = isinstance(geometry, QByteArray) and self.restoreGeometry(geometry)
        if not self.geometry_restored:  # the docks are laid out for this size; the first start then maximizes
            screen = QApplication.primaryScreen()
            self.resize(*first_size(screen.availableGeometry().size() if screen else None))
        # A saved layout is kept at start; otherwise the mode lays the docks out for this screen.
        self._keep_restored_layout = isinstance(state, QByteArray) and self.restoreState(state)

    def _saved_takt(self) -> float:
        try:
            return float(self.settings.get("plots/takt_ms", "") or DEFAULT_TAKT_MS)
        except ValueError:  # a hand-edited settings file: the default, not a window that will not open
            return DEFAULT_TAKT_MS

    def layout_for_mode(self, operator: bool) -> None:
        """Dock sizes for the mode and the window's size, so 1280×720 shows everything the mode needs at
        once. The docks never move (moving tabified docks leaves Qt's old tab bars on screen): one right-hand
        column holds tag text, tuning and plots as tabs with the results below; operator mode hides the
        tabs, so the results fill the column and the live image keeps the rest."""
        from app.modes import ENGINEER_DOCKS

        d = self.docks
        for column in (3, 4, 5, 6):  # tags, barcodes, QR, ms: engineer's columns
            self.table.setColumnHidden(column, operator)
        for key in ENGINEER_DOCKS:
            d[key].setVisible(not operator)
        if self._keep_restored_layout:  # the first layout of a restored window is the one it was left with
            self._keep_restored_layout = False
            return
        h, w = max(self.height(), 600), max(self.width(), 800)
        if operator:
            self.resizeDocks([d["results"]], [min(400, w // 4)], Qt.Orientation.Horizontal)
            return
        d["text"].raise_()
        self.resizeDocks([d["text"]], [max(440, w // 3)], Qt.Orientation.Horizontal)
        self.resizeDocks([d["text"], d["results"]], [h * 3 // 5, h * 2 // 5], Qt.Orientation.Vertical)

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        quit_action = QAction("Quit", self, shortcut=QKeySequence.StandardKey.Quit, triggered=self.close)
        file_menu.addAction(QAction("Teach job from the tag on screen…", self, triggered=self.teach_job))
        file_menu.addAction(QAction("Adapt the detector to this line…", self, triggered=self.adapt_detector))
        file_menu.addAction(quit_action)
        self.file_menu = file_menu
        view = self.menuBar().addMenu("&View")
        view.addAction(QAction("Fit (F)", self, triggered=self.view.fit))
        view.addAction(QAction("Actual size (1:1)", self, triggered=self.view.actual_size))
        self.dark_action = QAction("Dark theme", self, checkable=True, triggered=self.set_dark)
        self.dark_action.setChecked(self.settings.get("view/dark", "false") == "true")
        view.addAction(self.dark_action)
        for dock in self.docks.values():
            view.addAction(dock.toggleViewAction())
        self.mode_menu = self.menuBar().addMenu("&Mode")
        self.menuBar().addMenu("&Help").addAction(QAction("About Hangtag Station", self, triggered=self._show_about))
        QShortcut(QKeySequence(Qt.Key.Key_Space), self, activated=self.toggle_run)
        self._space = SpaceStops(self)  # a spin box keeps Space for itself; Space must still stop the line
        QShortcut(QKeySequence(Qt.Key.Key_Right), self, activated=self.step)
        QShortcut(QKeySequence(Qt.Key.Key_F), self, activated=self.view.fit)

    def _show_about(self) -> None:
        from app.about import show_about

        show_about(self)

    def _start_threads(self) -> None:
        self.worker_thread = QThread(self)
        self.worker_thread.setObjectName("inspection-worker")
        self.worker = InspectionWorker()
        self.worker.moveToThread(self.worker_thread)
        self._open_source.connect(self.worker.open_source)
        self._start.connect(self.worker.start)
        self._stop.connect(self.worker.stop)
        self._step.connect(self.worker.step)
        self._swap.connect(self.worker.swap_inspector)
        self._thresholds.connect(self.worker.set_thresholds)
        self._recipe.connect(self.worker.set_recipe)
        self._shutdown.connect(self.worker.shutdown)
        self._set_recorder.connect(self.worker.set_recorder)
        self._set_job.connect(self.worker.set_job)
        self.source_bar.loop_changed.connect(self.worker.set_loop)
        self.source_bar.fps_cap_changed.connect(self.worker.set_fps_cap)
        self.worker.frame_done.connect(self._on_frame_done)
        self.worker.errored.connect(self._on_error)
        # Worker signals go to this window's own methods (queued onto the UI thread); a lambda
        # would run on the worker's thread and touch widgets from there.
        self.worker.state_changed.connect(self._on_worker_state)
        self.worker.source_opened.connect(self._on_source_opened)
        self.worker.source_failed.connect(self._on_source_failed)
        self.worker.source_finished.connect(self._on_source_finished)
        self.worker.engine_swapped.connect(self._on_engine_swapped)
        self.worker.drops_changed.connect(self._on_drops)
        start_below_gui(self.worker_thread)  # detection, tracking, the journal: below the event loop

        self.engines = EngineLink(self)
        self.engines.ready.connect(self._on_engine_ready)
        self.engines.failed.connect(self._on_engine_failed)

    # -- engine ---------------------------------------------------------------------------------------
    def request_engine(self, backend: str | None, precision: str, input_size: int = 0) -> None:
        """Prepare a new engine in the background; the running one keeps inspecting until it is ready."""
        self.engines.request({"model": self.model_path, "backend": backend, "precision": precision,
                              "recipe": self.recipe_path, "read": self.reading_on, "thresholds": self.thresholds,
                              "input_hw": (input_size, input_size) if input_size else None},
                             show_progress=self.pipeline is not None)

    def _on_engine_requested(self, backend: str, precision: str, input_size: int) -> None:
        self.request_engine(backend, precision, input_size)

    def _on_engine_ready(self, inspector: Inspector) -> None:
        self.precision = getattr(inspector, "precision", "fp32")
        self.settings.set("engine/backend", inspector.pipeline.backend)
        self.settings.set("engine/precision", self.precision)
        self.remote.attach(inspector)
        self.pressure.attach(inspector)
        inspector.recipe = self.recipe  # the recipe loaded while this engine was being built (a PLC's job select)
        self._swap.emit(self.line.wrap(inspector))

    def _on_engine_failed(self, message: str) -> None:
        title = "Engine not changed (the previous engine stays in use)" if self.pipeline is not None \
            else "No engine loaded: nothing can be inspected"  # at start nothing was 'changed'
        self._on_error(f"{title}:\n{message}")
        self.errors_panel.show_error("engine", title, message)
        if self.pipeline is not None:  # the lists go back to the engine in use: INT8 stayed picked over a FP32 engine
            self.tuning.set_backends(list_backends(), self.backend_name or "")
            self.tuning.set_precision(self.precision)
        if self.pipeline is None:
            self.view.show_message("No engine: " + message.splitlines()[0], error=True)
            # nothing can run: the header says so, not "loading…", even after a source fails and the run is STOPPED
            self.state.update(run=ERROR, engine_problem=message)

    def _on_engine_swapped(self, pipeline) -> None:
        self.pipeline = pipeline
        self.backend_name = pipeline.backend
        self.tuning.set_classes(pipeline.class_names, self.thresholds)
        self.tuning.set_backends(list_backends(), pipeline.backend)
        self.tuning.set_precision(self.precision)
        self.statusBar().showMessage(f"Engine ready: {pipeline.backend}, {self.precision.upper()}", 5000)
        self.plots.set_stages(pipeline.backend)
        self.errors_panel.clear_kind("engine")
        self.state.update(engine=f"{ENGINE_NAMES.get(pipeline.backend, pipeline.backend)} {self.precision.upper()}",
                          engine_problem="",
                          run=STOPPED if self.state.state.run == ERROR else self.state.state.run)
        self._update_status()
        if self.autostart:
            self.autostart = False
            self.start()

    # -- sources and running --------------------------------------------------------------------------
    def open_source(self, spec: str) -> None:
        self.settings.last_source = spec
        self.drops = 0  # the dropped counter belongs to one source
        if spec != self.state.state.source and self.current is not None:
            self._forget_frame_on_screen()
        self.state.update(source=spec, source_status=NONE, source_message="")
        self._open_source.emit(spec)

    def _forget_frame_on_screen(self) -> None:
        """Another source: the last one's frame and verdict leave the screen (a watched folder waiting for its first
        image sat under the previous folder's NG banner and frame). Its rows stay in Results and the journal."""
        self.current, self.current_image, self._pending = None, None, None
        if not self.line.per_tag:  # a moving line's banner shows its last tag
            self.banner.show_verdict("—", [])
        self.text_panel.show_result(None, self.reading_on)
        self.table.clearSelection()

    def _on_worker_state(self, state: str) -> None:
        if state == "running":
            self.plots.run_started()
            self.state.update(run=RUNNING)
        elif self.state.state.run == RUNNING:
            self.state.update(run=STOPPED)

    def _on_source_failed(self, spec: str, message: str) -> None:
        """The previous source is closed and forgotten: Start is off until another source opens."""
        self._on_error(f"Source not opened: {source_words(spec)}\n{message}")
        self.errors_panel.show_error("source", f"Source not opened: {source_words(spec)}", message)
        self.state.update(source=spec, source_status=FAILED, source_message=message, run=STOPPED)

    def _render_state(self, state: StationState, changed: frozenset) -> None:
        """A failed source leaves nothing green on screen: the banner and the view say NO SOURCE."""
        if "source_status" in changed and state.source_status == FAILED:
            self.current, self.current_image, self._pending = None, None, None
            why = (state.source_message.splitlines() or [""])[0]
            # "source not found: PATH" names the path itself: the banner said it twice
            self.banner.show_verdict("NO SOURCE", [why if state.source in why else f"{state.source}: {why}"])
            # one name for the state: the view's heading said ERROR under the NO SOURCE banner
            self.view.show_message(f"{source_words(state.source)} could not be opened", error=True, heading="NO SOURCE")
            self.crops.show_crops(None, None, note="no source")
            self.text_panel.show_result(None, self.reading_on)  # the last frame's reads no longer describe the screen
            self.table.clearSelection()
        elif "source_status" in changed and state.source_status == OPEN and self.banner.verdict.text() == "NO SOURCE":
            self.banner.show_verdict("—", ["Source open: press Start (Space)"])
        if state.source_status != FAILED and self.current is None and self._pending is None:
            # nothing inspected yet: "open a source and press Start" stayed over a source opened at start, and the
            # strip under it was an empty grey band
            self.view.show_message(view_note(state))
            self.crops.show_crops(None, None, note="no frame yet")
        self.results_note.say(results_note(state))
        line = getattr(self, "line", None)  # built after the first call
        if line is not None and line.per_tag:  # a moving line's banner says what it waits for
            if (line.shows_tags and line.model.last is None and self.banner.verdict.text() == "—"
                    and state.source_status != FAILED):
                self.banner.show_verdict("—", [line_banner_note(state)])
        elif self.current is None and self.banner.verdict.text() == "—" and state.source_status != FAILED:
            self.banner.show_verdict("—", [banner_note(state)])  # the grey band said nothing but "—"

    def _on_source_finished(self, description: str) -> None:
        if self.statusBar().currentMessage().startswith("⚠"):  # what went wrong last stays: "Finished camera replay
            return  # …" hid "stopped at frame 198 of 600" at once (the header says STOPPED)
        self.statusBar().showMessage(f"Finished {description}", 8000)

    def _on_source_opened(self, description: str, count: int) -> None:
        self.statusBar().showMessage(f"Opened {description}" + (f" ({count} frames)" if count else ""), 5000)
        self.errors_panel.clear_kind("source")
        self.state.update(source_status=OPEN, source_message="")

    def start(self) -> None:
        self.follow_live = True
        self._start.emit()

    def stop(self) -> None:
        self.worker.request_stop()
        self._stop.emit()

    def step(self) -> None:
        self.follow_live = True
        self._step.emit()

    def toggle_run(self) -> None:
        if self.state.state.run == RUNNING or self.source_bar.running:
            self.stop()
        elif self.state.state.can_start:
            self.start()

    def _on_drops(self, drops: int) -> None:
        self.drops = drops

    # -- results -------------------------------------------------------------------------------------
    def _on_frame_done(self, image: np.ndarray, result: FrameResult) -> None:
        image = image if image.size else None
        self.results.append(result)
        self.plots.add_result(result)
        if image is not None and not _rereadable(result):
            self.images.keep(self.results.total - 1, detach(image))  # a camera's lent frame goes back
        if self.follow_live:
            # Paint at most at the display timer's rate; a fast engine must not flood the UI thread.
            self._pending = (image, result)
            if not self._paint_timer.isActive():  # paint now if the last paint is old enough
                since = (time.perf_counter() - self._last_paint) * 1000
                self._paint_timer.start(int(max(0.0, PAINT_INTERVAL_MS - since)))

    def _paint_pending(self) -> None:
        if self._pending is None:
            return
        image, result = self._pending
        self._pending = None
        self._display(image, result)
        self.frames_painted += 1
        self._last_paint = time.perf_counter()

    def _flush_rows(self) -> None:
        """New result rows appear twice a second (status timer): a table relayout per frame would
        cost the live view its frame rate."""
        at_bottom = self.follow_live
        self.results.flush()
        if at_bottom:
            self.table.scrollToBottom()

    def set_job(self, job: str, lot: str) -> None:
        """Job and lot go into the sessions that follow (a change starts a new session); kept across restarts."""
        self.job_lot = (job, lot)
        self.settings.job_lot = (job, lot)
        self._set_job.emit(job, lot)
        self.state.update(job=job, lot=lot)

    def _display(self, image: np.ndarray | None, result: FrameResult, *, cached: bool = True) -> None:
        """Show a result; `cached` False for an old row whose candidates left the ring (shown as recorded)."""
        self.current, self.current_image = result, image
        preview = False
        if not result.ok:
            lines = (result.error or "").splitlines() or [""]
            first = lines[0]
            # what to do goes on the image too: operator mode has no Tag text dock to show the whole error
            hint = next((" ".join(line.split()) for line in lines if line.strip().startswith("hint:")), "")
            # "000002.jpg: could not be inspected" over "000002.jpg could not be decoded" named the file twice
            # a camera's frame by "camera line.avi #299", not "camera-/tmp/…/line.avi#299"
            said = first if first.startswith(result.source_name) else \
                f"{readable_name(result)}: could not be inspected\n{first}"
            self.view.show_message(said + (f"\n{hint}" if hint else ""), error=True)
            self.crops.show_crops(None, None, note=f"no image: {readable_name(result)} could not be inspected")
            reasons = [first]
        else:
            preview = cached and result.thresholds != self.thresholds
            shown = rejudge(result, self.thresholds, self.recipe) if preview else result
            self.view.show_frame(image, shown.detections, _not_tags(shown), tag_papers(shown))
            self.crops.show_crops(image, shown.detections, not_tags=_not_tags(shown))
            result = shown
            reasons = list(getattr(result.verdict, "reasons", ()) or ())
            if result.verdict is None:
                reasons = [f"{len(result.detections)} detections; load a recipe to get OK / NG / REVIEW"]
        if not self.line.shows_tags:  # on a moving line the banner shows the last finished tag instead
            self.banner.show_verdict(Inspector.verdict_text(result), reasons, preview=preview)
        if not (self.line.shows_tags and self.line.tag_rows.tags and result.verdict == TRACKED):
            self.text_panel.show_result(result, self.reading_on)  # else the Tag text keeps the last tag's read

    def show_result_at(self, row: int) -> None:
        if not 0 <= row < len(self.results.results):
            return
        self.follow_live = row == len(self.results.results) - 1
        self._pending = None  # a live frame queued for painting must not replace the row chosen
        result = self.results.results[row]
        image = self.images.get(self.results.dropped + row)
        if image is None and result.ok and _rereadable(result):
            try:
                image = read_image(result.source_path)
            except Exception as exc:
                self._on_error(f"Cannot show {result.source_name} again: {exc}")
        self._display(image, result, cached=self.results.has_candidates(row))
        if image is None and result.ok and not _rereadable(result):  # boxes drawn over another frame: say why
            self.view.show_message(f"{readable_name(result)}: its image is no longer held by the window (it keeps the "
                                   f"newest {self.images.budget_bytes >> 20} MiB of live frames).\nNG and REVIEW "
                                   "frames are archived: File → History… (Ctrl+H)")

    # -- tuning ----------------------------------------------------------------------------------------
    def set_thresholds(self, thresholds: Thresholds) -> None:
        """Re-filter the frame on screen from its cached candidates at once; no engine call."""
        self.thresholds = thresholds
        self.settings.thresholds = thresholds
        self._thresholds.emit(thresholds)
        self._rejudge_on_screen()
        self._whatif_timer.start()

    def _rejudge_on_screen(self) -> None:
        """Judge the frame on screen again with the current thresholds and recipe; a verdict the station did
        not record (other thresholds) is shown as a PREVIEW."""
        current = self.current
        if current is None or not current.ok:
            return
        preview = current.thresholds != self.thresholds
        shown = rejudge(current, self.thresholds, self.recipe)
        self.view.show_detections(shown.detections, _not_tags(shown), tag_papers(shown))
        self.crops.show_crops(self.current_image, shown.detections, not_tags=_not_tags(shown))
        if not self.line.shows_tags:  # a recipe swapped mid-line put the tracked frame's "no legible hangtag" REVIEW
            # over the last finished tag (the banner and the Tag text show that tag)
            self.banner.show_verdict(Inspector.verdict_text(shown), list(getattr(shown.verdict, "reasons", ()) or ()),
                                     preview=preview)
            self.text_panel.show_result(shown, self.reading_on)

    def _update_whatif(self) -> None:
        self.tuning.whatif.setText(whatif_text(self.results.results[-self.results.cache_last:], self.thresholds,
                                               self.recipe))

    def pick_recipe(self) -> None:
        """Recipe…: the engineer browses the recipes folder; the operator picks an approved recipe."""
        ask = recipe_picker.ask_engineer if self.modes.mode == ENGINEER else recipe_picker.ask_operator
        path = ask(self, self.settings)
        if path is not None:
            self.load_recipe(path)

    def teach_job(self) -> None:
        """File → Teach job… (engineer mode): the tag on screen, as read, becomes the job's recipe."""
        from PySide6.QtWidgets import QMessageBox

        from app.teach_dialog import TeachDialog

        result, image = self.current, self.current_image
        tags = [t for t in (result.readings if result is not None and result.ok else ()) if t.is_tag]
        if image is None or not tags:
            QMessageBox.information(self, "Teach job", "Show the station one good tag first: open it as an image (or "
                                    "hold it under the camera) with Read on, then choose Teach job… again.")
            return
        tag = max(tags, key=lambda t: (t.xyxy[2] - t.xyxy[0]) * (t.xyxy[3] - t.xyxy[1]))
        folder = user_data_dir() / "recipes"
        folder.mkdir(parents=True, exist_ok=True)
        self.teach_dialog = TeachDialog(image, tag, tags_in_frame=len(tags), recipes_dir=folder, parent=self)
        if self.teach_dialog.exec() and self.teach_dialog.saved_path is not None and self.teach_dialog.load_after.isChecked():
            self.load_recipe(self.teach_dialog.saved_path)

    def _add_history_action(self) -> None:
        first = self.file_menu.actions()[0]  # beside Export report: both read the journal
        self.history_action = QAction("History…", self, shortcut=QKeySequence("Ctrl+H"), triggered=self.show_history)
        self.file_menu.insertAction(first, self.history_action)

    def show_history(self) -> None:
        """File → History… (Ctrl+H), in both modes: sessions, frames and archived images, on a read-only connection."""
        from app.history import HistoryWindow

        if getattr(self, "history_window", None) is None:
            self.history_window = HistoryWindow(self.records.journal.path, records=self.records, parent=self,
                                                inspecting=self._inspecting_session)
            self.state.connect(lambda state, changed: "run" in changed and self.history_window.sessions.run_changed())
        else:
            self.history_window.refresh()
        self.history_window.show()
        self.history_window.raise_()
        self.history_window.activateWindow()

    def _inspecting_session(self) -> int | None:
        """The journal session frames are going into now; None while stopped (History said a stopped run was running)."""
        return self.records.recorder.session_id if self.state.state.run == RUNNING else None

    def adapt_detector(self) -> None:
        """File → Adapt the detector… (engineer mode): collect, correct, fine-tune, compare, adopt (app/adapt/)."""
        from app.adapt.window import AdaptWindow

        self.adapt_window = getattr(self, "adapt_window", None) or AdaptWindow(self)
        self.adapt_window.show()
        self.adapt_window.raise_()

    def load_recipe(self, path: Path) -> None:
        try:
            from inference.reading import load_recipe

            self.recipe = load_recipe(path)
        except Exception as exc:
            # say what judges the next tag: the header still names the old recipe, and nothing said it was kept
            kept = (f"the recipe in use stays: {self.state.state.recipe}" if self.recipe is not None
                    else "no recipe in use: frames get no verdict")
            self._on_error(f"Recipe not loaded: {path} ({kept})\n{exc}")
            self.errors_panel.show_error("recipe", f"Recipe not loaded: {path} ({kept})", exc)
            return
        self.recipe_path = path
        self.settings.recipe_path = str(path)
        self.errors_panel.clear_kind("recipe")
        self.state.update(recipe=str(getattr(self.recipe, "name", "") or path.stem), recipe_path=str(path))
        self._recipe.emit(self.recipe)
        self._rejudge_on_screen()  # the banner must not keep saying "no recipe"
        self._whatif_timer.start()  # the what-if counts threshold changes under this recipe, from now on

    def _on_reading_changed(self, on: bool) -> None:
        self.reading_on = on
        self.request_engine(self.backend_name, self.precision)

    # -- errors, status, settings ----------------------------------------------------------------------
    def _on_error(self, message: str) -> None:
        self.errors.append(message)
        first = message.splitlines()[0]
        bar = self.statusBar()  # cut with "…" where the permanent labels begin: "…连衣裙" ran on into "Model:"
        bar.showMessage(bar.fontMetrics().elidedText(f"⚠ {first}", Qt.TextElideMode.ElideRight,
                                                     max(message_room(self), 240)), 15000)
        print(f"[station] {message}", flush=True)
        if first.startswith("The source failed"):  # a source that stopped mid-run: the panel keeps the details
            self.errors_panel.show_error("source", "The source stopped", message)
            self.state.update(run=STOPPED)

    def _update_status(self) -> None:
        p = self.pipeline
        labels = self.status_labels
        labels["model"].setText(f"Model: {self.model_path.name}")
        labels["backend"].setText(f"Backend: {p.backend if p else '—'}")
        labels["precision"].setText(f"Precision: {self.precision.upper()}")
        labels["device"].setText(f"Device: {p.engine.device_name if p else '—'}")
        labels["frames"].setText(f"Frames: {self.results.total}" + (f" (dropped {self.drops})" if self.drops else ""))
        labels["fps"].setText(rate_text(self.plots.fps))

    def set_dark(self, dark: bool) -> None:
        apply_theme(QApplication.instance(), dark)
        self.settings.set("view/dark", "true" if dark else "false")

    def closeEvent(self, event) -> None:  # noqa: N802
        self.settings.store.setValue("window/geometry", self.saveGeometry())
        self.settings.store.setValue("window/state", self.saveState())
        self.settings.sync()
        close_inspection(self)  # bounded; the tags in view are journaled and the session ends first
        if self.plc is not None:
            self.plc.close()
        self.engines.close()
        if getattr(self, "history_window", None) is not None:
            self.history_window.shutdown()
        self.records.close()
        super().closeEvent(event)


def _rereadable(result: FrameResult) -> bool:
    """An image file's frame is read again from disk to show it again; a video's or a camera's is kept."""
    path = result.source_path
    return bool(path) and Path(path).suffix.lower() in IMAGE_SUFFIXES and Path(path).is_file()
