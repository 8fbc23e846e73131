"""The content-hash cache: same inputs → same entry; any changed input → a new entry."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from inference.precision import CacheError, prepare_model
from inference.precision.cache import cache_key, lookup
from tests.conv_models import conv_detector, random_images

BASE = {"model_sha256": "a" * 64, "precision": "int8", "flavour": "cpu", "calibration_sha256": ("c1", "c2"),
        "settings": {"method": "minmax", "tools": {"onnxruntime": "1.32.0"}}}


def key_of(**changes) -> str:
    args = {**BASE, **changes}
    return cache_key(args["model_sha256"], args["precision"], args["flavour"], args["calibration_sha256"],
                     args["settings"])


def test_key_is_stable_for_equal_inputs():
    assert key_of() == key_of()
    assert key_of(settings={"tools": {"onnxruntime": "1.32.0"}, "method": "minmax"}) == key_of()  # dict order


@pytest.mark.parametrize("change", [
    {"model_sha256": "b" * 64},
    {"precision": "fp16"},
    {"flavour": "tensorrt"},
    {"calibration_sha256": ("c1", "c3")},
    {"calibration_sha256": ("c1",)},
    {"calibration_sha256": ("c1", "c2", "c4")},
    {"settings": {"method": "entropy", "tools": {"onnxruntime": "1.32.0"}}},
    {"settings": {"method": "minmax", "tools": {"onnxruntime": "1.33.0"}}},
])
def test_key_changes_when_any_input_changes(change):
    assert key_of(**change) != key_of()


@pytest.fixture
def setup(tmp_path: Path) -> dict[str, Path]:
    return {"model": conv_detector(tmp_path / "det.onnx", 32, widths=(4, 8)),
            "images": random_images(tmp_path / "calib", 3, size=48), "cache": tmp_path / "cache"}


def prepare(setup, **overrides) -> Path:
    args = {"precision": "int8", "backend": "onnxruntime-cpu", "calibration_dir": setup["images"],
            "cache_root": setup["cache"], **overrides}
    return prepare_model(setup["model"], **args)


def test_second_call_is_a_cache_hit(setup):
    first = prepare(setup)
    stamp = first.stat().st_mtime_ns
    steps: list[str] = []
    second = prepare(setup, progress=lambda step, _: steps.append(step))
    assert second == first and second.stat().st_mtime_ns == stamp
    assert steps[-1] == "ready (cached)"
    assert not any(step.startswith("calibrating") for step in steps)


@pytest.mark.parametrize("mutate", [
    pytest.param(lambda s: (s["images"] / "calib_000.png").write_bytes(
        (s["images"] / "calib_001.png").read_bytes()), id="calibration image content"),
    pytest.param(lambda s: (s["images"] / "calib_002.png").unlink(), id="calibration image removed"),
    pytest.param(lambda s: conv_detector(s["model"], 32, widths=(4, 8), seed=7), id="model weights"),
])
def test_changed_inputs_make_a_new_entry(setup, mutate):
    first = prepare(setup)
    mutate(setup)
    second = prepare(setup)
    assert second != first and first.is_file() and second.is_file()


@pytest.mark.parametrize("override", [{"method": "percentile"}, {"backend": "tensorrt"}, {"precision": "fp16"}])
def test_changed_settings_make_a_new_entry(setup, override):
    assert prepare(setup, **override) != prepare(setup)


def test_damaged_entry_is_rebuilt_not_trusted(setup):
    first = prepare(setup)
    first.write_bytes(first.read_bytes()[:100])
    key = first.parent.name
    assert lookup(setup["cache"], key) is None
    second = prepare(setup)
    assert second == first and second.stat().st_size > 100


def test_cache_under_a_file_is_a_clear_error(setup, tmp_path):
    blocker = tmp_path / "not_a_folder"
    blocker.write_text("x")
    with pytest.raises(CacheError) as info:
        prepare(setup, cache_root=blocker / "cache")
    assert "cannot be written" in str(info.value) and "HANGTAG_DATA_DIR" in str(info.value)


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0,
                    reason="root ignores folder permissions; the file-blocked test covers the error path")
def test_read_only_cache_folder_is_a_clear_error(setup, tmp_path):
    root = tmp_path / "ro"
    root.mkdir()
    root.chmod(0o500)
    try:
        with pytest.raises(CacheError, match="cannot be written"):
            prepare(setup, cache_root=root)
    finally:
        root.chmod(0o700)


def test_default_cache_follows_the_data_dir(setup, tmp_path, monkeypatch):
    monkeypatch.setenv("HANGTAG_DATA_DIR", str(tmp_path / "data"))
    path = prepare_model(setup["model"], "fp16")
    assert path.is_relative_to(tmp_path / "data" / "cache" / "precision")
