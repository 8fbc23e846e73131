"""Tag reading: OCR, barcodes, recipes and verdicts, with an optional VLM. Qt-free.

The GUI's text panel and the journal code against the names exported here.
"""

from __future__ import annotations

from inference.reading.recipe import BarcodeRule, CountRule, FieldRule, Recipe, RecipeError, load_recipe, parse_recipe
from inference.reading.types import FIELD_LABELS_ZH, FIELD_NAMES, BarcodeReading, FieldReading, OcrLine, TagReading
from inference.reading.verdict import Check, FrameVerdict, Verdict, judge, judge_tag
from inference.reading.vlm import VlmClient, VlmError

__all__ = [
    "FIELD_LABELS_ZH",
    "FIELD_NAMES",
    "BarcodeReading",
    "BarcodeRule",
    "Check",
    "CountRule",
    "FieldReading",
    "FieldRule",
    "FrameVerdict",
    "OcrLine",
    "Recipe",
    "RecipeError",
    "TagReader",
    "TagReading",
    "Verdict",
    "VlmClient",
    "VlmError",
    "inspect_frame",
    "judge",
    "judge_tag",
    "load_recipe",
    "parse_recipe",
]


def __getattr__(name: str):
    # The reader pulls in the OCR engines; importing the data types must stay light.
    if name == "TagReader":
        from inference.reading.reader import TagReader

        return TagReader
    if name == "inspect_frame":
        from inference.reading.cascade import inspect_frame

        return inspect_frame
    raise AttributeError(f"module 'inference.reading' has no attribute {name!r}")
