"""HTDet lives in the product now (inference/adapt/htdet/net.py): the station fine-tunes it (issue 17,
Adapt), and the product never imports training/. The trainer keeps these names."""

from inference.adapt.htdet.net import (  # noqa: F401
    ACTIVATIONS, STRIDES, ConvBNAct, CSPStage, ExportWrapper, Head, HTDet, Residual, SpatialPyramidPool,
    anchor_points, decode_ltrb,
)
