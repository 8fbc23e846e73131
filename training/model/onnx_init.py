"""ONNX -> HTDet lives in the product (inference/adapt/htdet/onnx_init.py): the station's Adapt starts there."""

from inference.adapt.htdet.onnx_init import (  # noqa: F401
    _execution_order, calibrate_bn, load_onnx_weights, onnx_conv_weights, onnx_difference,
)
