"""The station calibrates INT8 OCR and benchmarks reading from shipped or pre-written data, never from training/."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from inference.cli import main as cli_main
from inference.errors import ModelError
from inference.reading.ocr.quantize import calibration_dir, shipped_samples


def test_shipped_calibration_set_has_tags_with_boxes_inside_each_image():
    samples, what = shipped_samples(calibration_dir())
    assert len(samples) == 24
    assert "24 shipped calibration images" in what
    for image, detections in samples:
        h, w = image.shape[:2]
        assert (detections.class_id == 0).sum() >= 1, "every calibration image holds at least one tag"
        assert (detections.xyxy[:, :2] >= -1).all() and (detections.xyxy[:, 2] <= w + 1).all() and (detections.xyxy[:, 3] <= h + 1).all()
    assert sum(int((d.class_id == 1).sum()) for _, d in samples) >= 12, "the cards carry barcodes"


def test_shipped_calibration_set_stays_small():
    total = sum(p.stat().st_size for p in calibration_dir().iterdir())
    assert total < 2_000_000


def test_broken_calibration_set_is_a_model_error_with_a_hint(tmp_path: Path):
    (tmp_path / "boxes.json").write_text(json.dumps({"class_names": ["hangtag"], "pictures": []}))
    with pytest.raises(ModelError) as info:
        shipped_samples(tmp_path)
    assert "--images DIR" in info.value.hint


def test_read_bench_without_generated_scenes_says_how_to_make_them(tmp_path: Path, capsys):
    assert cli_main(["read-bench", "--data", str(tmp_path / "nothing")]) == 2
    err = capsys.readouterr().err
    assert "python -m training.synth --cards" in err


def test_read_bench_reads_a_folder_the_generator_wrote(tmp_path: Path):
    synth = pytest.importorskip("training.synth.__main__", reason="the generator lives in a source checkout")
    data = tmp_path / "cards"
    assert synth.main(["--cards", "--out", str(data), "--count", "2", "--seed", "9000000", "--quality", "95"]) == 0
    out = tmp_path / "result.json"
    assert cli_main(["read-bench", "--data", str(data), "--count", "2", "--warmup", "0", "--precision", "fp32",
                     "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["tags"] == 2
    assert "seeds 9000000..9000001" in result["source"]
    assert result["barcodes"]["total"] >= 2 and result["barcode_decode"] >= 0.5
    assert result["field_accuracy"] is not None and result["field_accuracy"] > 0.5
    assert np.isfinite(result["steps_ms"]["total"]["p50"])
