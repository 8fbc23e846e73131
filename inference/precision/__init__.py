"""Precision as a property of the ONNX graph: FP16 conversion and INT8 Q/DQ, cached by content.

Heavy converters (onnxconverter-common, onnxruntime.quantization) load on first use.
"""

from inference.precision.errors import CacheError, CalibrationError, Cancelled, PrecisionError
from inference.precision.prepare import PRECISIONS, cached_entry, flavour_for, prepare_for_backend, prepare_model

__all__ = ["PRECISIONS", "prepare_model", "prepare_for_backend", "cached_entry", "flavour_for", "PrecisionError", "CalibrationError",
           "CacheError", "Cancelled"]
