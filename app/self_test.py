"""`HangtagStation --self-test`: proof, without a display or an operator, that this build inspects.

Run after installing a bundle on a new machine, and by CI against the freshly built bundle. It
exercises what a bundle most often gets wrong: a resource left out, a library that will not load
(ONNX Runtime, OpenCV's FFmpeg, zxing-cpp, Qt's platform and JPEG plugins), the OCR model files, a
report that cannot be written. Every check says what it expected and what it found; the first
failure stops the run with exit status 1.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from inference.errors import HangtagError
from inference.imageio import list_images
from inference.resources import default_model_path, font_path, samples_dir


class SelfTestFailed(HangtagError):
    """A check of the self-test did not hold."""


@dataclass
class Tally:
    """What the samples gave, added up for the summary and the checks."""

    frames: int = 0
    errors: list[str] = field(default_factory=list)
    labels: Counter = field(default_factory=Counter)
    verdicts: Counter = field(default_factory=Counter)
    tags_read: int = 0
    fields_read: int = 0
    barcodes_read: int = 0

    def add(self, result: Any, verdict: str) -> None:
        self.frames += 1
        self.verdicts[verdict] += 1
        if not result.ok:
            self.errors.append(f"{result.source_name}: {result.error.splitlines()[0]}")
            return
        self.labels.update(result.detections.labels)
        for reading in result.readings:
            self.tags_read += 1
            self.fields_read += len(reading.fields)
            self.barcodes_read += len(reading.barcodes)


def seconds_since_launch() -> float:
    """From the process's start as the OS recorded it, so the bundle's loading and imports count.

    On Linux both ends come from the boot clock in ticks (10 ms); psutil's create_time adds the boot
    time, which /proc rounds to whole seconds, so it is only the fallback elsewhere.
    """
    try:
        with open("/proc/self/stat", encoding="ascii") as stat, open("/proc/uptime", encoding="ascii") as uptime:
            start_ticks = int(stat.read().rsplit(")", 1)[1].split()[19])  # field 22, starttime
            return float(uptime.read().split()[0]) - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        import psutil

        return time.time() - psutil.Process().create_time()


def run_self_test(*, model: Path | None = None, backend: str | None = None, recipe: Path | None = None,
                  samples: Path | None = None, read: bool = True, keep: bool = False,
                  out: TextIO = sys.stdout) -> int:
    """Exit status: 0 when every check held, 1 with the reason on stderr otherwise."""
    from app.versions import APP_TITLE, app_version, build_kind

    start = time.perf_counter()
    say = _printer(out)
    say(f"{APP_TITLE} {app_version()} self-test ({build_kind()}: {_where()})")
    workdir = Path(tempfile.mkdtemp(prefix="hangtag-self-test-"))
    try:
        model = model or default_model_path()
        samples = samples or samples_dir()
        images = _check_resources(model, samples)
        _report_backends(say)
        tally, results, inspector_info = _inspect(model, backend, recipe, images, read, say)
        _check_results(tally, inspector_info["reader"])
        say(f"  {tally.frames} samples: {_counts(tally.labels) or 'nothing found'}; "
            f"verdicts {_counts(tally.verdicts)}")
        if inspector_info["reader"]:
            say(f"  reader: {tally.tags_read} tags read, {tally.fields_read} fields, {tally.barcodes_read} barcodes")
        say(f"  linear algebra: {_check_linear_algebra()}")
        say(f"  video: {_check_video(workdir)}")
        say(f"  Qt: {_check_qt()}")
        say(f"  window: {_check_window(model, backend, recipe, samples, inspector_info['reader'], workdir)}")
        say(f"  report: {_check_report(results, inspector_info, workdir)}")
    except HangtagError as exc:
        print(f"self-test FAILED: {exc}", file=sys.stderr, flush=True)
        print(_kept_note(workdir), file=sys.stderr, flush=True)
        return 1
    except Exception as exc:  # anything unplanned is still a failed self-test, with its reason
        import traceback

        traceback.print_exc()
        print(f"self-test FAILED: {type(exc).__name__}: {exc}\n{_kept_note(workdir)}", file=sys.stderr, flush=True)
        return 1
    if not keep:
        shutil.rmtree(workdir, ignore_errors=True)
    say(f"self-test passed in {time.perf_counter() - start:.1f} s ({seconds_since_launch():.1f} s since launch)"
        + (f"; work folder {workdir}" if keep else ""))
    return 0


def _kept_note(workdir: Path) -> str:
    """A failed self-test keeps what it wrote for a look; a work folder it never wrote to is removed
    (a check that failed before writing left one empty folder in the temp dir per run)."""
    if workdir.is_dir() and not any(workdir.iterdir()):
        workdir.rmdir()
        return "  (nothing was written before the failure)"
    return f"  (work folder kept for a look: {workdir})"


# -- checks ------------------------------------------------------------------------------------------
def _check_resources(model: Path, samples: Path) -> list[Path]:
    if not model.is_file():
        raise SelfTestFailed("the detector model is missing", expected=str(model), found="no such file",
                             hint="a bundle built before resources/models/hangtag_det.onnx existed; rebuild it")
    if not samples.is_dir():
        raise SelfTestFailed("the sample images are missing", expected=f"a folder {samples}", found="nothing there")
    images = list_images(samples)
    if not images:
        raise SelfTestFailed("no sample images", expected=f"image files in {samples}",
                             found=", ".join(p.name for p in samples.iterdir()) or "an empty folder")
    for weight in ("Regular", "Bold"):
        if not font_path(weight).is_file():
            raise SelfTestFailed("the bundled CJK font is missing", expected=str(font_path(weight)),
                                 found="no such file", hint="Chinese text would render as boxes")
    return images


def _report_backends(say: Callable[[str], None]) -> None:
    from app.versions import backends_text

    say(f"  backends: {backends_text()}")


def reader_expected() -> tuple[bool, str]:
    """Whether this build carries the tag reader; when it does, failing to open it is a failure."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("inference.reading")
    except ImportError:
        spec = None
    present = spec is not None and spec.origin not in (None, "namespace")  # a bare folder is no reader
    return present, "" if present else "this build has no tag reader (inference.reading)"


