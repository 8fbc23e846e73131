"""The station closed by the system (SIGTERM) or Ctrl+C (SIGINT) ends its journal session as its window's X does."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("PySide6")
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

STATION = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication
    from app.main import close_on_signals
    from app.main_window import MainWindow
    from app.settings import StationSettings
    from tests.factories import blob_detector
    from tests.test_gui import make_folder

    tmp = Path(sys.argv[1])
    app = QApplication([])
    model = blob_detector(tmp / "tags.onnx", size=64, names={0: "hangtag", 1: "barcode"})
    window = MainWindow(model=model, source=str(make_folder(tmp, 1)), backend="onnxruntime-cpu", read=False,
                        settings=StationSettings(QSettings(str(tmp / "station.ini"), QSettings.Format.IniFormat)),
                        journal_path=tmp / "journal.sqlite3", testing=True)
    window.show()
    close_on_signals(window)

    def started() -> None:
        if window.results.total >= 1:
            os.kill(os.getpid(), int(sys.argv[2]))  # as the system would, once a frame is journaled
        elif window.pipeline is not None and window.source_bar.start_button.isEnabled():
            window.start()
        QTimer.singleShot(100, started)

    QTimer.singleShot(100, started)
    QTimer.singleShot(60000, lambda: os._exit(3))  # never hangs the test run
    sys.exit(app.exec())
""")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_station_stopped_by_a_signal_ends_its_session(tmp_path, signum):
    done = subprocess.run([sys.executable, "-c", STATION, str(tmp_path), str(int(signum))], capture_output=True,
                          text=True, timeout=90, cwd=Path(__file__).resolve().parents[1],
                          env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr[-2000:]
    with sqlite3.connect(tmp_path / "journal.sqlite3") as journal:
        sessions = journal.execute("SELECT ended_at, end_reason FROM sessions").fetchall()
    assert len(sessions) == 1 and sessions[0][0] is not None and sessions[0][1] == ""  # ended, not interrupted
