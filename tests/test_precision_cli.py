"""`precision-report` and `doctor` from the command line, on small real models."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from inference.cli import main
from inference.cli.doctor import BOX_TOLERANCE_PX, SCORE_TOLERANCE, compare_outputs
from inference.engines.tensorrt import probe
from tests.conv_models import conv_detector, random_images
from tests.factories import blob_detector, scene_with_squares, write_image


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HANGTAG_DATA_DIR", str(tmp_path / "data"))


def labelled_folder(root: Path, count: int = 6) -> Path:
    """Bright squares on gray with YOLO labels: what blob_detector calls class 0 ('bright')."""
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    rng = np.random.default_rng(5)
    for i in range(count):
        x, y = (8 * int(k) + 4 for k in rng.integers(0, 6, 2))  # centred on a detector cell
        write_image(root / "images" / f"s{i}.png", scene_with_squares(64, 64, [(x, y, 16)]))
        (root / "labels" / f"s{i}.txt").write_text(f"0 {(x + 8) / 64:.6f} {(y + 8) / 64:.6f} 0.25 0.25\n")
    return root


def test_precision_report_prints_a_table_and_writes_json(tmp_path, capsys):
    data = labelled_folder(tmp_path / "data")
    model = blob_detector(tmp_path / "blob.onnx", 64)
    code = main(["precision-report", "--model", str(model), "--data", str(data), "--calib", str(data / "images"),
                 "--backend", "onnxruntime-cpu", "--json", str(tmp_path / "r.json")])
    assert code == 0
    out = capsys.readouterr().out
    assert "FP32" in out and "FP16" in out and "INT8" in out and "agree@0.9" in out
    report = json.loads((tmp_path / "r.json").read_text())
    rows = report["precisions"]
    assert list(rows) == ["fp32", "fp16", "int8"]
    assert rows["fp32"]["labelled_images"] == 6
    assert rows["fp32"]["map50"] > 0.5  # the blob detector finds bright squares
    assert set(rows["fp32"]["ap50"]) == {"bright", "dark"} and rows["fp32"]["ap50"]["dark"] is None
    assert "agreement" not in rows["fp32"] and 0.0 <= rows["int8"]["agreement"]["rate"] <= 1.0
    assert rows["fp16"]["map50_drop_points"] == pytest.approx(100 * (rows["fp32"]["map50"] - rows["fp16"]["map50"]),
                                                              abs=1e-3)
    for row in rows.values():
        assert row["latency_ms"]["infer_p50"] > 0 and row["size_mb"] > 0


def test_precision_report_without_labels_still_reports_agreement(tmp_path):
    images = random_images(tmp_path / "imgs", 4, size=64)
    model = conv_detector(tmp_path / "det.onnx", 64)
    code = main(["precision-report", "--model", str(model), "--data", str(images), "--calib", str(images),
                 "--precisions", "fp32,int8", "--json", str(tmp_path / "r.json")])
    assert code == 0
    rows = json.loads((tmp_path / "r.json").read_text())["precisions"]
    assert rows["int8"]["map50"] is None and "agreement" in rows["int8"]


def test_precision_report_on_an_empty_folder_is_a_clear_error(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    code = main(["precision-report", "--model", str(blob_detector(tmp_path / "b.onnx")), "--data",
                 str(tmp_path / "empty")])
    assert code == 2
    assert "no images to evaluate on" in capsys.readouterr().err


def test_doctor_passes_on_a_cpu_machine_and_says_why_it_skips(tmp_path, capsys):
    model = conv_detector(tmp_path / "det.onnx", 64)
    code = main(["doctor", "--model", str(model), "--json", str(tmp_path / "d.json")])
    out = capsys.readouterr().out
    steps = {s["name"]: s for s in json.loads((tmp_path / "d.json").read_text())["steps"]}
    assert steps["ONNX Runtime CPU runs the model"]["status"] == "PASS"
    assert steps["FP16 conversion"]["status"] == "PASS"
    if probe() is not None:
        assert steps["TensorRT builds, runs and matches"]["status"] == "SKIP"
        assert steps["TensorRT builds, runs and matches"]["detail"]
    assert code == (1 if any(s["status"] == "FAIL" for s in steps.values()) else 0)
    assert "[PASS] ONNX Runtime CPU runs the model" in out


def test_doctor_fails_when_the_model_is_missing(tmp_path, capsys):
    code = main(["doctor", "--model", str(tmp_path / "missing.onnx")])
    out = capsys.readouterr().out
    assert code == 1
    assert "[FAIL] ONNX Runtime CPU runs the model" in out and "doctor FAIL" in out


def yolo(scores: float, box_shift: float = 0.0) -> np.ndarray:
    out = np.zeros((1, 6, 4), np.float32)
    out[:, :4] = 100.0 + box_shift
    out[:, 4:] = scores
    return out


@pytest.mark.parametrize(("other", "problems"), [
    (yolo(0.5), []),
    (yolo(0.5 + SCORE_TOLERANCE / 2), []),
    (yolo(0.5 + SCORE_TOLERANCE * 2), ["class scores"]),
    (yolo(0.5, BOX_TOLERANCE_PX * 2), ["boxes"]),
    (np.zeros((1, 6, 5), np.float32), ["output shape"]),
])
def test_doctor_tolerance(other, problems):
    found = compare_outputs(yolo(0.5), other)
    assert [p.split(" ")[0] + (" " + p.split(" ")[1] if p.startswith(("class", "output")) else "") for p in found] \
        == problems
