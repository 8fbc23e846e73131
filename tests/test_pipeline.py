from __future__ import annotations

import numpy as np
import pytest

from inference.engines import create_engine, list_backends
from inference.errors import BackendUnavailableError, EngineStateError, InputShapeError, UnknownOutputLayoutError
from inference.pipeline import Pipeline
from inference.postprocess import Thresholds
from tests.factories import blob_detector, flat_output_model, scene_with_squares


def open_blob(tmp_path, **kwargs):
    return Pipeline.open(blob_detector(tmp_path / "blob.onnx", **kwargs), "onnxruntime-cpu",
                         thresholds=Thresholds(confidence=0.5, iou=0.3))


def test_end_to_end_finds_the_white_square_in_original_pixels(tmp_path):
    with open_blob(tmp_path, size=64) as pipe:
        # 128×256 image → scale 0.25; a 64 px square at (96, 32) is 16 px in the model input.
        image = scene_with_squares(128, 256, [(96, 32, 64)])
        result = pipe.process(image, source_name="square.png")
    bright = result.detections.of_class("bright")
    assert len(bright) >= 1
    union = np.concatenate([bright.xyxy[:, :2].min(0), bright.xyxy[:, 2:].max(0)])
    # Cells are 8 input px = 32 original px, boxes 16 input px; the union must cover the square.
    assert union[0] <= 96 and union[1] <= 32 and union[2] >= 160 and union[3] >= 96
    assert result.image_hw == (128, 256) and result.source_name == "square.png"
    assert {"preprocess", "infer", "postprocess"} <= set(result.timings.stages_ms)
    assert result.timings.total_ms >= result.timings.get("infer")


def test_metadata_gives_names_and_input_size(tmp_path):
    with open_blob(tmp_path, size=96) as pipe:
        assert pipe.class_names == ("bright", "dark")
        assert pipe.input_hw == (96, 96) and pipe.layout == "yolov8"


def test_model_without_names_gets_class_ids(tmp_path):
    path = blob_detector(tmp_path / "anon.onnx", metadata=False)
    with Pipeline.open(path, "onnxruntime-cpu") as pipe:
        assert pipe.class_names == ("class_0", "class_1")


def test_sidecar_overrides_metadata(tmp_path):
    path = blob_detector(tmp_path / "m.onnx")
    path.with_suffix(".json").write_text('{"names": ["tag", "hole"]}')
    with Pipeline.open(path, "onnxruntime-cpu") as pipe:
        assert pipe.class_names == ("tag", "hole")


def test_yolov5_layout_model_runs_through_the_same_pipeline(tmp_path):
    with open_blob(tmp_path, layout="yolov5") as pipe:
        result = pipe.process(scene_with_squares(64, 64, [(16, 16, 32)]))
        assert pipe.layout == "yolov5" and len(result.detections.of_class("bright")) >= 1


def test_dynamic_input_takes_size_from_metadata(tmp_path):
    path = blob_detector(tmp_path / "dyn.onnx", size=128, dynamic=True)
    with Pipeline.open(path, "onnxruntime-cpu") as pipe:
        assert pipe.input_hw == (128, 128)
        assert pipe.letterbox.tensor.shape == (1, 3, 128, 128)


def test_model_with_unknown_output_fails_at_load_naming_shapes(tmp_path):
    with pytest.raises(UnknownOutputLayoutError) as info:
        Pipeline.open(flat_output_model(tmp_path / "flat.onnx"), "onnxruntime-cpu")
    assert "[1, 3]" in str(info.value) or "[1," in str(info.value)
    assert "yolov5" in str(info.value)


def test_refilter_last_changes_boxes_without_running_the_engine(tmp_path):
    with open_blob(tmp_path) as pipe:
        # A gradient square: cells get graded scores, so the threshold decides how many survive.
        image = scene_with_squares(64, 64, [])
        image[8:56, 8:56] = np.linspace(130, 255, 48, dtype=np.uint8)[None, :, None]
        result = pipe.process(image)
        calls = pipe.engine.calls
        strict = pipe.refilter_last(Thresholds(confidence=0.9, iou=0.3))
        loose = pipe.refilter_last(Thresholds(confidence=0.05, iou=0.9))
        assert pipe.engine.calls == calls
    assert len(strict) < len(result.detections) < len(loose)
    assert len(result.refiltered(Thresholds(confidence=0.9, iou=0.3))) == len(strict)


def test_per_class_confidence_and_disabled_classes(tmp_path):
    with open_blob(tmp_path) as pipe:
        image = scene_with_squares(64, 64, [(0, 0, 24)])
        image[40:, 40:] = 0
        result = pipe.process(image)
        assert {"bright", "dark"} <= set(result.detections.labels)
        only_dark = result.refiltered(Thresholds(confidence=0.5, iou=0.3, disabled_classes=frozenset({"bright"})))
        assert set(only_dark.labels) == {"dark"}
        strict_dark = result.refiltered(Thresholds(confidence=0.5, iou=0.3, class_confidence={"dark": 0.999}))
        assert len(strict_dark.of_class("dark")) <= len(result.detections.of_class("dark"))


def test_detections_are_read_only_copies(tmp_path):
    with open_blob(tmp_path) as pipe:
        result = pipe.process(scene_with_squares(64, 64, [(16, 16, 24)]))
    with pytest.raises(ValueError):
        result.detections.xyxy[0, 0] = 1.0


def test_engine_lifecycle_is_checked(tmp_path):
    engine = create_engine("onnxruntime-cpu", blob_detector(tmp_path / "m.onnx"))
    with pytest.raises(EngineStateError):
        engine.infer({})
    with engine:
        with pytest.raises(InputShapeError):
            engine.infer({"images": np.zeros((1, 3, 10, 10), np.float32)})
    with pytest.raises(EngineStateError):
        engine.load()


def test_registry_reports_every_backend_and_cpu_is_always_there():
    statuses = {s.name: s for s in list_backends()}
    assert statuses["onnxruntime-cpu"].available
    for status in statuses.values():
        assert status.available or status.reason  # an unavailable backend always says why


def test_unavailable_backend_raises_with_reason(tmp_path):
    statuses = {s.name: s for s in list_backends()}
    missing = [s for s in statuses.values() if not s.available]
    if not missing:
        pytest.skip("every backend is available on this machine")
    with pytest.raises(BackendUnavailableError) as info:
        create_engine(missing[0].name, blob_detector(tmp_path / "m.onnx"))
    assert missing[0].reason in str(info.value)
