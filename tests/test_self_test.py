"""`--self-test` from source: passes on a working setup, and each broken piece fails it with its reason."""

from __future__ import annotations

import io
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from app.self_test import Tally, run_self_test
from tests.factories import blob_detector, scene_with_squares, write_image

ROOT = Path(__file__).resolve().parents[1]


def make_samples(folder: Path, count: int = 3) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        write_image(folder / f"tag_{i}.jpg", scene_with_squares(64, 64, [(8 + 4 * i, 8, 20)]))
    return folder


def make_model(path: Path) -> Path:
    return blob_detector(path, names={0: "hangtag", 1: "dark"})


def run(tmp_path: Path, **overrides) -> tuple[int, str]:
    options = {"model": make_model(tmp_path / "det.onnx"), "samples": make_samples(tmp_path / "samples"),
               "backend": "onnxruntime-cpu", "read": False}
    options.update(overrides)
    out = io.StringIO()
    return run_self_test(out=out, **options), out.getvalue()


@pytest.fixture(autouse=True)
def _isolated_data(tmp_path, monkeypatch):
    monkeypatch.setenv("HANGTAG_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")


def test_passes_and_reports_each_stage(tmp_path):
    status, text = run(tmp_path)
    assert status == 0, text
    for expected in ("backends: ", "model det.onnx on onnxruntime-cpu", "first result ", "3 samples: ",
                     "video: 6 frames written and read back", "Qt: platform 'offscreen'",
                     "window: opened, engine loaded and first result", "report: report.html",
                     "3 frames read back", "self-test passed"):
        assert expected in text


@pytest.mark.parametrize(("breakage", "reason"), [
    ("no model", "the detector model is missing"),
    ("empty samples", "no sample images"),
    ("undecodable sample", "1 of 3 samples could not be inspected"),
    ("blank samples", "the detector found nothing in any sample"),
])
def test_a_broken_piece_fails_with_its_reason(tmp_path, capsys, breakage, reason):
    overrides: dict = {}
    if breakage == "no model":
        overrides["model"] = tmp_path / "missing.onnx"
    elif breakage == "empty samples":
        (tmp_path / "empty").mkdir()
        overrides["samples"] = tmp_path / "empty"
    elif breakage == "undecodable sample":
        samples = make_samples(tmp_path / "bad", count=2)
        (samples / "broken.jpg").write_bytes(b"not a jpeg")
        overrides["samples"] = samples
    elif breakage == "blank samples":
        folder = tmp_path / "blank"
        folder.mkdir()
        for i in range(2):
            write_image(folder / f"gray_{i}.png", scene_with_squares(64, 64, [], background=128))
        overrides["samples"] = folder
    before = set(Path(tempfile.gettempdir()).glob("hangtag-self-test-*"))
    status, _ = run(tmp_path, **overrides)
    assert status == 1
    err = capsys.readouterr().err
    assert reason in err
    # a work folder is kept only with something in it, and the message says where
    left = set(Path(tempfile.gettempdir()).glob("hangtag-self-test-*")) - before
    assert all(any(folder.iterdir()) for folder in left)
    assert all(str(folder) in err for folder in left)
    if not left:
        assert "nothing was written before the failure" in err


def test_reader_that_reads_nothing_fails():
    from app.self_test import SelfTestFailed, _check_results

    tally = Tally(frames=2, tags_read=3)
    tally.labels.update(["hangtag"] * 3)
    with pytest.raises(SelfTestFailed, match="the reader read nothing"):
        _check_results(tally, reader=True)
    _check_results(tally, reader=False)


def test_command_line_flags(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "HANGTAG_DATA_DIR": str(tmp_path / "data"),
           "QT_QPA_PLATFORM": "offscreen"}
    version = subprocess.run([sys.executable, "-m", "app.main", "--version"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=120)
    assert version.returncode == 0, version.stderr
    assert version.stdout.startswith("Hangtag Station 0.1.0 (source)")
    for row in ("Qt: 6.", "ONNX Runtime: ", "OpenCV: ", "NumPy: ", "TensorRT: ", "NVIDIA driver: ", "Backends: "):
        assert row in version.stdout

    model, samples = make_model(tmp_path / "det.onnx"), make_samples(tmp_path / "samples")
    test = subprocess.run([sys.executable, "-m", "app.main", "--self-test", "--no-read", "--model", str(model),
                           "--source", str(samples)], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert test.returncode == 0, test.stdout + test.stderr
    assert "self-test passed" in test.stdout


def test_about_dialog_lists_versions_and_copies_them(qtbot):
    from PySide6.QtGui import QGuiApplication

    from app.about import AboutDialog

    dialog = AboutDialog()
    qtbot.addWidget(dialog)
    rows = {dialog.table.item(r, 0).text(): dialog.table.item(r, 1).text() for r in range(dialog.table.rowCount())}
    assert rows["Qt"].startswith("6.") and rows["ONNX Runtime"].startswith("1.") and "CPU" in rows["ONNX Runtime"]
    assert {"PySide6", "OpenCV", "NumPy", "TensorRT", "NVIDIA driver", "Backends"} <= rows.keys()
    dialog._on_copy()
    assert QGuiApplication.clipboard().text().startswith("Hangtag Station 0.1.0 (source)")


def test_main_window_help_menu_opens_about(qtbot, tmp_path, monkeypatch):
    from tests.test_gui import make_window

    shown = []
    monkeypatch.setattr("app.about.show_about", lambda parent=None: shown.append(parent))
    window = make_window(qtbot, tmp_path)
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Help")
    about = next(a for a in help_menu.actions() if a.text() == "About Hangtag Station")
    about.trigger()
    assert shown == [window]
