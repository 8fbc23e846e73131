"""The window on the triton backend, offscreen, against a real tritonserver: the header names the server
that answers, the Servers dock shows it with its queue and compute times, the latency plot has the
remote stages, and when the server dies the banner says so, the station inspects on its own engine
until the server is back, and the journal keeps the events. Skipped with the reason where the server cannot be prepared."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

pytest.importorskip("PySide6")
from PySide6.QtCore import QSettings  # noqa: E402

from app.main_window import MainWindow  # noqa: E402
from app.settings import StationSettings  # noqa: E402
from inference.engines.triton.status import host_port  # noqa: E402
from inference.imageio import list_images  # noqa: E402
from inference.records import Journal  # noqa: E402
from inference.resources import samples_dir  # noqa: E402
from tests.triton.server import DETECTOR, prepared_or_skip, started_or_skip  # noqa: E402

pytestmark = pytest.mark.timeout(300)
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"


@pytest.fixture(scope="module")
def prepared():
    return prepared_or_skip()


def samples_folder(tmp_path: Path, count: int) -> Path:
    folder = tmp_path / "samples"
    folder.mkdir()
    for path in list_images(samples_dir())[:count]:
        shutil.copy(path, folder / path.name)
    return folder


def step_once(qtbot, window: MainWindow) -> None:
    done = window.results.total
    window.step()
    qtbot.waitUntil(lambda: window.results.total > done, timeout=60000)


def test_the_window_shows_the_server_its_times_and_says_when_none_answers(qtbot, tmp_path, prepared, monkeypatch):
    server = started_or_skip(prepared)
    monkeypatch.setenv("HANGTAG_TRITON_URL", server.url)
    monkeypatch.setenv("HANGTAG_TRITON_FALLBACK", "local")
    settings = StationSettings(QSettings(str(tmp_path / "station.ini"), QSettings.Format.IniFormat))
    journal_path = tmp_path / "journal.sqlite3"
    with server:
        window = MainWindow(model=DETECTOR, source=str(samples_folder(tmp_path, 4)), backend="triton",
                            settings=settings, read=False, journal_path=journal_path, testing=True)
        qtbot.addWidget(window)
        window.resize(1280, 720)
        window.show()
        qtbot.waitUntil(lambda: window.pipeline is not None, timeout=30000)
        step_once(qtbot, window)
        engine = window.header.fields["engine"]
        qtbot.waitUntil(lambda: f"@ {host_port(server.url)}" in engine.text(), timeout=5000)
        assert engine.text() == f"Engine: Triton FP32 @ {host_port(server.url)}"
        panel = window.remote.panel
        assert window.remote.dock.isVisible()
        row = [panel.table.item(0, c).text() for c in range(panel.table.columnCount())]
        assert row[:3] == ["hangtag_det", host_port(server.url), "up"] and int(row[6]) >= 1
        assert all(float(v) >= 0 for v in row[3:5])  # queue and compute per request, from Triton's statistics
        assert {"network", "server_queue", "infer"} <= set(window.plots.shown_stages)
        assert {"network", "server_queue"} <= set(window.plots.legend_labels("lat"))
        assert {"network", "server_queue"} <= set(window.results.results[-1].timings.stages_ms)
        ARTIFACTS.mkdir(exist_ok=True)
        window.grab().save(str(ARTIFACTS / "triton_servers_dock.png"))

        server.kill()
        step_once(qtbot, window)
        qtbot.waitUntil(lambda: window.errors_panel.isVisible(), timeout=5000)
        assert window.errors_panel.title.text() == "⚠ No Triton server answers: inspecting on this station's own engine"
        qtbot.waitUntil(lambda: engine.text() == "Engine: Triton FP32: local fallback", timeout=5000)
        assert window.results.results[-1].ok and len(window.results.results[-1].detections) > 0
        assert "down" in panel.table.item(0, 2).text()
        window.grab().save(str(ARTIFACTS / "triton_local_fallback.png"))

        server.start()  # back on the same ports: the next frame after its back-off probes it
        qtbot.wait(600)
        step_once(qtbot, window)
        qtbot.waitUntil(lambda: not window.errors_panel.isVisible(), timeout=5000)
        qtbot.waitUntil(lambda: engine.text() == f"Engine: Triton FP32 @ {host_port(server.url)}", timeout=5000)
        assert panel.table.item(0, 2).text() == "up"

        window.modes.set_mode("operator")
        assert not window.remote.dock.isVisible()  # an engineer's dock; the header and banner stay
        window.close()
    with Journal.open(journal_path, read_only=True) as journal:
        session = journal.last_session_id()
        events = [(e.kind, e.subject) for e in journal.events(session)]
    assert events == [("triton_server_down", server.url), ("triton_all_down", server.url),
                      ("triton_fallback_local", "local"), ("triton_server_back", server.url)]


def test_without_a_local_fallback_the_banner_says_frames_wait_for_a_server(qtbot, tmp_path, prepared, monkeypatch):
    server = started_or_skip(prepared)
    monkeypatch.setenv("HANGTAG_TRITON_URL", server.url)
    monkeypatch.setenv("HANGTAG_TRITON_FALLBACK", "")
    settings = StationSettings(QSettings(str(tmp_path / "station.ini"), QSettings.Format.IniFormat))
    with server:
        window = MainWindow(model=DETECTOR, source=str(samples_folder(tmp_path, 2)), backend="triton",
                            settings=settings, read=False, journal_path=tmp_path / "journal.sqlite3", testing=True)
        qtbot.addWidget(window)
        window.show()
        qtbot.waitUntil(lambda: window.pipeline is not None, timeout=30000)
        step_once(qtbot, window)
        server.kill()
        window.step()  # this frame finds no server: an error, not a verdict
        qtbot.waitUntil(lambda: window.errors_panel.isVisible(), timeout=30000)
        assert window.errors_panel.title.text() == ("⚠ No Triton server answers: frames cannot be inspected until "
                                                    "one does")
        qtbot.waitUntil(lambda: any("no Triton server answered" in e for e in window.errors), timeout=30000)
        assert window.header.fields["engine"].text() == "Engine: Triton FP32: no server answers"
        assert window.results.total == 1  # the frame that found no server is not passed off as inspected
        window.close()


def _fleet(model: str, last_server: str):
    from inference.engines.triton.status import FleetStatus, ServerView

    server = ServerView("http://127.0.0.1:8000", healthy=True, out_for_s=0.0, in_flight=0, requests=1,
                        round_trip_ms=5.0, last_error="", queue_ms=None, compute_ms=None)
    return FleetStatus(model, (server,), last_server, fallback=True, busy_answers=0, retries=0)


@pytest.mark.parametrize("ocr_answered_by, expected", [
    ("http://127.0.0.1:8000", "Reading on Triton too (ocr_det, ocr_rec)"),
    ("local", "Reading on this station's own engine: no Triton server answers for ocr_det, ocr_rec"),
    (None, "Reading on this station: OCR runs on this station"),  # a fleet without the OCR models
])
def test_the_servers_dock_says_where_tags_are_read_by_who_answered(ocr_answered_by, expected):
    from app.remote_link import reading_words

    statuses = [_fleet("hangtag_det", "http://127.0.0.1:8000")]
    if ocr_answered_by is not None:
        statuses += [_fleet("ocr_det", ocr_answered_by), _fleet("ocr_rec", ocr_answered_by)]
    assert reading_words(statuses, "OCR runs on this station", reading_on=True) == expected
    assert reading_words(statuses, "", reading_on=False) == "Reading: off"
