"""INT8 as explicit Q/DQ nodes in the ONNX graph, calibrated with ONNX Runtime's quantize_static.

Two flavours, picked by the backend that will run the graph:
  tensorrt  symmetric int8 activations (zero point 0), per-channel int8 weights, Q/DQ only around
            Conv/MatMul/Gemm inputs: what TensorRT's explicit quantization fuses.
  cpu       uint8 activations, int8 per-channel weights (U8S8): the fast path of ONNX Runtime's
            CPU kernels (S8S8 QDQ runs slower than FP32 on an AVX2 CPU).
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import onnx

from inference.precision.errors import Cancelled, PrecisionError
from inference.precision.graph import copy_metadata, decode_tail, ensure_node_names, output_layers

METHODS = ("minmax", "entropy", "percentile")
FLAVOURS = ("tensorrt", "cpu")


@dataclass(frozen=True)
class QuantSettings:
    flavour: str = "cpu"
    method: str = "minmax"
    per_channel: bool = True
    percentile: float = 99.999
    keep_decode_tail_float: bool = True
    keep_output_layers_float: bool = True
    extra_nodes_to_exclude: tuple[str, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.flavour not in FLAVOURS:
            raise PrecisionError("unknown INT8 flavour", expected=" | ".join(FLAVOURS), found=self.flavour)
        if self.method not in METHODS:
            raise PrecisionError("unknown calibration method", expected=" | ".join(METHODS), found=self.method,
                                 hint="MinMax is the safe default; Percentile clips outliers; Entropy minimises KL")

    def to_dict(self) -> dict[str, Any]:
        return {"flavour": self.flavour, "method": self.method, "per_channel": self.per_channel,
                "percentile": self.percentile if self.method == "percentile" else None,
                "keep_decode_tail_float": self.keep_decode_tail_float,
                "keep_output_layers_float": self.keep_output_layers_float,
                "exclude": sorted(self.extra_nodes_to_exclude), "extra": dict(sorted(self.extra.items()))}


def _flavour_arguments(settings: QuantSettings) -> dict[str, Any]:
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType

    method = {"minmax": CalibrationMethod.MinMax, "entropy": CalibrationMethod.Entropy,
              "percentile": CalibrationMethod.Percentile}[settings.method]
    # Not CalibMaxIntermediateOutputs: in onnxruntime 1.32 MinMax drops every full chunk unmeasured.
    extra: dict[str, Any] = {}
    if settings.method == "percentile":
        extra["CalibPercentile"] = settings.percentile
    if settings.flavour == "tensorrt":
        args = {"activation_type": QuantType.QInt8, "weight_type": QuantType.QInt8,
                "op_types_to_quantize": ["Conv", "ConvTranspose", "MatMul", "Gemm"]}
        extra.update({"ActivationSymmetric": True, "WeightSymmetric": True})
    else:
        args = {"activation_type": QuantType.QUInt8, "weight_type": QuantType.QInt8, "op_types_to_quantize": None}
        extra.update({"ActivationSymmetric": False, "WeightSymmetric": True})
    extra.update(settings.extra)
    return {**args, "quant_format": QuantFormat.QDQ, "per_channel": settings.per_channel, "reduce_range": False,
            "calibrate_method": method, "extra_options": extra}


def _preprocess(src: Path, dst: Path) -> Path:
    """Shape inference + constant folding (BatchNorm into Conv) so calibration sees the final graph."""
    from onnxruntime.quantization.shape_inference import quant_pre_process

    try:
        quant_pre_process(str(src), str(dst), skip_symbolic_shape=False)
    except Exception:  # symbolic shape inference gives up on some exports; plain ONNX inference still works
        _remove_symbolic_leftovers()
        try:
            quant_pre_process(str(src), str(dst), skip_symbolic_shape=True)
        except Exception:
            return src
    return dst


SYMBOLIC_LEFTOVER = "sym_shape_infer_temp.onnx"


def _remove_symbolic_leftovers() -> None:
    """ONNX Runtime's symbolic shape inference, when it gives up, saves its partial model (with an
    external-data file of the model's size) into the working directory: the user's folder, or the
    repository. Both are removed."""
    leftover = Path(SYMBOLIC_LEFTOVER)
    if not leftover.is_file():
        return
    try:
        import onnx
        from onnx.external_data_helper import ExternalDataInfo, uses_external_data

        model = onnx.load(str(leftover), load_external_data=False)
        for tensor in model.graph.initializer:
            if uses_external_data(tensor):
                (leftover.parent / ExternalDataInfo(tensor).location).unlink(missing_ok=True)
    except Exception:  # an unreadable leftover: the model file itself still goes
        pass
    leftover.unlink(missing_ok=True)


def quantize_int8(src: Path, dst: Path, reader: Any, settings: QuantSettings) -> Path:
    """Write a Q/DQ model for `src` to `dst`, calibrating with `reader` (get_next/rewind)."""
    from onnxruntime.quantization import quantize_static

    original = onnx.load(str(src))
    with tempfile.TemporaryDirectory(prefix="hangtag-int8-") as tmp:
        pre = _preprocess(src, Path(tmp) / "pre.onnx")
        model = ensure_node_names(onnx.load(str(pre)))
        named = Path(tmp) / "named.onnx"
        onnx.save(model, str(named))
        exclude = set(settings.extra_nodes_to_exclude)
        if settings.keep_decode_tail_float:
            exclude.update(decode_tail(model))
        if settings.keep_output_layers_float:
            exclude.update(output_layers(model))
        try:
            quantize_static(str(named), str(dst), reader, nodes_to_exclude=sorted(exclude),
                            **_flavour_arguments(settings))
        except Cancelled:
            raise
        except Exception as exc:
            raise PrecisionError("INT8 quantization failed", expected="a graph ONNX Runtime can calibrate",
                                 found=f"{type(exc).__name__}: {str(exc)[:200]}",
                                 hint="try another calibration method, or use FP16") from exc
    quantized = onnx.load(str(dst))
    onnx.save(copy_metadata(original, quantized), str(dst))
    return dst
