"""What the bundle leaves out, the strip pass's ELF check, and where a frozen station writes."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packaging"))

import elf  # noqa: E402
import trim  # noqa: E402


@pytest.mark.parametrize(("dest", "variant", "dropped"), [
    ("PySide6/Qt/plugins/platforms/libqxcb.so", "cpu", False),
    ("PySide6/Qt/plugins/platforms/libqoffscreen.so", "cpu", False),
    ("PySide6/Qt/plugins/platforms/libqminimal.so", "cpu", False),
    ("PySide6/Qt/plugins/imageformats/libqjpeg.so", "cpu", False),
    ("PySide6/Qt/plugins/platforms/libqwayland.so", "cpu", True),
    ("PySide6/Qt/plugins/platformthemes/libqgtk3.so", "cpu", True),
    ("PySide6/Qt/plugins/imageformats/libqpdf.so", "cpu", True),
    ("PySide6/Qt/plugins/imageformats/libqsvg.so", "cpu", False),  # the PDF report's SVG charts
    ("PySide6/Qt/translations/qtbase_zh_CN.qm", "cpu", True),
    ("PySide6/Qt/lib/libQt6Quick.so.6", "cpu", True),
    ("PySide6/Qt/lib/libQt6Svg.so.6", "cpu", False),  # the PDF report rasterizes its SVG charts
    ("PySide6/Qt/lib/libQt6Core.so.6", "cpu", False),
    ("onnxruntime/capi/libonnxruntime.so.1.32.0", "cpu", True),
    ("onnxruntime/capi/libonnxruntime.so.1.32.0", "gpu", False),
    ("onnxruntime/capi/onnxruntime_pybind11_state.cpython-311-x86_64-linux-gnu.so", "cpu", False),
    ("libcuda.so.1", "gpu", True),
    ("nvidia/cuda_runtime/lib/libcuda.so.550.54", "gpu", True),
    ("libnvidia-ml.so.1", "gpu", True),
    ("nvidia/cuda_runtime/lib/libcudart.so.12", "gpu", False),
    ("cv2/data/haarcascade_frontalface_default.xml", "cpu", True),
    ("opencv_python_headless.libs/libavcodec-c4204469.so.62.28.101", "cpu", False),
    ("resources/models/hangtag_det.onnx", "cpu", False),
    ("rapidocr/models/PP-OCRv6_rec_small.onnx", "cpu", False),
])
def test_drop_rules(dest, variant, dropped):
    assert (trim.dropped_by(dest, variant) is not None) == dropped


@pytest.mark.parametrize(("variant", "module", "excluded"), [
    ("cpu", "tensorrt", True),
    ("gpu", "tensorrt", False),
    ("cpu", "cuda", True),
    ("cpu", "torch", True),
    ("gpu", "torch", True),
    ("cpu", "PySide6.QtQml", True),
    ("cpu", "PySide6.QtSvg", False),
    ("cpu", "PySide6.QtOpenGL", True),  # pyqtgraph imports it unconditionally: a stub stands in (packaging/stubs)
    ("cpu", "PySide6.QtOpenGLWidgets", True),
    ("cpu", "PIL", False),
    ("cpu", "onnx", False),  # FP16 / INT8 preparation runs in the station
])
def test_excluded_modules(variant, module, excluded):
    assert (module in trim.excluded_modules(variant)) == excluded


def elf_with_load(offset: int, vaddr: int, align: int) -> bytes:
    """A 64-bit little-endian ELF header with one PT_LOAD program header: enough for the alignment check."""
    header = bytearray(64)
    header[:6] = b"\x7fELF\x02\x01"
    struct.pack_into("<Q", header, 0x20, 64)  # e_phoff
    struct.pack_into("<HH", header, 0x36, 56, 1)  # e_phentsize, e_phnum
    return bytes(header) + struct.pack("<IIQQQQQQ", elf.PT_LOAD, 5, offset, vaddr, vaddr, 16, 16, align)


@pytest.mark.parametrize(("offset", "vaddr", "align", "loadable"), [
    (0x1000, 0x1000, 0x1000, True),
    (0x1621098, 0x166b000, 0x1000, False),  # what strip made of a patchelf'd segment in NumPy's OpenBLAS
    (0x1000, 0x201000, 0x200000, True),
    (0x2000, 0x202000, 0x1000, True),
    (0x1010, 0x1000, 0x1000, False),
    (0x1000, 0x1000, 0x10, False),
])
def test_load_segment_alignment(tmp_path, offset, vaddr, align, loadable):
    path = tmp_path / "lib.so"
    path.write_bytes(elf_with_load(offset, vaddr, align))
    assert elf.load_segments_aligned(path) is loadable


def test_strip_keeps_the_original_when_the_copy_would_not_load(tmp_path):
    path = tmp_path / "lib.so"
    original = elf_with_load(0x1000, 0x1000, 0x1000) + b"\0" * 4096
    path.write_bytes(original)
    breaker = tmp_path / "breaking-strip"
    breaker.write_text(f"#!{sys.executable}\n"  # shrinks the file and moves its LOAD segment off the page
                       "import sys\np = sys.argv[1]\nd = bytearray(open(p, 'rb').read()[:200])\n"
                       "d[64 + 8] = 0x10\nopen(p, 'wb').write(d)\n")
    breaker.chmod(0o755)
    saved, kept = elf.strip_file(path, tool=str(breaker))
    assert (saved, kept) == (0, True)
    assert path.read_bytes() == original


def test_frozen_station_writes_outside_its_bundle(tmp_path, monkeypatch):
    from inference import resources
    from inference.precision import cache as precision_cache

    bundle = tmp_path / "HangtagStation" / "_internal"
    bundle.mkdir(parents=True)
    monkeypatch.setattr(sys, "_MEIPASS", str(bundle), raising=False)
    monkeypatch.delenv("HANGTAG_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert resources.bundle_root() == bundle
    assert resources.resource_path("models", "hangtag_det.onnx").is_relative_to(bundle)
    for written in (resources.user_data_dir(), resources.cache_dir(), precision_cache.default_root("tensorrt")):
        assert not written.is_relative_to(bundle.parent), written
        assert written.is_relative_to(tmp_path / "xdg")


def test_opengl_stubs_satisfy_pyqtgraph_and_refuse_to_draw():
    """With the stand-ins in place of PySide6's OpenGL bindings, pyqtgraph imports, plots draw, and an
    OpenGL widget is refused with the reason."""
    import os
    import subprocess

    code = f"""
import sys, importlib.util, pathlib
import PySide6
stubs = pathlib.Path({str(ROOT / "packaging" / "stubs")!r})
for name in ("QtOpenGL", "QtOpenGLWidgets"):
    spec = importlib.util.spec_from_file_location("PySide6." + name, stubs / (name + ".py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules["PySide6." + name] = module
    spec.loader.exec_module(module)
    setattr(PySide6, name, module)
from PySide6.QtWidgets import QApplication
app = QApplication([])
import pyqtgraph as pg
from pyqtgraph.Qt import OpenGLHelpers
pg.setConfigOptions(useOpenGL=False)
widget = pg.PlotWidget()
widget.plot([1, 3, 2])
widget.grab()
try:
    OpenGLHelpers.GraphicsViewGLWidget()
except RuntimeError as exc:
    print("refused:", exc)
"""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "refused: QOpenGLWidget is not part of the Hangtag Station bundle" in result.stdout
