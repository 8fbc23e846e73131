"""The bundle's size cuts that rewrite files: ICU's data package, the BLAS shim, FP16-stored OCR weights.

Each is checked here on real inputs (the installed PySide6's ICU data, a real ONNX network); the bundle
test then runs the results inside the built station (its self-test sorts Chinese through Qt's ICU and
solves linear systems through OpenCV's BLAS)."""

from __future__ import annotations

import importlib.util
import shutil
import struct
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packaging"))

import icu_data  # noqa: E402


def pyside_icu_data() -> Path:
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("PySide6 is not installed")
    found = sorted((Path(next(iter(spec.submodule_search_locations))) / "Qt" / "lib").glob("libicudata.so.*"))
    if not found or shutil.which("nm") is None or shutil.which("readelf") is None:
        pytest.skip("no ICU data library or no binutils here")
    return found[0]


@pytest.mark.parametrize(("item", "kept"), [
    ("icudt73l/zh.res", True), ("icudt73l/zh_Hans_CN.res", True), ("icudt73l/en_GB.res", True),
    ("icudt73l/root.res", True), ("icudt73l/coll/zh.res", True), ("icudt73l/coll/ucadata.icu", True),
    ("icudt73l/brkitr/cjdict.dict", True), ("icudt73l/nfkc.nrm", True), ("icudt73l/pool.res", True),
    ("icudt73l/supplementalData.res", True), ("icudt73l/gb18030.cnv", True), ("icudt73l/windows-936-2000.cnv", True),
    ("icudt73l/de.res", False), ("icudt73l/coll/ko.res", False), ("icudt73l/zone/fr_CA.res", False),
    ("icudt73l/ibm-943_P15A-2003.cnv", False), ("icudt73l/translit/root.res", False), ("icudt73l/yue.res", False),
])
def test_icu_keeps_root_english_and_chinese_and_what_is_not_per_locale(item, kept):
    assert icu_data.keeps(item) is kept


def test_icu_package_is_rewritten_byte_for_byte_and_filtered_in_icu_layout():
    library = pyside_icu_data()
    symbol, offset, size = icu_data.data_symbol(library)
    with open(library, "rb") as fh:
        fh.seek(offset)
        blob = fh.read(size)
    header, items = icu_data.read_package(blob)
    assert icu_data.write_package(header, items) == blob  # our writer is ICU's layout
    kept = [item for item in items if icu_data.keeps(item[0])]
    again_header, again = icu_data.read_package(icu_data.write_package(header, kept))
    assert again_header == header and again == kept
    assert len(kept) < len(items) / 3
    names = [name for name, _ in kept]
    assert names == sorted(names)  # ICU binary-searches the TOC
    (count,) = struct.unpack_from("<I", icu_data.write_package(header, kept), len(header))
    assert count == len(kept)


def test_icu_library_is_rebuilt_with_the_same_symbol_and_a_smaller_package(tmp_path):
    library = pyside_icu_data()
    if shutil.which("cc") is None:
        pytest.skip("no C compiler")
    symbol, offset, size = icu_data.data_symbol(library)
    with open(library, "rb") as fh:
        fh.seek(offset)
        header, items = icu_data.read_package(fh.read(size))
    package = icu_data.write_package(header, [item for item in items if icu_data.keeps(item[0])])
    out = tmp_path / library.name
    icu_data.build_library(package, symbol, library.name, out)
    new_symbol, new_offset, new_size = icu_data.data_symbol(out)
    assert new_symbol == symbol and new_size == len(package)
    assert out.read_bytes()[new_offset:new_offset + new_size] == package


def test_not_a_package_is_refused():
    with pytest.raises(ValueError, match="not an ICU common data package"):
        icu_data.read_package(b"\x00" * 64)


def test_fp16_stored_weights_compute_in_fp32_and_halve_the_file(tmp_path):
    ort = pytest.importorskip("onnxruntime")
    onnx = pytest.importorskip("onnx")
    from onnx import TensorProto, helper, numpy_helper

    import ocr_models

    rng = np.random.default_rng(0)
    weight = rng.standard_normal((64, 256)).astype(np.float32)
    bias = rng.standard_normal(64).astype(np.float32)  # small: stays FP32
    graph = helper.make_graph(
        [helper.make_node("Gemm", ["x", "w", "b"], ["y"], transB=1)], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 256])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 64])],
        [numpy_helper.from_array(weight, "w"), numpy_helper.from_array(bias, "b")])
    source = tmp_path / "fc.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)]), str(source))
    stored = ocr_models.store_fp16(source, tmp_path / "fc.w16.onnx", min_elements=1024)
    assert stored.stat().st_size < 0.6 * source.stat().st_size
    x = rng.standard_normal((2, 256)).astype(np.float32)
    want = ort.InferenceSession(str(source), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    got = ort.InferenceSession(str(stored), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    exact = x @ weight.astype(np.float16).astype(np.float32).T + bias  # FP32 math on FP16-rounded weights
    assert got.dtype == np.float32
    assert np.allclose(got, exact, atol=1e-4)
    assert np.abs(got - want).max() < 0.05  # only the weight rounding differs


def test_libaom_becomes_a_stub_that_decodes_nothing_and_opencv_still_reads_jpeg_and_png(tmp_path):
    """OpenCV's libavif is libaom's only user: the 8-MB codec is replaced by packaging/aom_stub.c, and in a copy
    of the installed OpenCV with the stub in place JPEG and PNG still read, an AVIF write fails with an error."""
    import subprocess

    import shims

    spec = importlib.util.find_spec("cv2")
    if spec is None or shutil.which("cc") is None or shutil.which("nm") is None or shutil.which("readelf") is None:
        pytest.skip("no OpenCV wheel, C compiler or binutils here")
    site = Path(spec.origin).parent.parent
    libs = site / "opencv_python_headless.libs"
    if not list(libs.glob("libaom-*.so*")):
        pytest.skip("this OpenCV wheel carries no libaom")
    internal = tmp_path / "HangtagStation" / "_internal"
    internal.mkdir(parents=True)
    shutil.copytree(site / "cv2", internal / "cv2")
    shutil.copytree(libs, internal / "opencv_python_headless.libs")
    before = next((internal / "opencv_python_headless.libs").glob("libaom-*.so*")).stat().st_size
    report = shims.stub_av1(tmp_path / "HangtagStation")
    assert report.skipped is None and len(report.replaced) == 1
    assert report.saved_bytes > 0.9 * before and before > 5e6
    probe = ("import cv2, numpy as np; img = np.full((32, 48, 3), 200, np.uint8)\n"
             "for ext in ('.jpg', '.png'):\n    ok, buf = cv2.imencode(ext, img); assert ok and cv2.imdecode(buf, 1).shape == img.shape\n"
             "try:\n    ok, _ = cv2.imencode('.avif', img)\nexcept cv2.error:\n    ok = False\nassert not ok\nprint('ok')")
    run = subprocess.run([sys.executable, "-c", probe], env={"PYTHONPATH": str(internal), "PATH": "/usr/bin:/bin"},
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip().endswith("ok"), run.stderr[-2000:]
