"""Golden screenshots of the station's main states, for review and for the pixel tests.

    python -m app.screenshots --out docs/screenshots        (what `make screenshots` runs)

The real window, offscreen, with the shipped detector and reader on two bundled samples and one file
that cannot be decoded: OK (sample 090000022 with its recipe), NG (sample 090000002, another job's tag, under the same
recipe) and ERROR, in operator and engineer mode, at 1280×720 and 1920×1080. Everything the window
keeps (settings, journal, archive) goes to a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

SIZES = ((1280, 720), (1920, 1080))
MODES = ("operator", "engineer")
STATES = ("ok", "ng", "error")  # rows of the run, in this order
SAMPLES = ("090000022.jpg", "090000002.jpg")  # OK, and another job's tag (NG), under sample_090000022.toml
JOB, LOT = "K2291 女士连衣裙", "LOT-2026-12-01"


def shot_name(mode: str, state: str, size: tuple[int, int]) -> str:
    return f"{mode}_{state}_{size[0]}x{size[1]}.png"


def make_source(folder: Path) -> Path:
    from inference.resources import samples_dir

    folder.mkdir(parents=True, exist_ok=True)
    for i, name in enumerate(SAMPLES):
        shutil.copy(samples_dir() / name, folder / f"{i:02d}_{name}")
    (folder / "02_torn_upload.jpg").write_bytes(b"\xff\xd8\xff not really a jpeg")
    return folder


def save_png(image, path: Path) -> None:
    """256 colours chosen for this picture (Pillow's median cut, no dithering): a fifth of the full-colour
    size with the photo still faithful, so twelve goldens stay small in the repository."""
    import numpy as np
    from PIL import Image
    from PySide6.QtGui import QImage

    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    rows = np.frombuffer(rgb.constBits(), np.uint8, rgb.sizeInBytes()).reshape(rgb.height(), -1)
    pixels = rows[:, : rgb.width() * 3].reshape(rgb.height(), rgb.width(), 3)
    picture = Image.fromarray(pixels.copy(), "RGB").quantize(256, method=Image.Quantize.MEDIANCUT,
                                                            dither=Image.Dither.NONE)
    picture.save(str(path), optimize=True)


def differing_share(golden, candidate, *, block: int = 4, level: int = 40) -> float:
    """Share of `block`×`block` cells whose mean grey differs by more than `level`: dithering, anti-aliasing
    and a changed clock in the results table stay far below a few per cent; a moved dock or a different
    verdict does not. Two QImages of one size; 1.0 when the sizes differ."""
    import numpy as np
    from PySide6.QtGui import QImage

    if golden.size() != candidate.size():
        return 1.0

    def grey(image: QImage) -> np.ndarray:
        image = image.convertToFormat(QImage.Format.Format_Grayscale8)
        rows = np.frombuffer(image.constBits(), np.uint8, image.sizeInBytes()).reshape(image.height(), -1)
        rows = rows[:, : image.width()].astype(np.float32)
        h, w = (rows.shape[0] // block) * block, (rows.shape[1] // block) * block
        return rows[:h, :w].reshape(h // block, block, w // block, block).mean(axis=(1, 3))

    return float((np.abs(grey(golden) - grey(candidate)) > level).mean())


def wait_for(app, condition, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("the station did not reach the state to photograph in time")
        app.processEvents()
        time.sleep(0.01)


@contextmanager
def offscreen_station(prefix: str, source: str | None, job: tuple[str, str], size: tuple[int, int],
                      settings_values: tuple[tuple[str, str], ...] = ()):
    """The real window, offscreen, with the shipped detector and reader and the bundled sample recipe, `job` (name,
    lot) set, shown at `size` once its pipeline is up; everything it keeps (settings given as `settings_values`,
    journal, archive) in a temporary folder named with `prefix`. Yields (app, window, that folder)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from app.theme import apply_theme, register_fonts

    app = QApplication.instance() or QApplication(sys.argv[:1])
    register_fonts()
    apply_theme(app, False)
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        previous = os.environ.get("HANGTAG_DATA_DIR")
        os.environ["HANGTAG_DATA_DIR"] = str(Path(tmp) / "data")
        try:
            from app.main_window import MainWindow
            from app.settings import StationSettings
            from inference.resources import resource_path

            settings = StationSettings(QSettings(str(Path(tmp) / "station.ini"), QSettings.Format.IniFormat))
            for key, value in settings_values:
                settings.set(key, value)
            window = MainWindow(source=source, backend="onnxruntime-cpu", settings=settings,
                                recipe=resource_path("recipes", "sample_090000022.toml"),
                                journal_path=Path(tmp) / "journal.sqlite3", testing=True)
            window.set_job(*job)
            window.resize(*size)
            window.show()
            wait_for(app, lambda: window.pipeline is not None, 120)
            yield app, window, Path(tmp)
            window.close()
            app.processEvents()
        finally:
            if previous is None:
                os.environ.pop("HANGTAG_DATA_DIR", None)
            else:
                os.environ["HANGTAG_DATA_DIR"] = previous


def capture(out_dir: Path, sizes=SIZES, modes=MODES) -> list[Path]:
    """Write every screenshot into `out_dir`; returns their paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    fixed = Path(tempfile.gettempdir()) / "hangtag-screenshots"  # the same path in every shot, every run
    shutil.rmtree(fixed, ignore_errors=True)
    source = make_source(fixed / "line-3 tags")
    with offscreen_station("hangtag-shots-", str(source), (JOB, LOT), sizes[0]) as (app, window, _tmp):
        window.start()
        wait_for(app, lambda: window.results.total >= len(STATES) and not window.source_bar.running, 300)
        wait_for(app, lambda: window.results.rowCount() == len(STATES), 5)
        for size in sizes:
            for mode in modes:
                window.resize(*size)  # the mode lays the docks out for the size: size, mode, size
                app.processEvents()
                window.modes.set_mode(mode)
                window.resize(*size)
                app.processEvents()
                for row, state in enumerate(STATES):
                    window.show_result_at(row)
                    window.table.selectRow(row)
                    for _ in range(5):
                        app.processEvents()
                        time.sleep(0.02)
                    path = out_dir / shot_name(mode, state, size)
                    save_png(window.grab().toImage(), path)
                    written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.screenshots", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    args = parser.parse_args(argv)
    for path in capture(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