def _inspect(model: Path, backend: str | None, recipe: Path | None, images: list[Path], read: bool,
             say: Callable[[str], None]) -> tuple[Tally, list[Any], dict[str, Any]]:
    from inference.inspection import Inspector
    from inference.sources import ImageFilesSource

    present, why_not = reader_expected()
    read, why_not = (present, why_not) if read else (False, "--no-read")
    opened = time.perf_counter()
    with Inspector.open(model, backend, recipe_path=recipe, read=read) as inspector:
        info = {"backend": inspector.pipeline.backend, "reader": inspector.reader is not None,
                "recipe": inspector.recipe_name, "model": model.name, "model_path": model,
                "precision": getattr(inspector, "precision", "fp32")}
        say(f"  model {model.name} on {info['backend']}"
            + (", with the tag reader" if info["reader"] else f", detection only ({why_not})")
            + (f", recipe {info['recipe']}" if info["recipe"] else ", no recipe")
            + f": opened in {time.perf_counter() - opened:.2f} s")
        tally, results = Tally(), []
        for result in inspector.run(ImageFilesSource(images, "self-test samples")):
            verdict = inspector.verdict_text(result)
            if not results:
                say(f"  first result {seconds_since_launch():.2f} s after launch: {_short(inspector.describe(result))}")
            results.append(result)
            tally.add(result, verdict)
    return tally, results, info


def _check_results(tally: Tally, reader: bool) -> None:
    if tally.errors:
        raise SelfTestFailed(f"{len(tally.errors)} of {tally.frames} samples could not be inspected",
                             expected="every sample inspected", found="; ".join(tally.errors[:3]))
    if not tally.labels:
        raise SelfTestFailed("the detector found nothing in any sample", expected="at least one hangtag",
                             found=f"0 detections in {tally.frames} samples",
                             hint="a broken model file or preprocessing in this build")
    if reader and tally.tags_read and not (tally.fields_read or tally.barcodes_read):
        raise SelfTestFailed("the reader read nothing", expected="a field or a barcode on some sample tag",
                             found=f"{tally.tags_read} tags, no fields, no barcodes",
                             hint="the OCR model files or zxing-cpp may be missing from this build")


def _check_linear_algebra() -> str:
    """OpenCV's LAPACK/BLAS paths agree with NumPy. In the bundle OpenCV's routines forward to NumPy's
    OpenBLAS (packaging/blas_shim.c); matrices are large enough for OpenCV to call LAPACK, not its own code."""
    import cv2

    rng = np.random.default_rng(0)
    n = 256
    a = rng.standard_normal((n, n)) + n * np.eye(n)
    b = rng.standard_normal((n, 3))
    spd = a @ a.T
    problems = []

    def agree(name: str, got: np.ndarray, want: np.ndarray, tol: float) -> None:
        error = float(np.max(np.abs(got - want)) / max(1.0, float(np.max(np.abs(want)))))
        if not error <= tol:
            problems.append(f"{name} off by {error:.2e}")

    for dtype, tol in ((np.float64, 1e-9), (np.float32, 1e-3)):
        want = np.linalg.solve(a, b)
        for flag, name in ((cv2.DECOMP_LU, "LU"), (cv2.DECOMP_QR, "QR"), (cv2.DECOMP_SVD, "SVD")):
            ok, x = cv2.solve(a.astype(dtype), b.astype(dtype), flags=flag)
            agree(f"solve {name} {np.dtype(dtype).name}", x if ok else np.full_like(want, np.nan), want, tol)
        ok, x = cv2.solve(spd.astype(dtype), b.astype(dtype), flags=cv2.DECOMP_CHOLESKY)
        agree(f"solve Cholesky {np.dtype(dtype).name}", x if ok else np.full_like(b, np.nan),
              np.linalg.solve(spd, b), tol)
        w = cv2.SVDecomp(a.astype(dtype))[0].ravel()
        agree(f"SVD {np.dtype(dtype).name}", w, np.linalg.svd(a, compute_uv=False), tol)
        agree(f"gemm {np.dtype(dtype).name}", cv2.gemm(a.astype(dtype), b.astype(dtype), 1.0, None, 0.0),
              a @ b, tol)
    if problems:
        raise SelfTestFailed("OpenCV's linear algebra disagrees with NumPy", expected="the same solutions",
                             found="; ".join(problems), hint="the bundle's BLAS/LAPACK shim is broken; rebuild "
                             "with packaging/build.py and report the build log's 'BLAS shim' line")
    return f"OpenCV solve (LU, QR, SVD, Cholesky), SVD and gemm on {n}×{n} agree with NumPy"


