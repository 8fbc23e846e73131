"""`make run` without a display, and the xcb check's advice."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from app.platform_check import install_hint
from tests.factories import blob_detector, scene_with_squares, write_image

ROOT = Path(__file__).resolve().parents[1]


def test_without_a_display_the_same_inspection_runs_headless(tmp_path):
    folder = tmp_path / "imgs"
    folder.mkdir()
    write_image(folder / "a.png", scene_with_squares(64, 64, [(16, 16, 24)]))
    (folder / "b.png").write_bytes(b"")
    model = blob_detector(tmp_path / "m.onnx")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "HANGTAG_DATA_DIR": str(tmp_path / "data")}
    out = subprocess.run([sys.executable, "-m", "app.main", "--source", str(folder), "--model", str(model),
                          "--backend", "onnxruntime-cpu", "--no-read"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "No display found" in out.stdout
    assert "a.png: no recipe" in out.stdout and "bright" in out.stdout
    assert "b.png: ERROR" in out.stdout
    assert "summary:" in out.stdout


def test_install_hint_names_debian_packages():
    hint = install_hint(["libxcb-cursor.so.0", "libxkbcommon-x11.so.0", "libunknown.so.9"])
    assert hint.startswith("sudo apt-get install -y ")
    assert "libxcb-cursor0" in hint and "libxkbcommon-x11-0" in hint and "libunknown.so.9" in hint
