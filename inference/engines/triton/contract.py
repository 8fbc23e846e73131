"""What the station's local model promises (tensor names, shapes, dtypes, class names), read from
the ONNX file without building a session, and the check that a server's model keeps that promise."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from inference.engines.base import TensorSpec
from inference.engines.triton.client import triton_dtype
from inference.errors import ModelError
from inference.model_info import read_model_spec

_ONNX_DTYPES = {1: np.float32, 10: np.float16, 11: np.float64, 2: np.uint8, 3: np.int8, 6: np.int32, 7: np.int64,
                9: np.bool_}


OCR_DET, OCR_REC = "ocr_det", "ocr_rec"
_OCR_FILE = re.compile(r"ocr.*?[_-](det|rec)(?=[_.-])", re.IGNORECASE)  # PP-OCRv6_rec_small.gb2312.onnx


def repository_name(model_path: Path, detector_name: str) -> str:
    """The name `triton-repo` gives this model: the PP-OCR pair by their file names, else the detector."""
    match = _OCR_FILE.search(model_path.name)
    return {"det": OCR_DET, "rec": OCR_REC}[match.group(1).lower()] if match else detector_name


class ContractMismatchError(ModelError):
    """The server's model is not the station's model: names, shapes, dtypes or classes differ."""


@dataclass(frozen=True)
class ModelContract:
    inputs: tuple[TensorSpec, ...]
    outputs: tuple[TensorSpec, ...]
    class_names: tuple[str, ...]
    metadata: dict[str, str]


def _spec(value_info) -> TensorSpec:
    tensor = value_info.type.tensor_type
    dims = tuple(d.dim_value if d.HasField("dim_value") and d.dim_value > 0 else -1 for d in tensor.shape.dim)
    dtype = _ONNX_DTYPES.get(tensor.elem_type)
    if dtype is None:
        raise ModelError(f"tensor '{value_info.name}' has an unsupported ONNX type",
                         expected="float, float16, uint8, int8, int32, int64, bool", found=str(tensor.elem_type))
    return TensorSpec(value_info.name, dims, np.dtype(dtype))


def local_contract(model_path: Path) -> ModelContract:
    import onnx

    if not model_path.is_file():
        raise ModelError("model file not found", expected="the .onnx detector the server also serves",
                         found=str(model_path), hint="pass --model with the same ONNX file the Triton repository holds")
    try:
        model = onnx.load(str(model_path), load_external_data=False)
    except Exception as exc:  # onnx raises DecodeError and friends for a bad file
        raise ModelError("the local model could not be read", expected="a valid ONNX file",
                         found=f"{model_path.name}: {str(exc).splitlines()[0][:200]}") from exc
    initializers = {i.name for i in model.graph.initializer}
    metadata = {p.key: p.value for p in model.metadata_props}
    return ModelContract(tuple(_spec(v) for v in model.graph.input if v.name not in initializers),
                         tuple(_spec(v) for v in model.graph.output),
                         read_model_spec(model_path, metadata).class_names, metadata)


def _server_specs(tensors: list[dict]) -> dict[str, TensorSpec]:
    specs = {}
    for t in tensors:
        dims = tuple(int(d) for d in t["shape"])
        specs[t["name"]] = TensorSpec(t["name"], dims, triton_dtype(t["datatype"]))
    return specs


def _same_dims(local: tuple[int, ...], remote: tuple[int, ...]) -> bool:
    return len(local) == len(remote) and all(a < 0 or b < 0 or a == b for a, b in zip(local, remote))


def server_class_names(config: dict) -> tuple[str, ...] | None:
    """Class names a repository written by `triton-repo` keeps in its config parameters."""
    value = (config.get("parameters") or {}).get("class_names", {}).get("string_value")
    return tuple(n.strip() for n in value.split(",")) if value else None


def check_contract(local: ModelContract, metadata: dict, config: dict, url: str, model: str) -> int:
    """Raise ContractMismatchError naming both sides where they differ; return the server's max batch."""
    max_batch = int(config.get("max_batch_size", 0) or 0)
    for kind, mine, theirs in (("input", local.inputs, metadata.get("inputs", [])),
                               ("output", local.outputs, metadata.get("outputs", []))):
        remote = _server_specs(theirs)
        if sorted(remote) != sorted(s.name for s in mine):
            raise ContractMismatchError(f"{model} on {url} has other {kind} tensors than the local model",
                                        expected=f"local: {[s.name for s in mine]}", found=f"server: {sorted(remote)}",
                                        hint="serve the same ONNX file (hangtag-inspect triton-repo writes one)")
        for spec in mine:
            other = remote[spec.name]
            if not _same_dims(spec.shape, other.shape) or spec.dtype != other.dtype:
                raise ContractMismatchError(
                    f"{kind} '{spec.name}' of {model} on {url} differs from the local model",
                    expected=f"local: {list(spec.shape)} {spec.dtype}", found=f"server: {list(other.shape)} {other.dtype}",
                    hint="serve the same ONNX file and precision the station uses")
    names = server_class_names(config)
    if names is not None and local.class_names and names != local.class_names:
        raise ContractMismatchError(f"{model} on {url} names other classes than the local model",
                                    expected=f"local: {', '.join(local.class_names)}", found=f"server: {', '.join(names)}",
                                    hint="regenerate the repository with hangtag-inspect triton-repo from this model")
    return max_batch
