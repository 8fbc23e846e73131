"""Adapt without a window: the data folder, unsure frames, AP50, adopting and rolling back, and
`hangtag-inspect adapt` headless (collect → fine-tune on the CPU → compare → adopt → roll back)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from inference.adapt.errors import AdaptError
from inference.adapt.folder import HELD_OUT, TRAIN, AdaptFolder, Box
from inference.adapt.models import ModelStore
from inference.adapt.scoring import FrameDetections, LabelledFrame, average_precision_50, score
from inference.adapt.suggest import unsure_reason
from inference.cli import main as cli
from inference.pipeline import Pipeline
from inference.postprocess import Thresholds
from inference.records.convert import file_hash
from inference.resources import default_model_path, samples_dir

ROOT = Path(__file__).resolve().parents[1]


def corrected_folder(root: Path, count: int, start: int = 0) -> AdaptFolder:
    """Frames of the golden set with their true boxes, as an engineer would correct them."""
    doc = json.loads((samples_dir() / "annotations.json").read_text())
    folder = AdaptFolder(root)
    for image in doc["images"][start:start + count]:
        kept = folder.keep_file(samples_dir() / image["file_name"])
        boxes = [Box((a["bbox"][0], a["bbox"][1], a["bbox"][0] + a["bbox"][2], a["bbox"][1] + a["bbox"][3]),
                     a["category_id"]) for a in doc["annotations"] if a["image_id"] == image["id"]]
        folder.set_boxes(kept.id, boxes, corrected=True)
    return folder


def shipped_variant(path: Path) -> Path:
    """The shipped detector with another description: other bytes, the same loadable model."""
    import onnx

    proto = onnx.load(str(default_model_path()))
    entry = proto.metadata_props.add()
    entry.key, entry.value = "adapt_test", str(path)
    onnx.save(proto, str(path))
    return path


def test_kept_frames_and_boxes_survive_a_reopen_as_coco(tmp_path):
    folder = corrected_folder(tmp_path / "adapt", 2)
    folder.keep_image(np.zeros((40, 60, 3), np.uint8), origin="live view: camera 0 #7", reason="REVIEW verdict")
    again = AdaptFolder(tmp_path / "adapt")
    assert [(f.id, f.corrected, f.reason) for f in again.frames()] == [(1, True, "engineer"), (2, True, "engineer"),
                                                                       (3, False, "REVIEW verdict")]
    assert again.frame(1).boxes == folder.frame(1).boxes
    assert again.image(3).shape == (40, 60, 3)
    coco = json.loads(again.annotations_path.read_text())
    first = next(a for a in coco["annotations"] if a["image_id"] == 1)
    x1, y1, x2, y2 = folder.frame(1).boxes[0].xyxy
    assert first["bbox"] == pytest.approx([x1, y1, x2 - x1, y2 - y1], abs=0.01)


def test_a_held_out_frame_stays_held_out_when_more_frames_arrive(tmp_path):
    folder = corrected_folder(tmp_path / "adapt", 5)
    assert folder.assign_split(0.2) == (4, 1)
    held = [f.id for f in folder.corrected(HELD_OUT)]
    more = corrected_folder(tmp_path / "adapt", 5, start=5)  # the same folder, five more frames
    assert more.assign_split(0.2) == (8, 2)
    assert set(held) <= {f.id for f in more.corrected(HELD_OUT)}
    assert len(more.corrected(TRAIN)) == 8


@pytest.mark.parametrize(("boxes", "problem"), [
    ([Box((0, 0, 5, 5), 3)], "unknown class"),
    ([Box((0, 0, 5, 5), -1)], "unknown class"),
])
def test_a_box_of_an_unknown_class_is_refused(tmp_path, boxes, problem):
    folder = corrected_folder(tmp_path / "adapt", 1)
    with pytest.raises(AdaptError, match=problem):
        folder.set_boxes(1, boxes, corrected=True)


def test_an_unreadable_annotations_file_says_what_to_do(tmp_path):
    (tmp_path / "adapt").mkdir()
    (tmp_path / "adapt" / "annotations.json").write_text("{not json")
    with pytest.raises(AdaptError) as caught:
        AdaptFolder(tmp_path / "adapt")
    assert "expected: a COCO annotations.json" in str(caught.value) and "hint:" in str(caught.value)


@pytest.mark.parametrize(("threshold", "verdict", "expected"), [
    (0.25, None, ""),  # the golden frame's boxes are far above 0.25: the model is sure
    (0.95, None, "unsure: "),  # at 0.95 some box lies within 0.15 of it
    (0.25, "REVIEW", "REVIEW verdict"),  # the station itself asked a person
    (0.25, "OK", ""),
])
def test_frames_are_unsure_when_a_score_lies_near_the_threshold_or_a_person_was_asked(threshold, verdict, expected):
    from inference.imageio import read_image
    from inference.reading.verdict import Verdict

    with Pipeline.open(default_model_path(), "onnxruntime-cpu", thresholds=Thresholds(confidence=threshold)) as p:
        result = p.process(read_image(samples_dir() / "090000000.jpg"))
    if verdict is not None:
        result = result.with_(verdict=Verdict(verdict))
    reason = unsure_reason(result)
    assert reason.startswith(expected) if expected else reason == ""


@pytest.mark.parametrize(("scores", "hits_truth", "expected"), [
    ([0.9, 0.8], [True, True], 1.0),
    ([0.9, 0.8], [False, True], 0.25),  # the best box is false, one truth missed: precision 0.5 to recall 0.5
    ([0.9], [True], 0.5),  # one of two truth boxes found
])
def test_ap50_of_hand_made_rankings(scores, hits_truth, expected):
    truth = np.array([[0, 0, 10, 10], [20, 20, 30, 30]], float)
    boxes = []
    for k, hit in enumerate(hits_truth):
        boxes.append(truth[k] if hit else [50, 50, 60, 60])
    frame = LabelledFrame(truth, np.array([0, 0]))
    found = FrameDetections(np.array(boxes, float), np.array(scores), np.zeros(len(scores), int))
    ap = average_precision_50([frame], [found], 0)
    assert ap == pytest.approx(expected, abs=0.02)


def test_false_tags_are_counted_per_100_frames():
    truth = [LabelledFrame(np.array([[0, 0, 10, 10]], float), np.array([0])), LabelledFrame(np.zeros((0, 4)), np.zeros(0, int))]
    found = [FrameDetections(np.array([[0, 0, 10, 10]], float), np.array([0.9]), np.array([0])),
             FrameDetections(np.array([[5, 5, 9, 9], [1, 1, 2, 2]], float), np.array([0.8, 0.1]), np.array([0, 0]))]
    s = score(truth, found, ("hangtag",), confidence=0.25)
    assert s.false_tags_per_100 == 50.0  # one false tag at 0.8 in two frames; the 0.1 box is not shown
    assert s.recall["hangtag"] == 1.0 and s.precision["hangtag"] == 0.5


def test_adopt_keeps_the_previous_model_and_rolling_back_returns_to_it(tmp_path):
    store = ModelStore(tmp_path / "models")
    assert store.in_use().path == default_model_path() and store.previous() is None
    candidate = tmp_path / "candidate.onnx"
    shutil.copyfile(default_model_path(), candidate)
    with pytest.raises(AdaptError, match="already in use"):  # the same bytes as the model in use
        store.adopt(candidate)
    shipped_variant(candidate)
    adopted = store.adopt(candidate, note="test")
    assert adopted.hash == file_hash(candidate) and adopted.path.parent == tmp_path / "models"
    assert store.path_in_use() == adopted.path and store.previous().path == default_model_path()
    assert store.roll_back().path == default_model_path()
    with pytest.raises(AdaptError, match="nothing to roll back"):
        store.roll_back()
    assert adopted.path.is_file()  # the rolled-back model stays on disk: its journal rows still name it


def test_a_lost_adopted_model_falls_back_to_the_shipped_one(tmp_path):
    store = ModelStore(tmp_path / "models")
    store.adopt(shipped_variant(tmp_path / "candidate.onnx")).path.unlink()
    assert store.path_in_use() == default_model_path()


def test_adapt_without_pytorch_says_what_to_install(tmp_path):
    corrected_folder(tmp_path / "adapt", 3)
    code = ("import sys; sys.modules['torch'] = None\n"  # what an install without the 'train' extra sees
            "from inference.cli import main\n"
            f"sys.exit(main(['adapt', '--data', {str(tmp_path / 'adapt')!r}, '--models-dir', {str(tmp_path / 'm')!r}]))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 2, result.stderr
    assert "fine-tuning needs PyTorch" in result.stderr and 'pip install -e ".[train]"' in result.stderr
    assert "Traceback" not in result.stderr


def test_too_few_corrected_frames_is_a_message_not_a_traceback(tmp_path, capsys):
    pytest.importorskip("torch", reason="fine-tuning needs PyTorch: pip install -e '.[train]'")
    corrected_folder(tmp_path / "adapt", 2)
    assert cli(["adapt", "--data", str(tmp_path / "adapt"), "--models-dir", str(tmp_path / "m")]) == 2
    assert "too few corrected frames" in capsys.readouterr().err


def test_headless_adapt_collects_fine_tunes_compares_adopts_and_rolls_back(tmp_path, capsys):
    pytest.importorskip("torch", reason="fine-tuning needs PyTorch: pip install -e '.[train]'")
    data, models = tmp_path / "adapt", tmp_path / "models"
    line = tmp_path / "line"
    line.mkdir()
    for name in ("090000001.jpg", "090000002.jpg", "090000003.jpg"):
        shutil.copyfile(samples_dir() / name, line / name)
    assert cli(["adapt", "--data", str(data), "--collect", str(line), "--models-dir", str(models)]) == 0
    folder = AdaptFolder(data)
    assert len(folder.frames()) == 3 and all(f.boxes and not f.corrected for f in folder.frames())
    for f in folder.frames():  # the engineer (here: a COCO tool) accepts the model's boxes
        folder.set_boxes(f.id, f.boxes, corrected=True)
    capsys.readouterr()
    assert cli(["adapt", "--data", str(data), "--epochs", "1", "--batch", "2", "--imgsz", "320",
                "--no-train-backbone", "--models-dir", str(models), "--verdict-frames", "1", "--adopt"]) == 0
    out = capsys.readouterr().out
    assert "epoch 0/1" in out and "epoch 1/1" in out
    assert "golden (24 frames)" in out and "false tags per 100 frames" in out
    assert "verdicts on 1 of 10 frames judged" in out and "good frames OK" in out  # read and judged, capped
    candidate = next((data / "candidates").iterdir())
    assert json.loads((candidate / "training.json").read_text())["settings"]["freeze_backbone"] is True
    for name in ("hangtag_det.onnx", "MODEL_CARD.md", "training.json", "comparison.json"):
        assert (candidate / name).is_file(), name
    store = ModelStore(models)
    assert store.in_use().hash == file_hash(candidate / "hangtag_det.onnx")
    with Pipeline.open(store.path_in_use(), "onnxruntime-cpu") as p:  # the station can load what was adopted
        assert p.class_names == ("hangtag", "barcode", "qr_code")
    assert cli(["adapt", "--roll-back", "--models-dir", str(models)]) == 0
    assert store.path_in_use() == default_model_path()


@pytest.mark.parametrize(("image_name", "labelled", "expected"), [
    (None, [0], [True, False, False]),  # a plain frame with one tag box: barcode and QR scores are left alone
    ("090000000.jpg", [], [True, True, True]),  # no box drawn, but the model shows all three there: unlearn them
])
def test_a_class_the_frames_say_nothing_about_keeps_its_scores(image_name, labelled, expected):
    pytest.importorskip("torch", reason="fine-tuning needs PyTorch: pip install -e '.[train]'")
    from inference.adapt.htdet.net import HTDet
    from inference.adapt.htdet.onnx_init import calibrate_bn, load_onnx_weights
    from inference.adapt.htdet.trainer import Example, _as_input, _tensors, activation_of, classes_to_train
    from inference.imageio import read_image

    image = read_image(samples_dir() / image_name) if image_name else np.full((480, 640, 3), 128, np.uint8)
    example = Example(image, np.array([[100, 100, 200, 300]] * len(labelled), np.float32).reshape(-1, 4),
                      np.array(labelled, np.int64))
    model = HTDet(3, activation=activation_of(default_model_path()))
    load_onnx_weights(model, default_model_path())
    images, _ = _tensors([example], 640)
    calibrate_bn(model, _as_input(images))
    assert classes_to_train(model, images, [example], 3).tolist() == expected
