"""The recipe's own reference sample is OK at every precision: verdict agreement, not only box agreement."""

from __future__ import annotations

from pathlib import Path

import pytest

from inference.precision.prepare import prepare_model
from inference.precision.verdicts import agreement_with_fp32, verdicts_by_precision
from inference.reading import load_recipe
from inference.resources import default_model_path

SAMPLE = Path("resources/samples/090000022.jpg")
RECIPE = Path("resources/recipes/sample_090000022.toml")


def test_agreement_counts_images_whose_verdict_is_not_fp32s() -> None:
    verdicts = {"fp32": {"a": "OK", "b": "NG", "c": "REVIEW"}, "int8": {"a": "OK", "b": "REVIEW", "c": "REVIEW"}}
    report = agreement_with_fp32(verdicts)
    assert report["fp32"]["rate"] == 1.0
    assert report["int8"] == {"verdicts": {"OK": 1, "REVIEW": 2}, "images": 3, "same_as_fp32": 2, "rate": 0.6667,
                              "differ": ["b"]}


@pytest.mark.slow
def test_the_reference_sample_is_ok_at_fp32_fp16_and_int8(tmp_path) -> None:
    models = {p: prepare_model(default_model_path(), p, "onnxruntime-cpu", None, "minmax", cache_root=tmp_path)
              for p in ("fp32", "fp16", "int8")}
    verdicts = verdicts_by_precision(models, "onnxruntime-cpu", [SAMPLE], load_recipe(RECIPE))
    assert {p: v[SAMPLE.name] for p, v in verdicts.items()} == {"fp32": "OK", "fp16": "OK", "int8": "OK"}
