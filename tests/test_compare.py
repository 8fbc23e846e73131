"""training.compare scores detectors the way the model card reports them; onnx_init restores the shipped weights."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pycocotools", reason="AP50 is computed with pycocotools (pip install -e '.[dev]')")
pytest.importorskip("PIL", reason="the generator renders text with Pillow")

from inference.resources import default_model_path  # noqa: E402
from training.compare import _match, _truth, ap50, run  # noqa: E402
from training.synth.__main__ import main as synth_main  # noqa: E402
from training.synth.labels import read_scene_records  # noqa: E402


@pytest.mark.parametrize(("det", "truth", "found"), [
    ([[0, 0, 10, 10]], [[0, 0, 10, 10]], 1),
    ([[0, 0, 10, 10], [1, 1, 10, 10]], [[0, 0, 10, 10]], 1),      # a second box on the same tag is a false one
    ([[0, 0, 10, 10]], [[20, 20, 30, 30]], 0),
    ([[0, 0, 10, 10], [20, 20, 30, 30]], [[0, 0, 10, 10], [20, 21, 30, 30]], 2),
])
def test_each_truth_box_is_matched_once(det, truth, found):
    assert _match(np.array(det, float), np.array(truth, float)) == found


def test_shipped_model_finds_the_tags_of_clean_classic_scenes(tmp_path: Path):
    data = tmp_path / "set"
    assert synth_main(["--out", str(data), "--count", "3", "--seed", "20000000", "--clean"]) == 0
    items = _truth(data)
    results, view = run(default_model_path(), items, threads=1)
    assert view["hangtag"]["truth"] == sum(int((i["classes"] == 0).sum()) for i in items)
    assert view["hangtag"]["recall"] == 1.0 and view["hangtag"]["precision"] == 1.0
    assert ap50(items, results)["hangtag"] > 0.95


def test_independent_set_truth_lines_become_tag_barcode_and_qr_boxes(tmp_path: Path):
    (tmp_path / "images").mkdir()
    row = {"image": "images/000000.jpg", "design": "grid_table", "tags": [
        {"xyxy": [10, 10, 100, 200], "barcodes": [{"xyxy": [20, 150, 90, 180]}], "qr": [{"xyxy": [20, 20, 40, 40]}]}]}
    (tmp_path / "truth.jsonl").write_text(json.dumps(row) + "\n" + json.dumps({"image": "images/000001.jpg", "tags": []}) + "\n")
    first, second = _truth(tmp_path)
    assert first["classes"].tolist() == [0, 1, 2] and first["design"] == "grid_table"
    assert second["boxes"].shape == (0, 4)


def test_resumed_wide_set_keeps_the_barcodes_that_lie_on_no_tag(tmp_path: Path):
    data = tmp_path / "wide"
    assert synth_main(["--out", str(data), "--count", "4", "--seed", "100000000", "--domain", "wide", "--imgsz", "320"]) == 0
    doc = json.loads((data / "annotations.json").read_text())
    for image in doc["images"]:
        written = [a for a in doc["annotations"] if a["image_id"] == image["id"]]
        _, rebuilt = read_scene_records(data, f"{image['id']:09d}")
        assert sorted(a["category_id"] for a in rebuilt) == sorted(a["category_id"] for a in written)


def test_onnx_weights_go_back_into_the_network_exactly():
    torch = pytest.importorskip("torch", reason="training needs PyTorch (not in the station's .venv)")
    from training.model.net import HTDet
    from training.model.onnx_init import calibrate_bn, load_onnx_weights, onnx_difference

    model = HTDet(3, activation="relu")
    load_onnx_weights(model, default_model_path())
    images = torch.rand(2, 3, 640, 640)
    calibrate_bn(model, images)
    assert onnx_difference(model, default_model_path(), images, 640) < 1e-3
