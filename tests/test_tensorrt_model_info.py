"""The engine sidecar: written, read back, and checked field by field against a machine description.

SystemInfo here is plain data describing a machine (as SystemInfo.current() would on a GPU box);
nothing imitates TensorRT. Real deserialization is covered by the tensorrt-marked tests.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from pathlib import Path

import pytest

from inference.engines.tensorrt.builder import BuildSettings, engine_key, timing_cache_path, verify_plan
from inference.engines.tensorrt.errors import BuildError, EngineFileError, EngineMismatchError
from inference.engines.tensorrt.model_info import SIDECAR_NAME, EngineInfo, SystemInfo

HERE = SystemInfo("10.13.0.35", "NVIDIA GeForce RTX 4070", (8, 9))
PLAN = b"\x00plan-bytes" * 100


def engine_info(**changes) -> EngineInfo:
    base = EngineInfo(model_sha256="ab" * 32, precision="int8", input_name="images", input_hw=(640, 640),
                      batch_range=(1, 4), tensorrt_version=HERE.tensorrt_version, gpu_name=HERE.gpu_name,
                      compute_capability=HERE.compute_capability, build_time="2026-11-30T10:00:00+0000",
                      plan_sha256=hashlib.sha256(PLAN).hexdigest(), plan_bytes=len(PLAN), workspace_mb=1024,
                      model_metadata={"names": "{0: 'hangtag'}"})
    return dataclasses.replace(base, **changes)


def write_engine(folder: Path, plan: bytes = PLAN, info: EngineInfo | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "engine.plan").write_bytes(plan)
    (info or engine_info()).write(folder)
    return folder / "engine.plan"


def test_round_trip_keeps_every_field(tmp_path):
    info = engine_info()
    info.write(tmp_path)
    assert EngineInfo.read(tmp_path) == info
    assert json.loads((tmp_path / SIDECAR_NAME).read_text())["compute_capability"] == [8, 9]


def test_matching_engine_has_no_mismatches():
    assert engine_info().check_against(HERE, model_sha256="ab" * 32, plan_bytes=len(PLAN)) == []


@pytest.mark.parametrize(("system", "facts", "expected"), [
    (dataclasses.replace(HERE, tensorrt_version="11.0.0.1"), {},
     ["TensorRT version: built with 10.13.0.35, this machine runs 11.0.0.1"]),
    (dataclasses.replace(HERE, gpu_name="NVIDIA H200"), {},
     ["GPU: built on NVIDIA GeForce RTX 4070, this machine has NVIDIA H200"]),
    (dataclasses.replace(HERE, compute_capability=(9, 0)), {},
     ["compute capability: built for 8.9, this GPU is 9.0"]),
    (HERE, {"model_sha256": "cd" * 32}, ["model: built from ONNX abababababab…, the selected model is cdcdcdcdcdcd…"]),
    (HERE, {"plan_bytes": 10}, [f"plan file: 10 bytes, recorded {len(PLAN)} (truncated)"]),
    (HERE, {"plan_bytes": len(PLAN), "plan_sha256": "0" * 64},
     ["plan file: contents differ from the recorded checksum (corrupt or replaced)"]),
])
def test_each_mismatch_is_named_in_words(system, facts, expected):
    assert engine_info().check_against(system, **facts) == expected


def test_every_mismatch_is_reported_at_once():
    other = SystemInfo("11.1.0", "NVIDIA H200", (9, 0))
    problems = engine_info().check_against(other, model_sha256="cd" * 32)
    assert [p.split(":")[0] for p in problems] == ["TensorRT version", "GPU", "compute capability", "model"]
    with pytest.raises(EngineMismatchError) as info:
        engine_info().require(other)
    text = str(info.value)
    assert "11.1.0" in text and "NVIDIA H200" in text and "rebuild" in text


def test_newer_sidecar_format_is_refused():
    assert "newer than this station reads" in engine_info(format_version=99).check_against(HERE)[0]


@pytest.mark.parametrize(("content", "needle"), [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "not an object"),
    (json.dumps({"precision": "int8"}), "incomplete"),
    (json.dumps({**json.loads(engine_info().to_json()), "input_hw": "640"}), "malformed"),
])
def test_damaged_sidecar_is_a_clear_error(tmp_path, content, needle):
    (tmp_path / SIDECAR_NAME).write_text(content)
    with pytest.raises(EngineFileError, match=needle) as info:
        EngineInfo.read(tmp_path)
    assert "rebuild" in info.value.hint


def test_incomplete_sidecar_lists_the_missing_fields(tmp_path):
    (tmp_path / SIDECAR_NAME).write_text(json.dumps({"precision": "int8", "gpu_name": "x"}))
    with pytest.raises(EngineFileError) as info:
        EngineInfo.read(tmp_path)
    assert "model_sha256" in info.value.found and "tensorrt_version" in info.value.found
    assert "gpu_name" not in info.value.found


def test_verify_plan_accepts_an_intact_engine(tmp_path):
    plan = write_engine(tmp_path / "e")
    assert verify_plan(plan, HERE, model_sha256="ab" * 32) == engine_info()


@pytest.mark.parametrize(("damage", "error", "needle"), [
    (lambda p: p.write_bytes(PLAN[: len(PLAN) // 2]), EngineMismatchError, "truncated"),
    (lambda p: p.write_bytes(b"X" + PLAN[1:]), EngineMismatchError, "corrupt or replaced"),
    (lambda p: (p.parent / SIDECAR_NAME).unlink(), EngineFileError, "no model_info.json"),
    (lambda p: p.unlink(), EngineFileError, "engine file not found"),
])
def test_verify_plan_refuses_damaged_engines(tmp_path, damage, error, needle):
    plan = write_engine(tmp_path / "e")
    damage(plan)
    with pytest.raises(error, match=needle):
        verify_plan(plan, HERE)


def test_verify_plan_refuses_an_engine_from_another_gpu(tmp_path):
    plan = write_engine(tmp_path / "e", info=engine_info(gpu_name="NVIDIA A100", compute_capability=(8, 0)))
    with pytest.raises(EngineMismatchError) as info:
        verify_plan(plan, HERE)
    assert "built on NVIDIA A100" in info.value.found and "built for 8.0" in info.value.found


@pytest.mark.parametrize("change", [
    {"model": "cd" * 32},
    {"settings": BuildSettings(max_batch=4)},
    {"settings": BuildSettings(workspace_mb=2048)},
    {"system": dataclasses.replace(HERE, tensorrt_version="10.14.0")},
    {"system": dataclasses.replace(HERE, gpu_name="NVIDIA L4")},
])
def test_engine_key_changes_with_model_settings_and_machine(change):
    base = {"model": "ab" * 32, "settings": BuildSettings(), "system": HERE}
    args = {**base, **change}
    assert engine_key(args["model"], args["settings"], args["system"]) != engine_key(**{
        "model_sha256": base["model"], "settings": base["settings"], "system": base["system"]})
    assert engine_key(base["model"], BuildSettings(), HERE) == engine_key(base["model"], BuildSettings(), HERE)


def test_timing_cache_is_per_tensorrt_version_and_gpu(tmp_path):
    a = timing_cache_path(tmp_path, HERE)
    b = timing_cache_path(tmp_path, dataclasses.replace(HERE, tensorrt_version="11.0.0"))
    assert a != b and a.parent == tmp_path and " " not in a.name


@pytest.mark.parametrize(("kwargs", "needle"), [
    ({"max_batch": 2, "opt_batch": 3}, "batch range"),
    ({"opt_batch": 0}, "batch range"),
    ({"workspace_mb": 1}, "workspace"),
])
def test_build_settings_are_validated(kwargs, needle):
    with pytest.raises(BuildError, match=needle):
        BuildSettings(**kwargs)
