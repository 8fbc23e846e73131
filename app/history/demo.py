"""The History window on a made-up journal, for a person to look at and for its screenshots:

    xvfb-run -s "-screen 0 1280x720x24" .venv/bin/python -m app.history.demo --shot docs/screenshots/xvfb/history_1280x720.png

Three sessions in a temporary folder (frames with archived NG/REVIEW images, frames whose archiving was off and
whose files are gone, a moving line's tags still running); the window opens on `--session`, filtered to
NG + REVIEW, its first row chosen. `--state locked` holds the journal locked as a backup would (the window waits,
saying why); `--state damaged` opens a file that is not a journal.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path


def build_demo_journal(folder: Path) -> Path:
    import numpy as np

    from inference.reading.verdict import Verdict
    from inference.records.archive import Archive
    from inference.records.journal import Journal
    from inference.records.recorder import Recorder, SessionKey
    from inference.records.synthetic import build_session
    from inference.tracking.records import TagVerdict

    path = folder / "journal.sqlite3"
    archive = Archive(folder / "archive")
    with Journal.open(path) as journal:
        build_session(journal, archive, frames=60, flagged_rate=0.3, image_dir=folder / "line_a", image_hw=(720, 960),
                      seed=11, job="K2291 女士连衣裙")
        build_session(journal, None, frames=40, flagged_rate=0.2, image_dir=folder / "line_b", image_hw=(240, 320),
                      seed=12, job="K2291 女士连衣裙")
        shutil.rmtree(folder / "line_b")  # its files gone too: the window says so in place of a picture
        recorder = Recorder(journal, archive)
        recorder.use(SessionKey(source="camera:0", recipe_name="针织衫_HT24", recipe_path="", model_path="",
                                backend="tensorrt", precision="fp16", job="HT24-0815 针织衫", lot="L2611-04"))
        for i, (verdict, reasons) in enumerate([(Verdict.OK, ())] * 5 + [(Verdict.NG, ("size L ≠ expected M",))]):
            crop = np.full((160, 120, 3), 235, np.uint8)
            recorder.record_tag(TagVerdict(i + 1, verdict, reasons, frames_seen=7, first_frame=10 * i,
                                           last_frame=10 * i + 6, last_box=(0.0, 0.0, 120.0, 160.0), best_frame=10 * i,
                                           best_focus=1.0, reads=1, latency_s=0.12, crop=crop, read_frame=10 * i))
    return path


def save_png(image, path: Path) -> None:
    """256 colours by octree: median cut turned the few green pixels of "running" grey."""
    import numpy as np
    from PIL import Image
    from PySide6.QtGui import QImage

    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    rows = np.frombuffer(rgb.constBits(), np.uint8, rgb.sizeInBytes()).reshape(rgb.height(), -1)
    pixels = rows[:, : rgb.width() * 3].reshape(rgb.height(), rgb.width(), 3).copy()
    Image.fromarray(pixels, "RGB").quantize(256, method=Image.Quantize.FASTOCTREE,
                                            dither=Image.Dither.NONE).save(str(path), optimize=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shot", type=Path, help="save a screenshot of the whole screen here, then quit")
    parser.add_argument("--dark", action="store_true")
    parser.add_argument("--after-ms", type=int, default=1500, help="how long after opening to take the screenshot")
    parser.add_argument("--state", choices=("shown", "locked", "damaged"), default="shown")
    parser.add_argument("--session", type=int, default=1, help="open on this session: 1 archived, 2 archiving off, "
                                                                  "3 a moving line's tags")
    args = parser.parse_args(argv)

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from app.history import HistoryWindow
    from app.theme import apply_theme, register_fonts

    app = QApplication(sys.argv[:1])
    register_fonts()
    apply_theme(app, args.dark)
    with tempfile.TemporaryDirectory(prefix="hangtag-history-demo-") as tmp:
        path = build_demo_journal(Path(tmp))
        lock = hold_locked(path) if args.state == "locked" else None
        if args.state == "damaged":
            path.write_bytes(b"this is not a journal" * 200)
        window = HistoryWindow(path)

        def choose() -> None:  # once the sessions are read (on the window's reading thread)
            if window.sessions.row_of(args.session) is None:
                return
            window.sessions_view.selectRow(window.sessions.row_of(args.session))
            window.verdict_filter.setCurrentText("NG + REVIEW")
            window.reads.done.disconnect(chosen)
            window.rows.modelReset.connect(lambda: window.rows_view.selectRow(0))

        chosen = window.reads.done.connect(lambda *_: choose())
        window.setGeometry(app.primaryScreen().availableGeometry())  # no window manager under Xvfb
        window.show()
        if args.shot is not None:
            def shoot() -> None:
                save_png(app.primaryScreen().grabWindow(0).toImage(), args.shot)
                window.close()
                app.quit()

            QTimer.singleShot(args.after_ms, shoot)
        app.exec()
        window.shutdown()
        if lock is not None:
            lock.close()
    return 0


def hold_locked(path: Path):
    """A second connection in BEGIN EXCLUSIVE on a rollback journal (a WAL journal lets readers past a writer)."""
    import sqlite3

    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = DELETE")
    conn.execute("BEGIN EXCLUSIVE")
    return conn


if __name__ == "__main__":
    sys.exit(main())
