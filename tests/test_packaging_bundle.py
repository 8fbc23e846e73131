"""Build the CPU bundle with PyInstaller, then run it the way an operator's machine would.

The bundle is made read-only and, when the tests run as root (for whom permission bits mean
nothing), the bundled station runs as `nobody`; a snapshot of the bundle before and after proves
that settings, caches, journals and reports all went to the user's data folder.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.factories import blob_detector, scene_with_squares, write_image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packaging"))

import build  # noqa: E402
import elf  # noqa: E402

pytestmark = pytest.mark.slow


def tail(text: str, lines: int = 40) -> str:
    return "\n".join(text.splitlines()[-lines:])


@pytest.fixture(scope="module")
def workspace():
    if importlib.util.find_spec("PyInstaller") is None:
        pytest.skip("PyInstaller is not installed: pip install -e '.[package]'")
    folder = Path(tempfile.mkdtemp(prefix="hangtag-bundle-test-"))
    folder.chmod(0o755)  # the station runs as `nobody` below and must reach the bundle
    yield folder
    for path in folder.rglob("*"):
        if path.is_dir() and not path.is_symlink():
            path.chmod(path.stat().st_mode | stat.S_IWUSR)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def bundle(workspace) -> Path:
    started = time.perf_counter()
    result = subprocess.run([sys.executable, str(ROOT / "packaging" / "build.py"), "--quiet",
                             "--dist", str(workspace / "dist"), "--work", str(workspace / "build")],
                            cwd=ROOT, capture_output=True, text=True, timeout=1200)
    assert result.returncode == 0, tail(result.stdout + result.stderr)
    print(f"\nbuild: {time.perf_counter() - started:.0f} s\n{tail(result.stdout, 18)}")
    return workspace / "dist" / "HangtagStation"


def inputs(workspace: Path) -> list[str]:
    """The bundled model and samples once they exist; until then a known detector on known squares."""
    if (ROOT / "resources" / "models" / "hangtag_det.onnx").is_file() and build_has_samples():
        return []
    folder = workspace / "inputs"
    (folder / "samples").mkdir(parents=True, exist_ok=True)
    for i in range(3):
        write_image(folder / "samples" / f"tag_{i}.jpg", scene_with_squares(96, 96, [(10 + 8 * i, 12, 30)]))
    model = blob_detector(folder / "det.onnx", 96, names={0: "hangtag", 1: "dark"})
    return ["--model", str(model), "--source", str(folder / "samples"), "--no-read"]


def build_has_samples() -> bool:
    samples = ROOT / "resources" / "samples"
    return samples.is_dir() and any(p.suffix.lower() in {".jpg", ".jpeg", ".png"} for p in samples.iterdir())


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(root)): (p.lstat().st_size, p.lstat().st_mtime_ns) for p in root.rglob("*")}


def make_read_only(root: Path) -> None:
    for path in [root, *root.rglob("*")]:
        if not path.is_symlink():
            path.chmod(path.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def run_bundle(bundle: Path, workspace: Path, *args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    home = workspace / "home"
    home.mkdir(exist_ok=True)
    home.chmod(0o777)
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "HANGTAG_DATA_DIR": str(home / "data"),
           "QT_QPA_PLATFORM": "offscreen", "LANG": "C.UTF-8"}
    command = [str(bundle / "HangtagStation"), *args]
    if os.geteuid() == 0 and shutil.which("setpriv"):
        command = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", *command]
    return subprocess.run(command, cwd=workspace, env=env, capture_output=True, text=True, timeout=timeout)


def test_bundle_is_trimmed_and_carries_its_resources(bundle):
    internal = bundle / "_internal"
    total_mb = build.folder_bytes(bundle) / 1e6
    print(f"bundle: {total_mb:.1f} MB")
    assert total_mb <= build.CPU_TARGET_MB  # the target, with the shrink steps (gcc and binutils here)
    assert build.driver_files(bundle) == []
    assert build.unloadable_elf_files(bundle) == []
    for kept in ("resources/fonts/NotoSansSC-Regular-GB2312.otf", "resources/icons/hangtag_station.png",
                 "PySide6/Qt/plugins/platforms/libqxcb.so", "PySide6/Qt/plugins/platforms/libqoffscreen.so",
                 "PySide6/Qt/plugins/imageformats/libqjpeg.so", "PySide6/Qt/plugins/imageformats/libqsvg.so"):
        assert (internal / kept).is_file(), kept
    from inference.reading.ocr.models import shipped_models

    ocr = shipped_models(internal / "resources" / "ocr")  # the prepared default pair, not rapidocr's originals
    assert ocr is not None and (ocr.det_precision, ocr.rec_precision, ocr.charset) == ("fp32", "fp32", "gb2312")
    from inference.reading.ocr.models import TUNED_REC, tuned_rec

    if tuned_rec() is not None:  # the second read's small-print recognizer goes in once, beside the pair
        assert ocr.reread is not None and ocr.reread.name == TUNED_REC
        assert not (internal / "resources" / "models" / TUNED_REC).exists()
    aom = list((internal / "opencv_python_headless.libs").glob("libaom-*.so*"))
    assert all(p.stat().st_size < 100_000 for p in aom)  # the AV1 stub (AVIF only; the station never reads it)
    assert not (internal / "rapidocr").exists()
    assert not (internal / "resources" / "calibration").exists()  # OCR INT8 calibration: the bundle quantizes no OCR
    blas = [p for p in (internal / "opencv_python_headless.libs").glob("libopenblas*")]
    assert blas and all(p.stat().st_size < 1_000_000 for p in blas)  # the shim forwarding to NumPy's OpenBLAS
    assert not list((internal / "opencv_python_headless.libs").glob("libgfortran*"))
    assert list(internal.rglob("zxingcpp*.so"))
    for dropped in ("PySide6/Qt/translations", "PySide6/Qt/lib/libQt6Quick.so.6", "PySide6/Qt/lib/libQt6Qml.so.6",
                    "PySide6/Qt/plugins/platforms/libqwayland.so", "PySide6/Qt/plugins/platformthemes",
                    "torch", "tests", "training"):
        assert not (internal / dropped).exists(), dropped
    assert not list(internal.glob("onnxruntime/capi/libonnxruntime.so*"))
    assert not list(internal.glob("libgtk-3*"))
    assert all(elf.load_segments_aligned(p) for p in internal.rglob("*.so*") if p.is_file() and elf.is_elf(p))


def test_self_test_runs_from_a_read_only_bundle(bundle, workspace):
    extra = inputs(workspace)
    make_read_only(bundle)
    before = snapshot(bundle)
    started = time.perf_counter()
    result = run_bundle(bundle, workspace, "--self-test", *extra)
    wall = time.perf_counter() - started
    print(f"self-test ({wall:.1f} s wall):\n{result.stdout}{result.stderr}")
    assert result.returncode == 0, tail(result.stdout + result.stderr)
    assert "(bundle: " in result.stdout
    assert "first result " in result.stdout and "self-test passed" in result.stdout
    assert "report: report.html, report.pdf" in result.stdout
    assert snapshot(bundle) == before, "the station wrote inside its bundle"


def test_version_names_the_bundle_and_its_libraries(bundle, workspace):
    result = run_bundle(bundle, workspace, "--version")
    assert result.returncode == 0, tail(result.stdout + result.stderr)
    assert result.stdout.startswith("Hangtag Station 0.1.0 (bundle)")
    for row in ("Qt: 6.", "PySide6: 6.", "ONNX Runtime: 1.", "CPU)", "OpenCV: ", "NumPy: ", "OCR models: PP-OCR",
                "zxing-cpp: ", "TensorRT: not installed", "NVIDIA driver: "):
        assert row in result.stdout, row
