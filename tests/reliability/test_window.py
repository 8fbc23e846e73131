"""Items 4 and 5 in the real window (offscreen): a folder with an image declaring 30 000 × 30 000 px among
good ones goes on to its end with one error row for that file (the window used to stop the whole source:
"The source failed"), and the results table keeps a bounded ring while the journal keeps every frame.
The ring's own details are in tests/test_gui_station.py; the memory curves are benchmarks (BENCHMARKS.md)."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
from PySide6.QtCore import QSettings  # noqa: E402

from app.main_window import MainWindow  # noqa: E402
from app.settings import StationSettings  # noqa: E402
from app.station_state import FAILED  # noqa: E402
from inference.records import Journal  # noqa: E402
from tests.factories import blob_detector, scene_with_squares, write_image  # noqa: E402
from tests.reliability.helpers import assert_explained, png_bomb  # noqa: E402


def open_window(qtbot, tmp_path, folder) -> MainWindow:
    model = tmp_path / "tags.onnx"
    blob_detector(model, size=64, names={0: "hangtag", 1: "barcode"})
    settings = StationSettings(QSettings(str(tmp_path / "station.ini"), QSettings.Format.IniFormat))
    window = MainWindow(model=model, source=str(folder), backend="onnxruntime-cpu", settings=settings, read=False,
                        journal_path=tmp_path / "journal.sqlite3", testing=True)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.pipeline is not None, timeout=15000)
    return window


@pytest.mark.timeout(120)
def test_the_window_goes_past_an_oversized_image_with_one_error_row(qtbot, tmp_path) -> None:
    folder = tmp_path / "line"
    folder.mkdir()
    for i in range(4):
        write_image(folder / f"tag_{i}.png", scene_with_squares(120, 160, [(20 + 10 * i, 30, 30)]))
    png_bomb(folder / "tag_1b_bomb.png")
    window = open_window(qtbot, tmp_path, folder)
    errors: list[str] = []
    window.worker.errored.connect(errors.append)
    window.start()
    qtbot.waitUntil(lambda: window.results.total >= 5 and not window.source_bar.running, timeout=60000)
    results = window.results.results
    assert [r.source_name for r in results] == ["tag_0.png", "tag_1.png", "tag_1b_bomb.png", "tag_2.png", "tag_3.png"]
    bad = [r for r in results if not r.ok]
    assert [r.source_name for r in bad] == ["tag_1b_bomb.png"]
    assert "too large" in bad[0].error and "30000 × 30000" in bad[0].error
    assert_explained(bad[0].error)
    assert window.state.state.source_status != FAILED
    assert not any(e.startswith("The source failed") for e in errors)
    with Journal.open(tmp_path / "journal.sqlite3", read_only=True) as journal:
        assert len(journal.frames(journal.last_session_id())) == 5  # the refused file has its record too


@pytest.mark.timeout(120)
def test_the_window_keeps_a_bounded_ring_and_the_journal_keeps_every_frame(qtbot, tmp_path) -> None:
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(30):
        write_image(folder / f"tag_{i:02d}.png", scene_with_squares(64, 64, [(8 + i % 30, 16, 16)]))
    window = open_window(qtbot, tmp_path, folder)
    window.results.capacity, window.results.cache_last = 10, 3
    window.start()
    qtbot.waitUntil(lambda: window.results.total >= 30 and not window.source_bar.running, timeout=60000)
    # rows are batched onto the table by the display timer: the last batch lands after the run ends
    qtbot.waitUntil(lambda: window.results.rowCount() == len(window.results.results), timeout=10000)
    assert len(window.results.results) == 10 and window.results.rowCount() == 10
    assert sum(len(r.candidates) > 0 for r in window.results.results) <= 3
    with Journal.open(tmp_path / "journal.sqlite3", read_only=True) as journal:
        assert len(journal.frames(journal.last_session_id())) == 30
