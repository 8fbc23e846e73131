"""Engines are prepared off the UI thread: precision conversion, TensorRT builds and loading run on
their own thread with a progress dialog and Cancel; the running engine is untouched until the new
one is ready, and a failure leaves it in use."""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QObject, QThread, Signal, Slot
from PySide6.QtWidgets import QProgressDialog

from app.thread_exit import wait_or_let_go
from app.thread_priority import start_below_gui
from app.worker import describe_error
from inference.errors import HangtagError
from inference.inspection import Inspector


class EngineLoader(QObject):
    """Builds an Inspector (precision conversion, engine build) off the UI thread; the old one keeps
    running until this one is ready. Cancel is honoured between steps."""

    progress = Signal(str, float)
    ready = Signal(object)
    failed = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self._cancel = threading.Event()

    def cancel(self) -> None:
        self._cancel.set()

    @Slot(object)
    def load(self, request: dict) -> None:
        self._cancel.clear()
        try:
            model = Path(request["model"])
            precision = request.get("precision", "fp32")
            backend = request.get("backend")
            if precision != "fp32" or (backend or "").startswith("tensorrt"):
                self.progress.emit(f"Preparing the {precision.upper()} model", 0.05)
                model = _prepare_precision(model, precision, backend, request.get("calibration"), self._report,
                                           self._cancel)
            if self._cancel.is_set():
                self.failed.emit("Cancelled; the current engine stays in use.")
                return
            self.progress.emit(f"Loading {request.get('backend') or 'default'} engine", 0.8)
            inspector = Inspector.open(model, request.get("backend"), recipe_path=request.get("recipe"),
                                       read=request.get("read", True), thresholds=request.get("thresholds"),
                                       input_hw=request.get("input_hw"))
            inspector.precision = precision  # type: ignore[attr-defined]
            if self._cancel.is_set():
                inspector.close()
                self.failed.emit("Cancelled; the current engine stays in use.")
                return
            self.progress.emit("Ready", 1.0)
            self.ready.emit(inspector)
        except Exception as exc:
            self.failed.emit(describe_error(exc))

    def _report(self, step: str, fraction: float) -> None:
        self.progress.emit(step, 0.05 + 0.7 * float(fraction))


def _prepare_precision(model: Path, precision: str, backend: str | None, calibration: Path | None, progress,
                       cancel) -> Path:
    """FP16/INT8 conversion (cached by content) and, for TensorRT, the engine build."""
    from inference.precision import Cancelled, prepare_for_backend
    from inference.resources import samples_dir

    try:
        return Path(prepare_for_backend(model, precision, backend or "onnxruntime-cpu",
                                        calibration_dir=calibration or samples_dir(), progress=progress,
                                        cancel=cancel.is_set))
    except Cancelled as exc:
        raise HangtagError("cancelled", hint="the current engine stays in use") from exc


class EngineLink(QObject):
    """The window's side: one loader thread, one progress dialog per request."""

    ready = Signal(object)  # Inspector
    failed = Signal(str)
    _load = Signal(object)

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window
        self.thread = QThread(self)
        self.thread.setObjectName("engine-loader")
        self.loader = EngineLoader()
        self.loader.moveToThread(self.thread)
        self._load.connect(self.loader.load)
        self.loader.ready.connect(self._on_ready)
        self.loader.failed.connect(self._on_failed)
        self.loader.progress.connect(self._on_progress)
        start_below_gui(self.thread)  # so are the engines' own thread pools, started from this thread
        self.dialog: QProgressDialog | None = None

    def request(self, request: dict, *, show_progress: bool) -> None:
        if show_progress:
            self.dialog = QProgressDialog("Preparing the engine…", "Cancel", 0, 100, self.window)
            self.dialog.setWindowTitle("New engine")
            self.dialog.setMinimumDuration(300)
            self.dialog.canceled.connect(self.loader.cancel)  # a plain call: runs now, on this thread
        backend = request.get("backend") or "best backend"
        self.window.statusBar().showMessage(f"Loading {Path(request['model']).name} ({backend}, "
                                            f"{request.get('precision', 'fp32').upper()})…")
        self._load.emit(request)

    def _on_progress(self, step: str, fraction: float) -> None:
        if self.dialog is not None:
            self.dialog.setLabelText(step)
            self.dialog.setValue(int(fraction * 100))

    def _on_ready(self, inspector: Inspector) -> None:
        self._close_dialog()
        self.ready.emit(inspector)

    def _on_failed(self, message: str) -> None:
        self._close_dialog()
        self.failed.emit(message)

    def _close_dialog(self) -> None:
        if self.dialog is not None:
            self.dialog.close()
            self.dialog = None

    def close(self) -> None:
        self.loader.cancel()
        self.thread.quit()
        if not wait_or_let_go(self.thread, 3.0, self.loader):  # a build between two cancel checks
            self.window._on_error("Closing: the engine being prepared was still loading after 3 s; it is "
                                  "abandoned (nothing of it is kept: it is prepared again at the next start)")