def _check_video(workdir: Path) -> str:
    """Write a few frames and read them back through FFmpeg: OpenCV's video libraries are in the bundle."""
    import cv2

    path = workdir / "roundtrip.mp4"
    size, count = (96, 64), 6
    writer = cv2.VideoWriter(str(path), cv2.CAP_FFMPEG, cv2.VideoWriter_fourcc(*"mp4v"), 10.0, size)
    if not writer.isOpened():
        raise SelfTestFailed("OpenCV cannot write video through FFmpeg", expected="an MPEG-4 writer",
                             found=cv2.videoio_registry.getBackendName(cv2.CAP_FFMPEG) + " writer not opened",
                             hint="OpenCV's FFmpeg libraries are missing from this build; video sources will fail")
    for i in range(count):
        writer.write(np.full((size[1], size[0], 3), 40 * i, np.uint8))
    writer.release()
    capture = cv2.VideoCapture(str(path), cv2.CAP_FFMPEG)
    decoded = 0
    while capture.isOpened():
        ok, _ = capture.read()
        if not ok:
            break
        decoded += 1
    capture.release()
    if decoded != count:
        raise SelfTestFailed("a video written here does not read back", expected=f"{count} frames",
                             found=f"{decoded} frames", hint="OpenCV's FFmpeg backend is broken in this build")
    return f"{count} frames written and read back through FFmpeg"


def _check_report(results: list[Any], info: dict[str, Any], workdir: Path) -> str:
    """Journal the results in a throwaway journal and export them as the station would, PDF included."""
    try:
        from inference.records.convert import file_hash
        from inference.records.journal import Journal
        from app.report_pdf import export_session_with_pdf
    except ImportError as exc:  # a build without the records package: JSON lines still prove a write
        return _check_json_lines(results, workdir) + f" (no session export in this build: {exc.name})"
    with Journal.open(workdir / "journal.sqlite3") as journal:
        session = journal.start_session(job="self-test", recipe_name=info["recipe"], source="bundled samples",
                                        backend=info["backend"], model_hash=file_hash(info["model_path"]),
                                        precision=info["precision"])
        for result in results:
            journal.record(session, result, image_path=result.source_path)
        journal.end_session(session)
        exported = export_session_with_pdf(journal, session, workdir / "reports", images="flagged")
    folder = exported.path
    expected = ("report.html", "report.pdf", "frames.csv", "frames.json", "manifest.json")
    missing = [name for name in expected if not (folder / name).is_file() or (folder / name).stat().st_size == 0]
    if missing:
        raise SelfTestFailed("the report is incomplete", expected=", ".join(expected),
                             found=f"missing or empty: {', '.join(missing)} in {folder}")
    frames = json.loads((folder / "frames.json").read_text(encoding="utf-8"))["frames"]
    if [f["source_name"] for f in frames] != [r.source_name for r in results]:
        raise SelfTestFailed("the report's frames do not match what was inspected",
                             expected=f"{len(results)} frames in order", found=f"{len(frames)} frames")
    if not (folder / "report.pdf").read_bytes().startswith(b"%PDF-"):
        raise SelfTestFailed("report.pdf is not a PDF", expected="a file starting %PDF-",
                             found=repr((folder / "report.pdf").read_bytes()[:16]))
    size_kb = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1024
    return (f"{', '.join(expected[:3])} and {len(exported.files) - 3} more ({size_kb:.0f} KB), "
            f"{len(frames)} frames read back")


