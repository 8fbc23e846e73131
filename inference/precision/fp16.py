"""FP16: float16 weights and compute, float32 inputs and outputs, with an op block list.

Inputs and outputs stay float32 so the letterbox, the decoders and every backend see the same
tensors at every precision; only the graph's insides change.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

import onnx

from inference.precision.errors import PrecisionError

# Ops kept in float32 on top of onnxconverter-common's own list: reductions and the exponentials
# that overflow float16 first, and Resize, whose float16 kernels are missing on several providers.
DEFAULT_FP16_BLOCK = ("Resize", "Upsample", "ReduceSum", "ReduceMean", "Exp", "Softmax", "TopK",
                      "NonMaxSuppression", "Range", "CumSum", "Min", "Max")


def convert_fp16(model: onnx.ModelProto, *, op_block_list: Sequence[str] = DEFAULT_FP16_BLOCK,
                 node_block_list: Sequence[str] = ()) -> onnx.ModelProto:
    import warnings

    float16 = _float16()
    try:
        with warnings.catch_warnings():
            # Weights below float16's range clamp, one UserWarning each: expected, and it floods the log.
            warnings.simplefilter("ignore", UserWarning)
            converted = float16.convert_float_to_float16(
                model, keep_io_types=True, op_block_list=sorted(set(float16.DEFAULT_OP_BLOCK_LIST) | set(op_block_list)),
                node_block_list=list(node_block_list) or None)
    except Exception as exc:  # the converter raises bare ValueError/KeyError on graphs it cannot type
        raise PrecisionError("FP16 conversion failed", expected="an ONNX graph onnxconverter-common can type",
                             found=f"{type(exc).__name__}: {str(exc)[:200]}",
                             hint="add the failing op to the FP16 block list, or run FP32") from exc
    return converted


def _float16():
    try:
        from onnxconverter_common import float16
    except ImportError as exc:
        raise PrecisionError("FP16 conversion needs onnxconverter-common",
                             expected="onnxconverter-common (a dependency of hangtag-station)",
                             found=f"{type(exc).__name__}: {exc}",
                             hint="pip install onnxconverter-common (or reinstall hangtag-station), or run FP32") from exc
    return float16


def save_fp16(src: Path, dst: Path, *, op_block_list: Sequence[str] = DEFAULT_FP16_BLOCK) -> Path:
    model = onnx.load(str(src))
    onnx.save(convert_fp16(model, op_block_list=op_block_list), str(dst))
    return dst
