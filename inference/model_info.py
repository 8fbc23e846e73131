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
    return _names(value)


def _names(value: object) -> tuple[str, ...]:
    if isinstance(value, dict):
        try:
            ids = sorted(int(k) for k in value)
        except (TypeError, ValueError):
            raise ModelError("model 'names' has keys that are not class ids", expected="{0: 'hangtag', 1: ...}",
                             found=repr(list(value)[:5]), hint="use the class index as each key") from None
        if ids and (ids[0] < 0 or ids[-1] > 10_000):
            raise ModelError("model 'names' has class ids out of range", expected="ids 0 … 10000",
                             found=f"{ids[0]} … {ids[-1]}")
        return tuple(str(value.get(i, value.get(str(i), f"class_{i}"))) for i in range(ids[-1] + 1)) if ids else ()
    if isinstance(value, (list, tuple)):
        return tuple(str(v) for v in value)
    raise ModelError("model metadata 'names' has an unexpected type",
                     expected="dict or list", found=type(value).__name__)


def _parse_imgsz(value: object) -> tuple[int, int] | None:
    if value is None:
        return None
    raw = value
    if isinstance(value, str):
        try:
            value = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            value = None
    if isinstance(value, int) and not isinstance(value, bool):
        value = [value]
    if isinstance(value, (list, tuple)) and len(value) in (1, 2) and all(
            isinstance(v, int) and not isinstance(v, bool) and 32 <= v <= 8192 for v in value):
        return (int(value[0]), int(value[-1]))
    raise ModelError("model 'imgsz' is unreadable", expected="an int or [h, w], each 32 … 8192", found=repr(raw),
                     hint="fix the model's sidecar JSON or metadata, or delete the sidecar")


def sidecar_path(model_path: Path) -> Path:
    return model_path.with_suffix(".json")


_SIDECAR_TYPES: dict[str, tuple[type, ...]] = {
    "names": (list, dict, str), "imgsz": (int, list, str), "stride": (int, str), "layout": (str,), "task": (str,),
}


def _read_sidecar(side: Path) -> dict[str, object]:
    """The sidecar's keys, each of the type the station reads it as; anything else is a ModelError naming it."""
    try:
        data = json.loads(side.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ModelError(f"model sidecar {side} cannot be read", expected="a readable UTF-8 JSON file",
                         found=str(exc), hint="fix or delete the file") from exc
    except json.JSONDecodeError as exc:
        raise ModelError(f"model sidecar {side} is not valid JSON",
                         expected="a JSON object with names / imgsz / stride / layout",
                         found=f"{exc.msg} at line {exc.lineno}", hint="fix or delete the file") from exc
    if not isinstance(data, dict):
        raise ModelError(f"model sidecar {side} is not a JSON object",
                         expected='{"names": [...], "imgsz": 640, ...}', found=f"a JSON {type(data).__name__}",
                         hint="fix or delete the file")
    for key, kinds in _SIDECAR_TYPES.items():
        if key in data and (not isinstance(data[key], kinds) or isinstance(data[key], bool)):
            raise ModelError(f"model sidecar {side}: '{key}' has the wrong type",
                             expected=" or ".join(k.__name__ for k in kinds),
                             found=f"{type(data[key]).__name__} {data[key]!r:.60}", hint="fix or delete the file")
    return data


def read_model_spec(model_path: Path, metadata: dict[str, str]) -> ModelSpec:
    """Combine ONNX metadata with the sidecar file; the sidecar wins where both speak."""
    merged: dict[str, object] = dict(metadata)
    side = sidecar_path(model_path)
    if side.is_file():
        merged.update(_read_sidecar(side))
    names_raw = merged.get("names")
    if isinstance(names_raw, str):
        names = _parse_names(names_raw)
    elif isinstance(names_raw, (list, tuple, dict)):
        names = _names(names_raw)
    else:
        names = ()
    stride_raw = merged.get("stride", 32)
    try:
        stride = int(ast.literal_eval(stride_raw)) if isinstance(stride_raw, str) else int(stride_raw)
    except (ValueError, SyntaxError, TypeError):
        stride = 32
    layout = merged.get("layout")
    if layout is not None and not isinstance(layout, str):
        raise ModelError("model 'layout' is unreadable", expected="text such as \"yolov8\"", found=repr(layout),
                         hint="fix the model's sidecar JSON, or delete it")
    return ModelSpec(class_names=names, input_hw=_parse_imgsz(merged.get("imgsz")), stride=max(1, stride),
                     layout=str(layout) if layout else None, task=str(merged.get("task", "detect")))