def _check_json_lines(results: list[Any], workdir: Path) -> str:
    path = workdir / "results.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        for result in results:
            stream.write(json.dumps(_frame_row(result), ensure_ascii=False) + "\n")
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    if [r["source"] for r in rows] != [r.source_name for r in results]:
        raise SelfTestFailed("the results file does not read back", expected=f"{len(results)} rows in order",
                             found=f"{len(rows)} rows")
    return f"{path.name}, {len(rows)} rows read back"


def _frame_row(result: Any) -> dict[str, Any]:
    from inference.inspection import Inspector

    return {"source": result.source_name, "verdict": Inspector.verdict_text(result),
            "labels": list(result.detections.labels) if result.ok else [],
            "total_ms": round(result.timings.total_ms, 2), "error": result.error}


def _check_qt() -> str:
    """The platform plugin loads, the bundled font registers, and JPEG decodes through Qt."""
    if not os.environ.get("QT_QPA_PLATFORM") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtGui import QFontDatabase, QImageReader
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])  # widgets too: the station window needs them
    families: list[str] = []
    for weight in ("Regular", "Bold"):
        font_id = QFontDatabase.addApplicationFont(str(font_path(weight)))
        families += QFontDatabase.applicationFontFamilies(font_id) if font_id >= 0 else []
    if not families:
        raise SelfTestFailed("Qt cannot load the bundled CJK font", expected=str(font_path("Regular")),
                             found="addApplicationFont failed")
    formats = {bytes(f).decode() for f in QImageReader.supportedImageFormats()}
    if not {"jpeg", "png", "svg"} <= formats:  # svg: the PDF report's charts
        raise SelfTestFailed("Qt's image plugins are missing", expected="jpeg, png and svg (the PDF report's charts)",
                             found=", ".join(sorted(formats)))
    collation = _check_chinese_collation()
    return f"platform '{app.platformName()}', font '{families[0]}', images {', '.join(sorted(formats))}; {collation}"


def _check_chinese_collation() -> str:
    """Qt's ICU still has the Chinese data the bundle keeps (packaging/icu_data.py): pinyin order sorts
    北京 (běi) before 上海 (shàng), although 上 precedes 北 in code points."""
    from PySide6.QtCore import QCollator, QLocale

    words = ["上海", "北京", "广州"]
    ordered = sorted(words, key=QCollator(QLocale(QLocale.Language.Chinese, QLocale.Country.China)).sortKey)
    if ordered != ["北京", "广州", "上海"]:
        raise SelfTestFailed("Qt sorts Chinese without its pinyin collation data", expected="北京, 广州, 上海",
                             found=", ".join(ordered), hint="the bundle's ICU data lost its zh collation; see "
                             "packaging/icu_data.py")
    return "zh collation " + " < ".join(ordered)


def _check_window(model: Path, backend: str | None, recipe: Path | None, samples: Path, read: bool,
                  workdir: Path, timeout_s: float = 120.0) -> str:
    """The station window itself, offscreen: its imports (pyqtgraph and all), engine load, a first result."""
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from app.main_window import MainWindow
    from app.settings import StationSettings

    started = time.perf_counter()
    settings = StationSettings(QSettings(str(workdir / "station.ini"), QSettings.Format.IniFormat))
    window = MainWindow(model=model, source=str(samples), backend=backend, recipe=recipe, settings=settings,
                        read=read, journal_path=workdir / "window-journal.sqlite3", testing=True)
    try:
        window.show()
        _wait(lambda: window.pipeline is not None or bool(window.errors), timeout_s)
        if window.pipeline is None:
            raise SelfTestFailed("the station window did not load its engine", expected=f"a pipeline within "
                                 f"{timeout_s:.0f} s", found="; ".join(window.errors) or "nothing yet")
        window.start()
        _wait(lambda: len(window.results.results) > 0 or bool(window.errors), timeout_s)
        if not window.results.results:
            raise SelfTestFailed("the station window showed no result", expected="a first result",
                                 found="; ".join(window.errors) or f"nothing within {timeout_s:.0f} s")
        seconds = time.perf_counter() - started
        first = window.results.results[0]
    finally:
        window.close()
        QApplication.processEvents()
    return f"opened, engine loaded and first result ({first.source_name}) in {seconds:.1f} s"


def _wait(condition: Callable[[], bool], timeout_s: float) -> None:
    from PySide6.QtCore import QEventLoop, QThread
    from PySide6.QtWidgets import QApplication

    deadline = time.perf_counter() + timeout_s
    while not condition() and time.perf_counter() < deadline:
        QApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        QThread.msleep(10)


# -- words -------------------------------------------------------------------------------------------
def _printer(out: TextIO) -> Callable[[str], None]:
    def say(line: str) -> None:
        print(line, file=out, flush=True)

    return say


def _short(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _counts(counter: Counter) -> str:
    return ", ".join(f"{n} {name}" for name, n in sorted(counter.items()))


def _where() -> str:
    return getattr(sys, "_MEIPASS", None) or str(Path(__file__).resolve().parent.parent)
