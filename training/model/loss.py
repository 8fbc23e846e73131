"""The detection loss lives in the product (inference/adapt/htdet/loss.py), beside the network it trains."""

from inference.adapt.htdet.loss import Assignment, DetectionLoss, assign, box_terms, giou, pairwise_iou_aligned  # noqa: F401
