"""Adapt's Compare judges a candidate by the verdicts it leads to, not by its boxes alone (issue 17)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from inference.adapt.compare import EvalFrame, compare, golden_frames
from inference.adapt.golden_recipes import golden_recipes, recipe_text
from inference.adapt.verdicts import JudgedFrame, box_disagreement, overlap_of_smaller, pick
from inference.reading import load_recipe, parse_recipe
from inference.reading.types import FIELD_NAMES
from inference.resources import default_model_path, samples_dir
from tests.detector_variants import shrunk_boxes_model

NAMES = ("hangtag", "barcode", "qr_code")
REPO = Path(__file__).resolve().parents[1]


def truth_of(name: str) -> dict:
    return json.loads((samples_dir() / "truth" / f"{name}.json").read_text(encoding="utf-8"))


def test_golden_frames_with_one_front_tag_get_the_recipe_their_truth_implies():
    recipes = golden_recipes(samples_dir())
    several = [n for n in range(24) if len(truth_of(f"0900000{n:02d}")["tags"]) != 1]
    assert several and not {f"0900000{n:02d}.jpg" for n in several} & set(recipes)
    assert len(recipes) == 10
    shipped = load_recipe(REPO / "resources/recipes/sample_090000022.toml")  # written by hand for the demo
    ours = recipes["090000022.jpg"]
    for name in ("product_name", "style_number", "color", "size", "composition", "standard", "grade", "price"):
        assert ours.field(name).expected == shipped.field(name).expected, name
    assert ours.barcode.expected == shipped.barcode.expected and ours.barcode.format == "EAN-13"
    assert {c.class_name: (c.min, c.max) for c in ours.counts} == {"hangtag": (1, 1), "barcode": (2, 2)}
    frames = {f.name: f for f in golden_frames()}
    assert frames["090000022.jpg"].good and frames["090000022.jpg"].recipe.field("size").expected == "175/92A(XL)"
    assert not frames["090000000.jpg"].judged and not frames["090000000.jpg"].good


@pytest.mark.parametrize(("side", "fields", "judged"), [
    ("back", {"size": "M"}, False),  # a back side prints nothing the job pins down
    ("front", {"brand": "X", "ean13": "6900000000000"}, False),  # nothing judged is printed
    ("front", {"size": "M", "price": "¥9.00"}, True),
])
def test_a_recipe_is_written_only_for_a_front_tag_that_prints_something_to_judge(side, fields, judged):
    text = recipe_text("f", {"side": side, "fields": fields, "symbols": []})
    assert (text is not None) == judged
    if text is not None:
        assert parse_recipe(text).field("size").expected == "M"


@pytest.mark.parametrize(("a", "b", "expected"), [
    ([[0, 0, 10, 10]], [[0, 0, 10, 10]], 0.0),
    ([], [], 0.0),
    ([[0, 0, 10, 10]], [], 1.0),  # only one model finds a tag
    ([[0, 0, 10, 10]], [[0, 0, 10, 10], [50, 50, 60, 60]], 1.0),  # a second tag appears
    ([[0, 0, 10, 10]], [[0, 0, 10, 5]], 0.5),
])
def test_box_disagreement(a, b, expected):
    assert box_disagreement(np.array(a), np.array(b)) == pytest.approx(expected)


def test_a_box_cut_to_part_of_the_tag_still_pairs_with_the_whole_tag():
    whole, half = np.array([[0, 0, 100, 200]]), np.array([[20, 50, 80, 150]])
    assert overlap_of_smaller(whole, half)[0, 0] == pytest.approx(1.0)


def test_a_partial_sample_says_how_long_judging_every_frame_would_take():
    from inference.adapt.verdicts import Tally, VerdictSample

    none = Tally(5, 0, {"OK": 5}, 0, 0)
    sample = VerdictSample(("a", "b", "c", "d", "e"), 76, none, none, (), seconds=50.0)  # 10 s per frame, 2 models
    assert sample.sample_note.startswith("5 of 76 frames judged (those whose tag boxes differ most; all 76 would "
                                         "take about 13 min here): a, b")


def test_the_sample_takes_the_frames_whose_boxes_differ_most_then_by_name():
    frames = [JudgedFrame(n, np.zeros((1, 1, 3), np.uint8), None, False) for n in ("c", "a", "b", "d")]
    disagreement = {"a": 0.0, "b": 0.4, "c": 0.0, "d": 0.9}
    assert [f.name for f in pick(frames, disagreement, 3)] == ["d", "b", "a"]
    assert [f.name for f in pick(frames, disagreement, 0)] == ["d", "b", "a", "c"]  # 0: every frame


def test_the_model_against_itself_changes_no_verdict_on_a_golden_frame():
    frames = [f for f in golden_frames() if f.name == "090000022.jpg"]
    result = compare(default_model_path(), default_model_path(), {"golden set": frames}, NAMES,
                     backend="onnxruntime-cpu", verdict_cap=1)
    v = result.sets[0].verdicts
    assert v.frames == ("090000022.jpg",) and v.eligible == 1
    assert v.current == v.candidate and v.current.good == 1 and not v.changes and not result.ok_to_ng
    assert v.sample_note == "1 of 1 frames judged (those whose tag boxes differ most): 090000022.jpg"
    assert v.seconds > 0


def test_a_candidate_that_cuts_the_tag_box_turns_a_good_frame_ng_and_compare_says_why(tmp_path):
    """Real station, real reader: the shipped detector against one whose boxes are 0.2 of the tag's size (the reader grows a box
    its lines or paper run past, twice at most: at 0.4 it finds the whole tag again)."""
    candidate = shrunk_boxes_model(default_model_path(), tmp_path / "cut" / "hangtag_det.onnx", 0.2)
    strict = (REPO / "resources/recipes/sample_090000022.toml").read_text(encoding="utf-8") + \
        '\n[verdict]\nmissing_field = "ng"\n'
    line_frames = [EvalFrame(f.name, f.image_bgr, f.truth) for f in golden_frames() if f.name == "090000022.jpg"]
    result = compare(default_model_path(), candidate, {"line": line_frames}, NAMES, backend="onnxruntime-cpu",
                     recipe=parse_recipe(strict))
    line = result.sets[0]
    assert line.current.ap50["hangtag"] > 0.9 and line.candidate.ap50["hangtag"] < 0.5  # boxes alone say it too
    assert (line.verdicts.current.counts, line.verdicts.candidate.counts) == ({"OK": 1}, {"NG": 1})
    [(where, change)] = result.ok_to_ng
    assert where == "line" and change.kind == "OK→NG" and not change.good  # the line's frame: not known good
    assert "Δh -" in change.tag_box  # the box shrank, and the message says by how much
    # which fields the cut crop misreads depends on how the reader levels it; that it names them does not
    assert change.reads and all(" → " in r and r.split(" ")[0] in FIELD_NAMES for r in change.reads), change.reads
    doc = json.loads(json.dumps(result.to_json(), ensure_ascii=False))
    assert doc["sets"][0]["verdicts"]["changes"][0]["candidate"] == "NG"


def test_headless_adopt_refuses_a_candidate_that_turns_ok_to_ng_until_told_so(tmp_path, capsys):
    from inference.adapt.models import ModelStore
    from inference.cli import main as cli
    from inference.records.convert import file_hash
    from tests.detector_variants import cut_box_candidate, kept_twice

    data, models = tmp_path / "adapt", tmp_path / "models"
    _, kept_name = kept_twice(data, samples_dir() / "090000022.jpg")
    candidate = cut_box_candidate(data / "candidates" / "cut")
    strict = tmp_path / "job.toml"
    strict.write_text((REPO / "resources/recipes/sample_090000022.toml").read_text(encoding="utf-8")
                      + '\n[verdict]\nmissing_field = "ng"\n', encoding="utf-8")
    args = ["adapt", "--data", str(data), "--candidate", str(candidate.directory), "--recipe", str(strict),
            "--verdict-frames", "1", "--models-dir", str(models), "--backend", "onnxruntime-cpu", "--adopt"]
    assert cli(args) == 3
    out = capsys.readouterr().out
    assert f"held-out {kept_name}" in out and "not adopted: the candidate turns 1 frame(s)" in out
    assert f"{kept_name}: OK→NG (tag box" in out and "--adopt-despite-ng" in out
    assert ModelStore(models).in_use().hash == file_hash(default_model_path())
    assert cli([*args, "--adopt-despite-ng"]) == 0
    assert ModelStore(models).in_use().hash == candidate.model_hash
    assert cli(["adapt", "--data", str(data), "--candidate", str(tmp_path), "--models-dir", str(models)]) == 2
    assert "not a candidate folder" in capsys.readouterr().err
