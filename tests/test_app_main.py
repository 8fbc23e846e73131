"""`make run` without a display, and the xcb check's advice."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

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


def _headless(tmp_path, *args):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "HANGTAG_DATA_DIR": str(tmp_path / "data")}
    return subprocess.run([sys.executable, "-m", "app.main", "--headless", "--backend", "onnxruntime-cpu",
                           "--no-read", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_headless_with_a_missing_source_says_what_was_expected_without_a_traceback(tmp_path):
    model = blob_detector(tmp_path / "m.onnx")
    out = _headless(tmp_path, "--model", str(model), "--source", str(tmp_path / "no_such_folder"))
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert out.stderr.startswith("error: ") and "expected: a folder, image, video, camera index or URL" in out.stderr


def test_headless_with_a_broken_recipe_names_the_line_and_exits_2(tmp_path):
    model = blob_detector(tmp_path / "m.onnx")
    recipe = tmp_path / "job.toml"
    recipe.write_text("[fields\nstyle = 'A1'\n", encoding="utf-8")
    out = _headless(tmp_path, "--model", str(model), "--recipe", str(recipe), "--source", str(tmp_path))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "job.toml, line 1" in out.stderr and "hint:" in out.stderr


def test_install_hint_names_debian_packages():
    hint = install_hint(["libxcb-cursor.so.0", "libxkbcommon-x11.so.0", "libunknown.so.9"])
    assert hint.startswith("sudo apt-get install -y ")
    assert "libxcb-cursor0" in hint and "libxkbcommon-x11-0" in hint and "libunknown.so.9" in hint


@pytest.mark.parametrize("argv, last, expected", [
    ([], "/tmp/sets/s5150/images", "/tmp/sets/s5150/images"),  # a restart reopens the operator's folder
    (["--source", "/data/line2"], "/tmp/sets/s5150/images", "/data/line2"),
    ([], "", "SAMPLES"),  # the first start shows the bundled samples
])
def test_the_window_reopens_the_last_source_not_the_samples(argv, last, expected):
    """A restart opened resources/samples under the job's recipe (which survives a restart): every sample judged
    against job000, while the operator's folder was forgotten."""
    from app.main import parse_args, window_source
    from inference.resources import samples_dir

    assert window_source(parse_args(argv), last) == (str(samples_dir()) if expected == "SAMPLES" else expected)
