from __future__ import annotations

import json

from inference.cli import main
from tests.factories import blob_detector, scene_with_squares, write_image


def test_run_writes_one_json_line_per_image_and_an_error_record(tmp_path, capsys):
    images = tmp_path / "imgs"
    images.mkdir()
    write_image(images / "t1.png", scene_with_squares(64, 64, [(16, 16, 24)]))
    (images / "t2.jpg").write_bytes(b"\xff\xd8\xff\xe0 broken")
    write_image(images / "t3.jpg", scene_with_squares(80, 120, [(40, 20, 30)]))
    model = blob_detector(tmp_path / "m.onnx")
    out = tmp_path / "out"
    code = main(["run", "--source", str(images), "--model", str(model), "--backend", "onnxruntime-cpu",
                 "--conf", "0.5", "--iou", "0.3", "--out", str(out)])
    assert code == 0
    lines = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [r["source"] for r in lines] == ["t1.png", "t2.jpg", "t3.jpg"]
    assert lines[1]["ok"] is False and "could not be decoded" in lines[1]["error"]
    first = lines[0]["detections"][0]
    assert first["class_name"] in ("bright", "dark") and isinstance(first["xyxy"][0], float)
    assert "infer" in lines[0]["timings_ms"]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["frames"] == 3 and summary["errors"] == 1


def test_bench_reports_percentiles_host_share_and_rss(tmp_path, capsys):
    images = tmp_path / "imgs"
    images.mkdir()
    write_image(images / "a.png", scene_with_squares(64, 64, [(16, 16, 24)]))
    model = blob_detector(tmp_path / "m.onnx")
    code = main(["bench", "--model", str(model), "--source", str(images), "--frames", "20", "--warmup", "2",
                 "--backend", "onnxruntime-cpu", "--json", str(tmp_path / "b.json")])
    assert code == 0
    result = json.loads((tmp_path / "b.json").read_text())
    assert result["stages_ms"]["infer"]["n"] == 20
    assert 0.0 < result["host_share_p50"] < 1.0
    assert result["rss_mb"]["end"] > 0
    assert "p50" in capsys.readouterr().out


def test_bad_source_gives_a_clear_error_and_exit_code_2(tmp_path, capsys):
    model = blob_detector(tmp_path / "m.onnx")
    code = main(["run", "--source", str(tmp_path / "nowhere"), "--model", str(model)])
    err = capsys.readouterr().err
    assert code == 2 and "source not found" in err and "hint" in err


def test_run_with_a_recipe_writes_reads_and_the_verdict_per_frame(tmp_path, capsys):
    from pathlib import Path

    sample = Path("resources/samples/090000022.jpg")
    good = Path("resources/recipes/sample_090000022.toml")
    wrong = tmp_path / "wrong_price.toml"
    wrong.write_text(good.read_text(encoding="utf-8").replace('price = "¥999.00"', 'price = "¥899.00"'), encoding="utf-8")
    records = {}
    for name, recipe in (("good", good), ("wrong", wrong)):
        out = tmp_path / name
        assert main(["run", "--source", str(sample), "--recipe", str(recipe), "--out", str(out)]) == 0
        (records[name],) = [json.loads(line) for line in (out / "results.jsonl").read_text(encoding="utf-8").splitlines()]
        summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
        assert summary["verdicts"] == {records[name]["verdict"]: 1}
    assert records["good"]["verdict"] == "OK", records["good"]["reasons"]
    assert records["good"]["readings"][0]["fields"]["size"]["value"] == "175/92A(XL)"
    assert records["wrong"]["verdict"] == "NG"
    assert records["wrong"]["reasons"] == ["price ¥999.00 ≠ expected ¥899.00"]
    price = next(c for c in records["wrong"]["checks"] if c["subject"] == "price")
    assert (price["expected"], price["read"], price["verdict"], price["source"]) == ("¥899.00", "¥999.00", "NG", "ocr")
