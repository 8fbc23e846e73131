"""verdict-bench end to end: a tiny independent set through the real detector, reader and recipes."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from inference.cli import main
from inference.cli.verdict_bench import match, reason_kind
from tests.factories import skip_without_tag_scenes


def test_verdict_bench_does_not_import_training():
    code = "import sys, inference.cli.verdict_bench; print(any(m.startswith('training') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "False"


@pytest.mark.parametrize("truth, found, expected", [
    ([(0, 0, 10, 10)], [(0, 0, 10, 10)], {0: 0}),
    ([(0, 0, 10, 10)], [(6, 6, 16, 16)], {}),                       # IoU 0.09
    ([(0, 0, 10, 10), (20, 0, 30, 10)], [(21, 0, 31, 10), (0, 1, 10, 11)], {0: 1, 1: 0}),
    ([(0, 0, 10, 10)], [(0, 0, 10, 9), (0, 0, 10, 10)], {0: 1}),    # the best overlap wins, once
    ([], [(0, 0, 1, 1)], {}),
])
def test_boxes_match_at_iou_half_each_once(truth, found, expected):
    assert match(truth, found) == expected


@pytest.mark.parametrize("reason, kind", [
    ("tag 2: size 175/96A ≠ expected 170/92A", "size … ≠ expected …"),
    ("style number B6O965693 ≠ expected B60965693", "style number … ≠ expected …"),
    ("2 hangtags, expected 1", "# hangtags, expected …"),
    ("price uncertain: read as ¥39. at 46%, expected ¥399.00", "price uncertain: read as …, expected …"),
    ("price uncertain: the expected ¥259.00, read only at 55% (needs 80%)", "price uncertain: the expected …, read only at # (needs #)"),
    ("product name not found (品名)", "product name not found (品名)"),
])
def test_reasons_are_counted_with_their_values_masked(reason, kind):
    assert reason_kind(reason) == kind


def test_a_folder_that_is_not_a_test_set_is_refused_with_a_message(tmp_path, capsys):
    assert main(["verdict-bench", "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "manifest.json" in err and "python -m training.tagsets" in err


def test_an_unknown_design_is_refused_with_the_designs_there(tmp_path, capsys):
    data = tmp_path / "set"
    data.mkdir()
    (data / "manifest.json").write_text('{"generator": "training.tagsets"}', encoding="utf-8")
    row = {"image": "images/000000.jpg", "job": "job000", "recipe": "recipes/job000.toml", "bucket": "nominal",
           "design": "grid_table", "expected_verdict": "OK", "tags": []}
    (data / "truth.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    assert main(["verdict-bench", "--data", str(data), "--design", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "grid_table" in err and "nope" in err


def test_verdict_bench_on_a_tiny_set_counts_every_image(tmp_path, capsys):
    skip_without_tag_scenes()
    from training.tagsets import generate

    data = tmp_path / "set"
    generate(data, 5, 21, defect_share=0.4, designs=["vertical_classic", "wide_price_block"])
    out = tmp_path / "bench.json"
    assert main(["verdict-bench", "--data", str(data), "--backend", "onnxruntime-cpu", "--json", str(out), "--wrong-recipes"]) == 0
    table = capsys.readouterr().out
    assert "nominal" in table and "overall" in table and ("met" in table or "MISSED" in table)
    assert "one value changed" in table

    report = json.loads(out.read_text(encoding="utf-8"))
    # which OCR pair read is part of the record: an INT8 text detector in the cache reads differently from FP32
    assert re.fullmatch(r".+ det (fp32|int8) / rec (fp32|int8), \w+ charset(; second read: .+)?", report["ocr_models"]), report["ocr_models"]
    assert f"OCR {report['ocr_models']}" in table
    truth = [json.loads(line) for line in (data / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    rows = report["rows"]
    assert [r["image"] for r in rows] == [t["image"] for t in truth]
    assert [r["expected"] for r in rows] == [t["expected_verdict"] for t in truth]
    assert all(r["verdict"] in ("OK", "REVIEW", "NG", "ERROR") for r in rows)
    assert sum(r["expected"] == "NG" for r in rows) == 2
    # how small the print was: the set's own truth and the reader's measure, per frame
    assert [r["smallest_print_px"] for r in rows] == [t["condition"]["smallest_print_px"] for t in truth]
    assert all(6 <= t["condition"]["smallest_print_px"] <= 40 for t in truth if t["tags"])
    assert all(r["text_px"] is None or 4 <= r["text_px"] <= 80 for r in rows)

    overall = report["overall"]
    assert overall["images"] == 5 == sum(b["images"] for b in report["buckets"].values())
    for stats in [overall, *report["buckets"].values()]:
        good, bad = stats["correct"], stats["defective"]
        assert good["ok"] + good["review"] + good["ng"] + good["error"] == good["images"]
        assert bad["escape"] + bad["review"] + bad["ng"] + bad["error"] == bad["images"]
        assert good["images"] + bad["images"] == stats["images"]
        assert sum(k["images"] for k in bad["by_kind"].values()) == bad["images"]
        assert sum(b["images"] for b in stats["correct_by_smallest_print"].values()) == good["images"]
        for name, field in stats["fields"]["by_field"].items():
            assert 0 <= field["exact"] <= field["total"], name
    assert overall["tags"]["truth"] == sum(len(t["tags"]) for t in truth)
    assert 0 <= overall["tags"]["found"] <= overall["tags"]["truth"]
    assert overall["time_per_tag_ms"]["tags"] >= 1 and overall["time_per_tag_ms"]["p50"] > 0
    # where a tag's time goes: this process's CPU per tag, and the reader's stages of every read tag
    assert overall["time_per_tag_ms"]["cpu_p50"] > 0
    assert {"barcode", "rectify", "ocr_det", "ocr_rec", "verify", "total"} <= set(overall["time_per_tag_ms"]["reader_stages_p50"])
    assert all(len(r["tag_stages_ms"]) >= r["tags_found"] for r in rows)
    assert "this process's CPU" in table
    crossed = report["wrong_recipe_rows"]  # every good frame once more, against a recipe one value off
    assert [c["image"] for c in crossed] == [r["image"] for r in rows if r["expected"] == "OK"]
    assert all(c["printed"] != c["expected"] for c in crossed)
    assert sum(s["frames"] for s in report["wrong_recipes"].values()) == len(crossed)
    assert [t["target"] for t in report["targets_nominal"]][0] == "correct: OK"
    assert all(isinstance(t["met"], bool) for t in report["targets_nominal"])


def test_a_station_fault_on_one_frame_is_counted_as_error_and_the_run_goes_on(tmp_path, capsys, monkeypatch):
    skip_without_tag_scenes()
    from inference.inspection import Inspector
    from training.tagsets import generate

    data = tmp_path / "set"
    generate(data, 2, 4, defect_share=0.0, designs=["grid_table"])
    real = Inspector.inspect_image

    def fails_on_the_first(self, image, **kw):
        if kw.get("index") == 0:
            raise RuntimeError("reader bug")
        return real(self, image, **kw)

    monkeypatch.setattr(Inspector, "inspect_image", fails_on_the_first)
    out = tmp_path / "bench.json"
    assert main(["verdict-bench", "--data", str(data), "--backend", "onnxruntime-cpu", "--json", str(out)]) == 0
    assert "000000.jpg: RuntimeError: reader bug" in capsys.readouterr().err
    report = json.loads(out.read_text(encoding="utf-8"))
    assert [r["verdict"] == "ERROR" for r in report["rows"]] == [True, False]
    assert report["rows"][0]["reasons"] == ["RuntimeError: reader bug"]
    assert report["overall"]["correct"]["error"] == 1


@pytest.mark.parametrize(
    "field, value, wrong",
    [
        ("size", "175/96A", "180/96A"),
        ("size", "190/100A", "185/100A"),
        ("size", "XL", "XXL"),
        ("price", "¥399.00", "¥499.00"),
        ("price", "¥99.00", "¥89.00"),
        ("price", "¥1299.50", "¥2299.50"),
        ("style_number", "FS-36358", "FS-36351"),
        ("size", "均码", None),
        ("composition", "腈纶 70% 聚酯纤维 30%", "腈纶 70% 醋酯纤维 30%"),  # one glyph apart
        ("composition", "棉 100%", None),  # no other one-glyph fibre
        ("grade", "一等品", "合格品"),
    ],
)
def test_a_wrong_recipe_expects_the_neighbouring_value(field, value, wrong):
    from inference.cli.wrong_recipes import neighbour

    assert neighbour(field, value) == wrong


def test_a_wrong_recipe_changes_exactly_one_expected_value_in_turn():
    from inference.cli.wrong_recipes import wrong_recipe
    from inference.reading import parse_recipe

    recipe = parse_recipe('[counts]\nhangtag = 1\n[fields]\nsize = "170/92A"\ncolor = "黑色"\nprice = "¥59.00"\n')
    seen = set()
    for turn in range(4):
        changed, field, right, wrong = wrong_recipe(recipe, turn)
        diff = [(a.name, a.expected, b.expected) for a, b in zip(recipe.fields, changed.fields) if a.expected != b.expected]
        assert diff == [(field, right, wrong)] and right != wrong
        seen.add(field)
    assert seen == {"size", "price", "color"}  # no style number in this recipe: its turn goes to the next field


def test_a_tag_read_from_a_grown_box_is_scored_against_its_truth() -> None:
    """The reader grows a detector box that cut the tag; the box it read from then holds the whole truth box
    but overlaps it by less than IoU 0.5: its fields still count, a box far larger than the tag does not."""
    from inference.cli.verdict_bench import match

    truth = [(100.0, 100.0, 300.0, 300.0)]
    assert match(truth, [(60.0, 60.0, 420.0, 360.0)]) == {}  # IoU 0.37
    assert match(truth, [(60.0, 60.0, 420.0, 360.0)], grown=True) == {0: 0}
    assert match(truth, [(0.0, 0.0, 800.0, 600.0)], grown=True) == {}  # the whole frame is no tag's box


@pytest.mark.parametrize(("flag", "name", "hint"), [("--ocr-rec", "missing.onnx", "rec .onnx"), ("--ocr-reread", "cand.onnx", "")])
def test_a_recognizer_that_is_not_there_is_refused_before_any_frame(tmp_path, capsys, flag, name, hint):
    """--ocr-rec (the first recognizer) and --ocr-reread (the small-print last read a candidate is judged with):
    a missing file is refused at once."""
    data = tmp_path / "set"
    data.mkdir()
    (data / "manifest.json").write_text('{"generator": "training.tagsets"}', encoding="utf-8")
    (data / "truth.jsonl").write_text("", encoding="utf-8")
    assert main(["verdict-bench", "--data", str(data), flag, str(tmp_path / name)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and f"{name} does not exist" in err and hint in err


@pytest.mark.parametrize(
    "field, value, wrong",
    [
        ("size", "XL", "L"),
        ("size", "XS", "S"),  # nothing below XS: the other way
        ("size", "175/96A", "170/96A"),
        ("price", "¥399.00", "¥299.00"),
        ("price", "¥1299.50", "¥2299.50"),  # no leading 0: the other way
        ("style_number", "FS-36358", "FS-36355"),
        ("grade", "一等品", "优等品"),
        ("composition", "腈纶 70% 聚酯纤维 30%", "腈纶 70% 醋酯纤维 30%"),  # no direction: the same look-alike
    ],
)
def test_a_wrong_recipe_stepped_down_expects_the_value_below(field, value, wrong):
    from inference.cli.wrong_recipes import neighbour

    assert neighbour(field, value, -1) == wrong


def test_wrong_recipes_step_each_field_up_in_one_round_and_down_in_the_next():
    """A bold XXL read XL passed a job of XL (fifteenth_b 000132): only a step down asks that of the reader."""
    from inference.cli.wrong_recipes import FIELDS, wrong_recipe
    from inference.reading import parse_recipe

    recipe = parse_recipe('[counts]\nhangtag = 1\n[fields]\nsize = "XL"\n')
    wrongs = [wrong_recipe(recipe, turn)[3] for turn in range(2 * len(FIELDS))]
    assert wrongs == ["XXL"] * len(FIELDS) + ["L"] * len(FIELDS)


@pytest.mark.parametrize(
    "field, value, step, wrong",
    [
        ("safety_category", "GB 18401-2010 B类", 1, "GB 18401-2010 C类"),
        ("safety_category", "GB 18401-2010 B类", -1, "GB 18401-2010 A类"),
        ("safety_category", "GB 31701-2015 A类", -1, "GB 31701-2015 B类"),  # nothing below A: the other way
        ("standard", "FZ/T 81004-2022", 1, "FZ/T 81007-2022"),
        ("standard", "GB/T 22849-2014", -1, "GB/T 22846-2014"),
        ("safety_category", "符合国家标准", 1, None),
    ],
)
def test_a_wrong_recipe_names_the_next_safety_class_or_another_products_standard(field, value, step, wrong):
    from inference.cli.wrong_recipes import neighbour

    assert neighbour(field, value, step) == wrong
