"""Items 8, 9, 11: files the station reads back (model sidecar, cached OCR models, TensorRT sidecar,
precision cache) are checked with a typed schema; a bad one is a clear message or is rebuilt."""

from __future__ import annotations

import json
import shutil

import pytest

from inference.engines.tensorrt.errors import EngineFileError
from inference.engines.tensorrt.model_info import EngineInfo
from inference.precision.cache import ENTRY_FILE, MODEL_FILE, lookup, read_entry
from tests.reliability.helpers import MODEL, SAMPLES, assert_explained, assert_no_traceback, cli


BAD_SIDECARS = [
    ('{"imgsz": "abc"}', "imgsz"),
    ('{"names": {"tag": "hangtag", "bar": "barcode"}}', "names"),
    ("[1, 2, 3]", "not a JSON object"),
    ('{"layout": 8}', "layout"),
    ('{"imgsz": [640, true]}', "imgsz"),
    ('{"names": ', "not valid JSON"),
]


@pytest.mark.parametrize(("sidecar", "named"), BAD_SIDECARS)
def test_a_bad_model_sidecar_is_a_model_error_naming_the_key(tmp_path, sidecar: str, named: str) -> None:
    from inference.errors import ModelError
    from inference.model_info import read_model_spec

    model = tmp_path / "det.onnx"
    model.with_suffix(".json").write_text(sidecar, encoding="utf-8")
    with pytest.raises(ModelError) as info:
        read_model_spec(model, {"names": "{0: 'hangtag'}", "imgsz": "[640, 640]"})
    assert named in str(info.value)
    assert_explained(str(info.value))


@pytest.mark.parametrize(("sidecar", "named"), [BAD_SIDECARS[0], pytest.param(*BAD_SIDECARS[2], marks=pytest.mark.release)])
def test_a_bad_model_sidecar_is_a_clear_error_from_the_cli(tmp_path, sidecar: str, named: str) -> None:
    model = tmp_path / "det.onnx"
    shutil.copy(MODEL, model)
    model.with_suffix(".json").write_text(sidecar, encoding="utf-8")
    proc = cli("run", "--source", str(SAMPLES / "090000001.jpg"), "--model", str(model), "--backend",
               "onnxruntime-cpu", data_dir=tmp_path / "data")
    assert_no_traceback(proc)
    assert proc.returncode == 2 and proc.stderr.startswith("error:") and named in proc.stderr
    assert_explained(proc.stderr)


def _engine_record(**overrides) -> str:
    record = dict(model_sha256="a" * 64, precision="fp16", input_name="images", input_hw=[640, 640],
                  batch_range=[1, 8], tensorrt_version="10.9", gpu_name="H200", compute_capability=[9, 0],
                  build_time="2026-12-01T00:00:00", plan_sha256="b" * 64, plan_bytes=2_000_000)
    record.update(overrides)
    return json.dumps(record)


@pytest.mark.parametrize(("field", "value"), [
    ("plan_bytes", "2000000"), ("plan_bytes", 2e6), ("gpu_name", 7), ("model_metadata", []), ("plan_bytes", True),
])
def test_a_tensorrt_sidecar_field_of_the_wrong_type_is_an_engine_file_error(field: str, value) -> None:
    """EngineFileError is what build_engine catches to rebuild; a TypeError would crash the station."""
    with pytest.raises(EngineFileError) as info:
        EngineInfo.from_json(_engine_record(**{field: value}))
    assert field in str(info.value) and "rebuild" in str(info.value)
    assert EngineInfo.from_json(_engine_record()).plan_bytes == 2_000_000


@pytest.mark.parametrize("record", ["[1, 2]", '"text"', '{"key": "k", "output_sha256": 5}', "{"])
def test_a_damaged_precision_cache_entry_is_a_miss_not_a_crash(tmp_path, record: str) -> None:
    entry = tmp_path / "k"
    entry.mkdir()
    (entry / MODEL_FILE).write_bytes(b"onnx")
    (entry / ENTRY_FILE).write_text(record, encoding="utf-8")
    assert lookup(tmp_path, "k") is None
    assert read_entry(entry / MODEL_FILE) is None or isinstance(read_entry(entry / MODEL_FILE), dict)


@pytest.fixture(scope="module")
def ocr_cache(tmp_path_factory):
    """The station's GB 2312 recognizer, derived into a cache folder the way a first start does."""
    pytest.importorskip("rapidocr")
    from inference.reading.ocr.models import base_models

    folder = tmp_path_factory.mktemp("ocr-cache")
    return folder, base_models("gb2312", folder)


@pytest.mark.parametrize("damage", ["random bytes", "truncated", "sidecar a list", "sidecar without hash"])
def test_a_corrupt_cached_ocr_model_is_rebuilt(ocr_cache, damage: str) -> None:
    import os

    import onnx

    from inference.reading.ocr.models import base_models, sha256, sidecar_path

    folder, models = ocr_cache
    rec, side = models.rec, sidecar_path(models.rec)
    if damage == "random bytes":
        rec.write_bytes(os.urandom(300_000))
    elif damage == "truncated":
        rec.write_bytes(rec.read_bytes()[:1000])
    elif damage == "sidecar a list":
        side.write_text("[]", encoding="utf-8")
    else:
        meta = json.loads(side.read_text(encoding="utf-8"))
        meta.pop("sha256")
        side.write_text(json.dumps(meta), encoding="utf-8")
    again = base_models("gb2312", folder)
    assert again.rec == rec and json.loads(side.read_text(encoding="utf-8"))["sha256"] == sha256(rec)
    onnx.checker.check_model(str(rec))


@pytest.mark.release
@pytest.mark.timeout(300)
def test_the_station_starts_and_reads_over_a_corrupt_cached_ocr_model(tmp_path) -> None:
    """The issue: random bytes in the cached recognizer (sidecar intact) blocked every start with "re-export
    the model". The real headless station, reading, on a data folder holding such a cache."""
    import os

    pytest.importorskip("rapidocr")
    from inference.reading.ocr.models import base_models, sha256, sidecar_path
    from inference.resources import resource_path
    from tests.reliability.helpers import headless

    data = tmp_path / "data"
    rec = base_models("gb2312", data / "cache" / "ocr").rec  # the cache a first start leaves
    sidecar = sidecar_path(rec).read_text(encoding="utf-8")
    rec.write_bytes(os.urandom(rec.stat().st_size))
    proc = headless("--source", str(SAMPLES / "090000022.jpg"), "--recipe",
                    str(resource_path("recipes", "sample_090000022.toml")), data_dir=data, timeout=240)
    seen = assert_no_traceback(proc)
    assert proc.returncode == 0, seen[-2000:]
    assert any(line.startswith("090000022.jpg: OK") for line in proc.stdout.splitlines()), seen[-2000:]
    assert sidecar_path(rec).read_text(encoding="utf-8") == sidecar  # the same model, rebuilt
    assert json.loads(sidecar)["sha256"] == sha256(rec)
