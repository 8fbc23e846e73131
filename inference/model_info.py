"""What a detector model says about itself: class names, input size, stride, output layout.

Read from ONNX metadata_props as YOLO exporters write them (`names`, `imgsz`, `stride`),
overridden by an optional sidecar `<model>.json` next to the file.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from pathlib import Path

from inference.errors import ModelError


@dataclass(frozen=True)
class ModelSpec:
    class_names: tuple[str, ...]
    input_hw: tuple[int, int] | None
    stride: int
    layout: str | None
    task: str = "detect"

    def name_of(self, class_id: int) -> str:
        if 0 <= class_id < len(self.class_names):
            return self.class_names[class_id]
        return f"class_{class_id}"


def _parse_names(text: str) -> tuple[str, ...]:
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ModelError("model metadata 'names' is unreadable",
                             expected="a dict {0: 'hangtag', ...} or a list of names",
                             found=repr(text[:80])) from exc
    if isinstance(value, dict):
        ids = sorted(int(k) for k in value)
        return tuple(str(value.get(i, value.get(str(i), f"class_{i}"))) for i in range(ids[-1] + 1)) if ids else ()
    if isinstance(value, (list, tuple)):
        return tuple(str(v) for v in value)
    raise ModelError("model metadata 'names' has an unexpected type",
                     expected="dict or list", found=type(value).__name__)


def _parse_imgsz(value: object) -> tuple[int, int] | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = ast.literal_eval(value)
    if isinstance(value, int):
        return (value, value)
    if isinstance(value, (list, tuple)) and len(value) == 2:
        return (int(value[0]), int(value[1]))
    if isinstance(value, (list, tuple)) and len(value) == 1:
        return (int(value[0]), int(value[0]))
    raise ModelError("model 'imgsz' is unreadable", expected="an int or [h, w]", found=repr(value))


def sidecar_path(model_path: Path) -> Path:
    return model_path.with_suffix(".json")


def read_model_spec(model_path: Path, metadata: dict[str, str]) -> ModelSpec:
    """Combine ONNX metadata with the sidecar file; the sidecar wins where both speak."""
    merged: dict[str, object] = dict(metadata)
    side = sidecar_path(model_path)
    if side.is_file():
        try:
            merged.update(json.loads(side.read_text(encoding="utf-8")))
        except json.JSONDecodeError as exc:
            raise ModelError(f"model sidecar {side} is not valid JSON",
                             expected="a JSON object with names / imgsz / stride / layout",
                             found=f"{exc.msg} at line {exc.lineno}", hint="fix or delete the file") from exc
    names_raw = merged.get("names")
    if isinstance(names_raw, str):
        names = _parse_names(names_raw)
    elif isinstance(names_raw, (list, tuple)):
        names = tuple(str(n) for n in names_raw)
    elif isinstance(names_raw, dict):
        names = _parse_names(repr(names_raw))
    else:
        names = ()
    stride_raw = merged.get("stride", 32)
    try:
        stride = int(ast.literal_eval(stride_raw)) if isinstance(stride_raw, str) else int(stride_raw)
    except (ValueError, SyntaxError, TypeError):
        stride = 32
    layout = merged.get("layout")
    return ModelSpec(class_names=names, input_hw=_parse_imgsz(merged.get("imgsz")), stride=max(1, stride),
                     layout=str(layout) if layout else None, task=str(merged.get("task", "detect")))
